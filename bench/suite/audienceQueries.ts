/**
 * Section 9: what reading visitors and breakdowns costs, on stored data (audienceFixtures: two sites of `hits` hits
 * each over 90 days, with visitors and every dimension). Timed through GraphQL over HTTP against a tally server (a
 * child process): the 20-series dashboard over 90 days by DAY without visitors, with the range's `visitors`, and with
 * `points { visitors }` too; breakdowns of SOURCE over 1, 30 and 90 days on the site with 1,000 and the one with
 * 100,000 long-tail referrer hosts; and BROWSER with per-value visitors over 30 days. Kinds take turns in rounds, in
 * alternating order; p50/p95 latency, the server's CPU per query (its /metrics) and the finds it sent. The answers
 * are checked against the exact counts the load kept: visitors per page and site, over the range and per day.
 */
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { GraphqlClient } from '../shared/GraphqlClient';
import { estimateErrors } from '../shared/estimateErrors';
import type { EstimateErrors, EstimatePair } from '../shared/estimateErrors';
import { optional } from '../shared/optional';
import { serverDelta, snapshotServer } from '../shared/serverMetrics';
import type { ServerHandle } from '../shared/serverProcess';
import { elapsedMs, summarize } from '../shared/stats';
import type { LatencySummary } from '../shared/stats';
import { pagePath } from '../shared/traffic';
import type { Db } from 'mongodb';
import { AUDIENCE_DAYS, AUDIENCE_SITES, BREAKDOWN_SPANS, DASHBOARD_PAGES, loadAudienceData } from './audienceFixtures';
import type { AudienceDataSet } from './audienceFixtures';
import type { CollStats } from './collStats';
import { collStats } from './collStats';
import type { AudienceSizes } from './sizes';

const DAY_MS = 86_400_000;

export type AudienceQueryKind =
  'dashboard' | 'dashboardVisitors' | 'dashboardPointVisitors' | 'breakdownSource' | 'breakdownBrowserVisitors';

export interface AudienceQueryCell {
  readonly key: string;
  readonly kind: AudienceQueryKind;
  readonly label: string;
  readonly site: string;
  readonly days: number;
  /** Long-tail referrer hosts of the site (breakdowns). */
  readonly longTailHosts?: number;
  readonly latencyMs: LatencySummary;
  readonly serverCpuMsPerQuery: number;
  readonly findsPerQuery: number;
  readonly httpBytes: number;
  /** Breakdowns: totalCount and the hits under `(other)` the server returned, and distinct values in the hits. */
  readonly totalCount?: number;
  readonly otherHits?: number;
  readonly distinctInHits?: number;
}

/** Visitors on the stored data against the exact counts, per kind of figure. */
export interface StoredAccuracy {
  readonly level: 'page, 90-day range' | 'page, one day' | 'site, 90-day range' | 'site, one day';
  readonly errors: EstimateErrors;
}

export interface AudienceQueryResult {
  readonly engine: string;
  readonly hitsPerSite: number;
  readonly storedHits: number;
  readonly pages: number;
  readonly visitorPool: number;
  readonly days: number;
  readonly dailyDocuments: number;
  readonly monthlyDocuments: number;
  readonly loadMs: number;
  readonly compactedDocuments: number;
  readonly compactMs: number;
  readonly storage?: { readonly daily?: CollStats; readonly monthly?: CollStats };
  readonly rounds: number;
  readonly queriesPerRound: number;
  readonly cells: AudienceQueryCell[];
  readonly accuracy: StoredAccuracy[];
}

export interface AudienceQueryDeps {
  readonly db: Db;
  readonly engine: string;
  readonly sizes: AudienceSizes;
  readonly startServer: (env: Record<string, string>) => Promise<ServerHandle>;
  readonly log: (line: string) => void;
}

interface QuerySpec {
  readonly key: string;
  readonly kind: AudienceQueryKind;
  readonly label: string;
  readonly site: string;
  readonly days: number;
  readonly longTailHosts?: number;
  readonly query: string;
  readonly variables: Record<string, string>;
}

type Series = { total: number; visitors?: number | null; points?: Array<{ visitors: number | null }> };
type Breakdown = { totalCount: number; other: number };

