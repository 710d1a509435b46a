/**
 * The cost of events and goals (issue 28), each figure beside its reference in one run, engine-labelled:
 * - ingest: recordHits ×1,000 of the realistic traffic with 5 % events (two properties, 1 % with revenue) against
 *   the same hits as pageviews (eventIngest), hits/s ratio;
 * - queries on `--hits` stored hits (eventFixtures, default 1,000,000): `conversions` of the five goals over 30 and
 *   90 days (and, to show where the time goes, the two event goals and the three page goals alone), a 30-day
 *   `breakdown(dimension: SOURCE, event:)` beside the same breakdown of hits; p50/p95, server CPU and finds per query;
 * - where a 30-day conversions request's time goes: each of its reads alone, through tally's store (conversionReads);
 * - bytes per site-day and site-month of the event documents beside the pageview documents;
 * - accuracy: each goal's conversion rate against the exact one (percentage points), events and revenue exactly.
 * Run: `npm run build && node dist/bench/probes/eventsCost.js [--only ingest|queries] [--hits N]` (MONGODB_URI to use a
 * running server; `--port N` puts the tally servers on N, N+1, N+2). Prints markdown tables.
 */
import { GraphqlClient } from '../shared/GraphqlClient';
import { parseOptions } from '../shared/options';
import { serverDelta, snapshotServer } from '../shared/serverMetrics';
import { startServer } from '../shared/serverProcess';
import { elapsedMs, fmt, summarize } from '../shared/stats';
import type { LatencySummary } from '../shared/stats';
import { openTarget } from '../shared/target';
import type { DatabaseTarget } from '../shared/target';
import { EVENT_DAYS, EVENT_SITE, GOALS, loadEventData } from '../suite/eventFixtures';
import type { EventDataSet, PeriodBytes, SpanTruth } from '../suite/eventFixtures';
import { runEventIngest } from '../suite/eventIngest';
import { timeConversionReads } from '../suite/conversionReads';
import type { ReadCell } from '../suite/conversionReads';
import { connectDatabase } from '../../src/store/connectDatabase';
import { createLogger } from '../../src/logging/createLogger';
import type { EventIngestResult } from '../suite/eventIngest';
import { MongoClient } from 'mongodb';
import type { Db } from 'mongodb';

const DAY_MS = 86_400_000;
/** A `**` goal matching 10 of the pages (`/articles/0010.html` to `0019`). */
const NARROW = '/articles/001**';

