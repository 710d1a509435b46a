import fc from 'fast-check';
import { coalesceRegisterUpdates } from '../../../../src/domain/visitors/coalesceRegisterUpdates';
import type { Hash64 } from '../../../../src/domain/visitors/Hash64';
import { registerUpdate } from '../../../../src/domain/visitors/registerUpdate';
import { VisitorSketch } from '../../../../src/domain/visitors/VisitorSketch';
import { sketchOf } from './sketchOf';

const hash64 = fc.record({ hi: fc.integer({ min: 0, max: 0xffffffff }), lo: fc.integer({ min: 0, max: 0xffffffff }) });
// A small precision, so the visitors of a run share registers and OR really combines words.
const PRECISION = 5;
const visitors = fc.array(hash64, { maxLength: 60 });

function sketch(hashes: readonly Hash64[], precision = PRECISION): VisitorSketch {
  const result = VisitorSketch.empty(precision);
  for (const hash of hashes) result.add(hash);
  return result;
}

const words = (value: VisitorSketch): number[] => Array.from(value.words);

describe('VisitorSketch', () => {
  it('holds nothing and estimates zero when empty', () => {
    const empty = VisitorSketch.empty(11);
    expect(empty.toStoredFields()).toEqual({});
    expect(empty.estimate()).toBe(0);
  });

  it('stores one field per register a visitor touched, named by its number', () => {
    const stored = sketch([
      { hi: 0, lo: 0x8000_0003 },
      { hi: 0, lo: 0x8000_0011 },
    ]).toStoredFields();
    expect(Object.keys(stored).sort()).toEqual(['17', '3']);
  });

  it('reads back what it stores', () => {
    fc.assert(
      fc.property(visitors, (hashes) => {
        const original = sketch(hashes);
        expect(words(VisitorSketch.fromStoredFields(original.toStoredFields(), PRECISION))).toEqual(words(original));
      }),
    );
  });

  it.each([undefined, null])('reads a document without a sketch (%s) as empty', (fields) => {
    expect(VisitorSketch.fromStoredFields(fields, 11).estimate()).toBe(0);
  });

  it('reads a sketch stored at a higher precision as its fold', () => {
    const fine = sketchOf(13, 1, 0, 5_000);
    expect(words(VisitorSketch.fromStoredFields(fine.toStoredFields(), 11))).toEqual(words(fine.fold(11)));
  });

  it.each([
    [{ x: 1 }, 'visitor sketch field must be a register number from 0 to 65535, got "x"'],
    [{ '07': 1 }, 'visitor sketch field must be a register number from 0 to 65535, got "07"'],
    [{ '65536': 1 }, 'visitor sketch field must be a register number from 0 to 65535, got "65536"'],
    [{ '3': -1 }, 'visitor sketch register 3 must be an integer from 0 to 2147483647, got -1'],
    [{ '3': 2 ** 31 }, 'visitor sketch register 3 must be an integer from 0 to 2147483647, got 2147483648'],
    [{ '3': 1.5 }, 'visitor sketch register 3 must be an integer from 0 to 2147483647, got 1.5'],
    [{ '3': '7' }, 'visitor sketch register 3 must be an integer from 0 to 2147483647, got "7"'],
    [{ '3': null }, 'visitor sketch register 3 must be an integer from 0 to 2147483647, got null'],
    [{ '3': { low: 7 } }, 'visitor sketch register 3 must be an integer from 0 to 2147483647, got object'],
  ])('refuses stored fields %j: %s', (fields, message) => {
    expect(() => VisitorSketch.fromStoredFields(fields, 11)).toThrow(message);
  });

  it('counts a visitor once however often it comes, in any order', () => {
    fc.assert(
      fc.property(visitors, fc.integer({ min: 0, max: 59 }), (hashes, repeat) => {
        const shuffled = [...hashes].reverse().concat(hashes.slice(0, repeat));
        expect(words(sketch(shuffled))).toEqual(words(sketch(hashes)));
      }),
    );
  });

  it('merges days into the sketch of their union', () => {
    fc.assert(
      fc.property(fc.array(visitors, { maxLength: 8 }), (days) => {
        const merged = VisitorSketch.empty(PRECISION);
        for (const day of days) merged.merge(sketch(day));
        expect(words(merged)).toEqual(words(sketch(days.flat())));
      }),
    );
  });

  it('merges commutatively, associatively and idempotently', () => {
    fc.assert(
      fc.property(visitors, visitors, visitors, (a, b, c) => {
        const ab = sketch(a).merge(sketch(b));
        expect(words(ab)).toEqual(words(sketch(b).merge(sketch(a))));
        expect(words(sketch(a).merge(sketch(b)).merge(sketch(c)))).toEqual(
          words(sketch(a).merge(sketch(b).merge(sketch(c)))),
        );
        expect(words(sketch(a).merge(sketch(b)).merge(ab))).toEqual(words(ab));
      }),
    );
  });

  it('folds to the sketch the same visitors give at the lower precision', () => {
    fc.assert(
      fc.property(visitors, fc.integer({ min: 4, max: 16 }), fc.integer({ min: 4, max: 16 }), (hashes, p, q) => {
        const [low, high] = p <= q ? [p, q] : [q, p];
        expect(words(sketch(hashes, high).fold(low))).toEqual(words(sketch(hashes, low)));
      }),
    );
  });

  it('merges a finer sketch by folding it in', () => {
    fc.assert(
      fc.property(visitors, visitors, (a, b) => {
        expect(words(sketch(a, 8).merge(sketch(b, 11)))).toEqual(words(sketch([...a, ...b], 8)));
      }),
    );
  });

  it('refuses to merge a coarser sketch or to fold to a finer precision', () => {
    expect(() => VisitorSketch.empty(11).merge(VisitorSketch.empty(8))).toThrow(
      'cannot merge a visitor sketch of precision 8 into one of precision 11',
    );
    expect(() => VisitorSketch.empty(11).fold(13)).toThrow(
      'cannot fold a visitor sketch of precision 11 to precision 13',
    );
  });

  it('refuses a precision outside 4–16', () => {
    expect(() => VisitorSketch.empty(17)).toThrow('visitor sketch precision must be an integer from 4 to 16, got 17');
  });

  it('ends as adding each visitor does when a flush writes coalesced register updates', () => {
    fc.assert(
      fc.property(visitors, (hashes) => {
        const written = VisitorSketch.empty(PRECISION);
        const coalesced = coalesceRegisterUpdates(hashes.map((hash) => registerUpdate(hash, PRECISION)));
        for (const [register, value] of coalesced) written.apply({ register, value });
        expect(coalesced.size).toBe(Object.keys(sketch(hashes).toStoredFields()).length);
        expect(words(written)).toEqual(words(sketch(hashes)));
      }),
    );
  });
});
