/** Validates a series request at the boundary: the same site/page rules as ingest, a non-empty range, a bucket limit. */
import { BadUserInputError } from '../errors/BadUserInputError';
import { parsePage, parseSite } from '../ingest/parseHit';
import { bucketCount } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import type { SeriesRequest } from './Series';

export interface SeriesLimits {
  readonly maxBuckets: number;
}

export function parseSeriesRequest(
  input: { site: string; page: string; granularity: Granularity; from: Date; to: Date },
  limits: SeriesLimits,
): SeriesRequest {
  const site = parseSite(input.site);
  const page = parsePage(input.page);
  const from = input.from.getTime();
  const to = input.to.getTime();
  if (from >= to) {
    throw new BadUserInputError(
      `range.from must be before range.to, got from ${input.from.toISOString()} and to ${input.to.toISOString()}`,
      'range',
    );
  }
  if (input.granularity === Granularity.SECOND) {
    throw new BadUserInputError('granularity SECOND is not available yet; use MINUTE or coarser', 'granularity');
  }
  const buckets = bucketCount(input.granularity, from, to);
  if (buckets > limits.maxBuckets) {
    throw new BadUserInputError(
      `range holds ${buckets} ${input.granularity} buckets, more than the limit of ${limits.maxBuckets} (QUERY_MAX_BUCKETS); use a coarser granularity or a shorter range`,
      'range',
    );
  }
  return { site, page, granularity: input.granularity, from, to };
}