interface QuerySpec {
  readonly key: string;
  readonly label: string;
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

interface QueryCell {
  readonly label: string;
  readonly latencyMs: LatencySummary;
  readonly serverCpuMsPerQuery: number;
  readonly findsPerQuery: number;
  readonly httpBytes: number;
}

type Conversion = {
  goal: string;
  events: number;
  visitors: number | null;
  conversionRate: number | null;
  revenue: Array<{ currency: string; amount: string }>;
};

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), {
    only: { kind: 'choice', choices: ['all', 'ingest', 'queries'], default: 'all' },
    hits: { kind: 'integer', default: 1_000_000 },
    pages: { kind: 'integer', default: 200 },
    rounds: { kind: 'integer', default: 5 },
    'queries-per-round': { kind: 'integer', default: 2 },
    'ingest-rounds': { kind: 'integer', default: 6 },
    batches: { kind: 'integer', default: 4 },
    port: { kind: 'integer', default: 0 },
    // Iterating on the queries: `--keep` leaves the stored data, `--reuse DB` times queries on it (no load, no accuracy).
    keep: { kind: 'flag' },
    reuse: { kind: 'string', value: 'DB', needs: 'the database a run with --keep left (same UTC day)' },
  });
  const target = await openTarget({ uri: process.env.MONGODB_URI || undefined });
  const dbPrefix = `bench_events_${process.pid}`;
  const port = (offset: number): { port?: number } => (options.port === 0 ? {} : { port: options.port + offset });
  console.log(`engine: ${target.description}`);
  try {
    if (options.only !== 'queries') {
      console.log('ingest with and without events…');
      const ingest = await runEventIngest({
        rounds: options['ingest-rounds'],
        batchesPerRound: options.batches,
        startServer: (variant) =>
          startServer('child', {
            uri: target.uri,
            dbName: `${dbPrefix}_ingest_${variant}`,
            ...port(variant === 'pageviews' ? 1 : 2),
          }),
        databaseCpuSeconds: () => target.cpuSeconds(),
        log: (line) => console.log(line),
      });
      printIngest(target, ingest);
    }
    if (options.only !== 'ingest') {
      const dbName = options.reuse ?? `${dbPrefix}_queries`;
      const server = await startServer('child', {
        uri: target.uri,
        dbName,
        env: { MONGODB_TIMEOUT_MS: '120000' },
        ...port(0),
      });
      const client = new GraphqlClient(server.url, 2);
      const mongo = await new MongoClient(target.uri, {
        maxPoolSize: target.engine.requiresSingleWriter ? 1 : 10,
      }).connect();
      try {
        const data =
          options.reuse === undefined ? await load(mongo.db(dbName), options.hits, options.pages) : undefined;
        const today = Date.now() - (Date.now() % DAY_MS);
        const specs = querySpecs(data?.first ?? today - EVENT_DAYS * DAY_MS);
        const { cells, answers } = await timeQueries(client, specs, options.rounds, options['queries-per-round']);
        printQueries(target, data, cells);
        printReads(target, await conversionReads(target.uri, dbName, today));
        if (data !== undefined) {
          printBytes(target, data);
          printAccuracy(target, data, answers);
        }
        if (options.keep) console.log(`\nkept the stored data: --reuse ${dbName}`);
      } finally {
        client.close();
        await server.stop();
        await mongo.close();
      }
    }
  } finally {
    const mongo = await new MongoClient(target.uri).connect().catch(() => undefined);
    for (const suffix of ['ingest_pageviews', 'ingest_events', ...(options.keep ? [] : ['queries'])])
      await mongo
        ?.db(`${dbPrefix}_${suffix}`)
        .dropDatabase()
        .catch(() => undefined);
    await mongo?.close();
    await target.stop();
  }
}

async function load(db: Db, hits: number, pages: number): Promise<EventDataSet> {
  console.log(`storing ${hits.toLocaleString('en-US')} hits…`);
  const data = await loadEventData(db, { hits, pages, now: Date.now() });
  console.log(
    `  ${data.events.toLocaleString('en-US')} of them events; documents ${JSON.stringify(data.documents)}, ` +
      `loaded in ${(data.loadMs / 1000).toFixed(1)} s; ${data.compactedDocuments} past documents compacted and ` +
      `${data.digests} page digests written in ${(data.compactMs / 1000).toFixed(1)} s`,
  );
  return data;
}

function range(first: number, days: number): { from: string; to: string } {
  const to = first + EVENT_DAYS * DAY_MS;
  return { from: new Date(to - days * DAY_MS).toISOString(), to: new Date(to).toISOString() };
}

const CONVERSIONS = `query Conversions($goals: [GoalInput!]!, $from: DateTime!, $to: DateTime!) {
  conversions(site: "${EVENT_SITE}", goals: $goals, range: { from: $from, to: $to }) {
    goal events visitors conversionRate revenue { currency amount }
  }
}`;

function breakdown(event: string | undefined): string {
  return (
    `query Breakdown($from: DateTime!, $to: DateTime!) { breakdown(site: "${EVENT_SITE}", dimension: SOURCE, ` +
    `${event === undefined ? '' : `event: ${JSON.stringify(event)}, `}range: { from: $from, to: $to }, first: 10) ` +
    `{ totalCount other edges { node { value hits } } } }`
  );
}

