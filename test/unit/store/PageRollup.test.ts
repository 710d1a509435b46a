import { completeRollup, PageRollup } from '../../../src/store/PageRollup';
import { dimensionValue } from '../../../src/domain/dimensions/dimensionKey';

describe('PageRollup admission', () => {
  it('admits up to maxPages distinct pages per document, repeats always, escaping keys', () => {
    const rollup = new PageRollup({ maxPages: 2 });
    expect(rollup.pathFor('d1', '/a.b')).toBe('p./a%2Eb');
    expect(rollup.pathFor('d1', '/$x')).toBe('p./%24x');
    expect(rollup.pathFor('d1', '/c')).toBeUndefined();
    expect(rollup.pathFor('d1', '/a.b')).toBe('p./a%2Eb');
    // Another document has its own cap.
    expect(rollup.pathFor('d2', '/c')).toBe('p./c');
  });

  it('bounds the bytes of admitted paths per document', () => {
    const rollup = new PageRollup({ maxPages: 100, maxKeyBytes: 12 });
    expect(rollup.pathFor('d', '/abcd')).toBe('p./abcd');
    expect(rollup.pathFor('d', '/efgh')).toBeUndefined();
    expect(rollup.pathFor('d', '/e')).toBe('p./e');
  });

  it('forgets the least recently written documents beyond maxTrackedKeys, never the one being written', () => {
    const rollup = new PageRollup({ maxPages: 1, maxTrackedKeys: 2 });
    expect(rollup.pathFor('d1', '/a')).toBe('p./a');
    expect(rollup.pathFor('d2', '/a')).toBe('p./a');
    expect(rollup.pathFor('d1', '/b')).toBeUndefined(); // d1 is full, and now the most recent
    expect(rollup.pathFor('d3', '/a')).toBe('p./a'); // over the bound: d2, the oldest, is forgotten
    expect(rollup.pathFor('d3', '/b')).toBeUndefined(); // d3 is remembered, and full
    expect(rollup.pathFor('d2', '/b')).toBe('p./b'); // forgotten, so it admits again; d1 is now the oldest, forgotten
    expect(rollup.pathFor('d1', '/c')).toBe('p./c');
  });
});

describe('completeRollup', () => {
  it.each([
    [
      'adds up',
      5,
      { '/a': 3, '%2E': 2 },
      new Map([
        ['/a', 3],
        ['.', 2],
      ]),
    ],
    ['an empty day with no rollup', 0, undefined, new Map()],
    ['zero counters are skipped', 3, { '/a': 3, '/b': 0 }, new Map([['/a', 3]])],
    ['short of the total (a capped page)', 6, { '/a': 3, '/b': 2 }, undefined],
    ['no rollup on a day with hits (written before it)', 4, undefined, undefined],
    ['more than the total', 1, { '/a': 2 }, undefined],
  ])('%s', (_, daily, rollup, expected) => {
    expect(completeRollup(daily, rollup, dimensionValue)).toEqual(expected);
  });
});
