/**
 * Ingest acknowledged by the database (INGEST_ACK=database) against ingest acknowledged from the local log
 * (INGEST_ACK=log, issue 27), side by side in one run on one database server: the same generated traffic (Zipf pages,
 * a visitor per ~5 hits, real User-Agents, referrers and addresses: every feature on), batches from concurrent
 * clients, one server after the other. For each: hits/s until every request is answered and until every hit is
 * counted (siteStats equals what was sent), CPU per hit of the tally server and of the database server (until
 * counted), database write commands per 1,000 hits, request p50. Prints numbers; no thresholds.
 *   npm run build && node dist/bench/probes/ingestAck.js [--hits 20000] [--pages 500] [--clients 4] [--batch 100]
 *     [--window-ms 10000] [--backfill] [--log-only] [--single] [--visits]
 * --visits measures INGEST_ACK=log with visits off (VISITS_ENABLED=false) and on, side by side (issue 29), and the
 * visit session collection's bytes per active visitor after the run.
 * --single sends each hit as its own recordHit (a batch is then what one client sends in sequence; its latency is
 * per request).
 * `--node-arg --cpu-prof --node-arg --cpu-prof-dir=DIR` profiles the server.
 * With MONGODB_URI it runs against that server (the database CPU column is then empty: measure the server's own).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BSON, MongoClient } from 'mongodb';
import { loadConfig } from '../../src/config/loadConfig';
import { GraphqlClient } from '../shared/GraphqlClient';
import { hitInputs } from '../shared/hitInputs';
import { parseOptions } from '../shared/options';
import { seededRandom, zipfSampler } from '../shared/random';
import { serverDelta, snapshotServer } from '../shared/serverMetrics';
import { startServer } from '../shared/serverProcess';
import { median } from '../shared/stats';
import { openTarget } from '../shared/target';

const options = parseOptions(process.argv.slice(2), {
  hits: { kind: 'integer', default: 20_000 },
  pages: { kind: 'integer', default: 500 },
  clients: { kind: 'integer', default: 4 },
  batch: { kind: 'integer', default: 100 },
  // The server's default (FLUSH_WINDOW_MS).
  'window-ms': { kind: 'integer', default: 10_000 },
  backfill: { kind: 'flag' },
  'log-only': { kind: 'flag' },
  single: { kind: 'flag' },
  visits: { kind: 'flag' },
  'visits-first': { kind: 'flag' },
  'node-arg': { kind: 'strings', value: 'ARG', dashValue: true },
});

const SITE = 'ack.example';
const HOUR_MS = 3_600_000;
const RECORD_HITS = `mutation RecordHits($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;
const RECORD_HIT = `mutation RecordHit($site: String!, $page: String!, $at: DateTime, $visitor: String,
  $referrer: String, $userAgent: String, $clientIp: String) {
  recordHit(site: $site, page: $page, at: $at, visitor: $visitor, referrer: $referrer, userAgent: $userAgent,
    clientIp: $clientIp) { count }
}`;

function traffic(now: number): Array<Array<Record<string, unknown>>> {
  const random = seededRandom(27);
  const page = zipfSampler(options.pages, 1, random);
  const span = options.backfill ? 30 * 24 * HOUR_MS : HOUR_MS;
  const batches: Array<Array<Record<string, unknown>>> = [];
  for (let i = 0; i < options.hits; i += options.batch) {
    const batch: Array<Record<string, unknown>> = [];
    for (let j = i; j < Math.min(options.hits, i + options.batch); j++) {
      const inputs = hitInputs(27, j);
      batch.push({
        site: SITE,
        page: `/page/${page()}`,
        at: new Date(now - Math.floor(random() * span)).toISOString(),
        visitor: `person-${Math.floor(j / 5) % Math.max(1, Math.floor(options.hits / 5))}`,
        referrer: inputs.referrer,
        userAgent: inputs.userAgent,
        clientIp: inputs.clientIp,
      });
    }
    batches.push(batch);
  }
  return batches;
}

async function counted(client: GraphqlClient, now: number): Promise<number> {
  const from = new Date(now - 31 * 24 * HOUR_MS).toISOString();
  const to = new Date(now + HOUR_MS).toISOString();
  const reply = await client.mustRequest<{ siteStats: { total: number } }>(
    `{ siteStats(site: "${SITE}", range: { from: "${from}", to: "${to}" }, granularity: MONTH) { total } }`,
  );
  return reply.data?.siteStats.total ?? 0;
}

async function measure(ack: 'database' | 'log', uri: string, dbCpu: () => number | undefined, visits?: boolean) {
  const now = Date.now();
  const batches = traffic(now);
  // Each measured server gets a database of its own: a second one on the first's data would count nothing.
  const dbName = `bench_ack_${ack}${visits === undefined ? '' : `_visits_${visits ? 'on' : 'off'}`}_${process.pid}`;
  const server = await startServer('child', {
    uri,
    dbName,
    nodeArgs: options['node-arg'],
    env: {
      INGEST_ACK: ack,
      ...(visits === undefined ? {} : { VISITS_ENABLED: String(visits) }),
      INGEST_LOG_DIR: mkdtempSync(path.join(tmpdir(), 'tally-bench-log-')),
      FLUSH_WINDOW_MS: String(options['window-ms']),
      // A loaded 2-core machine: a slow write must not turn into a refused request in either mode.
      MONGODB_TIMEOUT_MS: '30000',
    },
  });
  const client = new GraphqlClient(server.url, options.clients + 2);
  try {
    const before = await snapshotServer(client);
    const dbBefore = dbCpu();
    const started = performance.now();
    const latencies: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: options.clients }, async () => {
        for (let i = next++; i < batches.length; i = next++) {
          const batch = batches[i] as Array<Record<string, unknown>>;
          if (options.single) {
            for (const hit of batch) {
              const sent = performance.now();
              await client.mustRequest(RECORD_HIT, hit);
              latencies.push(performance.now() - sent);
            }
          } else {
            const sent = performance.now();
            await client.mustRequest(RECORD_HITS, { hits: batch });
            latencies.push(performance.now() - sent);
          }
        }
      }),
    );
    const answered = performance.now() - started;
    while ((await counted(client, now)) < options.hits) await new Promise((resolve) => setTimeout(resolve, 50));
    const done = performance.now() - started;
    const delta = serverDelta(before, await snapshotServer(client));
    const dbSeconds = (dbCpu() ?? Number.NaN) - (dbBefore ?? Number.NaN);
    const writes = (delta.commands.update ?? 0) + (delta.commands.insert ?? 0);
    const sessions = visits === true ? await sessionBytes(uri, dbName) : undefined;
    return {
      ack: visits === undefined ? ack : `${ack}, visits ${visits ? 'on' : 'off'}${sessions ? ` (${sessions})` : ''}`,
      answeredPerSecond: options.hits / (answered / 1000),
      countedPerSecond: options.hits / (done / 1000),
      tallyMicros: (delta.cpuSeconds * 1e6) / options.hits,
      databaseMicros: (dbSeconds * 1e6) / options.hits,
      writesPerThousand: (writes * 1000) / options.hits,
      p50: median(latencies),
      p99: [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
    };
  } finally {
    await server.stop();
  }
}

/** The visit sessions' count and their average BSON size, as a label. */
async function sessionBytes(uri: string, dbName: string): Promise<string> {
  const client = new MongoClient(uri);
  try {
    const sessions = await client.db(dbName).collection('visits.sessions').find().toArray();
    const bytes = sessions.reduce((sum, session) => sum + BSON.calculateObjectSize(session), 0);
    return `${sessions.length} sessions, ${Math.round(bytes / Math.max(1, sessions.length))} B each`;
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  // Log mode alone: the embedded database at the nice value the server gives its own then (TALLY_EMBEDDED_NICE, which
  // the environment may set); both modes share one database, which then keeps the default.
  const logOnly = options['log-only'] || options.visits;
  const { TALLY_EMBEDDED_NICE } = process.env;
  const niceness = logOnly ? loadConfig({ INGEST_ACK: 'log', TALLY_EMBEDDED_NICE }).embeddedNiceness : 0;
  const target = await openTarget({ uri: process.env.MONGODB_URI, niceness });
  try {
    const kind = options.backfill ? 'backfill (30 days)' : 'live (last hour)';
    process.stdout.write(
      `${target.label}${target.embedded ? ` at nice ${target.niceness}` : ''}; ${options.hits} hits, ${options.pages} pages, ${kind}, batches of ${options.batch} from ` +
        `${options.clients} clients, FLUSH_WINDOW_MS=${options['window-ms']}\n`,
    );
    const rows = [];
    if (options.visits) {
      for (const visits of options['visits-first'] ? [true, false] : [false, true])
        rows.push(await measure('log', target.uri, () => target.cpuSeconds(), visits));
    } else {
      for (const ack of options['log-only'] ? (['log'] as const) : (['database', 'log'] as const))
        rows.push(await measure(ack, target.uri, () => target.cpuSeconds()));
    }
    process.stdout.write(
      '| INGEST_ACK | hits/s answered | hits/s counted | CPU µs/hit tally | CPU µs/hit database | CPU µs/hit all | write commands per 1,000 hits | request p50 ms | request p99 ms |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n',
    );
    for (const r of rows) {
      process.stdout.write(
        `| ${r.ack} | ${r.answeredPerSecond.toFixed(0)} | ${r.countedPerSecond.toFixed(0)} | ${r.tallyMicros.toFixed(0)} | ` +
          `${r.databaseMicros.toFixed(0)} | ${(r.tallyMicros + r.databaseMicros).toFixed(0)} | ` +
          `${r.writesPerThousand.toFixed(1)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} |\n`,
      );
    }
  } finally {
    await target.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error).stack ?? error)}\n`);
  process.exit(1);
});
