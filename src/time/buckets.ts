/**
 * Pure UTC bucket arithmetic over epoch milliseconds. Weeks are ISO weeks (Monday 00:00 UTC).
 * Nothing here reads the clock: callers pass every instant in.
 */
import { Granularity } from './Granularity';

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

const FIXED_WIDTH: Partial<Record<Granularity, number>> = {
  [Granularity.SECOND]: SECOND_MS,
  [Granularity.MINUTE]: MINUTE_MS,
  [Granularity.HOUR]: HOUR_MS,
  [Granularity.DAY]: DAY_MS,
  [Granularity.WEEK]: WEEK_MS,
};

/** 1970-01-01 was a Thursday; ISO weeks start on Monday, three days later. */
const FIRST_MONDAY_MS = 4 * DAY_MS;

export function startOfDay(ms: number): number {
  return ms - mod(ms, DAY_MS);
}

export function startOfMonth(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

export function addMonths(ms: number, months: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1);
}

export function daysInMonth(ms: number): number {
  const date = new Date(ms);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
}

/** The start of the bucket that contains `ms`. */
export function floorTo(granularity: Granularity, ms: number): number {
  if (granularity === Granularity.MONTH) return startOfMonth(ms);
  if (granularity === Granularity.WEEK) return ms - mod(ms - FIRST_MONDAY_MS, WEEK_MS);
  const width = FIXED_WIDTH[granularity] as number;
  return ms - mod(ms, width);
}

/** The start of the bucket after the one starting at `bucketStart`. */
export function nextBucket(granularity: Granularity, bucketStart: number): number {
  if (granularity === Granularity.MONTH) return addMonths(bucketStart, 1);
  return bucketStart + (FIXED_WIDTH[granularity] as number);
}

/** How many buckets intersect [from, to), without listing them (for limits checked before any work). */
export function bucketCount(granularity: Granularity, from: number, to: number): number {
  if (to <= from) return 0;
  const first = floorTo(granularity, from);
  if (granularity === Granularity.MONTH) {
    const a = new Date(first);
    const b = new Date(to - 1);
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth()) + 1;
  }
  return Math.floor((to - 1 - first) / (FIXED_WIDTH[granularity] as number)) + 1;
}

/** The starts of the buckets that intersect [from, to): from floor(from) up to the last one starting before `to`. */
export function bucketStarts(granularity: Granularity, from: number, to: number): number[] {
  const starts: number[] = [];
  for (let t = floorTo(granularity, from); t < to; t = nextBucket(granularity, t)) starts.push(t);
  return starts;
}

/**
 * `YYYYMMDD` of the UTC day containing `ms`. Ingest builds one per hit and collection, so each day's string is
 * formatted once and remembered (a bounded cache: the result depends on `ms` alone).
 */
export function dayKey(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let key = DAY_KEYS.get(day);
  if (key === undefined) {
    key = new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');
    if (DAY_KEYS.size >= DAY_KEY_CACHE) DAY_KEYS.clear();
    DAY_KEYS.set(day, key);
  }
  return key;
}

const DAY_KEY_CACHE = 4_096;
const DAY_KEYS = new Map<number, string>();

/** `YYYYMM` of the UTC month containing `ms`. */
export function monthKey(ms: number): string {
  return dayKey(ms).slice(0, 6);
}

/** `YYYYMMDDHHmm` of the UTC minute containing `ms`. */
export function minuteKey(ms: number): string {
  const inDay = mod(ms, DAY_MS);
  return `${dayKey(ms)}${TWO_DIGITS[Math.floor(inDay / HOUR_MS)]}${TWO_DIGITS[Math.floor((inDay % HOUR_MS) / MINUTE_MS)]}`;
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}
