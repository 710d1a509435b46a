/**
 * The one query a dashboard view costs: a `pageStats` field per charted page, aliased p0, p1, …, all with
 * the same range and granularity — the frontend asks for exactly the series it draws.
 */
import type { Granularity } from './ranges';

export interface SeriesResult {
  from: string;
  to: string;
  total: number;
  points: { t: string; hits: number }[];
}

export function seriesQuery(pageCount: number): string {
  const pageVars = Array.from({ length: pageCount }, (_, i) => `, $p${i}: String!`).join('');
  const fields = Array.from(
    { length: pageCount },
    (_, i) =>
      `  p${i}: pageStats(site: $site, page: $p${i}, range: { from: $from, to: $to }, granularity: $granularity) { from to total points { t hits } }`,
  ).join('\n');
  return `query DashboardSeries($site: String!, $from: DateTime!, $to: DateTime!, $granularity: Granularity!${pageVars}) {\n${fields}\n}`;
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
