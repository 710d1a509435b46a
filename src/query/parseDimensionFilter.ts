/**
 * Validates a series' dimension filter at the boundary: a value the dimension can hold, and buckets that are unions
 * of UTC days, since dimension counters are kept per UTC day and month (issue 20). A refusal names the argument to
 * change (`granularity`, `timeZone`, `filter.value`) and says what would work.
 */
import { MAX_DIMENSION_VALUE_LENGTH } from '../domain/dimensions/Dimension';
import type { Dimension } from '../domain/dimensions/Dimension';
import { dimensionEnumName } from '../domain/dimensions/dimensionEnumName';
import { dimensionKey } from '../domain/dimensions/dimensionKey';
import { isSiteTotal } from '../domain/siteTotal';
import { BadUserInputError } from '../errors/BadUserInputError';
import { DAY_MS } from '../time/buckets';
import { formatWithOffset } from '../time/formatWithOffset';
import { Granularity } from '../time/Granularity';
import { bucketStartsIn, nextBucketIn } from '../time/zonedBuckets';
import { UTC_ZONE } from '../time/zoneOffset';
import type { DimensionFilter, SeriesRequest } from './Series';

export interface DimensionFilterInput {
  readonly dimension: Dimension;
  readonly value: string;
}

const DAY_GRANULARITIES: ReadonlySet<Granularity> = new Set([Granularity.DAY, Granularity.WEEK, Granularity.MONTH]);

/**
 * The filter for `request` (already parsed), or a BAD_USER_INPUT. `sketchedDimensions`: the dimensions whose site
 * documents keep per-value sketches (DIMENSION_VISITORS).
 */
export function parseDimensionFilter(
  input: DimensionFilterInput,
  request: SeriesRequest,
  sketchedDimensions: ReadonlySet<Dimension>,
): DimensionFilter {
  const { dimension, value } = input;
  if (value === '') throw new BadUserInputError('filter.value must not be empty', 'filter.value');
  const max = MAX_DIMENSION_VALUE_LENGTH[dimension];
  const length = [...value].length;
  if (length > max) {
    throw new BadUserInputError(
      `filter.value must be at most ${max} characters for dimension ${dimensionEnumName(dimension)}, got ${length}`,
      'filter.value',
    );
  }
  checkDayBuckets(request);
  return {
    dimension,
    value,
    key: dimensionKey(value),
    sketched: isSiteTotal(request.page) && sketchedDimensions.has(dimension),
  };
}

/**
 * Throws unless every bucket of the series (or of its comparison, `what`) starts and ends at a UTC midnight.
 * `counter` names what counts per UTC day in the messages: a filter's hits, or an event's occurrences.
 */
export function checkDayBuckets(request: SeriesRequest, what = 'the series', counter = 'filter counts hits'): void {
  checkFilterGranularity(request.granularity, counter);
  const zone = request.timeZone ?? UTC_ZONE;
  const starts = bucketStartsIn(zone, request.granularity, request.from, request.to);
  const boundaries = [...starts, nextBucketIn(zone, request.granularity, starts[starts.length - 1] as number)];
  const misaligned = boundaries.find((t) => t % DAY_MS !== 0);
  if (misaligned !== undefined) {
    throw new BadUserInputError(
      `${counter} per UTC day, so buckets must start at UTC midnight; in ${zone} a bucket boundary of ${what} falls at ${formatWithOffset(zone, misaligned)}; use timeZone "UTC"`,
      'timeZone',
    );
  }
}

export function checkFilterGranularity(granularity: Granularity, counter = 'filter counts hits'): void {
  if (!DAY_GRANULARITIES.has(granularity)) {
    throw new BadUserInputError(
      `${counter} per UTC day and month, so granularity must be DAY, WEEK or MONTH, got ${granularity}`,
      'granularity',
    );
  }
}
