/**
 * The queries a dashboard view costs. Without chosen pages, one `topPages` query picks the site's busiest
 * pages over the range. Then one query reads every series the chart draws: `siteStats` for the whole site
 * (not kept per second) and a `pageStats` per page, aliased p0, p1, …, all with the same range and
 * granularity — the frontend asks for exactly the series it draws.
 */
import type { Granularity } from './ranges';

export interface SeriesResult {
  from: string;
  to: string;
  total: number;
  points: { t: string; hits: number }[];
}

export const TOP_PAGES_QUERY = `query DashboardTopPages($site: String!, $from: DateTime!, $to: DateTime!, $first: Int!) {
  topPages(site: $site, range: { from: $from, to: $to }, first: $first) { edges { node { page hits } } }
}`;

/** siteStats reads site-level documents, which exist from MINUTE to MONTH. */
export function hasSiteSeries(granularity: Granularity): boolean {
  return granularity !== 'SECOND';
}

export function seriesQuery(pageCount: number, withSite: boolean): string {
  const series = '{ from to total points { t hits } }';
  const pageVars = Array.from({ length: pageCount }, (_, i) => `, $p${i}: String!`).join('');
  const fields = Array.from(
    { length: pageCount },
    (_, i) =>
      `  p${i}: pageStats(site: $site, page: $p${i}, range: { from: $from, to: $to }, granularity: $granularity) ${series}`,
  );
  if (withSite) {
    fields.unshift(
      `  site: siteStats(site: $site, range: { from: $from, to: $to }, granularity: $granularity) ${series}`,
    );
  }
  return `query DashboardSeries($site: String!, $from: DateTime!, $to: DateTime!, $granularity: Granularity!${pageVars}) {\n${fields.join('\n')}\n}`;
}

export function seriesVariables(
  site: string,
  pages: readonly string[],
  range: { from: string; to: string },
  granularity: Granularity,
): Record<string, unknown> {
  const variables: Record<string, unknown> = { site, ...range, granularity };
  pages.forEach((page, i) => (variables[`p${i}`] = page));
  return variables;
}

export const LIVE_SUBSCRIPTION = `subscription DashboardLive($site: String!, $page: String!, $granularity: LiveGranularity!, $window: Int!) {
  pageStatsLive(site: $site, page: $page, granularity: $granularity, window: $window) { snapshot points { t hits } }
}`;
