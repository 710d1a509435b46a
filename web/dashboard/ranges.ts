/**
 * The dashboard's range and granularity pickers: which granularities make sense for each range (a few
 * dozen to a few thousand buckets), and the [from, to) a range means at `now`.
 */
export type Granularity = 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH';

export interface RangeOption {
  readonly id: string;
  readonly label: string;
  readonly ms: number;
  readonly granularities: readonly Granularity[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The first granularity of each option is its default. */
export const RANGES: readonly RangeOption[] = [
  { id: '15m', label: 'Last 15 minutes', ms: 15 * MINUTE, granularities: ['SECOND', 'MINUTE'] },
  { id: '1h', label: 'Last hour', ms: HOUR, granularities: ['MINUTE', 'SECOND'] },
  { id: '24h', label: 'Last 24 hours', ms: DAY, granularities: ['HOUR', 'MINUTE'] },
  { id: '7d', label: 'Last 7 days', ms: 7 * DAY, granularities: ['HOUR', 'DAY'] },
  { id: '30d', label: 'Last 30 days', ms: 30 * DAY, granularities: ['DAY', 'HOUR', 'WEEK'] },
  { id: '90d', label: 'Last 90 days', ms: 90 * DAY, granularities: ['DAY', 'WEEK', 'MONTH'] },
  { id: '365d', label: 'Last 365 days', ms: 365 * DAY, granularities: ['WEEK', 'DAY', 'MONTH'] },
];

export function findRange(id: string | null): RangeOption {
  return RANGES.find((range) => range.id === id) ?? RANGES[1]!;
}

/** The granularity asked for when the range allows it, else the range's default. */
export function pickGranularity(range: Pick<RangeOption, 'granularities'>, wanted: string | null): Granularity {
  return range.granularities.find((g) => g === wanted) ?? range.granularities[0]!;
}

export function rangeAt(range: RangeOption, now: number): { from: string; to: string } {
  return { from: new Date(now - range.ms).toISOString(), to: new Date(now).toISOString() };
}
