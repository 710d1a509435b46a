/**
 * Seeded randomness for reproducible traffic: a 32-bit PRNG (mulberry32) and a Zipf-like page sampler
 * (popularity of the k-th page proportional to 1/k^s, the shape web page popularity usually has).
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  };
}

/** A uniform number in [0, 1) that depends only on (seed, index): random access into a reproducible stream. */
export function unitAt(seed: number, index: number): number {
  return seededRandom((Math.imul(index, 0x9e3779b1) ^ seed) >>> 0)();
}

/** Cumulative (unnormalised) Zipf weights of ranks 0..n-1: weight of rank k is 1/(k+1)^s. */
export function zipfCdf(n: number, s: number): number[] {
  const cdf: number[] = [];
  let sum = 0;
  for (let k = 1; k <= n; k++) {
    sum += 1 / k ** s;
    cdf.push(sum);
  }
  return cdf;
}

/** The rank whose cumulative weight first reaches `unit` (in [0, 1)) of the total. */
export function zipfPick(cdf: readonly number[], unit: number): number {
  const target = unit * (cdf[cdf.length - 1] as number);
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cdf[mid] as number) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Returns a sampler of page ranks 0..n-1; rank 0 is the most popular. */
export function zipfSampler(n: number, s: number, random: Random): () => number {
  const cdf = zipfCdf(n, s);
  return () => zipfPick(cdf, random());
}
