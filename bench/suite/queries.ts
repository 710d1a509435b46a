/**
 * Section 3: chart queries, side by side at growing data sizes (up to 1,000,000 hits in full mode) — tally's
 * pre-aggregated documents (through GraphQL over HTTP, and the server's own store read over the driver, to
 * count documents and bytes read) versus the same answers computed from raw events at query time. The same
 * hits feed both designs (see QueryFixtures); each size also records both designs' storage.
 */
import type { Db } from 'mongodb';
import type { Database } from '../../src/store/connectDatabase';
import { CounterStore } from '../../src/store/CounterStore';
import type { DailyFields } from '../../src/store/dailyStats';
import type { EngineInfo } from '../../src/store/EngineInfo';
import type { SeriesDocumentRange } from '../../src/store/SeriesDocumentRange';
import { writePolicyFor } from '../../src/store/WritePolicy';
import { DAY_MS, HOUR_MS, MINUTE_MS, startOfDay, startOfMonth } from '../../src/time/buckets';
import { GraphqlClient } from '../shared/GraphqlClient';
import { documentsExamined } from './documentsExamined';
import type { CapturedRead, MonitoredClient } from '../shared/MonitoredClient';
import type { QuerySizes } from './sizes';
import { QueryFixtures } from './queryFixtures';
import type { DataSetStats, StorageAtSize } from './queryFixtures';
import { seededRandom } from '../shared/random';
import { detectRawStrategy, RAW_EVENTS_COLLECTION, rawSeries } from './rawEventQueries';
import type { RawStrategy } from './rawEventQueries';
import { optional } from '../shared/optional';
import { serverDelta, snapshotServer } from '../shared/serverMetrics';
import type { ServerHandle } from '../shared/serverProcess';
import { elapsedMs, summarize } from '../shared/stats';
import type { LatencySummary } from '../shared/stats';
import { BENCH_SITE, pagePath } from '../shared/traffic';

export type { DataSetStats };

export type QueryKind = 'lastHourByMinute' | 'last7DaysByHour' | 'last90DaysByDay' | 'dashboard20';
export type QueryDesign = 'tally GraphQL' | 'tally store' | 'raw events';

interface QuerySpec {
  readonly kind: QueryKind;
  readonly label: string;
  readonly granularity: 'MINUTE' | 'HOUR' | 'DAY';
  readonly spanMs: number;
  readonly unitMs: number;
  readonly series: number;
}

export const QUERY_SPECS: readonly QuerySpec[] = [
  {
    kind: 'lastHourByMinute',
    label: 'last hour by minute',
    granularity: 'MINUTE',
    spanMs: HOUR_MS,
    unitMs: MINUTE_MS,
    series: 1,
  },
  {
    kind: 'last7DaysByHour',
    label: 'last 7 days by hour',
    granularity: 'HOUR',
    spanMs: 7 * DAY_MS,
    unitMs: HOUR_MS,
    series: 1,
  },
  {
    kind: 'last90DaysByDay',
    label: 'last 90 days by day',
    granularity: 'DAY',
    spanMs: 90 * DAY_MS,
    unitMs: DAY_MS,
    series: 1,
  },
  {
    kind: 'dashboard20',
    label: 'dashboard: 20 series, 7 days by hour',
    granularity: 'HOUR',
    spanMs: 7 * DAY_MS,
    unitMs: HOUR_MS,
    series: 20,
  },
];

export interface QueryCell {
  readonly dataSize: number;
  readonly kind: QueryKind;
  readonly design: QueryDesign;
  readonly latencyMs: LatencySummary;
  /** Documents the database returned per request (driver designs). */
  readonly documentsReturned?: number;
  /** Reply bytes from the database per request (BSON, driver designs). */
  readonly bytesReturned?: number;
  /** Documents the database examined per request (explain of the commands one request sent; see documentsExamined). */
  readonly documentsExamined?: number;
  /** HTTP response body per request (GraphQL). */
  readonly httpBytes?: number;
  readonly serverCpuMsPerQuery?: number;
  /** Totals equal to the raw-event answer's. */
  readonly agreesWithRaw?: boolean;
}

export interface QueryResult {
  readonly sizes: QuerySizes;
  readonly rawStrategy: RawStrategy;
  readonly rawStrategyReason: string;
  readonly cells: QueryCell[];
  readonly dataSets: DataSetStats[];
  /** Collection statistics at the largest size (for the storage section). */
  readonly collStats: StorageAtSize;
  /** The distinct (page, day) pairs with hits at the largest size. */
  readonly pageDays: number;
  readonly hitsAtLargest: number;
}

