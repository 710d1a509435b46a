/**
 * Section 2: ingest throughput and database write commands per hit, side by side on the same traffic:
 * the seed's log_hit (two upserts per hit, direct driver), the raw-event design of Ackee and Umami (one
 * insertOne per hit), and tally over HTTP — recordHit with 1, 10 and 100 concurrent clients, recordHits
 * in batches of 100 and 1,000 — with PREALLOCATE off and on. The server is a child process; its /metrics
 * gives the commands it sent and its CPU time.
 */
import type { Db } from 'mongodb';
import { GraphqlClient } from './GraphqlClient';
import type { MonitoredClient } from './MonitoredClient';
import { writeCommands } from './MonitoredClient';
import type { IngestSizes } from './options';
import { runLoad } from './runLoad';
import type { LoadResult } from './runLoad';
import { optional } from './schemaGrowth';
import { serverDelta, snapshotServer } from './serverMetrics';
import type { ServerHandle } from './serverProcess';
import { summarize } from './stats';
import type { LatencySummary } from './stats';
import { BENCH_SITE, generateHits, pagePath } from './traffic';
import type { BenchHit } from './traffic';

export type IngestDesign = 'seed log_hit' | 'raw events' | 'tally';

export interface IngestRun {
  readonly key: string;
  readonly label: string;
  readonly design: IngestDesign;
  readonly path: 'driver' | 'HTTP';
  readonly concurrency: number;
  readonly hitsPerRequest: number;
  readonly preallocate?: boolean;
  readonly hits: number;
  readonly requests: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly elapsedMs: number;
  readonly hitsPerSecond: number;
  readonly writeCommands: number;
  readonly writeCommandsPerHit: number;
  readonly commands: Record<string, number>;
  readonly requestLatencyMs: LatencySummary;
  /** CPU of the tally server process (HTTP runs only). */
  readonly serverCpuMsPer1000Hits?: number;
  /** CPU of the load generator process. */
  readonly clientCpuMsPer1000Hits: number;
}

export interface PreallocationCost {
  readonly pageDays: number;
  readonly elapsedMs: number;
  readonly writeCommands: number;
  readonly serverCpuMs: number;
}

export interface IngestResult {
  readonly sizes: IngestSizes;
  readonly pages: number;
  readonly runs: IngestRun[];
  readonly preallocation?: PreallocationCost;
  /** Pairs of run keys measured with PREALLOCATE=false and true. */
  readonly preallocateComparison: Array<{ workload: string; off: string; on: string }>;
}

