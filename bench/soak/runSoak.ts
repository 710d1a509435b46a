/**
 * The soak run: seeds an expired set for the sweeps, starts the built server as a child (with the inspector on a
 * loopback port for heap readings), finds the highest recordHit rate that holds (a ramp of short steps: zero
 * errors, p99 ≤ 1 s, at least 97 % of the rate answered), then runs the soak at a percentage of it, sampling every
 * interval: client latencies and errors, heap after GC, RSS, event-loop delay, and the server's own counters.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { REQUESTS_COLLECTION } from '../../src/store/requestLedger';
import { SECONDS_COLLECTION, secondsDocumentId } from '../../src/store/secondStats';
import { startServer } from '../shared/serverProcess';
import type { DatabaseTarget } from '../shared/target';
import { driveLoad } from './driveLoad';
import { InspectorProbe } from './InspectorProbe';
import type { MemoryReading } from './InspectorProbe';
import { grownSites, profileBytes } from './heapSites';
import type { HeapProfile } from './heapSites';
import { readMetrics } from './ServerMetrics';
import type { MetricsReading } from './ServerMetrics';
import type { RampStep, Sample } from './Sample';
import { SoakClient } from './SoakClient';
import type { SoakOptions } from './SoakOptions';
import { serverEnv } from './SoakOptions';
import { SOAK_SITE, SoakTraffic } from './SoakTraffic';
import { mergeWindows, Window } from './Window';

const MB = 1024 * 1024;
/** After the ramp, the soak rate runs this long before sampling starts (the backlog of a failed step drains). */
const SETTLE_MS = 15_000;
/** Bytes allocated per heap sample on average (V8's default): about 3,000 samples per 100 MB live. */
const HEAP_SAMPLING_INTERVAL = 32 * 1024;
/** Allocation sites the log lists after a soak with --heap-profile. */
const GROWN_SITES = 15;

/** The whole soak: every window's requests together; event-loop figures are the worst sample's. */
export type SoakTotal = Omit<
  Sample,
  'phase' | 'minute' | 'heapAfterGcMb' | 'heapGcForced' | 'rssMb' | 'documentCacheMb' | 'visitSessionsCached'
>;

export interface SoakResult {
  readonly startedAt: string;
  readonly ramp: readonly RampStep[];
  /** The highest rate that held (undefined when --rate skipped the ramp). */
  readonly highestHeld: number | undefined;
  readonly soakRate: number;
  readonly samples: readonly Sample[];
  readonly total: SoakTotal;
  readonly expiredSeeded: number;
}

