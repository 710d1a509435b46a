/**
 * Section 7: what visitors (issue 19) and dimensions (issue 20) cost at ingest, side by side in one run:
 * `recordHits` ×1,000 without either, with visitors, with every dimension's inputs, and with both (with and without
 * per-value visitor sketches, DIMENSION_VISITORS), on two traffic
 * shapes (realistic: 500 pages and a realistic audience; narrow: the ingest section's 20 pages). Each variant has its
 * own tally server and database on the same engine ("off" variants on a server with DIMENSIONS_ENABLED=false), so
 * no variant writes into documents another one grew. Variants take turns in short rounds, in alternating order, and
 * send the same hits; each round's request bodies are serialized before its clock starts. Hits/s, write commands
 * per hit and CPU per hit of the tally server (its /metrics) and of the database server (/proc) are summed over
 * the rounds.
 */
import { GraphqlClient } from '../shared/GraphqlClient';
import { writeCommands } from '../shared/MonitoredClient';
import { AudienceTraffic } from '../shared/audienceTraffic';
import type { AudienceShape } from '../shared/audienceTraffic';
import { optional } from '../shared/optional';
import { serverDelta, snapshotServer } from '../shared/serverMetrics';
import type { ServerHandle } from '../shared/serverProcess';
import { elapsedMs, summarize } from '../shared/stats';
import type { LatencySummary } from '../shared/stats';
import { BENCH_SITE, OrderedTraffic } from '../shared/traffic';
import type { AudienceSizes } from './sizes';

export type AudienceVariantKey = 'off' | 'visitors' | 'dimensions' | 'all' | 'allWithoutValueVisitors';
export type TrafficShapeKey = 'realistic' | 'narrow';

interface Variant {
  readonly key: AudienceVariantKey;
  readonly label: string;
  readonly dimensionsEnabled: boolean;
  readonly visitors: boolean;
  /** Referrer, User-Agent, client IP and (on some hits) UTM values. */
  readonly inputs: boolean;
  /** Extra server settings. */
  readonly env?: Readonly<Record<string, string>>;
}

export const AUDIENCE_VARIANTS: readonly Variant[] = [
  {
    key: 'off',
    label: 'no visitor, no inputs; DIMENSIONS_ENABLED=false',
    dimensionsEnabled: false,
    visitors: false,
    inputs: false,
  },
  {
    key: 'visitors',
    label: 'visitor; DIMENSIONS_ENABLED=false',
    dimensionsEnabled: false,
    visitors: true,
    inputs: false,
  },
  {
    key: 'dimensions',
    label: 'referrer, User-Agent, client IP, UTM; no visitor',
    dimensionsEnabled: true,
    visitors: false,
    inputs: true,
  },
  { key: 'all', label: 'visitor and every dimension input', dimensionsEnabled: true, visitors: true, inputs: true },
  {
    // What the per-value visitor sketches of DIMENSION_VISITORS (device, browser, os by default) cost on top.
    key: 'allWithoutValueVisitors',
    label: 'visitor and every dimension input; DIMENSION_VISITORS=none',
    dimensionsEnabled: true,
    visitors: true,
    inputs: true,
    env: { DIMENSION_VISITORS: 'none' },
  },
];

export const TRAFFIC_SHAPES: ReadonlyArray<{ key: TrafficShapeKey; label: string; pages: number }> = [
  { key: 'realistic', label: '500 pages (Zipf), a realistic audience', pages: 500 },
  { key: 'narrow', label: "20 pages (the ingest section's traffic), few documents per batch", pages: 20 },
];

/** Who visits, in every variant that sends visitors or inputs. */
export const INGEST_AUDIENCE: AudienceShape = {
  seed: 7007,
  visitors: 20_000,
  visitorZipfS: 0.6,
  siteHost: BENCH_SITE,
  longTailHosts: 2_000,
  longTailZipfS: 1,
};

export interface AudienceIngestRun {
  readonly shape: TrafficShapeKey;
  readonly variant: AudienceVariantKey;
  readonly label: string;
  readonly engine: string;
  readonly dimensionsEnabled: boolean;
  readonly hits: number;
  readonly requests: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly elapsedMs: number;
  readonly hitsPerSecond: number;
  /** hits/s of each round, in order: the spread the machine's other load caused. */
  readonly roundHitsPerSecond: number[];
  readonly writeCommands: number;
  readonly writeCommandsPerHit: number;
  readonly commands: Record<string, number>;
  readonly requestLatencyMs: LatencySummary;
  readonly serverCpuUsPerHit: number;
  readonly databaseCpuUsPerHit?: number;
  readonly clientCpuUsPerHit: number;
}

