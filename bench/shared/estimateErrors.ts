/** How far estimates fell from the exact counts they estimate: relative errors' quantiles and small-count exactness. */
import { quantile } from './sketchStreams';

export interface EstimatePair {
  readonly estimate: number;
  readonly truth: number;
}

export interface EstimateErrors {
  /** Pairs with an estimate; `missing` counts those without (NaN: the answer held null). */
  readonly pairs: number;
  readonly missing: number;
  readonly truthMin: number;
  readonly truthMax: number;
  /** |estimate − truth| / truth: median, 95th percentile and worst. */
  readonly medianRelativeError: number;
  readonly p95RelativeError: number;
  readonly maxRelativeError: number;
  /** Mean of (estimate − truth) / truth: a sign of systematic over- or under-counting. */
  readonly meanRelativeBias: number;
  /** Share of pairs off by at most one visitor. */
  readonly withinOne: number;
}

export function estimateErrors(all: readonly EstimatePair[]): EstimateErrors {
  const pairs = all.filter((pair) => Number.isFinite(pair.estimate));
  const counted = pairs.filter((pair) => pair.truth > 0);
  const relative = counted.map(({ estimate, truth }) => Math.abs(estimate - truth) / truth);
  const bias = counted.map(({ estimate, truth }) => (estimate - truth) / truth);
  return {
    pairs: pairs.length,
    missing: all.length - pairs.length,
    truthMin: Math.min(...pairs.map((pair) => pair.truth)),
    truthMax: Math.max(...pairs.map((pair) => pair.truth)),
    medianRelativeError: relative.length ? quantile(relative, 0.5) : Number.NaN,
    p95RelativeError: relative.length ? quantile(relative, 0.95) : Number.NaN,
    maxRelativeError: relative.length ? Math.max(...relative) : Number.NaN,
    meanRelativeBias: bias.length ? bias.reduce((a, b) => a + b, 0) / bias.length : Number.NaN,
    withinOne: pairs.length
      ? pairs.filter(({ estimate, truth }) => Math.abs(estimate - truth) <= 1).length / pairs.length
      : Number.NaN,
  };
}
