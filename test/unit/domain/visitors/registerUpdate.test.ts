import fc from 'fast-check';
import {
  FINGERPRINT_PATTERNS,
  LADDER_BITS,
  LADDER_MASK,
  LADDER_PROBABILITIES,
} from '../../../../src/domain/visitors/registerLayout';
import { registerUpdate, registerValue } from '../../../../src/domain/visitors/registerUpdate';

const bit = (position: number): number => 2 ** position;
const rungOf = (value: number): number => 31 - Math.clz32(value & LADDER_MASK);
const fingerprintOf = (value: number): number => value & ~LADDER_MASK;
const hash64 = fc.record({ hi: fc.integer({ min: 0, max: 0xffffffff }), lo: fc.integer({ min: 0, max: 0xffffffff }) });

describe('registerUpdate', () => {
  it.each([
    // [lo bits 16–31 (the rung source), hi bits 24–25 (the split), rung]
    ['8000', 0, 0],
    ['ffff', 1, 1],
    ['8000', 2, 2],
    ['c000', 3, 3],
    ['4000', 0, 4],
    ['7fff', 1, 5],
    ['4000', 3, 5],
    ['2000', 3, 6],
    ['1000', 0, 7],
    ['0800', 0, 8],
    ['0004', 0, 17],
    ['0002', 0, 18],
    ['0001', 0, 19],
    ['0000', 3, 19],
  ])('puts rung source 0x%s with split %i on rung %i', (source, split, rung) => {
    const value = registerValue({ hi: split << 24, lo: (parseInt(source, 16) << 16) >>> 0 });
    expect(value & LADDER_MASK).toBe(bit(rung));
  });

  it.each([
    // [hi bits 0–23, the two fingerprint bits]
    ['000000', 20, 21],
    ['04a790', 20, 21],
    ['04a791', 20, 22],
    ['800000', 23, 24],
    ['fb586f', 28, 30],
    ['fb5870', 29, 30],
    ['ffffff', 29, 30],
  ])('gives fingerprint source 0x%s the bits %i and %i', (source, first, second) => {
    const value = registerValue({ hi: parseInt(source, 16), lo: 0x8000_0000 });
    expect(fingerprintOf(value)).toBe(bit(first) + bit(second));
  });

  it.each([
    [4, '80001234', 0x4],
    [11, '80001234', 0x234],
    [13, '80001234', 0x1234],
    [16, '8000fedc', 0xfedc],
  ])('takes the register at precision %i from the low bits of 0x%s', (precision, lo, register) => {
    expect(registerUpdate({ hi: 0, lo: parseInt(lo, 16) }, precision).register).toBe(register);
  });

  it('writes the same value at every precision, so one hash feeds every level', () => {
    fc.assert(
      fc.property(hash64, (hash) => {
        const values = [4, 8, 11, 13, 16].map((precision) => registerUpdate(hash, precision).value);
        expect(new Set(values).size).toBe(1);
      }),
    );
  });

  it('sets exactly one rung and two fingerprint bits, and never bit 31', () => {
    fc.assert(
      fc.property(hash64, (hash) => {
        const value = registerValue(hash);
        expect(value).toBeGreaterThan(0);
        expect(value).toBeLessThanOrEqual(0x7fffffff);
        expect(value & LADDER_MASK).toBe(bit(rungOf(value)));
        expect(FINGERPRINT_PATTERNS).toContain(fingerprintOf(value));
      }),
    );
  });

  it('reaches each rung with exactly its probability over every rung source and split', () => {
    const counts = new Array<number>(LADDER_BITS).fill(0);
    for (let source = 0; source < 0x10000; source++) {
      for (let split = 0; split < 4; split++) counts[rungOf(registerValue({ hi: split << 24, lo: source << 16 }))]++;
    }
    expect(counts.map((count) => count / 0x40000)).toEqual(LADDER_PROBABILITIES);
  });

  it('splits the 2^24 fingerprint sources into 55 runs, one per pattern, of sizes within one of each other', () => {
    const starts = FINGERPRINT_PATTERNS.map((_, pattern) => Math.ceil((pattern * 0x1000000) / 55));
    starts.forEach((start, pattern) => {
      expect(fingerprintOf(registerValue({ hi: start, lo: 0x8000_0000 }))).toBe(FINGERPRINT_PATTERNS[pattern]);
      if (pattern > 0) {
        expect(fingerprintOf(registerValue({ hi: start - 1, lo: 0x8000_0000 }))).toBe(
          FINGERPRINT_PATTERNS[pattern - 1],
        );
      }
    });
    const sizes = [...starts.slice(1), 0x1000000].map((end, pattern) => end - (starts[pattern] as number));
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it.each([3, 17, 11.5, Number.NaN])('rejects precision %s, naming the allowed range', (precision) => {
    expect(() => registerUpdate({ hi: 0, lo: 0 }, precision)).toThrow(
      `visitor sketch precision must be an integer from 4 to 16, got ${precision}`,
    );
  });
});
