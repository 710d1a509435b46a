/**
 * SplitMix64's output for the state seed·2^32 + index: a fast, deterministic 64-bit hash of two integers, the
 * reproducible stand-in for visitorHash in property tests, probes and synthetic traffic. Real visitors never go
 * through it (it has no key). Straight-line arithmetic on 16-bit pieces, exact in doubles; no Math builtins, which
 * are not inlined inside jest's sandbox and would make the million-visitor tests crawl.
 */
import type { Hash64 } from './Hash64';

export function splitmix64(seed: number, index: number): Hash64 {
  const sum = (index >>> 0) + 0x7f4a7c15;
  let hi = ((seed >>> 0) + 0x9e3779b9 + (sum > 0xffffffff ? 1 : 0)) >>> 0;
  let lo = sum >>> 0;
  // z ^= z >>> 30; z *= 0xbf58476d1ce4e5b9
  lo = (lo ^ ((lo >>> 30) | (hi << 2))) >>> 0;
  hi = (hi ^ (hi >>> 30)) >>> 0;
  hi = (multiplyHigh(lo, 0x1ce4e5b9) + multiplyLow(hi, 0x1ce4e5b9) + multiplyLow(lo, 0xbf58476d)) >>> 0;
  lo = multiplyLow(lo, 0x1ce4e5b9);
  // z ^= z >>> 27; z *= 0x94d049bb133111eb
  lo = (lo ^ ((lo >>> 27) | (hi << 5))) >>> 0;
  hi = (hi ^ (hi >>> 27)) >>> 0;
  hi = (multiplyHigh(lo, 0x133111eb) + multiplyLow(hi, 0x133111eb) + multiplyLow(lo, 0x94d049bb)) >>> 0;
  lo = multiplyLow(lo, 0x133111eb);
  // z ^= z >>> 31
  lo = (lo ^ ((lo >>> 31) | (hi << 1))) >>> 0;
  hi = (hi ^ (hi >>> 31)) >>> 0;
  return { hi, lo };
}

/** The low 32 bits of the product of two unsigned 32-bit integers. */
function multiplyLow(a: number, b: number): number {
  const a0 = a & 0xffff;
  const b0 = b & 0xffff;
  return (a0 * b0 + ((((a0 * (b >>> 16) + (a >>> 16) * b0) & 0xffff) << 16) >>> 0)) >>> 0;
}

/** The high 32 bits of the product of two unsigned 32-bit integers. */
function multiplyHigh(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const middle = ((a0 * b0) >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  return a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + (middle >>> 16);
}