export async function runAudienceQueries(deps: AudienceQueryDeps): Promise<AudienceQueryResult> {
  const { sizes } = deps;
  // A first read of a day of saturated sketches outlasts the default MONGODB_TIMEOUT_MS (5 s) on a loaded machine.
  const server = await deps.startServer({ MONGODB_TIMEOUT_MS: '120000' });
  const client = new GraphqlClient(server.url, 2);
  try {
    const data = await loadAudienceData(deps.db, { hits: sizes.queryHits, pages: sizes.queryPages, now: Date.now() });
    deps.log(
      `  stored ${data.hitsPerSite.toLocaleString('en-US')} hits on each of ${AUDIENCE_SITES.length} sites: ` +
        `${data.dailyDocuments} daily + ${data.monthlyDocuments} monthly documents in ${(data.loadMs / 1000).toFixed(1)} s; ` +
        `sketches of ${data.compactedDocuments} past documents compacted in ${(data.compactMs / 1000).toFixed(1)} s`,
    );
    const specs = querySpecs(data);
    const cells = withDistinctSources(await timeQueries(client, specs, sizes, deps.log), data);
    const accuracy = await storedAccuracy(client, data);
    for (const row of accuracy) {
      deps.log(
        `  visitors, ${row.level}: median error ${(100 * row.errors.medianRelativeError).toFixed(2)} %, ` +
          `worst ${(100 * row.errors.maxRelativeError).toFixed(2)} % over ${row.errors.pairs}`,
      );
    }
    const daily = await collStats(deps.db, DAILY_COLLECTION);
    const monthly = await collStats(deps.db, MONTHLY_COLLECTION);
    return {
      engine: deps.engine,
      hitsPerSite: data.hitsPerSite,
      storedHits: data.hitsPerSite * AUDIENCE_SITES.length,
      pages: data.pages,
      visitorPool: data.visitorPool,
      days: AUDIENCE_DAYS,
      dailyDocuments: data.dailyDocuments,
      monthlyDocuments: data.monthlyDocuments,
      loadMs: data.loadMs,
      compactedDocuments: data.compactedDocuments,
      compactMs: data.compactMs,
      ...(daily || monthly ? { storage: { ...optional('daily', daily), ...optional('monthly', monthly) } } : {}),
      rounds: sizes.queryRounds,
      queriesPerRound: sizes.queriesPerRound,
      cells,
      accuracy,
    };
  } finally {
    client.close();
    await server.stop();
  }
}

function range(data: AudienceDataSet, days: number): Record<string, string> {
  const to = data.first + AUDIENCE_DAYS * DAY_MS;
  return { from: new Date(to - days * DAY_MS).toISOString(), to: new Date(to).toISOString() };
}

/** The 20-series dashboard: each of the DASHBOARD_PAGES pages by DAY over $from–$to, with `fields`. */
export function dashboardQuery(site: string, fields: string): string {
  const series = Array.from(
    { length: DASHBOARD_PAGES },
    (_, rank) =>
      `s${rank}: pageStats(site: "${site}", page: "${pagePath(rank)}", range: { from: $from, to: $to }, granularity: DAY) { ${fields} }`,
  );
  return `query Dashboard($from: DateTime!, $to: DateTime!) {\n  ${series.join('\n  ')}\n}`;
}

function breakdown(site: string, dimension: string, fields: string): string {
  return (
    `query Breakdown($from: DateTime!, $to: DateTime!) { breakdown(site: "${site}", dimension: ${dimension}, ` +
    `range: { from: $from, to: $to }, first: 10) { totalCount other edges { node { ${fields} } } } }`
  );
}

function querySpecs(data: AudienceDataSet): QuerySpec[] {
  const main = (AUDIENCE_SITES[0] as (typeof AUDIENCE_SITES)[number]).site;
  const days90 = range(data, AUDIENCE_DAYS);
  const specs: QuerySpec[] = [
    {
      key: 'dashboard',
      kind: 'dashboard',
      label: 'dashboard: 20 series, 90 days by DAY, no visitors',
      site: main,
      days: AUDIENCE_DAYS,
      query: dashboardQuery(main, 'total values'),
      variables: days90,
    },
    {
      key: 'dashboardVisitors',
      kind: 'dashboardVisitors',
      label: 'the same with `visitors` (the range)',
      site: main,
      days: AUDIENCE_DAYS,
      query: dashboardQuery(main, 'total values visitors'),
      variables: days90,
    },
    {
      key: 'dashboardPointVisitors',
      kind: 'dashboardPointVisitors',
      label: 'the same with `visitors` and `points { visitors }` (range and each day)',
      site: main,
      days: AUDIENCE_DAYS,
      query: dashboardQuery(main, 'total values visitors points { visitors }'),
      variables: days90,
    },
  ];
  for (const { site, longTailHosts } of AUDIENCE_SITES) {
    for (const days of BREAKDOWN_SPANS) {
      specs.push({
        key: `breakdownSource.${longTailHosts}.${days}`,
        kind: 'breakdownSource',
        label: `breakdown of SOURCE, ${days} day${days === 1 ? '' : 's'}, ${longTailHosts.toLocaleString('en-US')} long-tail hosts`,
        site,
        days,
        longTailHosts,
        query: breakdown(site, 'SOURCE', 'value hits'),
        variables: range(data, days),
      });
    }
  }
  specs.push({
    key: 'breakdownBrowserVisitors',
    kind: 'breakdownBrowserVisitors',
    label: 'breakdown of BROWSER with per-value `visitors`, 30 days',
    site: main,
    days: 30,
    query: breakdown(main, 'BROWSER', 'value hits visitors'),
    variables: range(data, 30),
  });
  return specs;
}

