/**
 * The number of distinct visitors a sketch holds. While the sparse count is at most m/8 (under 1 % of registers then
 * hold two visitors or more), it is the answer: a lower bound, exact but for fingerprint collisions, and 5 times
 * closer there than the ladder's likelihood with a bias under 0.1 visitor (bench/probes/sketchAccuracy.ts). Above,
 * the ladder's maximum likelihood, whose relative standard error is relativeStandardError(precision).
 */
import { ladderMaximumLikelihood } from './ladderMaximumLikelihood';
import { rungCounts } from './rungCounts';
import { sparseVisitorCount } from './sparseVisitorCount';

export const SPARSE_LOAD_LIMIT = 1 / 8;

export function estimateVisitors(words: Int32Array): number {
  const sparse = sparseVisitorCount(words);
  if (sparse <= words.length * SPARSE_LOAD_LIMIT) return sparse;
  return ladderMaximumLikelihood(rungCounts(words), words.length);
}
