import { flushMark, isAbsorbed, markFilter, markSet } from '../../../src/store/FlushMark';

describe('FlushMark', () => {
  const redrive = flushMark({ lane: 'R', seq: 1 }, [
    { lane: 'A', seq: 7 },
    { lane: 'B', seq: 1 },
  ]);

  it('guards an upsert against every earlier attempt and the new one, and records only the new one', () => {
    expect(markFilter(redrive)).toEqual({
      '_a.A': { $not: { $gte: 7 } },
      '_a.B': { $not: { $gte: 1 } },
      '_a.R': { $not: { $gte: 1 } },
    });
    expect(markSet(redrive)).toEqual({ '_a.R': 1 });
  });

  it.each([
    ['no markers at all', {}, false],
    ['an older flush of the lane', { _a: { A: 6 } }, false],
    ['the attempt itself', { _a: { A: 7 } }, true],
    ['a later flush of the lane (so this one completed)', { _a: { A: 9 } }, true],
    ['a re-drive', { _a: { A: 2, R: 1 } }, true],
    ['another lane only', { _a: { Z: 100 } }, false],
  ])('a document with %s has absorbed it: %s', (_label, document, expected) => {
    expect(isAbsorbed(document, redrive)).toBe(expected);
  });
});
