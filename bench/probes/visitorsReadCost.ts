/**
 * What reading visitors and breakdowns costs the tally server (issues 19 and 20), on documents seeded directly in
 * the stored format: the 20-series dashboard over 90 days by DAY with and without `visitors` (every daily and
 * monthly document holding a sketch of `--visitors` visitors; the default, 1,000,000, saturates it: the worst size
 * per document), the same dashboard on a site whose documents hold no sketch (the cost before issue 19), and a
 * 30-day breakdown of SOURCE with 1,000 and with 100,000 distinct values. Prints the server's CPU (its own
 * `tally_process_cpu_seconds_total`) and the client's latency per query, medians over rounds, and the finds each
 * query sent; then the database alone: one find of the dashboard's daily documents projecting `v`, and `hourly`.
 * No thresholds.
 *   npm run build && node dist/bench/probes/visitorsReadCost.js [--rounds 5] [--queries 3] [--visitors 1000000]
 *     [--timeout-ms 120000]
 */
import { MongoClient } from 'mongodb';
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { dimensionKey } from '../../src/domain/dimensions/dimensionKey';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { VISITOR_PRECISION } from '../../src/domain/visitors/VisitorPrecision';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { DAILY_COLLECTION, dailyDocumentId } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION, monthlyDocumentId } from '../../src/store/monthlyStats';
import { GraphqlClient } from '../shared/GraphqlClient';
import { parseOptions } from '../shared/options';
import { serverDelta, snapshotServer } from '../shared/serverMetrics';
import { startServer } from '../shared/serverProcess';
import { elapsedMs, median } from '../shared/stats';
import { openTarget } from '../shared/target';

const DAY_MS = 86_400_000;
const DB_NAME = 'visitors_read_cost';
const SITE = 'visitors.bench';
const PLAIN_SITE = 'plain.bench';
const PAGES = Array.from({ length: 20 }, (_, i) => `/page/${i}`);

/** A counter document as seeded: a string `_id` and whatever fields the stored format has. */
type SeedDocument = Document & { _id: string };

const options = parseOptions(process.argv.slice(2), {
  rounds: { kind: 'integer', default: 5 },
  visitors: { kind: 'integer', default: 1_000_000 },
  queries: { kind: 'integer', default: 3 },
  // The saturated 90-day dashboard's one find outlasts the default MONGODB_TIMEOUT_MS (5 s) on FerretDB.
  'timeout-ms': { kind: 'integer', default: 120_000 },
});

function saturated(precision: number, seed: number): Record<string, number> {
  const sketch = VisitorSketch.empty(precision);
  for (let i = 0; i < options.visitors; i++) sketch.add(splitmix64(seed, i));
  return sketch.toStoredFields();
}

function hourly(): Record<string, number> {
  return Object.fromEntries(Array.from({ length: 24 }, (_, h) => [String(h), 10 + h]));
}

/** 90 days of page and site documents with saturated sketches, and two sites of breakdown counters. */
async function seed(uri: string, first: number, days: number): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    const db = client.db(DB_NAME);
    await db.dropDatabase();
    const pageSketch = saturated(VISITOR_PRECISION.pageDay, 1);
    const siteSketch = saturated(VISITOR_PRECISION.siteDay, 2);
    const daily: AnyBulkWriteOperation<SeedDocument>[] = [];
    const monthly = new Map<string, Document>();
    for (const [site, page] of [SITE, PLAIN_SITE].flatMap((s) => [...PAGES, SITE_TOTAL_PAGE].map((p) => [s, p]))) {
      const sketch = page === SITE_TOTAL_PAGE ? siteSketch : pageSketch;
      const v = site === SITE ? sketch : undefined;
      for (let day = first; day < first + days * DAY_MS; day += DAY_MS) {
        const date = new Date(day);
        const metadata = { date, site, page };
        daily.push({
          insertOne: {
            document: {
              _id: dailyDocumentId(site, page, day),
              metadata,
              daily: 300,
              hourly: hourly(),
              ...(v ? { v } : {}),
            },
          },
        });
        const month = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
        const id = monthlyDocumentId(site, page, month);
        const doc = monthly.get(id) ?? {
          _id: id,
          metadata: { date: new Date(month), site, page },
          daily: {},
          ...(v ? { v } : {}),
        };
        (doc.daily as Record<string, number>)[String(date.getUTCDate())] = 300;
        monthly.set(id, doc);
      }
    }
    for (const [site, distinct] of [
      ['breakdown-1k.bench', 1_000],
      ['breakdown-100k.bench', 100_000],
    ] as const) {
      // Every day holds its share of the values (all of them at 1,000), so the 30-day union has `distinct`.
      const perDay = Math.min(distinct, Math.ceil(distinct / 30));
      for (let d = 0; d < 30; d++) {
        const day = first + (days - 30 + d) * DAY_MS;
        const counters: Record<string, number> = {};
        for (let i = 0; i < perDay; i++) {
          const value = distinct === perDay ? i : d * perDay + i;
          counters[dimensionKey(`host-${value}.example.org`)] = 1 + ((value * 7919) % 1000);
        }
        const metadata = { date: new Date(day), site, page: SITE_TOTAL_PAGE };
        daily.push({
          insertOne: {
            document: { _id: dailyDocumentId(site, SITE_TOTAL_PAGE, day), metadata, d: { source: counters } },
          },
        });
      }
    }
    for (let i = 0; i < daily.length; i += 200) {
      await db.collection<SeedDocument>(DAILY_COLLECTION).bulkWrite(daily.slice(i, i + 200), { ordered: false });
    }
    await db.collection(MONTHLY_COLLECTION).bulkWrite(
      [...monthly.values()].map((document) => ({ insertOne: { document } })),
      { ordered: false },
    );
  } finally {
    await client.close();
  }
}

