/**
 * Section 11: tally beside its closest self-hosted peer, GoatCounter v2.7.0 (issue 27), on the same generated
 * traffic (bench/peer/peerTraffic.ts), live and backfill. For each shape each system starts fresh in its own
 * directory and gets every hit from 4 clients in batches of 100; the clock runs from the first request until the
 * system's own total equals what was sent (GoatCounter persists every 10 s, tally's reads may lag its
 * acknowledgements), and CPU per hit is that of every process of the system over the same span. Then the bytes on
 * disk, and the equivalent queries in rounds (p50 of each), whose last answers are checked against the exact ones.
 */
import { optional } from '../shared/optional';
import { elapsedMs, summarize } from '../shared/stats';
import type { LatencySummary } from '../shared/stats';
import { pagePath } from '../shared/traffic';
import type { PeerSystem } from '../peer/PeerSystem';
import type { DayRange, PeerQueryKind } from '../peer/peerQueries';
import { describeAnswer, mismatch, peerQueries, truthOf } from '../peer/peerQueries';
import type { PeerHit, PeerShape, PeerShapeKey } from '../peer/peerTraffic';
import {
  PEER_BATCH,
  PEER_CLIENTS,
  PEER_PAGES,
  PEER_SHAPES,
  clientBatches,
  peerAudience,
  peerHits,
} from '../peer/peerTraffic';

export type PeerSystemKey = 'tally' | 'goatcounter';

export interface PeerQueryCell {
  readonly kind: PeerQueryKind;
  readonly label: string;
  readonly latencyMs: LatencySummary;
  /** The last answer, printed short. */
  readonly answer: string;
  /** Why the answer differs from the exact one; absent when it equals it. */
  readonly mismatch?: string;
}

export interface PeerRun {
  readonly shape: PeerShapeKey;
  readonly system: PeerSystemKey;
  readonly label: string;
  readonly hits: number;
  readonly requests: number;
  readonly errors: number;
  readonly firstError?: string;
  /** What the system's total must reach: hits for tally, first visits for GoatCounter. */
  readonly expectedTotal: number;
  /** Its total when the wait ended (equal to expectedTotal unless the wait timed out). */
  readonly countedTotal: number;
  readonly sendMs: number;
  readonly countedMs: number;
  /** Hits over the time until every hit was counted. */
  readonly hitsPerSecond: number;
  readonly cpuUsPerHit?: number;
  /** Of which the server process itself (for tally: without its database). */
  readonly serverCpuUsPerHit?: number;
  readonly requestLatencyMs: LatencySummary;
  readonly diskBytes: number;
  /** After a clean stop: what the system stores, without its write-ahead logs. */
  readonly storedBytes?: number | undefined;
  readonly queries: PeerQueryCell[];
}

export interface PeerResult {
  readonly hits: number;
  readonly pages: number;
  readonly batch: number;
  readonly clients: number;
  readonly visitorPool: number;
  readonly queryRounds: number;
  readonly shapes: readonly PeerShape[];
  readonly runs: PeerRun[];
}

export interface PeerDeps {
  readonly hits: number;
  readonly queryRounds: number;
  readonly start: Readonly<Record<PeerSystemKey, () => Promise<PeerSystem>>>;
  readonly log: (line: string) => void;
}

/** How long a system may take to count what it acknowledged (GoatCounter: its 10 s persist, plus slack). */
const COUNT_TIMEOUT_MS = 120_000;
const POLL_MS = 200;
const DAY_MS = 86_400_000;

export async function runPeer(deps: PeerDeps): Promise<PeerResult> {
  const runs: PeerRun[] = [];
  for (const shape of PEER_SHAPES) {
    const now = Date.now();
    const hits = peerHits(shape, deps.hits, now);
    for (const system of ['tally', 'goatcounter'] as const) {
      const run = await runSystem(system, shape, hits, now, deps);
      runs.push(run);
      deps.log(
        `  ${shape.key}, ${run.label}: ${Math.round(run.hitsPerSecond)} hits/s until counted ` +
          `(${run.countedTotal} of ${run.expectedTotal}), CPU ${run.cpuUsPerHit?.toFixed(0) ?? 'n/a'} µs/hit, ` +
          `request p50 ${run.requestLatencyMs.p50.toFixed(1)} ms, disk ${(run.diskBytes / 1048576).toFixed(1)} MiB` +
          `${run.errors ? `, ${run.errors} failed requests (${run.firstError})` : ''}`,
      );
      for (const cell of run.queries)
        deps.log(
          `    ${cell.label}: p50 ${cell.latencyMs.p50.toFixed(1)} ms; ${cell.answer}; ` +
            `${cell.mismatch === undefined ? 'equals the truth' : `DIFFERS from the truth: ${cell.mismatch}`}`,
        );
    }
  }
  return {
    hits: deps.hits,
    pages: PEER_PAGES,
    batch: PEER_BATCH,
    clients: PEER_CLIENTS,
    visitorPool: peerAudience(deps.hits).visitors,
    queryRounds: deps.queryRounds,
    shapes: PEER_SHAPES,
    runs,
  };
}

