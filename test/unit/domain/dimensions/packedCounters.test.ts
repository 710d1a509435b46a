import fc from 'fast-check';
import { deflateRawSync } from 'node:zlib';
import { dimensionKey } from '../../../../src/domain/dimensions/dimensionKey';
import { addPackedCounters, packCounters, packedCount } from '../../../../src/domain/dimensions/packedCounters';

const unpack = (bytes: Uint8Array): Map<string, number> => {
  const counts = new Map<string, number>();
  addPackedCounters(bytes, counts);
  return counts;
};

const counters = fc.dictionary(
  fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }).map(dimensionKey),
  fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.constant(Number.MAX_SAFE_INTEGER)),
  { maxKeys: 300 },
);

describe('packCounters', () => {
  it('reads back every counter it packs, and finds each by key', () => {
    fc.assert(
      fc.property(counters, (stored) => {
        const packed = packCounters(Object.entries(stored));
        expect(Object.fromEntries(unpack(packed))).toEqual(stored);
        for (const [key, count] of Object.entries(stored)) expect(packedCount(packed, key)).toBe(count);
        expect(packedCount(packed, 'not%20stored\u0001')).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('adds into counts already held, and leaves zeros out', () => {
    const counts = new Map([['google', 5]]);
    addPackedCounters(
      packCounters([
        ['google', 2],
        ['bing', 0],
        ['duckduckgo', 1],
      ]),
      counts,
    );
    expect(Object.fromEntries(counts)).toEqual({ google: 7, duckduckgo: 1 });
  });

  it('deflates when that is smaller, and keeps a few counters as they are', () => {
    const few = packCounters([['mobile', 3]]);
    expect(few[0]).toBe(1);
    expect(few.length).toBe(1 + 1 + 'mobile'.length + 1);
    const hosts = Array.from({ length: 1_000 }, (_, i): [string, number] => [
      `host-${i}%2Eexample%2Eorg`,
      1 + (i % 97),
    ]);
    const many = packCounters(hosts);
    expect(many[0]).toBe(2);
    expect(many.length).toBeLessThan(JSON.stringify(Object.fromEntries(hosts)).length / 4);
    expect(unpack(many).size).toBe(1_000);
  });

  it('reads bytes at an offset inside a larger buffer (as the driver hands binaries over)', () => {
    const packed = packCounters([
      ['Linux', 12],
      ['Windows', 40],
    ]);
    const larger = new Uint8Array(packed.length + 9);
    larger.set(packed, 4);
    const view = larger.subarray(4, 4 + packed.length);
    expect(Object.fromEntries(unpack(view))).toEqual({ Linux: 12, Windows: 40 });
    expect(packedCount(view, 'Windows')).toBe(40);
  });

  it.each([
    [-1, 'non-negative safe integer'],
    [1.5, 'non-negative safe integer'],
    [2 ** 53, 'non-negative safe integer'],
  ])('refuses to pack the count %p', (count, message) => {
    expect(() => packCounters([['x', count]])).toThrow(message);
  });

  it.each([
    ['no byte', new Uint8Array([]), 'layout 1 or 2, got no byte'],
    ['an unknown layout', new Uint8Array([3, 0]), 'layout 1 or 2, got 3'],
    ['a key past the end', new Uint8Array([1, 5, 0x61, 0x62]), 'a key of 5 bytes runs past the end'],
    ['a missing count', new Uint8Array([1, 1, 0x61]), 'a number at byte 2 is truncated'],
    ['a count of 9 bytes', new Uint8Array([1, 1, 0x61, ...Array(8).fill(0xff), 1]), 'longer than 8 bytes'],
    ['a count over 2^53', new Uint8Array([1, 1, 0x61, ...Array(7).fill(0xff), 0x7f]), 'exceeds 2^53 - 1'],
    ['bytes that do not inflate', new Uint8Array([2, 0xff, 0xff, 0xff]), 'do not inflate'],
  ])('refuses %s', (_, bytes, message) => {
    expect(() => unpack(bytes)).toThrow(RangeError);
    expect(() => unpack(bytes)).toThrow(message);
  });

  it('reads a deflated body written by any DEFLATE encoder', () => {
    const entries = Buffer.from([6, ...Buffer.from('google'), 9]);
    const packed = new Uint8Array([2, ...deflateRawSync(entries, { level: 1 })]);
    expect(packedCount(packed, 'google')).toBe(9);
  });
});
