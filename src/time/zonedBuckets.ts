/**
 * Bucket arithmetic in a time zone. DAY, WEEK (ISO, Monday) and MONTH buckets start at local midnight (or, when
 * midnight is skipped, when the clock jumps past it). HOUR and MINUTE buckets follow the local wall clock: a bucket
 * starts wherever the wall clock shows a whole hour (minute), and at every offset change, so a day has 23 or 25
 * hour buckets at a one-hour DST change and one 30-minute bucket at Lord Howe's half-hour change. SECOND buckets
 * are UTC seconds (offsets are whole seconds). In UTC every function equals its buckets.ts counterpart.
 * Pure: instants in, instants out.
 */
import { bucketCount, DAY_MS, floorTo, HOUR_MS, MINUTE_MS, nextBucket } from './buckets';
import { Granularity } from './Granularity';
import { instantOfWall, offsetAt, transitionIn, UTC_ZONE, wallTime } from './zoneOffset';

const WALL_UNIT: Partial<Record<Granularity, number>> = {
  [Granularity.MINUTE]: MINUTE_MS,
  [Granularity.HOUR]: HOUR_MS,
};

/** The start of the bucket of `granularity` in `zone` that contains `t`. */
export function floorIn(zone: string, granularity: Granularity, t: number): number {
  if (zone === UTC_ZONE || granularity === Granularity.SECOND) return floorTo(granularity, t);
  const unit = WALL_UNIT[granularity];
  if (unit !== undefined) {
    const offset = offsetAt(zone, t);
    const aligned = t - mod(t + offset, unit);
    // The offset changed after the last whole hour (minute) of the current offset: the bucket starts at the change.
    return offsetAt(zone, aligned) === offset ? aligned : transitionIn(zone, aligned, t);
  }
  return startOfLocalDay(zone, localCalendarFloor(granularity, wallTime(zone, t)));
}

/** The start of the bucket after the one starting at `bucketStart`. */
export function nextBucketIn(zone: string, granularity: Granularity, bucketStart: number): number {
  if (zone === UTC_ZONE || granularity === Granularity.SECOND) return nextBucket(granularity, bucketStart);
  const unit = WALL_UNIT[granularity];
  if (unit !== undefined) {
    const offset = offsetAt(zone, bucketStart);
    const next = bucketStart + unit - mod(bucketStart + offset, unit);
    return offsetAt(zone, next) === offset ? next : transitionIn(zone, bucketStart, next);
  }
  const day = localCalendarFloor(granularity, wallTime(zone, bucketStart));
  const next = startOfLocalDay(zone, nextLocalPeriod(granularity, day));
  // Never stall, whatever a zone's history holds.
  return next > bucketStart ? next : bucketStart + DAY_MS;
}

/** The start of the bucket before the one starting at `bucketStart`. */
export function previousBucketIn(zone: string, granularity: Granularity, bucketStart: number): number {
  return floorIn(zone, granularity, bucketStart - 1);
}

/** The starts of the buckets that intersect [from, to). */
export function bucketStartsIn(zone: string, granularity: Granularity, from: number, to: number): number[] {
  const starts: number[] = [];
  for (let t = floorIn(zone, granularity, from); t < to; t = nextBucketIn(zone, granularity, t)) starts.push(t);
  return starts;
}

/**
 * How many buckets intersect [from, to), for limits checked before any work. Past `limit` the UTC count is
 * returned (time zones move a count by at most a few buckets), so a huge range is never enumerated.
 */
export function bucketCountIn(zone: string, granularity: Granularity, from: number, to: number, limit: number): number {
  const utc = bucketCount(granularity, from, to);
  if (zone === UTC_ZONE || granularity === Granularity.SECOND || utc > limit + 2) return utc;
  return bucketStartsIn(zone, granularity, from, to).length;
}

/** The same local wall time one calendar year earlier (29 February → 28 February), as an instant. */
export function sameWallTimeYearBefore(zone: string, t: number): number {
  const wall = new Date(wallTime(zone, t));
  const year = wall.getUTCFullYear() - 1;
  const month = wall.getUTCMonth();
  const day = Math.min(wall.getUTCDate(), new Date(Date.UTC(year, month + 1, 0)).getUTCDate());
  const shifted = new Date(wall.getTime());
  shifted.setUTCFullYear(year, month, day);
  return instantOfWall(zone, shifted.getTime());
}

/** The first instant of the local calendar day whose wall-clock midnight is `dayWall`. */
function startOfLocalDay(zone: string, dayWall: number): number {
  return instantOfWall(zone, dayWall);
}

/** Local midnight (as a wall time) of the day, ISO week or month holding the wall time `wall`. */
function localCalendarFloor(granularity: Granularity, wall: number): number {
  const day = wall - mod(wall, DAY_MS);
  if (granularity === Granularity.DAY) return day;
  if (granularity === Granularity.WEEK) return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
  const date = new Date(day);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

function nextLocalPeriod(granularity: Granularity, periodWall: number): number {
  if (granularity === Granularity.DAY) return periodWall + DAY_MS;
  if (granularity === Granularity.WEEK) return periodWall + 7 * DAY_MS;
  const date = new Date(periodWall);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}
