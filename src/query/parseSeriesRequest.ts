/**
 * Validates a series request at the boundary: the same site/page rules as ingest, a non-empty range, a bucket
 * limit, and for SECOND a range inside the retention window at `now` (older second-level data is expired).
 */
import { BadUserInputError } from '../errors/BadUserInputError';
import { parsePage, parseSite } from '../ingest/parseHit';
import { bucketCount, HOUR_MS } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import type { SeriesRequest } from './Series';

export interface SeriesLimits {
  readonly maxBuckets: number;
  /** How far back second-level counters reach; undefined when they are switched off (SECONDS_ENABLED=false). */
  readonly secondsRetentionMs?: number | undefined;
}

export function parseSeriesRequest(
  input: { site: string; page: string; granularity: Granularity; from: Date; to: Date },
  limits: SeriesLimits,
  now: number,
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
  if (input.granularity === Granularity.SECOND) checkSecondsWindow(input.from, limits, now);
  const buckets = bucketCount(input.granularity, from, to);
  if (buckets > limits.maxBuckets) {
    throw new BadUserInputError(
      `range holds ${buckets} ${input.granularity} buckets, more than the limit of ${limits.maxBuckets} (QUERY_MAX_BUCKETS); use a coarser granularity or a shorter range`,
      'range',
    );
  }
  return { site, page, granularity: input.granularity, from, to };
}

function checkSecondsWindow(from: Date, limits: SeriesLimits, now: number): void {
  const retention = limits.secondsRetentionMs;
  if (retention === undefined) throw secondsDisabledError();
  const oldest = now - retention;
  if (from.getTime() < oldest) {
    throw new BadUserInputError(
      `range.from must be within the second-level retention window of ${retention / HOUR_MS} hours (after ${new Date(oldest).toISOString()}), got ${from.toISOString()}`,
      'range',
    );
  }
}

export function secondsDisabledError(): BadUserInputError {
  return new BadUserInputError(
    'granularity SECOND needs second-level counters, which are switched off on this server (SECONDS_ENABLED=false); use MINUTE or coarser',
    'granularity',
  );
}
