/**
 * UTC offsets of IANA time zones, from the platform's ICU data (Intl.DateTimeFormat): never a hand-written table.
 * Pure: every instant is passed in. Offsets are in milliseconds, local wall time = instant + offset.
 */
import { DAY_MS } from './buckets';

export const UTC_ZONE = 'UTC';

/**
 * Formatters by zone name as requests spell it. Intl takes names in any letter case ("eUrOpE/bErLiN"), so the
 * spellings are unbounded: past MAX_FORMATTERS the cache starts afresh (the ~600 zones and aliases fit easily).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 2_048;
const WALL = /^(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)$/;

/** True when the platform knows `zone` as an IANA time zone name (or an alias of one). */
export function isKnownTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** `UTC` for every spelling of it (`utc`, `Etc/UTC`, `Etc/Zulu`, …), so UTC keeps its arithmetic fast path. */
export function canonicalTimeZone(zone: string): string {
  return formatter(zone).resolvedOptions().timeZone === UTC_ZONE ? UTC_ZONE : zone;
}

/** The zone's offset from UTC at instant `t` (ms). Offsets are whole seconds, so `t` is read to the second. */
export function offsetAt(zone: string, t: number): number {
  if (zone === UTC_ZONE) return 0;
  const second = t - mod(t, 1_000);
  // format() and a regex: three times faster than formatToParts, and this runs a few times per bucket.
  const match = WALL.exec(formatter(zone).format(second));
  if (!match) throw new Error(`unexpected wall-clock format for time zone ${zone} at ${second}`);
  const [, month, day, year, hour, minute, sec] = match.map(Number) as number[];
  const wall = new Date(0);
  wall.setUTCFullYear(year as number, (month as number) - 1, day as number);
  wall.setUTCHours(hour as number, minute as number, sec as number, 0);
  return wall.getTime() - second;
}

/** The local wall time at `t`, as a UTC-epoch number (read its calendar fields with getUTC*). */
export function wallTime(zone: string, t: number): number {
  return t + offsetAt(zone, t);
}

/**
 * The instant a local wall time denotes. Ambiguous (clocks set back): the earlier instant. Skipped (clocks set
 * forward over it): the transition, the first instant whose wall time is past it. So a day or hour that starts
 * in a gap starts when the clock jumps, and one that starts in an overlap starts the first time the clock shows it.
 */
export function instantOfWall(zone: string, wall: number): number {
  if (zone === UTC_ZONE) return wall;
  // Offsets lie within ±1 day, and real zones never change offset twice within two days.
  const before = offsetAt(zone, wall - DAY_MS);
  const after = offsetAt(zone, wall + DAY_MS);
  const candidates = [wall - before, wall - after].filter((t) => t + offsetAt(zone, t) === wall);
  if (candidates.length > 0) return Math.min(...candidates);
  return transitionIn(zone, wall - after, wall - before);
}

/**
 * The first instant in (a, b] at which the offset equals the offset at `b`, given that it differs at `a`:
 * the transition between them (binary search; assumes one transition in the interval).
 */
export function transitionIn(zone: string, a: number, b: number): number {
  const target = offsetAt(zone, b);
  let low = Math.min(a, b);
  let high = Math.max(a, b);
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (offsetAt(zone, mid) === target) high = mid;
    else low = mid;
  }
  return high;
}

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(zone, f);
  }
  return f;
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}
