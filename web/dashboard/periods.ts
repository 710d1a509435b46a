/**
 * Calendar periods of the dashboard (issue 30): today, yesterday, month to date, last month, year to date, the last
 * 12 months, all time and a custom range of days, as whole local days of a time zone, and the granularity that
 * follows their length. Pure: `today` (or `now`) and the zone are arguments.
 */
import type { Granularity } from './ranges';

/** A calendar date, `YYYY-MM-DD`. */
export type Day = string;

/** Whole days, both included. */
export interface DayRange {
  readonly first: Day;
  readonly last: Day;
}

export type CalendarPresetId = 'today' | 'yesterday' | 'mtd' | 'lastMonth' | 'ytd' | '12mo' | 'all';

export const CALENDAR_PRESETS: readonly { readonly id: CalendarPresetId; readonly label: string }[] = [
  { id: 'today', label: 'Today' },
  { id: 'yesterday', label: 'Yesterday' },
  { id: 'mtd', label: 'Month to date' },
  { id: 'lastMonth', label: 'Last month' },
  { id: 'ytd', label: 'Year to date' },
  { id: '12mo', label: 'Last 12 months' },
  { id: 'all', label: 'All time' },
];

export function isCalendarPreset(id: string | null): id is CalendarPresetId {
  return CALENDAR_PRESETS.some((preset) => preset.id === id);
}

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970-01-01 of a valid calendar date in the years 1000–9999 (the API's), else undefined. */
function dayNumber(day: string): number | undefined {
  const match = DAY_PATTERN.exec(day);
  if (!match) return undefined;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1000) return undefined;
  const ms = Date.UTC(year, month - 1, date);
  const back = new Date(ms);
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== date) return undefined;
  return ms / DAY_MS;
}

const dayOf = (n: number): Day => new Date(n * DAY_MS).toISOString().slice(0, 10);

export function parseDay(value: string | null): Day | undefined {
  return value !== null && dayNumber(value) !== undefined ? value : undefined;
}

/** A custom range from its URL form; undefined unless both are days and `from` is not after `to`. */
export function parseDayRange(from: string | null, to: string | null): DayRange | undefined {
  const first = parseDay(from);
  const last = parseDay(to);
  if (first === undefined || last === undefined || first > last) return undefined;
  return { first, last };
}

export function addDays(day: Day, days: number): Day {
  return dayOf((dayNumber(day) as number) + days);
}

/** The number of days of a range (1 for one day). */
export function dayCount(range: DayRange): number {
  return (dayNumber(range.last) as number) - (dayNumber(range.first) as number) + 1;
}

const ymd = (day: Day): [number, number, number] => day.split('-').map(Number) as [number, number, number];
const utcDay = (year: number, month: number, date: number): Day => dayOf(Date.UTC(year, month - 1, date) / DAY_MS);

/**
 * The days of a preset seen on `today` (a local date). "All time" starts at `firstDay` (the site's first stored day)
 * and is undefined without one; a first day after today (a clock behind the data) counts from today.
 */
export function presetDays(id: CalendarPresetId, today: Day, firstDay?: Day): DayRange | undefined {
  const [year, month] = ymd(today);
  switch (id) {
    case 'today':
      return { first: today, last: today };
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { first: yesterday, last: yesterday };
    }
    case 'mtd':
      return { first: utcDay(year, month, 1), last: today };
    case 'lastMonth':
      // Day 0 of this month is the last day of the one before.
      return { first: utcDay(year, month - 1, 1), last: utcDay(year, month, 0) };
    case 'ytd':
      return { first: utcDay(year, 1, 1), last: today };
    case '12mo':
      // This month so far and the eleven before it.
      return { first: utcDay(year, month - 11, 1), last: today };
    case 'all':
      return firstDay === undefined ? undefined : { first: firstDay < today ? firstDay : today, last: today };
  }
}

const FORMATS = new Map<string, Intl.DateTimeFormat>();

function format(zone: string): Intl.DateTimeFormat {
  let formatter = FORMATS.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    FORMATS.set(zone, formatter);
  }
  return formatter;
}

/** The wall clock of instant `t` in `zone`, as if it were UTC (ms). */
function wallClock(t: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of format(zone).formatToParts(t)) parts[part.type] = Number(part.value);
  const { year, month, day, hour, minute, second } = parts as Record<string, number>;
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second!) + (((t % 1000) + 1000) % 1000);
}

/** The local date of instant `now` in `zone`. */
export function localDay(now: number, zone: string): Day {
  return new Date(wallClock(now, zone)).toISOString().slice(0, 10);
}

/**
 * The first instant of local day `day` in `zone`: its midnight, or where the day begins when a DST change skips
 * midnight (America/Santiago springs from 00:00 to 01:00). The offsets a day before and after cover any change.
 */
export function startOfLocalDay(day: Day, zone: string): number {
  const wall = (dayNumber(day) as number) * DAY_MS;
  const candidates = [wall - DAY_MS, wall + DAY_MS].map((probe) => wall - (wallClock(probe, zone) - probe));
  const exact = candidates.filter((t) => wallClock(t, zone) === wall);
  if (exact.length > 0) return Math.min(...exact);
  return Math.min(...candidates.filter((t) => localDay(t, zone) === day));
}

/** The half-open instants [from, to) of whole local days: the first day's start to the start of the day after. */
export function dayRangeInstants(range: DayRange, zone: string): { from: string; to: string } {
  return {
    from: new Date(startOfLocalDay(range.first, zone)).toISOString(),
    to: new Date(startOfLocalDay(addDays(range.last, 1), zone)).toISOString(),
  };
}

/**
 * The granularities a period of `days` days offers, its default first. The default follows the span: up to 2 days
 * HOUR, up to 400 days DAY (a whole year stays exact: day buckets start and end where the period does), longer
 * MONTH. MINUTE up to 2 days, HOUR up to 31, DAY up to 10 years, WEEK from 2 weeks and MONTH from 2 months are
 * offered too (WEEK and MONTH count the whole weeks and months the period touches, and the figures say so).
 */
export function periodGranularities(days: number): Granularity[] {
  const preferred: Granularity = days <= 2 ? 'HOUR' : days <= 400 ? 'DAY' : 'MONTH';
  const offered: Granularity[] = [];
  if (days <= 2) offered.push('MINUTE');
  if (days <= 31) offered.push('HOUR');
  if (days <= 3660) offered.push('DAY');
  if (days >= 14) offered.push('WEEK');
  if (days >= 60) offered.push('MONTH');
  return [preferred, ...offered.filter((g) => g !== preferred)];
}
