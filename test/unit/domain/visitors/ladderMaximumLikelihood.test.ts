import fc from 'fast-check';
import { ladderMaximumLikelihood } from '../../../../src/domain/visitors/ladderMaximumLikelihood';
import { LADDER_BITS, LADDER_PROBABILITIES } from '../../../../src/domain/visitors/registerLayout';

const M = 2048;
const rungCounts = fc.array(fc.integer({ min: 0, max: M }), { minLength: LADDER_BITS, maxLength: LADDER_BITS });

/** The derivative of the log-likelihood at `visitors`, scaled by m: zero at the maximum. */
function slope(counts: number[], visitors: number): number {
  return counts.reduce((sum, count, rung) => {
    const a = LADDER_PROBABILITIES[rung] as number;
    const set = count === 0 ? 0 : (count * a) / Math.expm1((visitors * a) / M);
    return sum + set - (M - count) * a;
  }, 0);
}

describe('ladderMaximumLikelihood', () => {
  it('estimates zero when no rung is set', () => {
    expect(ladderMaximumLikelihood(new Array<number>(LADDER_BITS).fill(0), M)).toBe(0);
  });

  it('estimates one visitor when one register has one top rung', () => {
    const counts = new Array<number>(LADDER_BITS).fill(0);
    counts[0] = 1;
    expect(ladderMaximumLikelihood(counts, M)).toBeCloseTo(1, 3);
  });

  it('finds the root of the likelihood equation', () => {
    fc.assert(
      fc.property(rungCounts, (counts) => {
        fc.pre(counts.some((count) => count > 0) && counts.some((count) => count < M));
        const estimate = ladderMaximumLikelihood(counts, M);
        expect(slope(counts, estimate * (1 - 1e-9))).toBeGreaterThanOrEqual(0);
        expect(slope(counts, estimate * (1 + 1e-9))).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('grows when one more register has a rung set', () => {
    fc.assert(
      fc.property(rungCounts, fc.integer({ min: 0, max: LADDER_BITS - 1 }), (counts, rung) => {
        fc.pre(counts.some((count) => count > 0) && (counts[rung] as number) < M - 1);
        const more = counts.map((count, j) => (j === rung ? count + 1 : count));
        expect(ladderMaximumLikelihood(more, M)).toBeGreaterThan(ladderMaximumLikelihood(counts, M));
      }),
    );
  });

  it('gives a finite estimate, beyond a billion at 2048 registers, when every rung of every register is set', () => {
    const full = ladderMaximumLikelihood(new Array<number>(LADDER_BITS).fill(M), M);
    expect(Number.isFinite(full)).toBe(true);
    expect(full).toBeGreaterThan(1e8);
  });
});
