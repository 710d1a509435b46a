/**
 * The charted dimension value (a clicked panel row): its URL form `?filter=source:Google`, and the granularity its
 * series can take. Dimension counters are kept per UTC day, so a filtered series has DAY, WEEK or MONTH buckets:
 * a chart at MINUTE or HOUR switches to DAY when its range offers DAY, and otherwise says why it cannot chart it.
 */
import { DIMENSION_LABELS, DIMENSION_NAMES } from './panels';
import type { DimensionName } from './panels';
import { RANGES } from './ranges';
import type { Granularity, RangeOption } from './ranges';

/** What a filter plan needs of a period: its name and the granularities it offers. */
export type PlannedRange = Pick<RangeOption, 'label' | 'granularities'>;

export interface DimensionFilter {
  readonly dimension: DimensionName;
  readonly value: string;
}

/** `source:Google`, `utm_campaign:spring` (the value may contain ":"); undefined for anything else. */
export function parseFilterParam(param: string | null): DimensionFilter | undefined {
  if (!param) return undefined;
  const colon = param.indexOf(':');
  if (colon <= 0 || colon === param.length - 1) return undefined;
  const dimension = DIMENSION_NAMES.find((name) => name === param.slice(0, colon).toUpperCase());
  return dimension ? { dimension, value: param.slice(colon + 1) } : undefined;
}

export function filterParam(filter: DimensionFilter): string {
  return `${filter.dimension.toLowerCase()}:${filter.value}`;
}

export function describeFilter(filter: DimensionFilter): string {
  return `${DIMENSION_LABELS[filter.dimension]}: ${filter.value}`;
}

const DAY_BUCKETS: readonly Granularity[] = ['DAY', 'WEEK', 'MONTH'];

/** The chart's granularity with the filter charted, or why the filter cannot be charted over this range. */
export type FilterPlan =
  { readonly granularity: Granularity; readonly switched: boolean } | { readonly reason: string };

/**
 * The granularity a series counted per UTC day can be charted at over this range (DAY when the chart is by the
 * minute or hour and the range offers days), or why it cannot: `subject` names the series, `counted` what is
 * counted per day.
 */
export function planDayBuckets(
  subject: string,
  counted: string,
  range: PlannedRange,
  granularity: Granularity,
): FilterPlan {
  if (DAY_BUCKETS.includes(granularity)) return { granularity, switched: false };
  if (range.granularities.includes('DAY')) return { granularity: 'DAY', switched: true };
  const longEnough = RANGES.find((r) => r.granularities.includes('DAY'));
  return {
    reason:
      `${subject} cannot be charted over the ${range.label.toLowerCase()}: ` +
      `${counted} are counted per UTC day, so they chart by day, week or month. ` +
      `Pick “${longEnough?.label ?? 'a longer range'}” or longer.`,
  };
}

export function planFilter(filter: DimensionFilter, range: PlannedRange, granularity: Granularity): FilterPlan {
  return planDayBuckets(describeFilter(filter), `hits per ${DIMENSION_LABELS[filter.dimension]}`, range, granularity);
}