interface Window {
  readonly from: number;
  readonly to: number;
  readonly pages: string[];
}

function windowFor(spec: QuerySpec, now: number): Window {
  // Whole buckets on both sides, so a bucketed answer and a raw count cover exactly the same instants.
  const from = now - spec.spanMs - ((now - spec.spanMs) % spec.unitMs);
  const to = now - (now % spec.unitMs) + spec.unitMs;
  return { from, to, pages: Array.from({ length: spec.series }, (_, rank) => pagePath(rank)) };
}

function graphqlDocument(spec: QuerySpec, window: Window): string {
  const fields = window.pages.map(
    (page, i) =>
      `s${i}: pageStats(site: ${JSON.stringify(BENCH_SITE)}, page: ${JSON.stringify(page)}, range: {from: $from, to: $to}, granularity: ${spec.granularity}) { total values }`,
  );
  return `query Chart($from: DateTime!, $to: DateTime!) {\n  ${fields.join('\n  ')}\n}`;
}

function hoursTouched(from: number, to: number): Set<number> {
  const hours = new Set<number>();
  for (let t = from - (from % HOUR_MS); t < to && hours.size < 24; t += HOUR_MS)
    hours.add(Math.floor((t % DAY_MS) / HOUR_MS));
  return hours;
}

/** The read the server's series loader sends for this chart: tally's own CounterStore, as the server uses it. */
async function storeQuery(store: CounterStore, spec: QuerySpec, window: Window): Promise<number> {
  const monthly = spec.granularity === 'DAY';
  const ranges: SeriesDocumentRange[] = window.pages.map((page) => ({
    site: BENCH_SITE,
    page,
    first: monthly ? startOfMonth(window.from) : startOfDay(window.from),
    last: monthly ? startOfMonth(window.to - 1) : startOfDay(window.to - 1),
  }));
  if (monthly) return (await store.findMonthly(ranges)).length;
  const fields: DailyFields =
    spec.granularity === 'HOUR' ? { kind: 'hourly' } : { kind: 'minute', hours: hoursTouched(window.from, window.to) };
  return (await store.findDaily(ranges, fields)).length;
}

export interface QueryDeps {
  /** The data set's database on the monitored client (what is read is counted there). */
  readonly db: Db;
  readonly monitored: MonitoredClient;
  /** The same database on a pooled client, for loading raw events with inserts in flight. */
  readonly loadDb: Db;
  readonly engine: EngineInfo;
  readonly sizes: QuerySizes;
  readonly startServer: () => Promise<ServerHandle>;
  readonly log: (line: string) => void;
}

/** The store over the bench's monitored client, with the engine's capabilities, as the server builds it. */
function storeOver(db: Db, engine: EngineInfo): CounterStore {
  const database: Database = {
    client: db.client,
    db,
    engine,
    policy: writePolicyFor(engine),
    writerDb: () => db,
    backgroundDb: () => db,
    ping: () => Promise.resolve(true),
    close: () => Promise.resolve(),
  };
  return new CounterStore(database);
}