async function runSystem(
  key: PeerSystemKey,
  shape: PeerShape,
  hits: readonly PeerHit[],
  now: number,
  deps: PeerDeps,
): Promise<PeerRun> {
  const system = await deps.start[key]();
  try {
    const bodies = clientBatches(hits).map((stream) => stream.map((batch) => system.batchBody(batch)));
    const expectedTotal = system.counting.firstVisitsOnly ? hits.filter((hit) => hit.firstVisit).length : hits.length;
    // Every hit of the shape falls in these whole days.
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    const everything: DayRange = { from: Math.floor((now - shape.spanMs) / DAY_MS) * DAY_MS, to: today + DAY_MS };
    const latencies: number[] = [];
    let errors = 0;
    let firstError: string | undefined;
    const cpuBefore = system.cpuSeconds();
    const serverCpuBefore = system.serverCpuSeconds();
    const start = process.hrtime.bigint();
    await Promise.all(
      bodies.map(async (stream) => {
        for (const body of stream) {
          const began = process.hrtime.bigint();
          try {
            await system.send(body);
            latencies.push(elapsedMs(began));
          } catch (error) {
            errors += 1;
            firstError ??= error instanceof Error ? error.message : String(error);
          }
        }
      }),
    );
    const sendMs = elapsedMs(start);
    const done = async (counted: number): Promise<boolean> =>
      counted === expectedTotal && ((await system.settled?.()) ?? true);
    let countedTotal = await system.counted(everything);
    const deadline = Date.now() + COUNT_TIMEOUT_MS;
    while (!(await done(countedTotal)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      countedTotal = await system.counted(everything);
    }
    const countedMs = elapsedMs(start);
    const cpuAfter = system.cpuSeconds();
    const serverCpuAfter = system.serverCpuSeconds();
    const diskBytes = system.diskBytes();
    const queries = await timeQueries(system, hits, now, deps.queryRounds);
    await system.halt();
    const storedBytes = system.diskBytes();
    return {
      shape: shape.key,
      system: key,
      label: system.label,
      hits: hits.length,
      requests: bodies.reduce((sum, stream) => sum + stream.length, 0),
      errors,
      ...optional('firstError', firstError),
      expectedTotal,
      countedTotal,
      sendMs,
      countedMs,
      hitsPerSecond: hits.length / (countedMs / 1000),
      ...optional(
        'cpuUsPerHit',
        cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1e6) / hits.length,
      ),
      ...optional(
        'serverCpuUsPerHit',
        serverCpuBefore === undefined || serverCpuAfter === undefined
          ? undefined
          : ((serverCpuAfter - serverCpuBefore) * 1e6) / hits.length,
      ),
      requestLatencyMs: summarize(latencies),
      diskBytes,
      storedBytes,
      queries,
    };
  } finally {
    await system.stop();
  }
}

/** Every query once per round, the order reversed every other round; the last answers are checked. */
async function timeQueries(
  system: PeerSystem,
  hits: readonly PeerHit[],
  now: number,
  rounds: number,
): Promise<PeerQueryCell[]> {
  const queries = peerQueries(now, pagePath(0));
  const latencies = queries.map(() => [] as number[]);
  const answers: Array<Awaited<ReturnType<PeerSystem['answer']>>> = [];
  for (let round = 0; round < rounds; round++) {
    const order = queries.map((_, i) => i);
    for (const i of round % 2 === 0 ? order : order.reverse()) {
      const began = process.hrtime.bigint();
      answers[i] = await system.answer(queries[i] as (typeof queries)[number]);
      latencies[i]?.push(elapsedMs(began));
    }
  }
  return queries.map((query, i) => {
    const answer = answers[i] ?? 0;
    return {
      kind: query.kind,
      label: query.label,
      latencyMs: summarize(latencies[i] ?? []),
      answer: describeAnswer(answer),
      ...optional('mismatch', mismatch(answer, truthOf(query, hits, system.counting))),
    };
  });
}
