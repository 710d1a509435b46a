/**
 * The number of distinct visitors a sketch holds. While the sparse count is at most m/8 (fewer than 1 in 130
 * registers then holds two visitors), it is the answer: exact but for fingerprint collisions, a lower bound, and
 * measured more accurate there than the ladder's likelihood (bench/probes/sketchAccuracy.ts). Above, the ladder's
 * maximum likelihood, whose relative standard error is relativeStandardError(precision).
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
