/**
 * The GraphQL operations the dashboard sends: `.graphql` documents in operations/, typed by `npm run codegen` into
 * generated/graphql.ts (each document is its source text, typed with its result and variables). Without chosen
 * pages, `topPages` picks the site's busiest pages over the range. Then ONE query (DashboardView) reads everything a
 * view shows, from one batched find per collection: its fields are switched on by variables (`@include`), the
 * pages go into fixed slots p0…p7. Beside it DashboardVisits reads the entry and exit pages. Then a `pageStatsLive`
 * subscription per page.
 */
import type { DimensionFilter } from './dimensionFilter';
import type { DashboardViewQuery, DashboardViewQueryVariables } from './generated/graphql';
import { goalInput } from './goals';
import type { Goal, GoalFocus } from './goals';
import type { Granularity } from './ranges';

export {
  DashboardFirstDayDocument as FIRST_DAY_QUERY,
  DashboardLiveDocument as LIVE_SUBSCRIPTION,
  DashboardTopPagesDocument as TOP_PAGES_QUERY,
  DashboardViewDocument as VIEW_QUERY,
  DashboardVisitsDocument as VISIT_PAGES_QUERY,
} from './generated/graphql';

export interface PointResult {
  t: string;
  /** Null where the bucket reaches detail that retention dropped (RETENTION_DAYS, RETENTION_MINUTES_DAYS). */
  hits: number | null;
  visitors?: number | null;
}

export interface VisitorsResult {
  visitors: number | null;
  visitorsFrom: string | null;
  visitorsTo: string | null;
}

/** A series; its visitors fields are absent where the query did not select them (pages' visitors by day). */
export interface SeriesResult extends Partial<VisitorsResult> {
  from: string;
  to: string;
  /** Null when a bucket is (retention). */
  total: number | null;
  points: PointResult[];
}

/** The whole site: always with visitors (per point too) and the previous period. */
export type SiteResult = NonNullable<DashboardViewQuery['site']>;

/** Every field may be null (with an error) on its own: the others still show. Absent: not asked for. */
export type ViewResult = Partial<DashboardViewQuery>;

/** The slots of the view query: at most this many pages are charted. */
export const PAGE_SLOTS = 8;

export type PageSlot = `p${0 | 1 | 2 | 3 | 4 | 5 | 6 | 7}`;
export type PageVisitorsSlot = `v${0 | 1 | 2 | 3 | 4 | 5 | 6 | 7}`;

/**
 * Pages' visitors on MINUTE and HOUR (and SECOND) charts are read per UTC day, from the DAY slot of each page
 * (v0, v1, …): the day documents' page sketches, in the finds the view makes anyway. Read at the chart's
 * granularity they would come from every per-minute document of every page (2,880 a page over the 48 hours
 * kept), several finds and about three times the latency of the whole view. The table marks them as counted
 * over whole days.
 */
export function pageVisitorsByDay(granularity: Granularity): boolean {
  return granularity === 'SECOND' || granularity === 'MINUTE' || granularity === 'HOUR';
}

/** siteStats reads site-level documents, which exist from MINUTE to MONTH: a SECOND chart reads the site by minute. */
export function siteGranularity(granularity: Granularity): Granularity {
  return granularity === 'SECOND' ? 'MINUTE' : granularity;
}

export interface ViewInput {
  readonly site: string;
  readonly pages: readonly string[];
  readonly range: { readonly from: string; readonly to: string };
  readonly granularity: Granularity;
  readonly filter?: DimensionFilter | undefined;
  readonly goals?: readonly Goal[];
  /** The selected goal's focus; `chart` false when the chart's buckets cannot hold its series. */
  readonly focus?: { readonly goal: GoalFocus; readonly chart: boolean } | undefined;
  /** The property key whose values the properties panel lists, for an event goal. */
  readonly propertyKey?: string | undefined;
}

export function viewVariables(view: ViewInput): DashboardViewQueryVariables {
  if (view.pages.length > PAGE_SLOTS) throw new RangeError(`at most ${PAGE_SLOTS} pages, got ${view.pages.length}`);
  const variables: DashboardViewQueryVariables = {
    site: view.site,
    range: { from: view.range.from, to: view.range.to },
    granularity: view.granularity,
    siteGranularity: siteGranularity(view.granularity),
    seriesVisitors: !pageVisitorsByDay(view.granularity),
  };
  const slots = variables as Record<string, unknown>;
  view.pages.forEach((page, i) => {
    slots[`p${i}`] = page;
    slots[`withP${i}`] = true;
  });
  if (view.filter) {
    variables.filter = { dimension: view.filter.dimension, value: view.filter.value };
    variables.filtered = true;
  }
  if (view.goals && view.goals.length > 0) {
    variables.goals = view.goals.map(goalInput);
    variables.withGoals = true;
  }
  const focus = view.focus?.goal;
  if (focus && 'event' in focus) {
    variables.goalEvent = focus.event;
    variables.panelEvent = focus.panelEvent;
    variables.chartEvent = view.focus?.chart === true;
    if (view.propertyKey) {
      variables.propertyKey = view.propertyKey;
      variables.withProperties = true;
    }
  } else if (focus && 'page' in focus) {
    variables.goalPage = focus.page;
    variables.panelPage = focus.panelPage;
    variables.chartPage = true;
  }
  return variables;
}
