/**
 * tally as the peer benchmark runs it: the built server as a child process started as `npm start` starts it (no
 * MONGODB_URI: it starts its embedded FerretDB in its own TALLY_DATA_DIR), with every feature at its default (on)
 * and INGEST_ACK=log (issue 27's write path).
 * Hits go in as `recordHits` batches with visitor, referrer, User-Agent, client address and UTM values; CPU is the
 * server's process tree (tally and FerretDB), disk the data directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { referrerSource } from '../../src/domain/dimensions/referrerSource';
import { GraphqlClient } from '../shared/GraphqlClient';
import { processCpuSeconds, processTreeCpuSeconds } from '../shared/processCpu';
import { startServer } from '../shared/serverProcess';
import type { ServerHandle } from '../shared/serverProcess';
import { BENCH_SITE } from '../shared/traffic';
import type { PeerSystem } from './PeerSystem';
import { directoryBytes } from './PeerSystem';
import type { DayRange, PeerAnswer, PeerQuery } from './peerQueries';
import { PEER_CLIENTS } from './peerTraffic';
import type { PeerHit } from './peerTraffic';

const RECORD_HITS = `mutation RecordHits($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;
const SITE_TOTAL = `query SiteTotal($site: String!, $range: TimeRangeInput!) {
  siteStats(site: $site, granularity: DAY, range: $range) { total }
}`;
const PAGE_SERIES = `query PageSeries($site: String!, $page: String!, $granularity: Granularity!, $range: TimeRangeInput!) {
  pageStats(site: $site, page: $page, granularity: $granularity, range: $range) { values }
}`;
const TOP_PAGES = `query TopPages($site: String!, $range: TimeRangeInput!) {
  topPages(site: $site, range: $range, first: 10) { edges { node { page hits } } }
}`;
const REFERRERS = `query Referrers($site: String!, $range: TimeRangeInput!) {
  breakdown(site: $site, dimension: SOURCE, range: $range, first: 10) { edges { node { value hits } } other }
}`;

const SERVER_INFO = `{ serverInfo { database { engine version } } }`;

export async function startTallyPeer(): Promise<PeerSystem> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-peer-'));
  let server: ServerHandle | undefined;
  let client: GraphqlClient | undefined;
  const halt = async (): Promise<void> => {
    client?.close();
    await server?.stop();
    server = undefined;
  };
  const stop = async (): Promise<void> => {
    await halt();
    // BENCH_KEEP_DATA=1 leaves the data directory for a look at what was stored (sqlite3 on its tally.sqlite).
    if (process.env.BENCH_KEEP_DATA) process.stderr.write(`tally's data kept in ${dataDir}\n`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let database: { engine: string; version: string } | undefined;
  try {
    server = await startServer('child', {
      uri: undefined,
      dbName: 'tally',
      // The write path issue 27 measures: acknowledged from the ingest log, written once per window.
      env: { TALLY_DATA_DIR: dataDir, TALLY_EMBEDDED_ENGINE: 'ferretdb', INGEST_ACK: 'log' },
      // BENCH_TALLY_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles tally's process (space-separated arguments).
      nodeArgs: process.env.BENCH_TALLY_NODE_ARGS?.split(' ').filter((arg) => arg !== ''),
    });
    client = new GraphqlClient(server.url, PEER_CLIENTS);
    type Info = { serverInfo: { database: { engine: string; version: string } } };
    database = (await client.mustRequest<Info>(SERVER_INFO)).data?.serverInfo.database;
  } catch (error) {
    await stop();
    throw error;
  }
  const { pid } = server;
  const http = client;
  const range = (r: DayRange) => ({ from: new Date(r.from).toISOString(), to: new Date(r.to).toISOString() });
  const data = async <T>(query: string, variables: Record<string, unknown>): Promise<T> =>
    (await http.mustRequest<T>(query, { site: BENCH_SITE, ...variables })).data as T;
  return {
    label: `tally (INGEST_ACK=log, embedded ${database?.engine} ${database?.version})`,
    counting: { firstVisitsOnly: false, referrerKey: (hit) => referrerSource(hit.referrer, BENCH_SITE) },
    batchBody: (batch) => JSON.stringify({ query: RECORD_HITS, variables: { hits: batch.map(hitInput) } }),
    send: async (body) => {
      await http.mustPost(body);
    },
    counted: async (r) =>
      (await data<{ siteStats: { total: number } }>(SITE_TOTAL, { range: range(r) })).siteStats.total,
    // A window's parts land one after another, so the site total can be complete before the page rollups and the
    // pages' documents are: counted everywhere once no window of the log is still being written.
    settled: async () => (await pendingWindows(http)) === 0,
    answer: async (query: PeerQuery): Promise<PeerAnswer> => {
      const variables = { range: range(query.range) };
      switch (query.kind) {
        case 'siteTotal7Days':
          return (await data<{ siteStats: { total: number } }>(SITE_TOTAL, variables)).siteStats.total;
        case 'pageByDay30Days':
        case 'pageByHour7Days': {
          const granularity = query.kind === 'pageByDay30Days' ? 'DAY' : 'HOUR';
          const answer = await data<{ pageStats: { values: number[] } }>(PAGE_SERIES, {
            ...variables,
            page: query.page,
            granularity,
          });
          return answer.pageStats.values;
        }
        case 'topPages30Days': {
          const answer = await data<{ topPages: { edges: Array<{ node: { page: string; hits: number } }> } }>(
            TOP_PAGES,
            variables,
          );
          return answer.topPages.edges.map(({ node }) => ({ key: node.page, count: node.hits }));
        }
        case 'referrers30Days': {
          const answer = await data<{ breakdown: { edges: Array<{ node: { value: string; hits: number } }> } }>(
            REFERRERS,
            variables,
          );
          return answer.breakdown.edges.map(({ node }) => ({ key: node.value, count: node.hits }));
        }
      }
    },
    cpuSeconds: () => processTreeCpuSeconds(pid),
    serverCpuSeconds: () => processCpuSeconds(pid),
    diskBytes: () => directoryBytes(dataDir),
    halt,
    stop,
  };
}

/** `tally_ingest_log_windows`: windows of acknowledged hits not yet written (the open one included). */
async function pendingWindows(client: GraphqlClient): Promise<number> {
  const metrics = await client.text('/metrics');
  const line = metrics.split('\n').find((l) => l.startsWith('tally_ingest_log_windows '));
  const windows = Number(line?.split(' ')[1]);
  if (!Number.isFinite(windows)) throw new Error('the server reports no tally_ingest_log_windows');
  return windows;
}

/** A hit as `recordHits` takes it: what a site's beacon or log sees, UTM values as explicit dimensions. */
function hitInput(hit: PeerHit): Record<string, unknown> {
  return {
    site: BENCH_SITE,
    page: hit.page,
    at: new Date(hit.at).toISOString(),
    visitor: hit.visitor,
    ...(hit.referrer === undefined ? {} : { referrer: hit.referrer }),
    userAgent: hit.userAgent,
    clientIp: hit.clientIp,
    ...(hit.utm === undefined ? {} : { dimensions: hit.utm }),
  };
}
