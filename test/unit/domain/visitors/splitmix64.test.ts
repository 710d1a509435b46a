import { splitmix64 } from '../../../../src/domain/visitors/splitmix64';

const MASK = (1n << 64n) - 1n;

/** SplitMix64 (Steele, Lea & Flood 2014) in BigInt: the reference the 32-bit version must match. */
function reference(state: bigint): bigint {
  let z = (state + 0x9e3779b97f4a7c15n) & MASK;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

const asBigInt = ({ hi, lo }: { hi: number; lo: number }): bigint => (BigInt(hi) << 32n) | BigInt(lo);

describe('splitmix64', () => {
  it('gives the published first output of a generator seeded with 0', () => {
    expect(asBigInt(splitmix64(0, 0))).toBe(0xe220a8397b1dcdafn);
  });

  it.each([
    [0, 1],
    [0, 0xffffffff],
    [1, 0],
    [0xffffffff, 0xffffffff],
    [0x61c88646, 0x80b583eb],
    [123456789, 987654321],
  ])('matches the 64-bit reference for seed %i and index %i', (seed, index) => {
    expect(asBigInt(splitmix64(seed, index))).toBe(reference((BigInt(seed) << 32n) | BigInt(index)));
  });

  it('matches the 64-bit reference over a thousand scattered inputs', () => {
    for (let i = 0; i < 1000; i++) {
      const seed = Math.imul(i, 0x9e3779b1) >>> 0;
      const index = Math.imul(i + 1, 0x85ebca6b) >>> 0;
      expect(asBigInt(splitmix64(seed, index))).toBe(reference((BigInt(seed) << 32n) | BigInt(index)));
    }
  });

  it('returns unsigned 32-bit halves', () => {
    const { hi, lo } = splitmix64(0, 0);
    expect([hi >>> 0, lo >>> 0]).toEqual([hi, lo]);
  });
});