function querySpecs(first: number): QuerySpec[] {
  const eventGoals = GOALS.filter((goal) => goal.event !== undefined);
  const pageGoals = GOALS.filter((goal) => goal.page !== undefined);
  return [
    {
      key: 'conversions.30',
      label: 'conversions, 5 goals, 30 days',
      query: CONVERSIONS,
      variables: { goals: GOALS, ...range(first, 30) },
    },
    {
      key: 'conversions.90',
      label: 'conversions, 5 goals, 90 days',
      query: CONVERSIONS,
      variables: { goals: GOALS, ...range(first, 90) },
    },
    {
      // The same 30 days moved one day on, through today (which holds no data here): this month's site and event
      // documents are read instead of its days' (spanPieces).
      key: 'today.30',
      label: 'conversions, 5 goals, 30 days through today',
      query: CONVERSIONS,
      variables: { goals: GOALS, ...range(first + DAY_MS, 30) },
    },
    {
      // Page goals cost a document per matching page and day: the same goals with a `**` of 10 pages, not 100.
      key: 'narrow.30',
      label: `conversions, 5 goals with ${NARROW} instead, 30 days`,
      query: CONVERSIONS,
      variables: {
        goals: GOALS.map((goal) => (goal.page?.includes('**') ? { page: NARROW } : goal)),
        ...range(first, 30),
      },
    },
    {
      key: 'events.30',
      label: 'conversions, the 2 event goals only, 30 days',
      query: CONVERSIONS,
      variables: { goals: eventGoals, ...range(first, 30) },
    },
    {
      key: 'pages.30',
      label: 'conversions, the 3 page goals only, 30 days',
      query: CONVERSIONS,
      variables: { goals: pageGoals, ...range(first, 30) },
    },
    {
      key: 'breakdownEvent.30',
      label: 'breakdown(dimension: SOURCE, event: "Signup"), 30 days',
      query: breakdown('Signup'),
      variables: range(first, 30),
    },
    {
      key: 'breakdownHits.30',
      label: 'breakdown(dimension: SOURCE) of hits, 30 days (reference)',
      query: breakdown(undefined),
      variables: range(first, 30),
    },
    // Issue 27's target for rankings: the page rollups (stats.rollups), at the same 1,000,000 stored hits.
    { key: 'topPages.30', label: 'topPages(first: 10), 30 days', query: TOP_PAGES, variables: range(first, 30) },
    {
      key: 'topPages.today.30',
      label: 'topPages(first: 10), 30 days through today',
      query: TOP_PAGES,
      variables: range(first + DAY_MS, 30),
    },
  ];
}

const TOP_PAGES = `query TopPages($from: DateTime!, $to: DateTime!) {
  topPages(site: "${EVENT_SITE}", range: { from: $from, to: $to }, first: 10) { totalCount edges { node { page hits } } }
}`;

/** Round 0 warms up and is not counted; later rounds alternate the order of the kinds. */
async function timeQueries(
  client: GraphqlClient,
  specs: readonly QuerySpec[],
  rounds: number,
  perRound: number,
): Promise<{ cells: Map<string, QueryCell>; answers: Map<string, Conversion[]> }> {
  const samples = new Map(specs.map((spec) => [spec.key, { latencies: [] as number[], cpu: 0, finds: 0, bytes: 0 }]));
  const answers = new Map<string, Conversion[]>();
  for (let round = 0; round <= rounds; round++) {
    for (const spec of round % 2 === 0 ? specs : [...specs].reverse()) {
      const before = await snapshotServer(client);
      const latencies: number[] = [];
      let bytes = 0;
      for (let q = 0; q < perRound; q++) {
        const start = process.hrtime.bigint();
        const response = await client.mustRequest<{ conversions?: Conversion[] }>(spec.query, spec.variables);
        latencies.push(elapsedMs(start));
        bytes += response.bytes;
        if (response.data?.conversions) answers.set(spec.key, response.data.conversions);
      }
      const delta = serverDelta(before, await snapshotServer(client));
      const sample = samples.get(spec.key);
      if (round === 0 || sample === undefined) continue;
      sample.latencies.push(...latencies);
      sample.cpu += delta.cpuSeconds;
      sample.finds += delta.commands.find ?? 0;
      sample.bytes += bytes;
    }
  }
  const cells = new Map<string, QueryCell>();
  for (const spec of specs) {
    const sample = samples.get(spec.key) as { latencies: number[]; cpu: number; finds: number; bytes: number };
    const n = Math.max(1, sample.latencies.length);
    cells.set(spec.key, {
      label: spec.label,
      latencyMs: summarize(sample.latencies),
      serverCpuMsPerQuery: (sample.cpu * 1000) / n,
      findsPerQuery: sample.finds / n,
      httpBytes: sample.bytes / n,
    });
  }
  return { cells, answers };
}