export async function runSoak(
  options: SoakOptions,
  target: DatabaseTarget,
  dbName: string,
  log: (line: string) => void,
  /** Where --heap-profile's profiles go (by minute); without it they are only summarised in the log. */
  saveHeapProfile?: (minute: number, profile: HeapProfile) => void,
): Promise<SoakResult> {
  const startedAt = new Date().toISOString();
  if (options.expired > 0) {
    log(`seeding ${options.expired} expired minute documents and ${options.expired / 2} expired idempotency keys`);
    await seedExpired(target.uri, dbName, options.expired);
  }
  const inspectPort = await freePort();
  const logDir = options['ingest-ack'] === 'log' ? mkdtempSync(path.join(os.tmpdir(), 'tally-soak-log-')) : undefined;
  const env = {
    INGEST_ACK: options['ingest-ack'],
    ...(logDir ? { INGEST_LOG_DIR: logDir } : {}),
    ...serverEnv(options),
  };
  const server = await startServer('child', {
    uri: target.uri,
    dbName,
    env,
    nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`],
  });
  const client = new SoakClient(server.url, options['max-in-flight'] + 64);
  const inspector = await InspectorProbe.connect(inspectPort);
  const traffic = new SoakTraffic({
    pages: options.pages,
    keyedPercent: options['keyed-percent'],
    visitors: options.visitors,
    dimensions: options.dimensions,
    seed: Date.parse(startedAt) % 1_000_000,
  });
  try {
    await preflight(client, traffic, options);
    let window = new Window(Date.now());
    const first = options.rate > 0 ? options.rate : options['ramp-start'];
    const load = driveLoad({
      client,
      serverUrl: server.url,
      traffic,
      rate: first,
      dashboardsPerMinute: options['dashboards-per-minute'],
      maxInFlight: options['max-in-flight'],
      window: () => window,
    });
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const ramp: RampStep[] = [];
    let highestHeld: number | undefined;
    try {
      if (options.rate === 0) {
        for (
          let rate = first;
          rate <= options['ramp-max'];
          rate = Math.ceil((rate * (100 + options['ramp-growth-percent'])) / 100)
        ) {
          load.setRate(rate);
          window = new Window(Date.now());
          await wait(options['ramp-seconds'] * 1000);
          const step = window;
          window = new Window(Date.now());
          const figures = step.figures('hit');
          const achieved = figures.count / options['ramp-seconds'];
          const holds = step.errorCount === 0 && figures.p99 <= 1_000 && achieved >= 0.97 * rate;
          ramp.push({ rate, achieved, errors: step.errorCount, p99: figures.p99, holds });
          log(
            `  ramp ${rate}/s: ${achieved.toFixed(0)}/s answered, ${step.errorCount} errors, p99 ${figures.p99.toFixed(0)} ms: ${holds ? 'holds' : 'does not hold'}`,
          );
          if (!holds) break;
          highestHeld = rate;
        }
        if (highestHeld === undefined) throw new Error(`not even --ramp-start ${first}/s held; start lower`);
      }
      const soakRate =
        options.rate > 0
          ? options.rate
          : Math.max(1, Math.floor(((highestHeld as number) * options['soak-percent']) / 100));
      log(`soak at ${soakRate} recordHit/s for ${options.minutes} min`);
      load.setRate(soakRate);
      await wait(SETTLE_MS);
      const samples: Sample[] = [];
      const windows: Window[] = [];
      let before = await readMetrics(client);
      window = new Window(Date.now());
      const started = Date.now();
      const sampleMs = options['sample-seconds'] * 1000;
      const sampleCount = Math.floor((options.minutes * 60_000) / sampleMs);
      const heapProfiles: HeapProfile[] = [];
      if (options['heap-profile']) await inspector.startHeapSampling(HEAP_SAMPLING_INTERVAL);
      for (let i = 1; i <= sampleCount; i++) {
        await wait(started + i * sampleMs - Date.now());
        const done = window;
        window = new Window(Date.now());
        windows.push(done);
        const metrics = await readMetrics(client);
        const memory = await inspector.memoryAfterGc();
        const sample = toSample(
          done,
          'soak',
          (i * sampleMs) / 60_000,
          soakRate,
          options['sample-seconds'],
          before,
          metrics,
          memory,
        );
        before = metrics;
        samples.push(sample);
        if (options['heap-profile'] && (i === Math.max(1, Math.round(sampleCount / 3)) || i === sampleCount)) {
          const profile = await inspector.heapSamplingProfile();
          heapProfiles.push(profile);
          saveHeapProfile?.(sample.minute, profile);
          log(
            `  heap profile at ${sample.minute.toFixed(1)} min: ${(profileBytes(profile) / MB).toFixed(1)} MB sampled live`,
          );
        }
        log(
          `  ${sample.minute.toFixed(1)} min: ${sample.achieved.toFixed(0)}/s, p99 ${sample.hits.p99.toFixed(0)} ms, p99.9 ${sample.hits.p999.toFixed(0)} ms, ` +
            `${Object.values(sample.errors).reduce((a, b) => a + b, 0)} errors, heap ${sample.heapAfterGcMb.toFixed(1)} MB${sample.heapGcForced ? ' (GC forced)' : ''}, RSS ${sample.rssMb.toFixed(0)} MB`,
        );
      }
      const [early, late] = heapProfiles;
      if (early && late && early !== late) logGrowth(early, late, log);
      const total = summarize(mergeWindows(windows), samples, soakRate, options.minutes * 60);
      return { startedAt, ramp, highestHeld, soakRate, samples, total, expiredSeeded: options.expired };
    } finally {
      await load.stop();
    }
  } finally {
    inspector.close();
    client.close();
    await server.stop();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  }
}

function logGrowth(early: HeapProfile, late: HeapProfile, log: (line: string) => void): void {
  log(
    `allocation sites whose live bytes grew most between the two heap profiles (sampled, so ±${HEAP_SAMPLING_INTERVAL / 1024} KB a site):`,
  );
  for (const site of grownSites(early, late, GROWN_SITES)) {
    const grew = (site.afterBytes - site.beforeBytes) / MB;
    log(
      `  +${grew.toFixed(2)} MB (${(site.beforeBytes / MB).toFixed(2)} → ${(site.afterBytes / MB).toFixed(2)}): ${site.site}`,
    );
  }
}

/** The whole soak: client figures over every window, server counters summed over the samples. */
function summarize(all: Window, samples: readonly Sample[], rate: number, seconds: number): SoakTotal {
  const unavailable: Record<string, number> = {};
  for (const s of samples)
    for (const [cause, n] of Object.entries(s.unavailable)) unavailable[cause] = (unavailable[cause] ?? 0) + n;
  const hits = all.figures('hit');
  return {
    rate,
    achieved: hits.count / seconds,
    hits,
    dashboards: all.figures('dashboard'),
    errors: Object.fromEntries(all.errors),
    liveMessages: all.liveMessages,
    unavailable,
    backgroundStalls: samples.reduce((n, s) => n + s.backgroundStalls, 0),
    flushes: samples.reduce((n, s) => n + s.flushes, 0),
    eventLoopMaxMs: samples.reduce((m, s) => Math.max(m, s.eventLoopMaxMs), 0),
    eventLoopP99Ms: samples.reduce((m, s) => Math.max(m, s.eventLoopP99Ms), 0),
  };
}

function toSample(
  window: Window,
  phase: Sample['phase'],
  minute: number,
  rate: number,
  seconds: number,
  before: MetricsReading,
  after: MetricsReading,
  memory: MemoryReading,
): Sample {
  const hits = window.figures('hit');
  const unavailable: Record<string, number> = {};
  for (const [cause, n] of Object.entries(after.unavailable)) {
    const delta = n - (before.unavailable[cause] ?? 0);
    if (delta > 0) unavailable[cause] = delta;
  }
  return {
    phase,
    minute,
    rate,
    achieved: hits.count / seconds,
    hits,
    dashboards: window.figures('dashboard'),
    errors: Object.fromEntries(window.errors),
    liveMessages: window.liveMessages,
    heapAfterGcMb: memory.liveBytes / MB,
    heapGcForced: memory.forced,
    rssMb: after.rss / MB,
    eventLoopP99Ms: after.eventLoopP99Ms,
    eventLoopMaxMs: after.eventLoopMaxMs,
    documentCacheMb: after.documentCacheBytes / MB,
    visitSessionsCached: after.visitSessionsCached,
    unavailable,
    backgroundStalls: after.backgroundStalls - before.backgroundStalls,
    flushes: after.flushes - before.flushes,
  };
}

/** One hit with every field the traffic sends: a server without them (older API) is refused before the run. */
async function preflight(client: SoakClient, traffic: SoakTraffic, options: SoakOptions): Promise<void> {
  const { query, variables } = traffic.hit(-1, Date.now());
  const answer = await client.graphql(query, variables);
  if (answer.code === undefined) return;
  const fields = [options.visitors > 0 ? '--visitors' : '', options.dimensions ? '--dimensions' : ''].filter(Boolean);
  throw new Error(
    `the first recordHit failed with ${answer.code}` +
      (answer.code === 'GRAPHQL_VALIDATION_FAILED' && fields.length > 0
        ? `: this server's recordHit may not take the fields of ${fields.join(' and ')} yet`
        : ''),
  );
}