export interface AudienceIngestResult {
  readonly engine: string;
  readonly batch: number;
  readonly rounds: number;
  readonly batchesPerRound: number;
  readonly audience: AudienceShape;
  readonly shapes: ReadonlyArray<{ key: TrafficShapeKey; label: string; pages: number }>;
  readonly runs: AudienceIngestRun[];
}

export interface AudienceIngestDeps {
  readonly engine: string;
  readonly sizes: AudienceSizes;
  /** The database name for this shape and variant. */
  readonly dbName: (suffix: string) => string;
  readonly startServer: (dbName: string, env: Record<string, string>) => Promise<ServerHandle>;
  readonly databaseCpuSeconds: () => number | undefined;
  readonly log: (line: string) => void;
}

export const BATCH = 1000;
const DAY_MS = 86_400_000;
const RECORD_HITS = `mutation RecordHits($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;

export interface Totals {
  hits: number;
  requests: number;
  errors: number;
  firstError?: string;
  elapsedMs: number;
  serverCpuSeconds: number;
  databaseCpuSeconds: number | undefined;
  clientCpuMs: number;
  commands: Record<string, number>;
  latencies: number[];
  roundHitsPerSecond: number[];
}

export async function runAudienceIngest(deps: AudienceIngestDeps): Promise<AudienceIngestResult> {
  const { sizes } = deps;
  const batches = sizes.ingestRounds * sizes.batchesPerRound;
  const audience = new AudienceTraffic(INGEST_AUDIENCE);
  const runs: AudienceIngestRun[] = [];
  for (const shape of TRAFFIC_SHAPES) {
    // One more batch than the rounds send: the warm-up, which is not counted.
    const traffic = new OrderedTraffic(
      { pages: shape.pages, zipfS: 1, spanMs: DAY_MS, now: Date.now(), seed: 2002 },
      (batches + 1) * BATCH,
    );
    const body = (variant: Variant, batch: number): string =>
      JSON.stringify({ query: RECORD_HITS, variables: { hits: batchHits(traffic, audience, variant, batch) } });
    const servers: Array<{ variant: Variant; client: GraphqlClient; server: ServerHandle; totals: Totals }> = [];
    try {
      for (const variant of AUDIENCE_VARIANTS) {
        const server = await deps.startServer(deps.dbName(`aud_${shape.key}_${variant.key}`), {
          DIMENSIONS_ENABLED: String(variant.dimensionsEnabled),
          ...variant.env,
        });
        const client = new GraphqlClient(server.url, 2);
        servers.push({ variant, client, server, totals: emptyTotals() });
        // Warm-up: JIT, connections, indexes, the visitor secret; on hits after every round's.
        await client.mustPost(body(variant, batches));
      }
      for (let round = 0; round < sizes.ingestRounds; round++) {
        for (const entry of round % 2 === 0 ? servers : [...servers].reverse()) {
          const first = round * sizes.batchesPerRound;
          const bodies = Array.from({ length: sizes.batchesPerRound }, (_, b) => body(entry.variant, first + b));
          await measureRound(entry.client, bodies, entry.totals, deps.databaseCpuSeconds);
        }
      }
      for (const { variant, totals } of servers) {
        const run = toRun(shape.key, variant, deps.engine, totals);
        runs.push(run);
        deps.log(
          `  ${shape.key}, ${variant.key} [${deps.engine}]: ${Math.round(run.hitsPerSecond)} hits/s, ` +
            `${run.writeCommandsPerHit.toFixed(4)} writes/hit, tally ${run.serverCpuUsPerHit.toFixed(0)} µs/hit` +
            `${run.databaseCpuUsPerHit === undefined ? '' : `, database ${run.databaseCpuUsPerHit.toFixed(0)} µs/hit`}` +
            `${run.errors ? `, ${run.errors} errors (${run.firstError})` : ''}`,
        );
      }
    } finally {
      for (const { client, server } of servers) {
        client.close();
        await server.stop();
      }
    }
  }
  return {
    engine: deps.engine,
    batch: BATCH,
    rounds: sizes.ingestRounds,
    batchesPerRound: sizes.batchesPerRound,
    audience: INGEST_AUDIENCE,
    shapes: TRAFFIC_SHAPES,
    runs,
  };
}

/** The hits of batch `batch` as `recordHits` sends them in this variant. */
function batchHits(
  traffic: OrderedTraffic,
  audience: AudienceTraffic,
  variant: Variant,
  batch: number,
): Array<Record<string, unknown>> {
  const hits: Array<Record<string, unknown>> = [];
  for (let i = batch * BATCH; i < (batch + 1) * BATCH; i++) {
    const { site, page, at } = traffic.hit(i);
    const hit: Record<string, unknown> = { site, page, at: new Date(at).toISOString() };
    if (variant.visitors || variant.inputs) {
      const who = audience.hit(i);
      if (variant.visitors) hit.visitor = who.visitor;
      if (variant.inputs) {
        if (who.referrer !== undefined) hit.referrer = who.referrer;
        hit.userAgent = who.userAgent;
        hit.clientIp = who.clientIp;
        if (who.utm !== undefined) hit.dimensions = who.utm;
      }
    }
    hits.push(hit);
  }
  return hits;
}

export function emptyTotals(): Totals {
  return {
    hits: 0,
    requests: 0,
    errors: 0,
    elapsedMs: 0,
    serverCpuSeconds: 0,
    databaseCpuSeconds: 0,
    clientCpuMs: 0,
    commands: {},
    latencies: [],
    roundHitsPerSecond: [],
  };
}

/** Sends one round's batches of BATCH hits, one at a time, and adds what they cost to `totals`. */
export async function measureRound(
  client: GraphqlClient,
  bodies: readonly string[],
  totals: Totals,
  databaseCpuSeconds: () => number | undefined,
): Promise<void> {
  const before = await snapshotServer(client);
  const databaseBefore = databaseCpuSeconds();
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  let hits = 0;
  for (const body of bodies) {
    const began = process.hrtime.bigint();
    try {
      await client.mustPost(body);
      hits += BATCH;
      totals.latencies.push(elapsedMs(began));
    } catch (error) {
      totals.errors += 1;
      totals.firstError ??= error instanceof Error ? error.message : String(error);
    }
    totals.requests += 1;
  }
  const elapsed = elapsedMs(start);
  const used = process.cpuUsage(cpu);
  const databaseAfter = databaseCpuSeconds();
  const delta = serverDelta(before, await snapshotServer(client));
  totals.hits += hits;
  totals.elapsedMs += elapsed;
  totals.roundHitsPerSecond.push(hits / (elapsed / 1000));
  totals.serverCpuSeconds += delta.cpuSeconds;
  totals.clientCpuMs += (used.user + used.system) / 1000;
  totals.databaseCpuSeconds =
    totals.databaseCpuSeconds === undefined || databaseBefore === undefined || databaseAfter === undefined
      ? undefined
      : totals.databaseCpuSeconds + (databaseAfter - databaseBefore);
  for (const [name, n] of Object.entries(delta.commands)) totals.commands[name] = (totals.commands[name] ?? 0) + n;
}

function toRun(shape: TrafficShapeKey, variant: Variant, engine: string, totals: Totals): AudienceIngestRun {
  const hits = Math.max(1, totals.hits);
  const writes = writeCommands(totals.commands);
  return {
    shape,
    variant: variant.key,
    label: variant.label,
    engine,
    dimensionsEnabled: variant.dimensionsEnabled,
    hits: totals.hits,
    requests: totals.requests,
    errors: totals.errors,
    ...optional('firstError', totals.firstError),
    elapsedMs: totals.elapsedMs,
    hitsPerSecond: totals.hits / (totals.elapsedMs / 1000),
    roundHitsPerSecond: totals.roundHitsPerSecond,
    writeCommands: writes,
    writeCommandsPerHit: writes / hits,
    commands: totals.commands,
    requestLatencyMs: summarize(totals.latencies),
    serverCpuUsPerHit: (totals.serverCpuSeconds * 1e6) / hits,
    ...optional(
      'databaseCpuUsPerHit',
      totals.databaseCpuSeconds === undefined ? undefined : (totals.databaseCpuSeconds * 1e6) / hits,
    ),
    clientCpuUsPerHit: (totals.clientCpuMs * 1000) / hits,
  };
}
