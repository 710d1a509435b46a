/**
 * What events cost at ingest (issue 28), side by side in one run: `recordHits` ×1,000 of section 7's realistic
 * traffic (500 Zipf pages, a visitor and every dimension input on each hit) where EVENT_SHARE of the hits are events
 * with two properties and REVENUE_SHARE carry revenue (eventTraffic), against the same hits with the event fields
 * left out (so those hits are pageviews: the same hits per request, the same visitors and inputs). Each variant has
 * its own tally server and database on the same engine; they take turns in short rounds, in alternating order, as
 * section 7's variants do, and every round's request bodies are serialized before its clock starts.
 */
import { GraphqlClient } from '../shared/GraphqlClient';
import { writeCommands } from '../shared/MonitoredClient';
import { AudienceTraffic } from '../shared/audienceTraffic';
import { eventAt } from '../shared/eventTraffic';
import type { ServerHandle } from '../shared/serverProcess';
import { OrderedTraffic } from '../shared/traffic';
import { BATCH, INGEST_AUDIENCE, emptyTotals, measureRound } from './audienceIngest';
import type { Totals } from './audienceIngest';

export type EventIngestVariant = 'pageviews' | 'events';

export interface EventIngestRun {
  readonly variant: EventIngestVariant;
  readonly hits: number;
  readonly events: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly hitsPerSecond: number;
  readonly roundHitsPerSecond: number[];
  readonly writeCommandsPerHit: number;
  readonly serverCpuUsPerHit: number;
  readonly databaseCpuUsPerHit?: number;
}

export interface EventIngestResult {
  readonly rounds: number;
  readonly batchesPerRound: number;
  readonly runs: readonly EventIngestRun[];
  /** Hits/s with events over hits/s without (the issue's target: at least 0.8). */
  readonly ratio: number;
}

export interface EventIngestDeps {
  readonly rounds: number;
  readonly batchesPerRound: number;
  readonly startServer: (variant: EventIngestVariant) => Promise<ServerHandle>;
  readonly databaseCpuSeconds: () => number | undefined;
  readonly log: (line: string) => void;
}

const RECORD_HITS = `mutation RecordHits($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;
const VARIANTS: readonly EventIngestVariant[] = ['pageviews', 'events'];
const DAY_MS = 86_400_000;
const EVENT_SEED = 2830;

export async function runEventIngest(deps: EventIngestDeps): Promise<EventIngestResult> {
  const batches = deps.rounds * deps.batchesPerRound;
  const audience = new AudienceTraffic(INGEST_AUDIENCE);
  // One more batch than the rounds send: the warm-up, which is not counted.
  const traffic = new OrderedTraffic(
    { pages: 500, zipfS: 1, spanMs: DAY_MS, now: Date.now(), seed: 2002 },
    (batches + 1) * BATCH,
  );
  const body = (variant: EventIngestVariant, batch: number): string =>
    JSON.stringify({ query: RECORD_HITS, variables: { hits: batchHits(traffic, audience, variant, batch) } });
  const servers: Array<{ variant: EventIngestVariant; client: GraphqlClient; server: ServerHandle; totals: Totals }> =
    [];
  try {
    for (const variant of VARIANTS) {
      const server = await deps.startServer(variant);
      const client = new GraphqlClient(server.url, 2);
      servers.push({ variant, client, server, totals: emptyTotals() });
      await client.mustPost(body(variant, batches));
    }
    for (let round = 0; round < deps.rounds; round++) {
      for (const entry of round % 2 === 0 ? servers : [...servers].reverse()) {
        const first = round * deps.batchesPerRound;
        const bodies = Array.from({ length: deps.batchesPerRound }, (_, b) => body(entry.variant, first + b));
        await measureRound(entry.client, bodies, entry.totals, deps.databaseCpuSeconds);
      }
    }
  } finally {
    for (const { client, server } of servers) {
      client.close();
      await server.stop();
    }
  }
  let events = 0;
  for (let i = 0; i < batches * BATCH; i++) if (eventAt(EVENT_SEED, i) !== undefined) events++;
  const runs = servers.map(({ variant, totals }) => toRun(variant, variant === 'events' ? events : 0, totals));
  for (const run of runs) {
    deps.log(
      `  ${run.variant}: ${Math.round(run.hitsPerSecond)} hits/s (rounds ${run.roundHitsPerSecond.map((n) => Math.round(n)).join(', ')}), ` +
        `${run.writeCommandsPerHit.toFixed(4)} writes/hit, tally ${run.serverCpuUsPerHit.toFixed(0)} µs/hit` +
        `${run.databaseCpuUsPerHit === undefined ? '' : `, database ${run.databaseCpuUsPerHit.toFixed(0)} µs/hit`}` +
        `${run.errors ? `, ${run.errors} errors (${run.firstError})` : ''}`,
    );
  }
  const [without, withEvents] = runs as [EventIngestRun, EventIngestRun];
  return {
    rounds: deps.rounds,
    batchesPerRound: deps.batchesPerRound,
    runs,
    ratio: withEvents.hitsPerSecond / without.hitsPerSecond,
  };
}

/** The hits of batch `batch`: every input of section 7's "all" variant, plus the event fields in `events`. */
function batchHits(
  traffic: OrderedTraffic,
  audience: AudienceTraffic,
  variant: EventIngestVariant,
  batch: number,
): Array<Record<string, unknown>> {
  const hits: Array<Record<string, unknown>> = [];
  for (let i = batch * BATCH; i < (batch + 1) * BATCH; i++) {
    const { site, page, at } = traffic.hit(i);
    const who = audience.hit(i);
    const hit: Record<string, unknown> = {
      site,
      page,
      at: new Date(at).toISOString(),
      visitor: who.visitor,
      userAgent: who.userAgent,
      clientIp: who.clientIp,
    };
    if (who.referrer !== undefined) hit.referrer = who.referrer;
    if (who.utm !== undefined) hit.dimensions = who.utm;
    const event = variant === 'events' ? eventAt(EVENT_SEED, i) : undefined;
    if (event !== undefined) {
      hit.event = event.name;
      hit.props = event.props;
      if (event.revenue !== undefined) hit.revenue = { amount: event.revenue.amount, currency: event.revenue.currency };
    }
    hits.push(hit);
  }
  return hits;
}

function toRun(variant: EventIngestVariant, events: number, totals: Totals): EventIngestRun {
  const hits = Math.max(1, totals.hits);
  return {
    variant,
    hits: totals.hits,
    events,
    errors: totals.errors,
    ...(totals.firstError === undefined ? {} : { firstError: totals.firstError }),
    hitsPerSecond: totals.hits / (totals.elapsedMs / 1000),
    roundHitsPerSecond: totals.roundHitsPerSecond,
    writeCommandsPerHit: writeCommands(totals.commands) / hits,
    serverCpuUsPerHit: (totals.serverCpuSeconds * 1e6) / hits,
    ...(totals.databaseCpuSeconds === undefined
      ? {}
      : { databaseCpuUsPerHit: (totals.databaseCpuSeconds * 1e6) / hits }),
  };
}