function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n');
}

function printIngest(target: DatabaseTarget, ingest: EventIngestResult): void {
  console.log(`\n### Ingest with events (${target.label})\n`);
  console.log(
    table(
      [
        `variant (${target.label})`,
        'hits',
        'events',
        'hits/s',
        'hits/s per round',
        'write commands/hit',
        'tally CPU µs/hit',
        'database CPU µs/hit',
        'errors',
      ],
      ingest.runs.map((run) => [
        run.variant === 'events' ? '5 % events (two properties), 1 % with revenue' : 'the same hits as pageviews',
        run.hits.toLocaleString('en-US'),
        run.events.toLocaleString('en-US'),
        fmt(run.hitsPerSecond),
        run.roundHitsPerSecond.map((n) => fmt(n)).join(', '),
        fmt(run.writeCommandsPerHit),
        fmt(run.serverCpuUsPerHit),
        run.databaseCpuUsPerHit === undefined ? '—' : fmt(run.databaseCpuUsPerHit),
        String(run.errors),
      ]),
    ),
  );
  console.log(`\nwith events / without: ${fmt(ingest.ratio)}× the hits/s (target ≥ 0.8×)`);
}

function printQueries(target: DatabaseTarget, data: EventDataSet | undefined, cells: Map<string, QueryCell>): void {
  if (data === undefined) console.log(`\n### Queries on the reused data (${target.label})\n`);
  else
    console.log(
      `\n### Queries at ${data.hits.toLocaleString('en-US')} stored hits (${target.label})\n\n` +
        `${data.events.toLocaleString('en-US')} events among them, ${data.pages} pages, ${EVENT_DAYS} days; ` +
        `documents: ${Object.entries(data.documents)
          .map(([name, n]) => `${name} ${n.toLocaleString('en-US')}`)
          .join(', ')}.\n`,
    );
  console.log(
    table(
      [`query (${target.label})`, 'latency ms p50 / p95', 'server CPU ms/query', 'finds/query', 'response bytes'],
      [...cells.values()].map((cell) => [
        cell.label,
        `${fmt(cell.latencyMs.p50)} / ${fmt(cell.latencyMs.p95)} (n=${cell.latencyMs.n})`,
        fmt(cell.serverCpuMsPerQuery),
        fmt(cell.findsPerQuery),
        fmt(cell.httpBytes),
      ]),
    ),
  );
  const p50 = (key: string): number => cells.get(key)?.latencyMs.p50 ?? Number.NaN;
  console.log(
    `\nbreakdown with event / of hits: ${fmt(p50('breakdownEvent.30') / p50('breakdownHits.30'))}× the p50; ` +
      `conversions 90 / 30 days: ${fmt(p50('conversions.90') / p50('conversions.30'))}×`,
  );
}

async function conversionReads(uri: string, dbName: string, today: number): Promise<ReadCell[]> {
  const database = await connectDatabase({
    uri,
    dbName,
    logger: createLogger({ level: 'warn', nodeEnv: 'production' }),
  });
  try {
    return await timeConversionReads(database, today, 30, 5);
  } finally {
    await database.close();
  }
}