/** Round 0 warms up (JIT, caches) and is not counted; later rounds alternate the order of the kinds. */
async function timeQueries(
  client: GraphqlClient,
  specs: readonly QuerySpec[],
  sizes: AudienceSizes,
  log: (line: string) => void,
): Promise<AudienceQueryCell[]> {
  const samples = new Map<string, { latencies: number[]; cpuSeconds: number; finds: number; bytes: number }>(
    specs.map((spec) => [spec.key, { latencies: [], cpuSeconds: 0, finds: 0, bytes: 0 }]),
  );
  const last = new Map<string, Breakdown>();
  for (let round = 0; round <= sizes.queryRounds; round++) {
    for (const spec of round % 2 === 0 ? specs : [...specs].reverse()) {
      const before = await snapshotServer(client);
      const latencies: number[] = [];
      let bytes = 0;
      for (let q = 0; q < sizes.queriesPerRound; q++) {
        const start = process.hrtime.bigint();
        const response = await client.mustRequest<{ breakdown?: Breakdown }>(spec.query, spec.variables);
        latencies.push(elapsedMs(start));
        bytes += response.bytes;
        if (response.data?.breakdown) last.set(spec.key, response.data.breakdown);
      }
      const delta = serverDelta(before, await snapshotServer(client));
      if (round === 0) continue;
      const sample = samples.get(spec.key);
      if (!sample) continue;
      sample.latencies.push(...latencies);
      sample.cpuSeconds += delta.cpuSeconds;
      sample.finds += delta.commands.find ?? 0;
      sample.bytes += bytes;
    }
  }
  return specs.map((spec) => {
    const sample = samples.get(spec.key) as { latencies: number[]; cpuSeconds: number; finds: number; bytes: number };
    const n = Math.max(1, sample.latencies.length);
    const answer = last.get(spec.key);
    const cell: AudienceQueryCell = {
      key: spec.key,
      kind: spec.kind,
      label: spec.label,
      site: spec.site,
      days: spec.days,
      ...optional('longTailHosts', spec.longTailHosts),
      latencyMs: summarize(sample.latencies),
      serverCpuMsPerQuery: (sample.cpuSeconds * 1000) / n,
      findsPerQuery: sample.finds / n,
      httpBytes: sample.bytes / n,
      ...optional('totalCount', answer?.totalCount),
      ...optional('otherHits', answer?.other),
    };
    log(
      `  ${spec.label}: p50 ${cell.latencyMs.p50.toFixed(1)} ms, server CPU ${cell.serverCpuMsPerQuery.toFixed(1)} ms` +
        `${answer ? `, ${answer.totalCount} values, ${answer.other} hits under (other)` : ''}`,
    );
    return cell;
  });
}

/** The dashboard's pages and the site's totals with visitors, range and per day, against the exact counts. */
async function storedAccuracy(client: GraphqlClient, data: AudienceDataSet): Promise<StoredAccuracy[]> {
  const { site } = AUDIENCE_SITES[0] as (typeof AUDIENCE_SITES)[number];
  const truth = data.truth[site];
  if (!truth) return [];
  const fields = 'visitors points { visitors }';
  const query = dashboardQuery(site, fields).replace(
    /\n}$/,
    `\n  site: siteStats(site: "${site}", range: { from: $from, to: $to }, granularity: DAY) { ${fields} }\n}`,
  );
  const response = await client.mustRequest<Record<string, Series>>(query, range(data, AUDIENCE_DAYS));
  const answer = response.data ?? {};
  const pageRange: EstimatePair[] = [];
  const pageDays: EstimatePair[] = [];
  for (let rank = 0; rank < DASHBOARD_PAGES; rank++) {
    const series = answer[`s${rank}`];
    pageRange.push({ estimate: series?.visitors ?? Number.NaN, truth: truth.pageVisitors[rank] ?? 0 });
    (series?.points ?? []).forEach((point, day) =>
      pageDays.push({ estimate: point.visitors ?? Number.NaN, truth: truth.pageDayVisitors[rank]?.[day] ?? 0 }),
    );
  }
  const siteSeries = answer.site;
  const siteDays = (siteSeries?.points ?? []).map((point, day) => ({
    estimate: point.visitors ?? Number.NaN,
    truth: truth.siteDayVisitors[day] ?? 0,
  }));
  return [
    { level: 'page, 90-day range', errors: estimateErrors(pageRange) },
    { level: 'page, one day', errors: estimateErrors(pageDays) },
    {
      level: 'site, 90-day range',
      errors: estimateErrors([{ estimate: siteSeries?.visitors ?? Number.NaN, truth: truth.siteVisitors }]),
    },
    { level: 'site, one day', errors: estimateErrors(siteDays) },
  ];
}

/** Distinct SOURCE values of the hits in each breakdown's span, attached to the cells after timing. */
function withDistinctSources(cells: readonly AudienceQueryCell[], data: AudienceDataSet): AudienceQueryCell[] {
  return cells.map((cell) =>
    cell.kind === 'breakdownSource'
      ? { ...cell, ...optional('distinctInHits', data.truth[cell.site]?.sources[cell.days]) }
      : cell,
  );
}
