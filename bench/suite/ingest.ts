/**
 * Section 2: ingest throughput and database write commands per hit, side by side on the same traffic:
 * the seed's log_hit (two upserts per hit, direct driver), the raw-event design of Ackee and Umami (one
 * insertOne per hit), and tally over HTTP — recordHit with 1, 10 and 100 concurrent clients, recordHits
 * in batches of 100 and 1,000 — with PREALLOCATE off and on. The server is a child process; its /metrics
 * gives the commands it sent and its CPU time, and the database server's CPU comes from the kernel's counters.
 * Given two database targets (say the patched and the stock FerretDB build), every workload runs on one and
 * then the other before the next starts, so both see the same machine load and each row names its engine.
 */
import type { Db } from 'mongodb';
import { GraphqlClient } from '../shared/GraphqlClient';
import type { MonitoredClient } from '../shared/MonitoredClient';
import { writeCommands } from '../shared/MonitoredClient';
import type { IngestSizes } from './sizes';
import { runLoad } from '../shared/runLoad';
import type { LoadResult } from '../shared/runLoad';
import { optional } from '../shared/optional';
import { serverDelta, snapshotServer } from '../shared/serverMetrics';
import type { ServerHandle } from '../shared/serverProcess';
import { summarize } from '../shared/stats';
import type { LatencySummary } from '../shared/stats';
import { BENCH_SITE, hitColumns, OrderedTraffic, pagePath } from '../shared/traffic';
import type { BenchHit } from '../shared/traffic';

export type IngestDesign = 'seed log_hit' | 'raw events' | 'tally';

export interface IngestRun {
  readonly key: string;
  /** Which database target ran it: the one under test, or the one it is compared with (same run). */
  readonly target: IngestTargetRole;
  /** Engine label of that target, e.g. "FerretDB 1.24.2 stock". */
  readonly engine: string;
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
  /** CPU µs of the tally server process per hit, from its own /metrics (HTTP runs only). */
  readonly serverCpuUsPerHit?: number;
  /** CPU µs of the database server process per hit (a database we started, on Linux). */
  readonly databaseCpuUsPerHit?: number;
  /** CPU µs of the load generator process per hit. */
  readonly clientCpuUsPerHit: number;
}

export type IngestTargetRole = 'primary' | 'comparison';

export interface PreallocationCost {
  readonly pageDays: number;
  readonly elapsedMs: number;
  readonly writeCommands: number;
  readonly serverCpuMs: number;
}

export interface IngestResult {
  readonly sizes: IngestSizes;
  readonly pages: number;
  /** Engine labels by role; `comparison` only when a second target was asked for. */
  readonly engines: { readonly primary: string; readonly comparison?: string };
  readonly runs: IngestRun[];
  /** On the primary target. */
  readonly preallocation?: PreallocationCost;
  /** Pairs of run keys measured with PREALLOCATE=false and true. */
  readonly preallocateComparison: Array<{ workload: string; off: string; on: string }>;
}