function printReads(target: DatabaseTarget, cells: readonly ReadCell[]): void {
  console.log(`\n### The reads of a 30-day conversions request, one at a time, over the driver (${target.label})\n`);
  console.log(
    table(
      [`read (${target.label})`, 'median ms (of 5)', 'documents', 'BSON bytes'],
      cells.map((cell) => [cell.label, fmt(cell.medianMs), cell.documents.toLocaleString('en-US'), fmt(cell.bytes)]),
    ),
  );
}

function printBytes(target: DatabaseTarget, data: EventDataSet): void {
  const row = (label: string, bytes: PeriodBytes): string[] => [
    label,
    bytes.periods.toLocaleString('en-US'),
    fmt(bytes.documents / Math.max(1, bytes.periods)),
    fmt(bytes.meanBytes),
    fmt(bytes.maxBytes),
    fmt(bytes.largestDocument),
  ];
  console.log(`\n### Bytes per site-day and site-month, BSON as written before compaction (${target.label})\n`);
  console.log(
    table(
      ['documents', 'periods', 'documents per period', 'mean bytes per period', 'largest period', 'largest document'],
      [
        row('stats.daily (pageviews: counters, sketches, dimensions, page rollup)', data.bytes.statsDay),
        row('events.daily', data.bytes.eventsDay),
        row('stats.monthly', data.bytes.statsMonth),
        row('events.monthly', data.bytes.eventsMonth),
      ],
    ),
  );
  console.log(
    `\nevents add ${fmt((100 * data.bytes.eventsDay.meanBytes) / data.bytes.statsDay.meanBytes)} % to a site-day's bytes, ` +
      `${fmt((100 * data.bytes.eventsMonth.meanBytes) / data.bytes.statsMonth.meanBytes)} % to a site-month's`,
  );
}

function printAccuracy(target: DatabaseTarget, data: EventDataSet, answers: Map<string, Conversion[]>): void {
  console.log(`\n### Accuracy against an exact recount (${target.label})\n`);
  const rows: string[][] = [];
  for (const truth of data.truth) {
    const answer = answers.get(`conversions.${truth.days}`) ?? [];
    for (const [i, goal] of truth.goals.entries()) rows.push(accuracyRow(truth, goal, answer[i]));
  }
  console.log(
    table(
      [
        'days',
        'goal',
        'events (exact)',
        'events',
        'visitors (exact)',
        'visitors',
        'rate (exact)',
        'rate',
        'error, points',
        'revenue (exact)',
        'revenue',
      ],
      rows,
    ),
  );
}

function accuracyRow(truth: SpanTruth, goal: SpanTruth['goals'][number], answer: Conversion | undefined): string[] {
  const exactRate = goal.visitors / truth.siteVisitors;
  const rate = answer?.conversionRate ?? Number.NaN;
  const exactRevenue = Object.entries(goal.revenue)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([currency, minor]) => `${(minor / 100).toFixed(2)} ${currency}`)
    .join(', ');
  const revenue = (answer?.revenue ?? []).map((money) => `${money.amount} ${money.currency}`).join(', ');
  return [
    String(truth.days),
    goal.goal,
    goal.events.toLocaleString('en-US'),
    `${(answer?.events ?? Number.NaN).toLocaleString('en-US')}${answer?.events === goal.events ? '' : ' (differs)'}`,
    goal.visitors.toLocaleString('en-US'),
    (answer?.visitors ?? Number.NaN).toLocaleString('en-US'),
    `${(100 * exactRate).toFixed(2)} %`,
    `${(100 * rate).toFixed(2)} %`,
    (100 * Math.abs(rate - exactRate)).toFixed(2),
    exactRevenue || '—',
    `${revenue || '—'}${revenue === exactRevenue ? '' : ' (differs)'}`,
  ];
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