/** Expired documents as the server would have made them, oldest first: sweeps (or a TTL monitor) must delete them. */
async function seedExpired(uri: string, dbName: string, minutes: number): Promise<void> {
  const client = new MongoClient(uri);
  try {
    const db = client.db(dbName);
    const now = Date.now();
    const seconds = Object.fromEntries(Array.from({ length: 60 }, (_, s) => [String(s), 1]));
    for (let i = 0; i < minutes; i += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, minutes - i) }, (_, j) => {
        const n = i + j;
        const minute = now - 72 * 3_600_000 + Math.floor(n / 100) * 60_000;
        const page = `/expired/${n % 100}`;
        return {
          _id: secondsDocumentId(SOAK_SITE, page, minute),
          metadata: { date: new Date(minute), site: SOAK_SITE, page },
          minute: 60,
          seconds,
        };
      });
      await db.collection(SECONDS_COLLECTION).insertMany(batch as never);
    }
    const created = new Date(now - 48 * 3_600_000);
    for (let i = 0; i < minutes / 2; i += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, minutes / 2 - i) }, (_, j) => ({
        _id: `soak-expired-${i + j}`,
        fp: 'fp',
        now: created,
        attempts: [{ l: 'soak', s: 1 }],
        v: 1,
        leaseUntil: created,
        createdAt: created,
      }));
      await db.collection(REQUESTS_COLLECTION).insertMany(batch as never);
    }
  } finally {
    await client.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
