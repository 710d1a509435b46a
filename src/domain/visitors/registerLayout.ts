/**
 * The layout of one visitor-sketch register: a 31-bit word the store ORs into a document field (`$bit … or`), so
 * updates are atomic, commutative and idempotent, and merging sketches is a register-wise OR. Bit 31 stays clear:
 * every value is a non-negative int32 in JavaScript and in BSON alike.
 *
 * Bits 0–19, the ladder: each visitor sets exactly one rung, rung j with probability LADDER_PROBABILITIES[j], from
 * the leading zeros z of 16 hash bits. z = 0 is split four ways and z = 1 two ways, so rungs 0–6 have 1/8 each; z ≥ 2
 * is rung z + 4 (1/8, 1/16, … 2^-15), and rung 19 takes z ≥ 15. OR keeps every rung any visitor reached (PCSA's
 * bitmap; HyperLogLog's max-rank register is only its highest set bit), and the large-range estimator reads how many
 * registers have each rung. The flat top makes two visitors of one register land on different rungs more often
 * (Σ p² = 0.115, not 1/3), at the price of 4 rungs of range: the ladder still reads 20,000 visitors per register.
 *
 * Bits 20–30, the fingerprint: two of eleven bits (55 patterns). Two visitors of one register are told apart unless
 * rung and pattern both match (probability 0.115 / 55 ≈ 1/480), which keeps small counts exact.
 */
export const MIN_PRECISION = 4;
/** Registers come from the hash's low 16 bits; the rung from the 16 above them. */
export const MAX_PRECISION = 16;

export const LADDER_BITS = 20;
export const LADDER_MASK = (1 << LADDER_BITS) - 1;
export const FINGERPRINT_SHIFT = LADDER_BITS;
export const FINGERPRINT_BITS = 11;
/** The most leading zeros the ladder tells apart; more share the last rung. */
export const MAX_LEADING_ZEROS = 15;

export const LADDER_PROBABILITIES: readonly number[] = Array.from({ length: LADDER_BITS }, (_, rung) => {
  if (rung < 7) return 1 / 8;
  if (rung < LADDER_BITS - 1) return 2 ** -(rung - 3);
  return 2 ** -MAX_LEADING_ZEROS;
});

/** The 55 fingerprint patterns: every pair of distinct fingerprint bits, in order. */
export const FINGERPRINT_PATTERNS: readonly number[] = Array.from({ length: FINGERPRINT_BITS }, (_, first) =>
  Array.from(
    { length: FINGERPRINT_BITS - first - 1 },
    (_, offset) => (1 << (FINGERPRINT_SHIFT + first)) | (1 << (FINGERPRINT_SHIFT + first + offset + 1)),
  ),
).flat();
