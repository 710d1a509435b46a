/**
 * The period a view shows, in its three kinds: a rolling range ending now (`?range=24h`), a calendar preset
 * (`?range=mtd`) or a custom range of days (`?from=2025-01-01&to=2025-03-31`, both days included), and the
 * instants, granularities and liveness it means at `now` in the dashboard's time zone. Pure.
 */
import {
  CALENDAR_PRESETS,
  dayCount,
  dayRangeInstants,
  isCalendarPreset,
  localDay,
  parseDayRange,
  periodGranularities,
  presetDays,
} from './periods';
import type { CalendarPresetId, Day, DayRange } from './periods';
import { RANGES, findRange, rangeAt } from './ranges';
import type { Granularity } from './ranges';

/** Calendar days are the dashboard's days: UTC, the zone of its buckets, panels and spans (formatSpan). */
export const DASHBOARD_ZONE = 'UTC';

export type PeriodChoice =
  | { readonly kind: 'rolling'; readonly id: string }
  | { readonly kind: 'calendar'; readonly id: CalendarPresetId }
  | { readonly kind: 'custom'; readonly days: DayRange };

export interface ResolvedPeriod {
  readonly label: string;
  /** The first is the default. */
  readonly granularities: readonly Granularity[];
  readonly from: string;
  readonly to: string;
  /** Whole days, for calendar periods (the custom range's inputs start from them). */
  readonly days?: DayRange;
  /** Hits can still arrive inside it: it ends after `now`. */
  readonly live: boolean;
}

/** The select's value for a custom range. */
export const CUSTOM = 'custom';

export const PERIOD_OPTIONS: readonly { readonly id: string; readonly label: string }[] = [
  ...RANGES,
  ...CALENDAR_PRESETS,
  { id: CUSTOM, label: 'Custom range…' },
];

/** A valid `from`/`to` pair wins over `range`; an unknown range is the default rolling one. */
export function readPeriod(range: string | null, from: string | null, to: string | null): PeriodChoice {
  const days = parseDayRange(from, to);
  if (days) return { kind: 'custom', days };
  if (isCalendarPreset(range)) return { kind: 'calendar', id: range };
  return { kind: 'rolling', id: findRange(range).id };
}

/** The URL parameters of a period (and the select's value: `periodId`). */
export function periodParams(choice: PeriodChoice): Record<string, string> {
  return choice.kind === 'custom' ? { from: choice.days.first, to: choice.days.last } : { range: choice.id };
}

export function periodId(choice: PeriodChoice): string {
  return choice.kind === 'custom' ? CUSTOM : choice.id;
}

/** Whether resolving the period needs the site's first stored day. */
export function needsFirstDay(choice: PeriodChoice): boolean {
  return choice.kind === 'calendar' && choice.id === 'all';
}

function labelOf(days: DayRange): string {
  return days.first === days.last ? days.first : `${days.first} to ${days.last}`;
}

/**
 * What the period means at `now` in `zone`; undefined for "all time" of a site with no first day (no hits).
 * `firstDay`: the site's first stored day, for "all time".
 */
export function resolvePeriod(
  choice: PeriodChoice,
  now: number,
  zone: string,
  firstDay?: Day,
): ResolvedPeriod | undefined {
  if (choice.kind === 'rolling') {
    const range = findRange(choice.id);
    return { label: range.label, granularities: range.granularities, ...rangeAt(range, now), live: true };
  }
  const days = choice.kind === 'custom' ? choice.days : presetDays(choice.id, localDay(now, zone), firstDay);
  if (!days) return undefined;
  const instants = dayRangeInstants(days, zone);
  const label = choice.kind === 'custom' ? labelOf(days) : CALENDAR_PRESETS.find((p) => p.id === choice.id)!.label;
  return {
    label,
    granularities: periodGranularities(dayCount(days)),
    ...instants,
    days,
    live: Date.parse(instants.to) > now,
  };
}
