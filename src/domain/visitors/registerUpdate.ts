/**
 * Hash → register update. The register is the hash's low `precision` bits and the value does not depend on the
 * precision, so one hash feeds the site (higher) and page (lower) sketches alike and a sketch folds to any lower
 * precision by OR-ing register r into r mod 2^p. Hash bits used: lo 0–15 register, lo 16–31 the rung (leading
 * zeros, capped at MAX_LEADING_ZEROS), hi 24–25 which of the split top rungs, hi 0–23 the fingerprint pattern.
 */
import type { Hash64 } from './Hash64';
import { checkPrecision } from './checkPrecision';
import { FINGERPRINT_PATTERNS } from './registerLayout';

/** What one visitor contributes to a sketch: OR `value` into register `register`. */
export interface RegisterUpdate {
  /** 0 ≤ register < 2^precision. */
  readonly register: number;
  /** A non-negative int32 with one ladder bit and two fingerprint bits set: the store's `$bit … or` operand. */
  readonly value: number;
}

export function registerUpdate(hash: Hash64, precision: number): RegisterUpdate {
  checkPrecision(precision);
  return { register: hash.lo & ((1 << precision) - 1), value: registerValue(hash) };
}

/** The word a visitor ORs into its register, the same at every precision. */
export function registerValue(hash: Hash64): number {
  // Leading zeros of lo's upper 16 bits; OR-ing in 1 caps them at MAX_LEADING_ZEROS.
  const zeros = Math.clz32((hash.lo >>> 16) | 1) - 16;
  const split = hash.hi >>> 24;
  // z = 0 (p = 1/2) spreads over rungs 0–3, z = 1 (1/4) over rungs 4–5; z ≥ 2 is rung z + 4.
  const rung = zeros === 0 ? split & 3 : zeros === 1 ? 4 + (split & 1) : zeros + 4;
  // ⌊u · 55 / 2^24⌋ for the 24-bit u: the product stays below 2^30, so the shift is exact.
  const pattern = FINGERPRINT_PATTERNS[((hash.hi & 0xffffff) * FINGERPRINT_PATTERNS.length) >>> 24] as number;
  return (1 << rung) | pattern;
}
