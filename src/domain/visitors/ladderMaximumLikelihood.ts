/**
 * The maximum-likelihood visitor count from the ladder's rung counts: PCSA's bitmap read the way Ertl (2017) reads
 * HyperLogLog registers, with no empirical bias tables. Poisson model: with λ visitors over m registers, rung j of a
 * register is set with probability 1 − exp(−λ a_j / m), independently of every other (register, rung), where a_j is
 * LADDER_PROBABILITIES[j]. With c_j registers having rung j set, the log-likelihood is stationary where
 *   Σ_j c_j a_j / (exp(λ a_j / m) − 1) = Σ_j (m − c_j) a_j.
 * The left side falls strictly from +∞ to 0 as λ grows, so the root is unique; bisection on log λ finds it.
 * Relative standard error at large counts √(ln 2 / ζ(2)) / √m ≈ 0.649 / √m (the Cramér–Rao bound of a base-2 ladder,
 * between 0.644 and 0.652 depending on where the count falls between rungs); HyperLogLog's is 1.04 / √m.
 */
import { LADDER_BITS, LADDER_PROBABILITIES } from './registerLayout';

const RELATIVE_TOLERANCE = 1e-12;

export function ladderMaximumLikelihood(counts: ArrayLike<number>, registers: number): number {
  const c = Array.from({ length: LADDER_BITS }, (_, rung) => counts[rung] ?? 0);
  if (c.every((count) => count === 0)) return 0;
  // Every rung of every register set: the likelihood grows without bound. Reading the last rung as half a register
  // short of full gives the finite estimate the sketch can still tell (far beyond any real site's visitors).
  if (c.every((count) => count >= registers)) c[LADDER_BITS - 1] = registers - 0.5;
  const unset = c.reduce((sum, count, rung) => sum + (registers - count) * probability(rung), 0);
  const excess = (visitors: number): number =>
    c.reduce((sum, count, rung) => {
      if (count === 0) return sum;
      const a = probability(rung);
      return sum + (count * a) / Math.expm1((visitors * a) / registers);
    }, 0) - unset;

  let low = 1;
  while (excess(low) <= 0) low /= 2;
  let high = 2 * low;
  while (excess(high) > 0) high *= 2;
  while (high / low > 1 + RELATIVE_TOLERANCE) {
    const middle = Math.sqrt(low * high);
    if (excess(middle) > 0) low = middle;
    else high = middle;
  }
  return Math.sqrt(low * high);
}

function probability(rung: number): number {
  return LADDER_PROBABILITIES[rung] as number;
}
