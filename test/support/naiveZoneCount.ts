/**
 * Oracles for zoned series that share no code with src/time: hits counted by bucket membership, and local
 * wall-clock fields read with Intl's formatToParts (src uses format() and its own arithmetic).
 */
import type { Hit } from '../../src/domain/Hit';
import { Granularity } from '../../src/time/Granularity';

/** Hits per bucket, by membership in [start, next start) (the last bucket ends at `end`). */
export function naiveCounts(hits: readonly Hit[], starts: readonly number[], end: number): number[] {
  return starts.map((start, i) => {
    const stop = starts[i + 1] ?? end;
    return hits.filter((hit) => hit.at >= start && hit.at < stop).reduce((sum, hit) => sum + hit.count, 0);
  });
}

/** The local wall clock at `t` in `zone`: { weekday, day, hour, minute }. */
export function localParts(zone: string, t: number): { weekday: string; day: number; hour: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(t);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return { weekday: get('weekday'), day: Number(get('day')), hour: Number(get('hour')), minute: Number(get('minute')) };
}

const GRID_FORMATS = new Map<string, Intl.DateTimeFormat>();
const GRIDS = new Map<string, { starts: number[]; end: number }>();
const MINUTE_MS = 60_000;
const QUARTER_HOUR_MS = 15 * MINUTE_MS;
/** How far before `from` the bucket holding it can start (a month, a week, a day, an hour, with DST to spare). */
const LOOKBACK_MS = {
  MINUTE: MINUTE_MS,
  HOUR: 2 * 3_600_000,
  DAY: 2 * 86_400_000,
  WEEK: 8 * 86_400_000,
  MONTH: 33 * 86_400_000,
};

/** What names the local bucket holding `t`: its calendar fields, read with Intl only. */
function bucketKey(granularity: keyof typeof LOOKBACK_MS, zone: string, t: number): string {
  let format = GRID_FORMATS.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    GRID_FORMATS.set(zone, format);
  }
  const parts = format.formatToParts(t);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  const [year, month, day] = [Number(get('year')), Number(get('month')), Number(get('day'))];
  switch (granularity) {
    // Hours and minutes also start at an offset change (zonedBuckets): a wall-clock hour repeated when clocks go
    // back (Lord Howe's half hour included) is two buckets, told apart by the offset.
    case 'MINUTE':
      return `${year}-${month}-${day} ${get('hour')}:${get('minute')} ${get('timeZoneName')}`;
    case 'HOUR':
      return `${year}-${month}-${day} ${get('hour')} ${get('timeZoneName')}`;
    case 'DAY':
      return `${year}-${month}-${day}`;
    case 'WEEK': {
      const sinceMonday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday'));
      return new Date(Date.UTC(year, month - 1, day - sinceMonday)).toISOString().slice(0, 10);
    }
    case 'MONTH':
      return `${year}-${month}`;
  }
}

/**
 * The buckets a series over [from, to) must have, found by walking the clock: a bucket starts wherever the local
 * bucket's name changes. Every zone's offset and DST change falls on a quarter hour, so quarter-hour steps (minute
 * steps for MINUTE) see every start. Shares no code with src/time: the series tests compare the server's grid with it.
 */
export function naiveGrid(
  granularity: Granularity,
  zone: string,
  from: number,
  to: number,
): { starts: number[]; end: number } {
  if (granularity === Granularity.SECOND) throw new Error('naiveGrid walks minutes at the finest');
  const id = `${granularity} ${zone} ${from} ${to}`;
  const cached = GRIDS.get(id);
  if (cached) return cached;
  const step = granularity === 'MINUTE' ? MINUTE_MS : QUARTER_HOUR_MS;
  let t = Math.floor((from - LOOKBACK_MS[granularity]) / step) * step;
  let previous = bucketKey(granularity, zone, t);
  const starts: number[] = [];
  for (;;) {
    t += step;
    const key = bucketKey(granularity, zone, t);
    if (key === previous) continue;
    previous = key;
    if (t >= to) break;
    if (t <= from) starts.length = 0;
    starts.push(t);
  }
  if (starts[0] === undefined || starts[0] > from) throw new Error(`naiveGrid: no bucket start found before ${from}`);
  const grid = { starts, end: t };
  GRIDS.set(id, grid);
  return grid;
}
