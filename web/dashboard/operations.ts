/**
 * The GraphQL operations the dashboard sends. Without chosen pages, `topPages` picks the site's busiest pages over
 * the range. Then ONE query reads everything a view shows: the whole site with its previous period (the top-line
 * figures, and the hits and visitors lines), an aliased `pageStats` per page (p0, p1, …), the charted dimension
 * value if any, and one `breakdown` per panel. The server answers all of it from one batched find per collection.
 * Then a `pageStatsLive` subscription per page.
 */
import type { DimensionFilter } from './dimensionFilter';
import { PANELS, PANEL_SIZE } from './panels';
import type { BreakdownResult } from './panels';
import type { Granularity } from './ranges';

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

export interface ComparisonResult {
  from: string;
  to: string;
  total: number | null;
  change: number | null;
  visitors: number | null;
  visitorsChange: number | null;
  visitorsFrom: string | null;
  visitorsTo: string | null;
}

/** The whole site: always with visitors and the previous period. */
export type SiteResult = SeriesResult & VisitorsResult & { comparison: ComparisonResult | null };

/** Every field may be null (with an error) on its own: the others still show. */
export interface ViewResult {
  site?: SiteResult | null;
  filtered?: SeriesResult | null;
  [alias: string]: SeriesResult | SiteResult | VisitorsResult | BreakdownResult | null | undefined;
}

export interface ViewShape {
  readonly pageCount: number;
  readonly filtered: boolean;
  /** The chart's granularity (the query says which series read visitors how). */
  readonly granularity: Granularity;
}

/**
 * Pages' visitors on MINUTE and HOUR (and SECOND) charts are read per UTC day, from an aliased DAY series per page
 * (v0, v1, …): the day documents' page sketches, in the finds the view makes anyway. Read at the chart's
 * granularity they would come from every per-minute document of every page (2,880 a page over the 48 hours
 * kept), several finds and about three times the latency of the whole view. The table marks them as counted
 * over whole days.
 */
export function pageVisitorsByDay(granularity: Granularity): boolean {
  return granularity === 'SECOND' || granularity === 'MINUTE' || granularity === 'HOUR';
}

export const TOP_PAGES_QUERY = `query DashboardTopPages($site: String!, $from: DateTime!, $to: DateTime!, $first: Int!) {
  topPages(site: $site, range: { from: $from, to: $to }, first: $first) { edges { node { page hits } } }
}`;

const RANGE = 'range: { from: $from, to: $to }';
const VISITORS = 'visitors visitorsFrom visitorsTo';
const SERIES = `{ from to total ${VISITORS} points { t hits } }`;
const SERIES_HITS = '{ from to total points { t hits } }';
const SITE = `{ from to total ${VISITORS} points { t hits visitors } comparison { from to total change visitors visitorsChange visitorsFrom visitorsTo } }`;
const BREAKDOWN = '{ from to totalCount other edges { node { value hits visitors } } }';

export function viewQuery(shape: ViewShape): string {
  const pageVars = Array.from({ length: shape.pageCount }, (_, i) => `, $p${i}: String!`).join('');
  const filterVar = shape.filtered ? ', $filter: DimensionFilterInput!' : '';
  const byDay = pageVisitorsByDay(shape.granularity);
  const pages = Array.from({ length: shape.pageCount }, (_, i) => i);
  const fields = [
    `  site: siteStats(site: $site, ${RANGE}, granularity: $siteGranularity, compare: PREVIOUS_PERIOD) ${SITE}`,
    ...pages.map(
      (i) =>
        `  p${i}: pageStats(site: $site, page: $p${i}, ${RANGE}, granularity: $granularity) ${byDay ? SERIES_HITS : SERIES}`,
    ),
    ...(byDay
      ? pages.map((i) => `  v${i}: pageStats(site: $site, page: $p${i}, ${RANGE}, granularity: DAY) { ${VISITORS} }`)
      : []),
    ...(shape.filtered
      ? [`  filtered: siteStats(site: $site, ${RANGE}, granularity: $granularity, filter: $filter) ${SERIES}`]
      : []),
    ...PANELS.map(
      (panel) =>
        `  ${panel.alias}: breakdown(site: $site, dimension: ${panel.dimension}, ${RANGE}, first: ${PANEL_SIZE}) ${BREAKDOWN}`,
    ),
  ];
  // A variable no field uses is an error: $granularity only with page or filtered series.
  const granularityVar = shape.pageCount > 0 || shape.filtered ? ', $granularity: Granularity!' : '';
  return `query DashboardView($site: String!, $from: DateTime!, $to: DateTime!${granularityVar}, $siteGranularity: Granularity!${pageVars}${filterVar}) {\n${fields.join('\n')}\n}`;
}

/** siteStats reads site-level documents, which exist from MINUTE to MONTH: a SECOND chart reads the site by minute. */
export function siteGranularity(granularity: Granularity): Granularity {
  return granularity === 'SECOND' ? 'MINUTE' : granularity;
}

export function viewVariables(view: {
  site: string;
  pages: readonly string[];
  range: { from: string; to: string };
  granularity: Granularity;
  filter?: DimensionFilter | undefined;
}): Record<string, unknown> {
  const variables: Record<string, unknown> = { site: view.site, ...view.range };
  if (view.pages.length > 0 || view.filter) variables.granularity = view.granularity;
  variables.siteGranularity = siteGranularity(view.granularity);
  view.pages.forEach((page, i) => (variables[`p${i}`] = page));
  if (view.filter) variables.filter = { dimension: view.filter.dimension, value: view.filter.value };
  return variables;
}

export const LIVE_SUBSCRIPTION = `subscription DashboardLive($site: String!, $page: String!, $granularity: LiveGranularity!, $window: Int!) {
  pageStatsLive(site: $site, page: $page, granularity: $granularity, window: $window) { snapshot points { t hits } }
}`;

/** Where "all time" starts: the site's first stored day (UTC midnight), null without hits. */
export const FIRST_DAY_QUERY = `query DashboardFirstDay($site: String!) { firstDay(site: $site) }`;