function dashboard(visitors: boolean, site = SITE): string {
  const fields = PAGES.map(
    (page, i) =>
      `s${i}: pageStats(site: "${site}", page: "${page}", range: { from: $from, to: $to }, granularity: DAY) { total values${visitors ? ' visitors points { visitors }' : ''} }`,
  );
  return `query($from: DateTime!, $to: DateTime!) {\n${fields.join('\n')}\n}`;
}

function breakdown(site: string): string {
  return `query($from: DateTime!, $to: DateTime!) { breakdown(site: "${site}", dimension: SOURCE, range: { from: $from, to: $to }, first: 10) { totalCount other edges { node { value hits } } } }`;
}

/**
 * One find of the dashboard's 1,800 daily page documents by id, as the server sends it, projecting `v` or `hourly`;
 * and the same documents without sketches: what the database spends on documents that carry them.
 */
async function databaseAlone(uri: string, first: number, days: number): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    const collection = client.db(DB_NAME).collection<SeedDocument>(DAILY_COLLECTION);
    const ids = (site: string): string[] =>
      PAGES.flatMap((page) => Array.from({ length: days }, (_, d) => dailyDocumentId(site, page, first + d * DAY_MS)));
    for (const [site, field] of [
      [SITE, 'v'],
      [SITE, 'hourly'],
      [PLAIN_SITE, 'hourly'],
    ] as const) {
      const start = process.hrtime.bigint();
      const docs = await collection
        .find({ _id: { $in: ids(site) } }, { projection: { metadata: 1, [field]: 1 } })
        .toArray();
      console.log(
        `  database alone: find of ${docs.length} daily documents of ${site} projecting ${field}: ${elapsedMs(start).toFixed(0)} ms`,
      );
    }
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const { rounds, queries } = options;
  const now = Date.now();
  const today = now - (now % DAY_MS);
  // 90 whole UTC days ending yesterday; March-like spans cross month ends, so both levels are read.
  const first = today - 90 * DAY_MS;
  const target = await openTarget({});
  const server = await startServer('child', {
    uri: target.uri,
    dbName: DB_NAME,
    env: { MONGODB_TIMEOUT_MS: String(options['timeout-ms']) },
  });
  const client = new GraphqlClient(server.url, 2);
  try {
    const seeding = process.hrtime.bigint();
    await seed(target.uri, first, 90);
    console.error(`seeded in ${(elapsedMs(seeding) / 1000).toFixed(1)} s`);
    const days90 = { from: new Date(first).toISOString(), to: new Date(today).toISOString() };
    const days30 = { from: new Date(today - 30 * DAY_MS).toISOString(), to: new Date(today).toISOString() };
    const kinds: Record<string, { query: string; variables: Record<string, string> }> = {
      'dashboard: 20 series, 90 days by DAY, documents without sketches': {
        query: dashboard(false, PLAIN_SITE),
        variables: days90,
      },
      'dashboard: 20 series, 90 days by DAY, documents with sketches, no visitors asked': {
        query: dashboard(false),
        variables: days90,
      },
      'dashboard: 20 series, 90 days by DAY, with visitors': { query: dashboard(true), variables: days90 },
      'breakdown: SOURCE over 30 days, 1,000 values': { query: breakdown('breakdown-1k.bench'), variables: days30 },
      'breakdown: SOURCE over 30 days, 100,000 values': { query: breakdown('breakdown-100k.bench'), variables: days30 },
    };
    const cpu = new Map<string, number[]>();
    const latency = new Map<string, number[]>();
    const finds = new Map<string, number>();
    for (let round = 0; round <= rounds; round++) {
      for (const [name, { query, variables }] of Object.entries(kinds)) {
        const before = await snapshotServer(client);
        const times: number[] = [];
        for (let q = 0; q < queries; q++) {
          const start = process.hrtime.bigint();
          await client.mustRequest(query, variables);
          times.push(elapsedMs(start));
        }
        const delta = serverDelta(before, await snapshotServer(client));
        // Round 0 warms the server up (JIT, caches) and is not counted.
        if (round === 0) continue;
        cpu.set(name, [...(cpu.get(name) ?? []), (delta.cpuSeconds * 1000) / queries]);
        latency.set(name, [...(latency.get(name) ?? []), median(times)]);
        finds.set(name, (delta.commands.find ?? 0) / queries);
      }
    }
    console.log(
      `visitors and breakdown reads, ${target.label}, sketches of ${options.visitors} visitors, median of ${rounds} rounds of ${queries} queries:`,
    );
    for (const name of Object.keys(kinds)) {
      const c = median(cpu.get(name) ?? []);
      const l = median(latency.get(name) ?? []);
      console.log(`  ${name}: server CPU ${c.toFixed(1)} ms, latency ${l.toFixed(1)} ms, finds ${finds.get(name)}`);
    }
    await databaseAlone(target.uri, first, 90);
  } finally {
    client.close();
    await server.stop();
    await target.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