export async function runQueries(deps: QueryDeps): Promise<QueryResult> {
  const { db, monitored, sizes } = deps;
  const now = Date.now();
  const detected = await detectRawStrategy(db);
  deps.log(`  raw-event queries: ${detected.strategy} (${detected.reason})`);
  const raw = db.collection(RAW_EVENTS_COLLECTION);
  await raw.createIndex({ site: 1, page: 1, at: 1 });
  const store = storeOver(db, deps.engine);
  await store.ensureIndexes();

  const server = await deps.startServer();
  const client = new GraphqlClient(server.url, 4);
  const shape = { pages: sizes.pages, zipfS: 1, spanMs: 90 * DAY_MS, now, seed: 3003 };
  const fixtures = new QueryFixtures(deps.loadDb, db, shape, seededRandom(3003));
  const cells: QueryCell[] = [];
  const dataSets: DataSetStats[] = [];
  try {
    for (const dataSize of sizes.dataSizes) {
      const dataSet = await fixtures.growTo(dataSize);
      dataSets.push(dataSet);
      deps.log(
        `  data size ${dataSize.toLocaleString('en-US')} hits: ${dataSet.dailyDocuments} daily + ${dataSet.monthlyDocuments} monthly documents, ` +
          `loaded in ${(dataSet.loadMs / 1000).toFixed(1)} s (raw events ${(dataSet.rawLoadMs / 1000).toFixed(1)} s)`,
      );

      for (const spec of QUERY_SPECS) {
        const window = windowFor(spec, now);
        const rawQuery = {
          site: BENCH_SITE,
          pages: window.pages,
          from: window.from,
          to: window.to,
          unitMs: spec.unitMs,
        };
        // Raw events: latency, documents and bytes from command monitoring.
        monitored.take();
        let rawAnswer = new Map<string, Map<number, number>>();
        const rawRun = await repeatCapturing(sizes, monitored, async () => {
          rawAnswer = await rawSeries(raw, rawQuery, detected.strategy);
        });
        const rawLatencies = rawRun.latencies;
        const rawWire = monitored.take();
        cells.push({
          dataSize,
          kind: spec.kind,
          design: 'raw events',
          latencyMs: summarize(rawLatencies),
          documentsReturned: rawWire.documentsReturned / rawLatencies.length,
          bytesReturned: rawWire.replyBytes / rawLatencies.length,
          ...optional('documentsExamined', await documentsExamined(monitored.client, deps.engine, rawRun.reads)),
        });
        let rawTotal = 0;
        for (const series of rawAnswer.values()) for (const hits of series.values()) rawTotal += hits;

        // tally's store read over the driver: what the server reads from the database.
        monitored.take(); // not the raw design's explains
        const storeRun = await repeatCapturing(sizes, monitored, async () => {
          await storeQuery(store, spec, window);
        });
        const storeLatencies = storeRun.latencies;
        const storeWire = monitored.take();
        cells.push({
          dataSize,
          kind: spec.kind,
          design: 'tally store',
          latencyMs: summarize(storeLatencies),
          documentsReturned: storeWire.documentsReturned / storeLatencies.length,
          bytesReturned: storeWire.replyBytes / storeLatencies.length,
          ...optional('documentsExamined', await documentsExamined(monitored.client, deps.engine, storeRun.reads)),
        });

        // tally through GraphQL over HTTP: the product as a client sees it.
        const query = graphqlDocument(spec, window);
        const variables = { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() };
        const before = await snapshotServer(client);
        let httpBytes = 0;
        let total = 0;
        const graphqlLatencies = await repeat(sizes, async () => {
          const response = await client.mustRequest<Record<string, { total: number }>>(query, variables);
          httpBytes += response.bytes;
          total = 0;
          for (const series of Object.values(response.data ?? {})) total += series.total;
        });
        const delta = serverDelta(before, await snapshotServer(client));
        const graphql = summarize(graphqlLatencies);
        const rawSummary = summarize(rawLatencies);
        cells.push({
          dataSize,
          kind: spec.kind,
          design: 'tally GraphQL',
          latencyMs: graphql,
          httpBytes: httpBytes / graphqlLatencies.length,
          serverCpuMsPerQuery: (delta.cpuSeconds * 1000) / graphqlLatencies.length,
          agreesWithRaw: total === rawTotal,
        });
        deps.log(
          `    ${spec.label}: p50/p95 raw ${rawSummary.p50.toFixed(1)}/${rawSummary.p95.toFixed(1)} ms, tally ${graphql.p50.toFixed(1)}/${graphql.p95.toFixed(1)} ms` +
            `${total === rawTotal ? '' : ` (totals differ: ${total} vs ${rawTotal})`}`,
        );
      }
    }
  } finally {
    client.close();
    await server.stop();
  }
  const largest = dataSets[dataSets.length - 1];
  return {
    sizes,
    rawStrategy: detected.strategy,
    rawStrategyReason: detected.reason,
    cells,
    dataSets,
    collStats: largest?.storage ?? {},
    pageDays: largest?.pageDays ?? 0,
    hitsAtLargest: fixtures.hits,
  };
}

/** `repeat`, keeping the read commands of the first run (explained afterwards, outside the timings). */
async function repeatCapturing(
  sizes: QuerySizes,
  monitored: MonitoredClient,
  fn: () => Promise<void>,
): Promise<{ latencies: number[]; reads: CapturedRead[] }> {
  let reads: CapturedRead[] | undefined;
  monitored.startCapture();
  const latencies = await repeat(sizes, async () => {
    await fn();
    reads ??= monitored.stopCapture();
  });
  return { latencies, reads: reads ?? monitored.stopCapture() };
}

/** Runs `fn` at least minIterations and at most maxIterations times, stopping early once the budget is spent. */
async function repeat(sizes: QuerySizes, fn: () => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const start = process.hrtime.bigint();
  while (
    latencies.length < sizes.maxIterations &&
    (latencies.length < sizes.minIterations || elapsedMs(start) < sizes.budgetMs)
  ) {
    const began = process.hrtime.bigint();
    await fn();
    latencies.push(elapsedMs(began));
  }
  return latencies;
}