const RECORD_HIT = `mutation RecordHit($site: String!, $page: String!, $at: DateTime) {
  recordHit(site: $site, page: $page, at: $at) { count }
}`;
const RECORD_HITS = `mutation RecordHits($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;
const RECORD_HIT_COLUMNS = `mutation RecordHitColumns($columns: HitColumnsInput!) {
  recordHitColumns(columns: $columns) { accepted }
}`;
const PREALLOCATE = `mutation Preallocate($site: String!, $page: String!, $day: DateTime!) {
  preallocate(site: $site, page: $page, day: $day)
}`;

const DAY_MS = 86_400_000;

/** One database target of the ingest section, with its own clients and tally servers. */
export interface IngestTarget {
  readonly role: IngestTargetRole;
  readonly engine: string;
  readonly db: Db;
  readonly monitored: MonitoredClient;
  /** A pooled client for concurrent inserts (appends need no single writer, even on FerretDB). */
  readonly rawClient: MonitoredClient;
  /** Starts a tally server on database `dbName` of this target with extra environment. */
  readonly startServer: (dbName: string, env: Record<string, string>) => Promise<ServerHandle>;
  /** CPU seconds of the database server process so far, when known. */
  readonly databaseCpuSeconds: () => number | undefined;
}

export interface IngestDeps {
  /** The target under test first; optionally a second one compared with it, workload by workload. */
  readonly targets: readonly IngestTarget[];
  readonly sizes: IngestSizes;
  readonly log: (line: string) => void;
}

interface ServerWorkload {
  readonly key: string;
  readonly label: string;
  readonly batch: number;
  readonly concurrency: number;
  /** Start from empty counter collections (the first runs of a server start from empty ones anyway). */
  readonly reset: boolean;
  /** Send batches as recordHitColumns instead of recordHits. */
  readonly columnar?: boolean;
}

export async function runIngest(deps: IngestDeps): Promise<IngestResult> {
  const { sizes, targets } = deps;
  const primary = targets[0];
  if (!primary) throw new Error('the ingest section needs a database target');
  const now = Date.now();
  // In time order, as a live site sends them: the run replays the last 24 hours, compressed.
  const traffic = new OrderedTraffic({ pages: sizes.pages, zipfS: 1, spanMs: DAY_MS, now, seed: 2002 }, sizes.maxHits);
  const runs: IngestRun[] = [];
  const record = (run: IngestRun): void => {
    runs.push(run);
    deps.log(
      `  ${run.label} [${run.engine}]: ${Math.round(run.hitsPerSecond)} hits/s, ${run.writeCommandsPerHit.toFixed(3)} writes/hit` +
        `${run.serverCpuUsPerHit === undefined ? '' : `, tally ${run.serverCpuUsPerHit.toFixed(0)} µs/hit`}` +
        `${run.databaseCpuUsPerHit === undefined ? '' : `, database ${run.databaseCpuUsPerHit.toFixed(0)} µs/hit`}`,
    );
  };

  for (const target of targets) record(await withDatabaseCpu(target, () => seedLogHit(target, traffic, sizes)));
  for (const concurrency of [1, 10]) {
    for (const target of targets)
      record(await withDatabaseCpu(target, () => rawEvents(target, traffic, sizes, concurrency)));
  }

  let preallocation: PreallocationCost | undefined;
  for (const preallocate of [false, true]) {
    const suffix = preallocate ? ' (PREALLOCATE=true)' : '';
    const keySuffix = preallocate ? '.preallocated' : '';
    // These two run back to back on the same documents with either setting: the side-by-side pair.
    const workloads: ServerWorkload[] = [
      { key: `batch100${keySuffix}`, label: `recordHits ×100${suffix}`, batch: 100, concurrency: 1, reset: false },
      {
        key: `single10${keySuffix}`,
        label: `recordHit, 10 clients${suffix}`,
        batch: 1,
        concurrency: 10,
        reset: false,
      },
    ];
    if (!preallocate) {
      workloads.push(
        { key: 'single1', label: 'recordHit, 1 client', batch: 1, concurrency: 1, reset: true },
        { key: 'single100', label: 'recordHit, 100 clients', batch: 1, concurrency: 100, reset: true },
        { key: 'batch1000', label: 'recordHits ×1,000', batch: 1000, concurrency: 1, reset: true },
        {
          key: 'columns1000',
          label: 'recordHitColumns ×1,000',
          batch: 1000,
          concurrency: 1,
          reset: true,
          columnar: true,
        },
      );
    }
    // Each server gets a fresh database: starting a second server on one database is not what we measure.
    const servers: Array<{ target: IngestTarget; db: Db; client: GraphqlClient; stop: () => Promise<void> }> = [];
    try {
      for (const target of targets) {
        const serverDb = target.db.client.db(`${target.db.databaseName}${preallocate ? '_pre' : ''}`);
        const server = await target.startServer(serverDb.databaseName, { PREALLOCATE: String(preallocate) });
        servers.push({ target, db: serverDb, client: new GraphqlClient(server.url, 128), stop: () => server.stop() });
      }
      if (preallocate) {
        const first = servers[0];
        if (first) preallocation = await preallocateAll(first.client, sizes.pages, now);
        for (const other of servers.slice(1)) await preallocateAll(other.client, sizes.pages, now);
      }
      for (const workload of workloads) {
        for (const server of servers) {
          if (workload.reset) await resetCounters(server.db);
          record(
            await withDatabaseCpu(server.target, () =>
              httpRun(server.client, server.target, traffic, sizes, { ...workload, preallocate }),
            ),
          );
        }
      }
    } finally {
      for (const server of servers) {
        server.client.close();
        await server.stop();
      }
    }
  }
  const comparison = targets[1];
  return {
    sizes,
    pages: sizes.pages,
    engines: { primary: primary.engine, ...optional('comparison', comparison?.engine) },
    runs,
    ...optional('preallocation', preallocation),
    preallocateComparison: [
      { workload: 'recordHits ×100', off: 'batch100', on: 'batch100.preallocated' },
      { workload: 'recordHit, 10 clients', off: 'single10', on: 'single10.preallocated' },
    ],
  };
}

/** Charges the database server's CPU during `run` to the run's hits. */
async function withDatabaseCpu(target: IngestTarget, run: () => Promise<IngestRun>): Promise<IngestRun> {
  const before = target.databaseCpuSeconds();
  const result = await run();
  const after = target.databaseCpuSeconds();
  if (before === undefined || after === undefined || result.hits === 0) return result;
  return { ...result, databaseCpuUsPerHit: ((after - before) * 1e6) / result.hits };
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
  target: IngestTarget,
  base: Pick<IngestRun, 'key' | 'label' | 'design' | 'concurrency'>,
  load: LoadResult,
  commands: Record<string, number>,
  clientCpu: number,
): IngestRun {
  const writes = writeCommands(commands);
  return {
    ...base,
    target: target.role,
    engine: target.engine,
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
    clientCpuUsPerHit: (clientCpu * 1000) / load.hits,
  };
}

/** The seed's log_hit: an upsert of the daily document, then of the monthly one, per hit. */
async function seedLogHit(target: IngestTarget, traffic: OrderedTraffic, sizes: IngestSizes): Promise<IngestRun> {
  const { db, monitored } = target;
  const daily = db.collection('seed.daily');
  const monthly = db.collection('seed.monthly');
  monitored.take();
  const cpu = process.cpuUsage();
  const load = await runLoad({
    concurrency: 1,
    durationMs: sizes.durationMs,
    maxOperations: traffic.total,
    operation: async (i) => {
      const hit = traffic.hit(i);
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
    target,
    { key: 'seed', label: "seed's log_hit (2 upserts/hit)", design: 'seed log_hit', concurrency: 1 },
    load,
    monitored.take().commands,
    clientCpu,
  );
}

/** The raw-event design: every hit is a document, counted at query time. */
async function rawEvents(
  target: IngestTarget,
  traffic: OrderedTraffic,
  sizes: IngestSizes,
  concurrency: number,
): Promise<IngestRun> {
  const monitored = target.rawClient;
  const db = monitored.db(target.db.databaseName);
  const events = db.collection(`raw.events${concurrency}`);
  await events.createIndex({ site: 1, page: 1, at: 1 });
  monitored.take();
  const cpu = process.cpuUsage();
  const load = await runLoad({
    concurrency,
    durationMs: sizes.durationMs,
    maxOperations: traffic.total,
    operation: async (i) => {
      const hit = traffic.hit(i);
      await events.insertOne({ site: hit.site, page: hit.page, at: new Date(hit.at) });
      return 1;
    },
  });
  const clientCpu = cpuMs(process.cpuUsage(cpu));
  return directRun(
    target,
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
  target: IngestTarget,
  traffic: OrderedTraffic,
  sizes: IngestSizes,
  run: ServerWorkload & { preallocate: boolean },
): Promise<IngestRun> {
  const before = await snapshotServer(client);
  const cpu = process.cpuUsage();
  const batches = Math.max(1, Math.floor(traffic.total / run.batch));
  const load = await runLoad({
    concurrency: run.concurrency,
    durationMs: sizes.durationMs,
    maxOperations: batches,
    operation: async (i) => {
      if (run.batch === 1) {
        const hit = traffic.hit(i);
        await client.mustRequest(RECORD_HIT, { site: hit.site, page: hit.page, at: new Date(hit.at).toISOString() });
        return 1;
      }
      if (run.columnar) {
        const columns = hitColumns(traffic, i * run.batch, Math.min((i + 1) * run.batch, traffic.total));
        await client.mustRequest(RECORD_HIT_COLUMNS, { columns });
        return columns.pageIndex.length;
      }
      const batch: Array<{ site: string; page: string; at: string }> = [];
      for (let h = i * run.batch; h < Math.min((i + 1) * run.batch, traffic.total); h++) {
        const hit: BenchHit = traffic.hit(h);
        batch.push({ site: hit.site, page: hit.page, at: new Date(hit.at).toISOString() });
      }
      await client.mustRequest(RECORD_HITS, { hits: batch });
      return batch.length;
    },
  });
  const clientCpu = cpuMs(process.cpuUsage(cpu));
  const delta = serverDelta(before, await snapshotServer(client));
  const writes = writeCommands(delta.commands);
  return {
    key: run.key,
    target: target.role,
    engine: target.engine,
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
    serverCpuUsPerHit: (delta.cpuSeconds * 1e6) / load.hits,
    clientCpuUsPerHit: (clientCpu * 1000) / load.hits,
  };
}

/** What yesterday's preallocation would have left: zero-filled documents for every page and day of the traffic. */
async function preallocateAll(client: GraphqlClient, pages: number, now: number): Promise<PreallocationCost> {
  const days = Array.from(new Set([now - DAY_MS, now - 1].map((t) => t - (t % DAY_MS))));
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
