import fc from 'fast-check';
import { encodeCompactSketch, mergeCompactSketch } from '../../../../src/domain/visitors/compactSketch';
import { VisitorSketch } from '../../../../src/domain/visitors/VisitorSketch';
import { sketchOf } from './sketchOf';

const words = (value: VisitorSketch): number[] => Array.from(value.words);

const codings: ReadonlyArray<[string, (sketch: VisitorSketch) => VisitorSketch]> = [
  ['packs (toPacked)', (sketch) => VisitorSketch.fromPacked(sketch.toPacked(), sketch.precision)],
  [
    'codes (compactSketch)',
    (sketch) => {
      const read = VisitorSketch.empty(sketch.precision);
      mergeCompactSketch(read, encodeCompactSketch(sketch));
      return read;
    },
  ],
];

describe('VisitorSketch packed', () => {
  it.each(codings)('reads back what it %s, at every fill from empty to saturated', (_, roundTrip) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 13 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer(),
        (precision, visitors, seed) => {
          const original = sketchOf(precision, seed, 0, visitors);
          expect(words(roundTrip(original))).toEqual(words(original));
        },
      ),
      { numRuns: 60 },
    );
  });

  it.each([
    // [precision, visitors, layout, bytes]: sparse while 6 bytes per used register beat 4 per register.
    [11, 0, 2, 2],
    [11, 10, 2, 2 + 10 * 6],
    [13, 1_000, 2, 2 + 6 * sketchOf(13, 1, 0, 1_000).words.filter((w) => w !== 0).length],
    [11, 100_000, 1, 2 + 4 * 2048],
    [13, 1_000_000, 1, 2 + 4 * 8192],
  ])('packs precision %i with %i visitors as layout %i in %i bytes', (precision, visitors, layout, length) => {
    const packed = sketchOf(precision, 1, 0, visitors).toPacked();
    expect(packed[0]).toBe(layout);
    expect(packed[1]).toBe(precision);
    expect(packed.length).toBe(length);
  });

  it.each([
    ['sparse into sparse', 11, 11, 40, 60],
    ['dense into sparse', 11, 11, 5_000, 30],
    ['a finer sketch, folded', 11, 13, 3_000, 800],
  ])('merges packed bytes in place as merging the unpacked sketch does: %s', (_, precision, packedAt, a, b) => {
    const into = sketchOf(precision, 5, 0, a);
    const other = sketchOf(packedAt, 6, 0, b);
    const expected = words(VisitorSketch.empty(precision).merge(into).merge(other));
    expect(words(into.mergePacked(other.toPacked()))).toEqual(expected);
    if (packedAt < 13) expect(() => VisitorSketch.empty(13).mergePacked(other.toPacked())).toThrow(RangeError);
  });

  it('reads a finer packed sketch as its fold, and merges with stored fields as the union', () => {
    const fine = sketchOf(13, 2, 0, 5_000);
    expect(words(VisitorSketch.fromPacked(fine.toPacked(), 11))).toEqual(words(fine.fold(11)));
    const older = sketchOf(11, 3, 0, 3_000);
    const newer = sketchOf(11, 3, 2_000, 4_000);
    const union = VisitorSketch.fromPacked(older.toPacked(), 11).merge(
      VisitorSketch.fromStoredFields(newer.toStoredFields(), 11),
    );
    expect(words(union)).toEqual(words(sketchOf(11, 3, 0, 4_000)));
  });

  it('reads bytes at an offset inside a larger buffer (as the driver hands binaries over)', () => {
    const packed = sketchOf(8, 4, 0, 300).toPacked();
    const larger = new Uint8Array(packed.length + 7);
    larger.set(packed, 5);
    expect(words(VisitorSketch.fromPacked(larger.subarray(5, 5 + packed.length), 8))).toEqual(
      words(sketchOf(8, 4, 0, 300)),
    );
  });

  const dense = (precision: number): Uint8Array => {
    const bytes = new Uint8Array(2 + 4 * 2 ** precision);
    bytes[0] = 1;
    bytes[1] = precision;
    return bytes;
  };

  it.each<[string, Uint8Array, number, string]>([
    ['empty bytes', new Uint8Array(0), 8, 'packed visitor sketch must start with layout 1 or 2, got 0 byte(s)'],
    ['an unknown layout', Uint8Array.of(3, 8), 8, 'packed visitor sketch must start with layout 1 or 2, got 2 byte(s)'],
    [
      'a precision out of range',
      Uint8Array.of(2, 17),
      8,
      'visitor sketch precision must be an integer from 4 to 16, got 17',
    ],
    ['a coarser sketch', dense(8), 11, 'cannot read a visitor sketch packed at precision 8 at precision 11'],
    [
      'a short dense body',
      dense(8).subarray(0, 100),
      8,
      'packed visitor sketch of precision 8 has 98 bytes after its header, expected 1024',
    ],
    [
      'a torn sparse entry',
      Uint8Array.of(2, 8, 1, 0, 1, 0, 0, 0, 9),
      8,
      'packed visitor sketch of precision 8 has 7 bytes after its header, expected a multiple of 6',
    ],
    [
      'registers out of order',
      Uint8Array.of(2, 8, 5, 0, 1, 0, 0, 0, 5, 0, 1, 0, 0, 0),
      8,
      'packed visitor sketch of precision 8 lists register 5 out of order',
    ],
    [
      'a register beyond the precision',
      Uint8Array.of(2, 8, 0, 1, 1, 0, 0, 0),
      8,
      'packed visitor sketch of precision 8 lists register 256 out of order',
    ],
    [
      'a negative word',
      Uint8Array.of(2, 8, 3, 0, 0, 0, 0, 0x80),
      8,
      'packed visitor sketch register 3 has a negative word -2147483648',
    ],
  ])('refuses %s', (_case, bytes, precision, message) => {
    expect(() => VisitorSketch.fromPacked(bytes, precision)).toThrow(new RangeError(message));
  });
});
