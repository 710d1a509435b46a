/**
 * The days a ranking counts (topPages, breakdown): every local day (in `zone`) that intersects [from, to), at most
 * `maxDays` of them, and the UTC days covering those, which is what day and month documents can answer.
 */
import { BadUserInputError } from '../errors/BadUserInputError';
import { LimitExceededError } from '../errors/LimitExceededError';
import { DAY_MS } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import { bucketCountIn, bucketStartsIn, nextBucketIn } from '../time/zonedBuckets';

export interface CountedDays {
  /** Start of the first local day, end of the last (exclusive). */
  readonly from: number;
  readonly to: number;
  /** The UTC days covering them: UTC midnights, equal to from/to where the zone's days are UTC days. */
  readonly utcFrom: number;
  readonly utcTo: number;
}

export function countedDays(
  zone: string,
  fromDate: Date,
  toDate: Date,
  limits: { readonly maxDays: number; readonly field: string; readonly setting: string },
): CountedDays {
  const from = fromDate.getTime();
  const to = toDate.getTime();
  if (from >= to) {
    throw new BadUserInputError(
      `range.from must be before range.to, got from ${fromDate.toISOString()} and to ${toDate.toISOString()}`,
      'range',
    );
  }
  const days = bucketCountIn(zone, Granularity.DAY, from, to, limits.maxDays);
  if (days > limits.maxDays) {
    throw new LimitExceededError(
      limits.setting,
      limits.maxDays,
      days,
      `the number of days in range for ${limits.field}`,
      400,
      {
        field: 'range',
      },
    );
  }
  const starts = bucketStartsIn(zone, Granularity.DAY, from, to);
  const first = starts[0] as number;
  const end = nextBucketIn(zone, Granularity.DAY, starts[starts.length - 1] as number);
  return { from: first, to: end, utcFrom: floorDay(first), utcTo: ceilDay(end) };
}

function floorDay(t: number): number {
  return t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
}

function ceilDay(t: number): number {
  const down = floorDay(t);
  return down === t ? t : down + DAY_MS;
}
