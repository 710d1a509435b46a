/**
 * What a view's chart and series table hold, from the view query's answer: the whole site's hits and visitors
 * (when the chart's granularity has site documents), the charted dimension value, the selected goal (its event's
 * occurrences, or its page's hits), then each page. All share the
 * chart's buckets. A series that failed is drawn as zeros only where the API said nothing: its row says it failed.
 */
import { describeFilter } from './dimensionFilter';
import type { DimensionFilter } from './dimensionFilter';
import type { PageSlot, PageVisitorsSlot, SeriesResult, ViewResult, VisitorsResult } from './operations';

export const SITE_COLOR = '#52606d';
export const VISITORS_COLOR = '#0d9488';
export const FILTER_COLOR = '#d97706';
export const GOAL_COLOR = '#92400e';
export const PAGE_COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4d7c0f', '#be185d'];

export interface ViewSeries {
  readonly kind: 'site' | 'filtered' | 'goal' | 'page';
  readonly label: string;
  readonly color: string;
  /** For page series: the page, which live updates are matched by. */
  readonly page?: string;
  /** Hits per chart bucket (null: dropped by retention, a gap); live updates add to them. */
  readonly hits: (number | null)[];
  readonly visitors: number | null;
  /** The span the visitors count when it is not the hits' span (the table marks them); else undefined. */
  readonly visitorsSpan?: { readonly from: number; readonly to: number };
  /** The API's error for this series, when it returned none. */
  readonly failed: boolean;
}

export interface ViewChart {
  /** Bucket starts (ms) and the end of the last bucket. */
  readonly starts: number[];
  readonly end: number;
  readonly series: ViewSeries[];
  /** The whole site's visitors per bucket (null: not known for that bucket, a gap); absent without a site line. */
  readonly visitors?: (number | null)[];
}

export interface ViewSeriesInput {
  readonly site: string;
  readonly pages: readonly string[];
  /** Whether the site series shares the chart's buckets (false on SECOND charts: it is read by minute). */
  readonly siteDrawn: boolean;
  readonly filter?: DimensionFilter | undefined;
  /** The charted goal's label, and which field holds its series. */
  readonly goal?: { readonly label: string; readonly field: 'goalEvent' | 'goalPage' } | undefined;
}

/** The span `counted` counts visitors over, when it is not the hits' span of `series`. */
function otherVisitorsSpan(
  series: SeriesResult,
  counted: Partial<VisitorsResult>,
): { from: number; to: number } | undefined {
  if (counted.visitors == null || counted.visitorsFrom == null || counted.visitorsTo == null) return undefined;
  const from = Date.parse(counted.visitorsFrom);
  const to = Date.parse(counted.visitorsTo);
  return from === Date.parse(series.from) && to === Date.parse(series.to) ? undefined : { from, to };
}

/** Undefined when no drawn series came back (every one failed). */
export function viewSeries(result: ViewResult, input: ViewSeriesInput): ViewChart | undefined {
  const drawn: Array<{
    kind: ViewSeries['kind'];
    label: string;
    color: string;
    page?: string;
    data: unknown;
    /** Where its visitors come from when not the series itself (pages' visitors by day). */
    visitorsData?: unknown;
  }> = [];
  if (input.siteDrawn) {
    drawn.push({ kind: 'site', label: `${input.site} (whole site)`, color: SITE_COLOR, data: result.site });
  }
  if (input.filter) {
    drawn.push({ kind: 'filtered', label: describeFilter(input.filter), color: FILTER_COLOR, data: result.filtered });
  }
  if (input.goal) {
    drawn.push({ kind: 'goal', label: `goal: ${input.goal.label}`, color: GOAL_COLOR, data: result[input.goal.field] });
  }
  input.pages.forEach((page, i) => {
    const visitorsSlot = `v${i}` as PageVisitorsSlot;
    drawn.push({
      kind: 'page',
      label: page,
      color: PAGE_COLORS[i % PAGE_COLORS.length]!,
      page,
      data: result[`p${i}` as PageSlot],
      ...(visitorsSlot in result ? { visitorsData: result[visitorsSlot] } : {}),
    });
  });
  const first = drawn.map((d) => d.data as SeriesResult | null | undefined).find((s): s is SeriesResult => !!s);
  if (!first) return undefined;
  const starts = first.points.map((p) => Date.parse(p.t));
  const series = drawn.map(({ data, visitorsData, ...rest }): ViewSeries => {
    const read = (data ?? null) as SeriesResult | null;
    const counted = (visitorsData !== undefined ? visitorsData : read) as Partial<VisitorsResult> | null;
    const visitorsSpan = read && counted ? otherVisitorsSpan(read, counted) : undefined;
    return {
      ...rest,
      hits: read ? read.points.map((p) => p.hits) : starts.map(() => 0),
      visitors: counted?.visitors ?? null,
      ...(visitorsSpan ? { visitorsSpan } : {}),
      failed: read === null,
    };
  });
  const site = input.siteDrawn ? result.site : undefined;
  return {
    starts,
    end: Date.parse(first.to),
    series,
    ...(site ? { visitors: site.points.map((p) => p.visitors ?? null) } : {}),
  };
}