const RECORD_HIT = `mutation RecordHit($site: String!, $page: String!, $at: DateTime) {
  recordHit(site: $site, page: $page, at: $at) { count }
}`;
const RECORD_HITS = `mutation RecordHits($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;
const PREALLOCATE = `mutation Preallocate($site: String!, $page: String!, $day: DateTime!) {
  preallocate(site: $site, page: $page, day: $day)
}`;

const DAY_MS = 86_400_000;

export interface IngestDeps {
  readonly db: Db;
  readonly monitored: MonitoredClient;
  /** A pooled client for concurrent inserts (appends need no single writer, even on FerretDB). */
  readonly rawClient: MonitoredClient;
  readonly sizes: IngestSizes;
  /** Starts a tally server on database `dbName` with extra environment. */
  readonly startServer: (dbName: string, env: Record<string, string>) => Promise<ServerHandle>;
  readonly log: (line: string) => void;
}

export async function runIngest(deps: IngestDeps): Promise<IngestResult> {
  const { db, monitored, sizes } = deps;
  const now = Date.now();
  // In time order, as a live site sends them: the run replays the last 24 hours, compressed.
  const hits = generateHits({ pages: sizes.pages, zipfS: 1, spanMs: DAY_MS, now, seed: 2002 }, sizes.maxHits).sort(
    (a, b) => a.at - b.at,
  );
  const runs: IngestRun[] = [];
  const record = (run: IngestRun): void => {
    runs.push(run);
    deps.log(
      `  ${run.label}: ${Math.round(run.hitsPerSecond)} hits/s, ${run.writeCommandsPerHit.toFixed(3)} writes/hit`,
    );
  };

  record(await seedLogHit(db, monitored, hits, sizes));
  const rawDb = deps.rawClient.db(db.databaseName);
  record(await rawEvents(rawDb, deps.rawClient, hits, sizes, 1));
  record(await rawEvents(rawDb, deps.rawClient, hits, sizes, 10));

  const comparison: IngestResult['preallocateComparison'] = [];
  let preallocation: PreallocationCost | undefined;
  for (const preallocate of [false, true]) {
    // Each server gets a fresh database: starting a second server on one database is not what we measure.
    const serverDb = db.client.db(`${db.databaseName}${preallocate ? '_pre' : ''}`);
    const server = await deps.startServer(serverDb.databaseName, { PREALLOCATE: String(preallocate) });
    const client = new GraphqlClient(server.url, 128);
    try {
      const suffix = preallocate ? ' (PREALLOCATE=true)' : '';
      const keySuffix = preallocate ? '.preallocated' : '';
      if (preallocate) preallocation = await preallocateAll(client, sizes.pages, now);
      // These two run back to back on the same documents with either setting: the side-by-side pair.
      record(
        await httpRun(client, hits, sizes, {
          key: `batch100${keySuffix}`,
          label: `recordHits ×100${suffix}`,
          batch: 100,
          concurrency: 1,
          preallocate,
        }),
      );
      record(
        await httpRun(client, hits, sizes, {
          key: `single10${keySuffix}`,
          label: `recordHit, 10 clients${suffix}`,
          batch: 1,
          concurrency: 10,
          preallocate,
        }),
      );
      if (!preallocate) {
        for (const [key, label, batch, concurrency] of [
          ['single1', 'recordHit, 1 client', 1, 1],
          ['single100', 'recordHit, 100 clients', 1, 100],
          ['batch1000', 'recordHits ×1,000', 1000, 1],
        ] as const) {
          await resetCounters(serverDb);
          record(await httpRun(client, hits, sizes, { key, label, batch, concurrency, preallocate }));
        }
      }
    } finally {
      client.close();
      await server.stop();
    }
  }
  comparison.push({ workload: 'recordHits ×100', off: 'batch100', on: 'batch100.preallocated' });
  comparison.push({ workload: 'recordHit, 10 clients', off: 'single10', on: 'single10.preallocated' });
  return {
    sizes,
    pages: sizes.pages,
    runs,
    ...optional('preallocation', preallocation),
    preallocateComparison: comparison,
  };
}

/** Empties the counter collections between runs; keeps their indexes. */
async function resetCounters(db: Db): Promise<void> {
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (name.startsWith('stats.')) await db.collection(name).deleteMany({});
  }
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function directRun(
  base: Pick<IngestRun, 'key' | 'label' | 'design' | 'concurrency'>,
  load: LoadResult,
  commands: Record<string, number>,
  clientCpu: number,
): IngestRun {
  const writes = writeCommands(commands);
  return {
    ...base,
    path: 'driver',
    hitsPerRequest: 1,
    hits: load.hits,
    requests: load.operations,
    errors: load.errors,
    ...optional('firstError', load.firstError),
    elapsedMs: load.elapsedMs,
    hitsPerSecond: load.hits / (load.elapsedMs / 1000),
    writeCommands: writes,
    writeCommandsPerHit: writes / load.hits,
    commands,
    requestLatencyMs: summarize(load.latenciesMs),
    clientCpuMsPer1000Hits: (clientCpu / load.hits) * 1000,
  };
}

/** The seed's log_hit: an upsert of the daily document, then of the monthly one, per hit. */
async function seedLogHit(
  db: Db,
  monitored: MonitoredClient,
  hits: BenchHit[],
  sizes: IngestSizes,
): Promise<IngestRun> {
  const daily = db.collection('seed.daily');
  const monthly = db.collection('seed.monthly');
  monitored.take();
  const cpu = process.cpuUsage();
  const load = await runLoad({
    concurrency: 1,
    durationMs: sizes.durationMs,
    maxOperations: hits.length,
    operation: async (i) => {
      const hit = hits[i] as BenchHit;
      const at = new Date(hit.at);
      const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
      const stamp = day.toISOString().slice(0, 10).replace(/-/g, '');
      await daily.updateOne(
        { _id: `${stamp}/${hit.site}${hit.page}`, metadata: { date: day, site: hit.site, page: hit.page } } as never,
        { $inc: { [`hourly.${at.getUTCHours()}`]: 1, [`minute.${at.getUTCHours()}.${at.getUTCMinutes()}`]: 1 } },
        { upsert: true },
      );
      const month = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
      await monthly.updateOne(
        {
          _id: `${stamp.slice(0, 6)}/${hit.site}${hit.page}`,
          metadata: { date: month, site: hit.site, page: hit.page },
        } as never,
        { $inc: { [`daily.${at.getUTCDate()}`]: 1 } },
        { upsert: true },
      );
      return 1;
    },
  });
  const clientCpu = cpuMs(process.cpuUsage(cpu));
  return directRun(
    { key: 'seed', label: "seed's log_hit (2 upserts/hit)", design: 'seed log_hit', concurrency: 1 },
    load,
    monitored.take().commands,
    clientCpu,
  );
}

/** The raw-event design: every hit is a document, counted at query time. */
async function rawEvents(
  db: Db,
  monitored: MonitoredClient,
  hits: BenchHit[],
  sizes: IngestSizes,
  concurrency: number,
): Promise<IngestRun> {
  const events = db.collection(`raw.events${concurrency}`);
  await events.createIndex({ site: 1, page: 1, at: 1 });
  monitored.take();
  const cpu = process.cpuUsage();
  const load = await runLoad({
    concurrency,
    durationMs: sizes.durationMs,
    maxOperations: hits.length,
    operation: async (i) => {
      const hit = hits[i] as BenchHit;
      await events.insertOne({ site: hit.site, page: hit.page, at: new Date(hit.at) });
      return 1;
    },
  });
  const clientCpu = cpuMs(process.cpuUsage(cpu));
  return directRun(
    {
      key: `raw${concurrency}`,
      label: `raw events, insertOne/hit, ${concurrency} in flight`,
      design: 'raw events',
      concurrency,
    },
    load,
    monitored.take().commands,
    clientCpu,
  );
}

async function httpRun(
  client: GraphqlClient,
  hits: BenchHit[],
  sizes: IngestSizes,
  run: { key: string; label: string; batch: number; concurrency: number; preallocate: boolean },
): Promise<IngestRun> {
  const before = await snapshotServer(client);
  const cpu = process.cpuUsage();
  const batches = Math.max(1, Math.floor(hits.length / run.batch));
  const load = await runLoad({
    concurrency: run.concurrency,
    durationMs: sizes.durationMs,
    maxOperations: batches,
    operation: async (i) => {
      if (run.batch === 1) {
        const hit = hits[i] as BenchHit;
        await client.mustRequest(RECORD_HIT, { site: hit.site, page: hit.page, at: new Date(hit.at).toISOString() });
        return 1;
      }
      const slice = hits.slice(i * run.batch, (i + 1) * run.batch);
      await client.mustRequest(RECORD_HITS, {
        hits: slice.map((hit) => ({ site: hit.site, page: hit.page, at: new Date(hit.at).toISOString() })),
      });
      return slice.length;
    },
  });
  const clientCpu = cpuMs(process.cpuUsage(cpu));
  const delta = serverDelta(before, await snapshotServer(client));
  const writes = writeCommands(delta.commands);
  return {
    key: run.key,
    label: run.label,
    design: 'tally',
    path: 'HTTP',
    concurrency: run.concurrency,
    hitsPerRequest: run.batch,
    preallocate: run.preallocate,
    hits: load.hits,
    requests: load.operations,
    errors: load.errors,
    ...optional('firstError', load.firstError),
    elapsedMs: load.elapsedMs,
    hitsPerSecond: load.hits / (load.elapsedMs / 1000),
    writeCommands: writes,
    writeCommandsPerHit: writes / load.hits,
    commands: delta.commands,
    requestLatencyMs: summarize(load.latenciesMs),
    serverCpuMsPer1000Hits: ((delta.cpuSeconds * 1000) / load.hits) * 1000,
    clientCpuMsPer1000Hits: (clientCpu / load.hits) * 1000,
  };
}

/** What yesterday's preallocation would have left: zero-filled documents for every page and day of the traffic. */
async function preallocateAll(client: GraphqlClient, pages: number, now: number): Promise<PreallocationCost> {
  const days = [...new Set([now - DAY_MS, now - 1].map((t) => t - (t % DAY_MS)))];
  const before = await snapshotServer(client);
  const start = Date.now();
  for (let rank = 0; rank < pages; rank++) {
    for (const day of days) {
      await client.mustRequest(PREALLOCATE, {
        site: BENCH_SITE,
        page: pagePath(rank),
        day: new Date(day).toISOString(),
      });
    }
  }
  const delta = serverDelta(before, await snapshotServer(client));
  return {
    pageDays: pages * days.length,
    elapsedMs: Date.now() - start,
    writeCommands: writeCommands(delta.commands),
    serverCpuMs: delta.cpuSeconds * 1000,
  };
}
