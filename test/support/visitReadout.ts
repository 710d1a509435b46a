/**
 * Visit figures (issue 29) as a process test reads them over GraphQL (siteStats over the range and per DAY,
 * pageStats per page, entry and exit pages from topPages), and as they follow from an independent sessionisation of
 * the same hits (sessionise.ts): one shape for both, so a run is compared with the oracle and with another run.
 */
import { VISIT_FIGURE_NAMES } from '../../src/query/visitCounts';
import { sessionise } from './sessionise';
import type { OracleCounts, OracleHit } from './sessionise';

const DAY = 86_400_000;

export interface Figures {
  visits: number | null;
  bounceRate: number | null;
  visitDuration: number | null;
  viewsPerVisit: number | null;
}

/** The figures' selection: `visits bounceRate visitDuration viewsPerVisit`. */
export const FIGURE_FIELDS = VISIT_FIGURE_NAMES.join(' ');

export interface PageCount {
  readonly page: string;
  readonly hits: number;
}

export interface VisitReadout {
  readonly site: Figures;
  /** Per UTC day of the range (ISO start): the visits that started that day (a visit belongs to its first hit's). */
  readonly days: ReadonlyArray<Figures & { readonly day: string }>;
  readonly pages: ReadonlyArray<Figures & { readonly page: string }>;
  /** Pages by visits entered or left there, most first, then by page; pages with none are not listed. */
  readonly entries: readonly PageCount[];
  readonly exits: readonly PageCount[];
}

/** Whole UTC days, ISO-8601. */
export interface VisitRange {
  readonly from: string;
  readonly to: string;
}

/** A GraphQL request as the test sends it (with its keys, or to a server without any). */
export type GraphqlCall = <T>(
  query: string,
  variables: Record<string, unknown>,
) => Promise<{ readonly body: { readonly data?: T | null; readonly errors?: unknown } }>;

type Read = Record<string, unknown> & { siteStats: Figures & { points: Array<Figures & { t: string }> } };
type TopPages = { edges: Array<{ node: PageCount }> };

export async function readVisits(
  graphql: GraphqlCall,
  site: string,
  range: VisitRange,
  pages: readonly string[],
): Promise<VisitReadout> {
  const reply = await graphql<Read>(
    `query ($site: String!, $range: TimeRangeInput!) {
      siteStats(site: $site, range: $range, granularity: DAY) { ${FIGURE_FIELDS} points { t ${FIGURE_FIELDS} } }
      ${pages.map((page, i) => `p${i}: pageStats(site: $site, page: ${JSON.stringify(page)}, range: $range, granularity: DAY) { ${FIGURE_FIELDS} }`).join('\n')}
      entries: topPages(site: $site, range: $range, by: ENTRIES, first: 10) { edges { node { page hits } } }
      exits: topPages(site: $site, range: $range, by: EXITS, first: 10) { edges { node { page hits } } }
    }`,
    { site, range },
  );
  expect(reply.body.errors).toBeUndefined();
  const data = reply.body.data as Read;
  const { points, ...whole } = data.siteStats;
  const ranked = (by: 'entries' | 'exits'): PageCount[] => (data[by] as TopPages).edges.map((edge) => edge.node);
  return {
    site: whole,
    days: points.map(({ t, ...figures }) => ({ day: new Date(t).toISOString(), ...figures })),
    pages: pages.map((page, i) => ({ page, ...(data[`p${i}`] as Figures) })),
    entries: ranked('entries'),
    exits: ranked('exits'),
  };
}

/** What readVisits must read for `hits`, in time order per visitor, by the definition in docs/visits.md. */
export function sessionisedVisits(
  hits: readonly OracleHit[],
  timeoutMs: number,
  range: VisitRange,
  pages: readonly string[],
): VisitReadout {
  const whole = sessionise(hits, timeoutMs);
  const starts = visitStarts(hits, timeoutMs);
  const days: Array<Figures & { day: string }> = [];
  for (let day = Date.parse(range.from); day < Date.parse(range.to); day += DAY) {
    const started = hits.filter((hit) => {
      const start = starts.get(hit) as number;
      return start >= day && start < day + DAY;
    });
    days.push({
      day: new Date(day).toISOString(),
      ...sessionisedFigures(sessionise(started, timeoutMs).get(''), true),
    });
  }
  const ranked = (field: 'entries' | 'exits'): PageCount[] =>
    pages
      .map((page) => ({ page, hits: whole.get(page)?.[field] ?? 0 }))
      .filter((row) => row.hits > 0)
      .sort((a, b) => b.hits - a.hits || (a.page < b.page ? -1 : 1));
  return {
    site: sessionisedFigures(whole.get(''), true),
    days,
    pages: pages.map((page) => ({ page, ...sessionisedFigures(whole.get(page), false) })),
    entries: ranked('entries'),
    exits: ranked('exits'),
  };
}

/** For toEqual: the rates as the API computes them (the same division), compared to 9 digits. */
export function approximately(readout: VisitReadout): unknown {
  const near = (value: unknown): unknown => {
    if (typeof value === 'number') return Number.isInteger(value) ? value : expect.closeTo(value, 9);
    if (Array.isArray(value)) return value.map(near);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, near(inner)]));
    }
    return value;
  };
  return near(readout);
}

/** A site's figures over its visits, a page's over the visits entered there. */
/** The figures of sessionised counters, as the API divides them: on a page, of the visits that entered there. */
export function sessionisedFigures(c: OracleCounts | undefined, site: boolean): Figures {
  const counts = c ?? { visits: 0, bounces: 0, seconds: 0, pageviews: 0, entries: 0, exits: 0 };
  const entered = site ? counts.visits : counts.entries;
  return entered === 0
    ? { visits: counts.visits, bounceRate: null, visitDuration: null, viewsPerVisit: null }
    : {
        visits: counts.visits,
        bounceRate: counts.bounces / entered,
        visitDuration: counts.seconds / entered,
        viewsPerVisit: counts.pageviews / entered,
      };
}

/** Each hit's visit start: where its visitor's run of hits with gaps under the timeout begins. */
function visitStarts(hits: readonly OracleHit[], timeoutMs: number): Map<OracleHit, number> {
  const byVisitor = new Map<string, OracleHit[]>();
  for (const hit of hits) {
    const key = `${hit.site}\u0000${hit.visitor}`;
    byVisitor.set(key, [...(byVisitor.get(key) ?? []), hit]);
  }
  const starts = new Map<OracleHit, number>();
  for (const own of byVisitor.values()) {
    let start = Number.NEGATIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (const hit of [...own].sort((a, b) => a.at - b.at)) {
      if (hit.at - last >= timeoutMs) start = hit.at;
      last = hit.at;
      starts.set(hit, start);
    }
  }
  return starts;
}
