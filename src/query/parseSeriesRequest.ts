/**
 * Validates a series request at the boundary: the same site/page rules as ingest (no page: the site's totals), a
 * known time zone, a non-empty range, a bucket limit, and for SECOND a range inside the retention window at `now`
 * (older second-level data is expired); a dimension filter through parseDimensionFilter. Visitors, when wanted, may
 * read minute sketches inside the retention at `now` (visitorOptions). With RETENTION_MINUTES_DAYS or RETENTION_DAYS
 * set, the request carries what is kept at `now` (retentionCutoffs), and buckets needing dropped detail come out null.
 */
import { BadUserInputError } from '../errors/BadUserInputError';
import { LimitExceededError } from '../errors/LimitExceededError';
import { parsePage } from '../domain/parsePage';
import { parseSite } from '../domain/parseSite';
import { SITE_TOTAL_PAGE } from '../domain/siteTotal';
import { HOUR_MS } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import { retainsEverything, retentionCutoffs } from '../time/retentionCutoffs';
import type { RetentionCutoffs, RetentionSettings } from '../time/retentionCutoffs';
import { bucketCountIn } from '../time/zonedBuckets';
import type { Dimension } from '../domain/dimensions/Dimension';
import { checkFilterGranularity, parseDimensionFilter } from './parseDimensionFilter';
import type { DimensionFilterInput } from './parseDimensionFilter';
import { parseTimeZone } from './parseTimeZone';
import type { SeriesRequest } from './Series';
import { visitorOptions } from './visitorOptions';

export interface SeriesLimits {
  readonly maxBuckets: number;
  /** How far back second-level counters reach; undefined when they are switched off (SECONDS_ENABLED=false). */
  readonly secondsRetentionMs?: number | undefined;
  /** False when site totals are not written (SITE_TOTALS_ENABLED=false); absent means they are. */
  readonly siteTotals?: boolean | undefined;
  /** The setting `maxBuckets` comes from, named in the error (default QUERY_MAX_BUCKETS). */
  readonly maxBucketsSetting?: string | undefined;
  /** Dimensions whose site documents keep per-value sketches (DIMENSION_VISITORS); absent: none. */
  readonly dimensionVisitors?: ReadonlySet<Dimension> | undefined;
  /** RETENTION_MINUTES_DAYS and RETENTION_DAYS; absent: everything is kept. */
  readonly retention?: RetentionSettings | undefined;
  /** False when visits are not counted (VISITS_ENABLED=false); absent means they are. */
  readonly visits?: boolean | undefined;
}

export interface SeriesInput {
  readonly site: string;
  /** Absent: the site's totals. */
  readonly page?: string | undefined;
  readonly granularity: Granularity;
  readonly from: Date;
  readonly to: Date;
  readonly timeZone?: string | null | undefined;
  /** Read distinct visitors as well (the query selected them). */
  readonly visitors?: boolean | undefined;
  /** Read the visit counters as well (the query selected visit figures). */
  readonly visits?: boolean | undefined;
  /** Only hits with this value of one dimension. */
  readonly filter?: DimensionFilterInput | null | undefined;
}

export function parseSeriesRequest(input: SeriesInput, limits: SeriesLimits, now: number): SeriesRequest {
  const site = parseSite(input.site);
  const page = input.page === undefined ? SITE_TOTAL_PAGE : parsePage(input.page);
  const timeZone = parseTimeZone(input.timeZone);
  const from = input.from.getTime();
  const to = input.to.getTime();
  if (from >= to) {
    throw new BadUserInputError(
      `range.from must be before range.to, got from ${input.from.toISOString()} and to ${input.to.toISOString()}`,
      'range',
    );
  }
  if (input.filter != null) checkFilterGranularity(input.granularity);
  if (page === SITE_TOTAL_PAGE) checkSiteTotals(input.granularity, limits);
  if (input.granularity === Granularity.SECOND) checkSecondsWindow(input.from, limits, now);
  const buckets = bucketCountIn(timeZone, input.granularity, from, to, limits.maxBuckets);
  if (buckets > limits.maxBuckets) {
    throw new LimitExceededError(
      limits.maxBucketsSetting ?? 'QUERY_MAX_BUCKETS',
      limits.maxBuckets,
      buckets,
      `the number of ${input.granularity} buckets in range`,
      400,
      { field: 'range', hint: 'use a coarser granularity or a shorter range' },
    );
  }
  const retained =
    limits.retention === undefined || retainsEverything(limits.retention)
      ? undefined
      : retentionCutoffs(now, limits.retention);
  const request: SeriesRequest = {
    site,
    page,
    granularity: input.granularity,
    from,
    to,
    timeZone,
    ...(input.visitors ? { visitors: visitorOptions(now, limits.secondsRetentionMs, retained) } : {}),
    ...(retained ? { retained } : {}),
    ...(input.visits === true
      ? { visits: true, ...(limits.visits === false ? {} : visitMinutes(now, limits.secondsRetentionMs, retained)) }
      : {}),
  };
  if (input.filter == null) return request;
  return { ...request, filter: parseDimensionFilter(input.filter, request, limits.dimensionVisitors ?? new Set()) };
}

/**
 * Minute documents hold a minute's visit counters (`vm`) beside its sketch and are kept as long: MINUTE buckets from
 * the first surely kept minute on sum them; earlier ones, and every MINUTE bucket when minute documents are not
 * written, have null visit figures.
 */
function visitMinutes(
  now: number,
  secondsRetentionMs: number | undefined,
  retained: RetentionCutoffs | undefined,
): { visitMinutesFrom?: number } {
  const { minutesFrom } = visitorOptions(now, secondsRetentionMs, retained);
  return minutesFrom === undefined ? {} : { visitMinutesFrom: minutesFrom };
}

function checkSiteTotals(granularity: Granularity, limits: SeriesLimits): void {
  if (limits.siteTotals === false) {
    throw new BadUserInputError(
      'site totals are switched off on this server (SITE_TOTALS_ENABLED=false); query pageStats per page',
      'site',
    );
  }
  if (granularity === Granularity.SECOND) {
    throw new BadUserInputError(
      'granularity SECOND is kept per page only; site totals go down to MINUTE, got SECOND',
      'granularity',
    );
  }
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
