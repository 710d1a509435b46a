/**
 * The hit pipeline, opened one way for every entry point: the server (src/app), `tally import --mongodb-uri`
 * (DirectTarget) and the exactly-once tests. Over a connected Database: the counter stores and the idempotency
 * ledger with their indexes, the group committer, keyed requests and HitIngest, and the periodic jobs it needs.
 *
 * Invariants:
 * - Every batch counts site totals and second-level counters exactly as the settings say, whoever opened the
 *   pipeline: imported hits count as served ones do (a second copy of this wiring once forgot site totals).
 * - Flushes in flight: INGEST_FLUSH_CONCURRENCY, capped by the write policy (one on FerretDB). Each has a deadline
 *   (flushDeadlineMs, from MONGODB_TIMEOUT_MS): a write that outlives it is given up, so no flush holds a slot for ever.
 * - Jobs: one expiry sweep per expiring collection whose expiry mode came out 'sweep' (none where a TTL index
 *   expires it), the compaction of visitor sketches and dimension counters once their period is over (on every
 *   engine), retention where RETENTION_MINUTES_DAYS or RETENTION_DAYS is set, one preallocation per kind switched on, each writing at most PREALLOCATED_DOCUMENTS_PER_WRITE
 *   documents per command. Nothing starts them here: a server runs them (app/startBackgroundJobs), a one-off import does not.
 * - The Database belongs to the caller: close() writes what is pending and leaves the database open.
 *   Indexes exist before open resolves; a database lost meanwhile rejects it (the caller decides to wait again).
 * - Visitors: the database's visitor secret exists before open resolves (created by the first process to open a
 *   pipeline on it), and the salts of periods that are over are deleted at open and then by a sweep job.
 * - Dimensions: one DimensionCounting per pipeline (the per-process admission of keys into documents), one
 *   UserAgentParser and country database per process (the caller's, or loaded here from the settings).
 */
import { EventCounting } from '../store/EventCounting';
import type { Logger } from '../logging/createLogger';
import { CounterBatch } from '../store/CounterBatch';
import type { Database } from '../store/connectDatabase';
import { CounterStore } from '../store/CounterStore';
import { DimensionCounting } from '../store/DimensionCounting';
import { PageRollup } from '../store/PageRollup';
import type { FlushMark } from '../store/FlushMark';
import { RequestLedger } from '../store/requestLedger';
import type { Sweep } from '../store/ttlOrSweep';
import { ensureVisitorSecret } from '../store/visitorSecret';
import { VisitorSaltStore } from '../store/VisitorSaltStore';
import { HOUR_MS, MINUTE_MS } from '../time/buckets';
import { VisitSessionStore } from '../store/visitSessions';
import { VisitTracker } from './VisitTracker';
import { retainsEverything } from '../time/retentionCutoffs';
import { createFlushWriter, flushDeadlineMs } from './createFlushWriter';
import type { FlushRetry } from './createFlushWriter';
import { GroupCommitter } from './GroupCommitter';
import type { FlushObserver } from './GroupCommitter';
import { HitEnricher } from './HitEnricher';
import { HitIngest } from './HitIngest';
import type { HitPipelineSettings } from './HitPipelineSettings';
import { loadDimensionSources } from './loadDimensionSources';
import type { DimensionSources } from './loadDimensionSources';
import { KeyedRequests } from './KeyedRequests';
import { HOURLY_SCHEDULE, PreallocationPlanner } from './PreallocationPlanner';
import type { PageRef } from './PreallocationPlanner';
import type { Preallocation } from './startPreallocationTicker';
import { SerialQueue } from './SerialQueue';
import { VisitorSalts } from './VisitorSalts';
import { WindowCommitter } from './WindowCommitter';
import { TimeSlice } from '../time/TimeSlice';

/**
 * Documents per bulk write of an ingest-log window. Nobody waits on a window's write, so parts can be small: a part
 * that outlasts MONGODB_TIMEOUT_MS on a loaded server is given up by the client while the server still applies it,
 * and the re-send (skipped per document by the mark) repeats its cost. About a second of work on a busy FerretDB.
 */
const WINDOW_PART_DOCUMENTS = 500;
/**
 * The share of FLUSH_WINDOW_MS a window's counter parts are spread over (WindowCommitter's spreadShare): most of the
 * window, with room left for its visits and for a window that takes longer than the last.
 */
const WINDOW_WRITE_SPREAD = 0.6;
/** Pages each preallocation planner tracks at most. */
const MAX_TRACKED_PAGES = 1_000_000;
/** Where expiry is a sweep, it runs this often unless told otherwise (SWEEP_INTERVAL_MS); so do salt deletions. */
export const DEFAULT_SWEEP_INTERVAL_MS = 5 * 60_000;
/** The retention job's name in logs and metrics (`tally_swept_documents_total{what}`). */
export const RETENTION_JOB = 'detail past RETENTION_MINUTES_DAYS and RETENTION_DAYS';
/** Documents one preallocation write creates at most: a flush waits behind one such write at most. */
const PREALLOCATED_DOCUMENTS_PER_WRITE = 240;

export interface HitPipelineOptions {
  readonly clock: () => number;
  readonly logger: Logger;
  /** Overrides INGEST_FLUSH_INTERVAL_MS (an import has no concurrent single hits to wait for). */
  readonly flushIntervalMs?: number | undefined;
  /** How often a retry polls a key in progress (KeyedRequests' default otherwise). */
  readonly pollMs?: number | undefined;
  /** The process's User-Agent parser and country database; loaded from the settings when absent. */
  readonly dimensionSources?: DimensionSources | undefined;
  /** How often expiry sweeps run (DEFAULT_SWEEP_INTERVAL_MS otherwise). */
  readonly sweepIntervalMs?: number | undefined;
  /** Watches each flush (the metrics). */
  readonly observer?: FlushObserver | undefined;
  /** How a flush is re-sent when the database is unavailable (createFlushWriter's rule); absent: never. */
  readonly retry?: FlushRetry | undefined;
  /**
   * INGEST_ACK=log: requests without an idempotency key are acknowledged from this durable local log and written
   * once per window (WindowCommitter); absent: every request is acknowledged after the database write.
   */
  readonly ingestLog?: { readonly dir: string; readonly windowMs: number; readonly idleMs?: number } | undefined;
}

/** Periodic work the pipeline needs while it serves; the caller runs it (app/startBackgroundJobs). */
export interface HitPipelineJobs {
  readonly sweeps: readonly Sweep[];
  readonly preallocations: readonly Preallocation[];
}

export interface HitPipeline {
  readonly ingest: HitIngest;
  readonly counters: CounterStore;
  /** The log-acknowledged path (INGEST_ACK=log); absent in database mode. */
  readonly windows: WindowCommitter | undefined;
  readonly jobs: HitPipelineJobs;
  /**
   * Writes pending hits now, without the group-commit wait, and resolves when no flush is in flight. A failed
   * flush rejects the callers whose hits it held, never this promise. With the ingest log it also seals the open
   * window and waits until every window is written, re-sent for as long as the database refuses (tests, imports;
   * shutdown uses answerWaiting and close instead).
   */
  drain(): Promise<void>;
  /**
   * Answers the requests still waiting: writes what the group committer holds (every request with
   * INGEST_ACK=database). The log's windows hold no waiting request, keyed ones included (answered once logged):
   * close() writes them, or leaves them in the log for the next start when the database refuses.
   */
  answerWaiting(): Promise<void>;
  /** The last call before the caller closes the database: drain(), and anything unexpected is logged, not thrown. */
  close(): Promise<void>;
  /** Visit sessions this process remembers (0 with visits off): the metrics. */
  visitSessionsCached(): number;
  /** Stops preallocating a site's (or one page's) documents: they are being deleted (store/Deletions). */
  forget(site: string, page?: string): void;
}

/**
 * Visits (issue 29): the session store (its expiry index, or a sweep) and the step every flush takes before its
 * counters: its hits' visit transitions, added to the batch as counter changes. Site changes are kept where site
 * totals are.
 */
async function openVisits(
  database: Database,
  settings: HitPipelineSettings,
  deps: {
    readonly clock: () => number;
    readonly logger: Logger;
    readonly writeConcern: string | number | undefined;
    readonly dimensions: DimensionCounting | undefined;
    readonly sweeps: Sweep[];
    readonly intervalMs: number;
  },
): Promise<OpenVisits> {
  const timeoutMs = settings.visits.timeoutMinutes * MINUTE_MS;
  const store = new VisitSessionStore(database, {
    // A late hit (a window replayed after a stop) still finds its visit for a while after the timeout.
    keepMs: timeoutMs + VISIT_SESSION_GRACE_MS,
    writeConcern: deps.writeConcern === undefined ? undefined : { w: deps.writeConcern as number },
    logger: deps.logger,
  });
  if ((await store.ensureIndexes()) === 'sweep') {
    deps.sweeps.push({
      what: 'visit sessions',
      intervalMs: Math.min(deps.intervalMs, timeoutMs),
      sweep: (now, context) => store.sweep(now, context),
    });
  }
  const tracker = new VisitTracker(store, { timeoutMs, clock: deps.clock });
  const siteTotals = settings.dashboards.siteTotals;
  return {
    prepare: async (batch, mark) => {
      if (batch.visitHits.length === 0) return;
      const changes = await tracker.apply(batch.visitHits, mark);
      batch.visitHits = [];
      const slice = new TimeSlice();
      for (const { site, deltas } of changes) {
        if (slice.due()) await slice.pause();
        for (const delta of deltas) {
          if (delta.page !== undefined || siteTotals) batch.addVisitDelta(site, delta, deps.dimensions);
        }
      }
    },
    cached: () => tracker.cached,
  };
}

interface OpenVisits {
  /** A batch's visit transitions, added to it as counter changes (idempotent under its mark). */
  readonly prepare: (batch: CounterBatch, mark?: FlushMark) => Promise<void>;
  /** Sessions the tracker remembers now. */
  readonly cached: () => number;
}

/** How long a visit session is kept beyond the visit timeout. */
const VISIT_SESSION_GRACE_MS = 10 * MINUTE_MS;

export async function openHitPipeline(
  database: Database,
  settings: HitPipelineSettings,
  options: HitPipelineOptions,
): Promise<HitPipeline> {
  const { clock, logger } = options;
  const secondsRetentionMs = settings.seconds.retentionHours * HOUR_MS;
  const { writeConcern } = settings.ingest;
  const counters = new CounterStore(database, {
    writeConcern,
    secondsRetentionMs,
    logger,
    retention: settings.retention,
  });
  const idempotencyWindowMs = settings.idempotency.windowHours * HOUR_MS;
  const ledger = new RequestLedger(database, {
    windowMs: idempotencyWindowMs,
    writeConcern: writeConcern === undefined ? undefined : { w: writeConcern as number },
    logger,
  });

  await counters.ensureIndexes();
  const intervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  const secret = await ensureVisitorSecret(database, { now: clock(), writeConcern });
  const salts = new VisitorSalts(new VisitorSaltStore(database, { writeConcern }), settings.visitors.saltRotation);
  await salts.sweep(clock());
  const sweeps: Sweep[] = [{ what: 'visitor salts of past periods', intervalMs, sweep: (now) => salts.sweep(now) }];
  if (settings.seconds.enabled && (await counters.ensureSecondsIndexes()) === 'sweep') {
    const sweep: Sweep['sweep'] = (now, context) => counters.sweepSeconds(now, context);
    sweeps.push({ what: 'second-level documents', intervalMs, sweep });
  }
  sweeps.push({
    what: 'sketches and dimension counters of past periods (compaction)',
    intervalMs,
    sweep: (now, context) => counters.compactPastPeriods(now, context),
  });
  if (!retainsEverything(settings.retention)) {
    sweeps.push({ what: RETENTION_JOB, intervalMs, sweep: (now, context) => counters.applyRetention(now, context) });
  }
  if ((await ledger.ensureIndexes()) === 'sweep') {
    const sweep: Sweep['sweep'] = (now, context) => ledger.sweep(now, context);
    sweeps.push({ what: 'idempotency keys', intervalMs, sweep });
  }

  const preallocations: Preallocation[] = [];
  const planner = settings.ingest.preallocate ? new PreallocationPlanner(MAX_TRACKED_PAGES) : undefined;
  if (planner) {
    const preallocate = (pages: PageRef[], day: number) =>
      counters.preallocate(pages.map((page) => ({ ...page, day })));
    // A daily document per page, and its monthly one.
    const pagesPerWrite = PREALLOCATED_DOCUMENTS_PER_WRITE / 2;
    preallocations.push({ planner, preallocate, what: 'tomorrow', pagesPerWrite });
  }
  const secondsPlanner =
    settings.seconds.enabled && settings.seconds.preallocate
      ? new PreallocationPlanner(MAX_TRACKED_PAGES, HOURLY_SCHEDULE)
      : undefined;
  if (secondsPlanner) {
    const preallocate = (pages: PageRef[], hour: number) =>
      counters.preallocateSeconds(pages.map((page) => ({ ...page, hour })));
    const pagesPerWrite = PREALLOCATED_DOCUMENTS_PER_WRITE / 60;
    preallocations.push({
      planner: secondsPlanner,
      preallocate,
      what: "next hour's second-level minutes",
      pagesPerWrite,
    });
  }

  const dimensions = settings.dimensions.enabled
    ? new DimensionCounting({
        maxValues: settings.dimensions.maxValues,
        visitorDimensions: settings.dimensions.visitors,
      })
    : undefined;
  const sources = settings.dimensions.enabled
    ? (options.dimensionSources ?? loadDimensionSources(settings.dimensions.countryDatabase))
    : undefined;
  const enricher = new HitEnricher(secret, sources);
  const pageRollup =
    settings.dashboards.siteTotals && settings.dashboards.topPagesRollupPages > 0
      ? new PageRollup({ maxPages: settings.dashboards.topPagesRollupPages })
      : undefined;
  // Before any hit is written here: a database whose counters predate its rollups is vouched for from tomorrow.
  const rolledUpFrom = await counters.ensureRollupMarker(pageRollup !== undefined, clock());
  if (rolledUpFrom !== undefined && rolledUpFrom > clock()) {
    logger?.info(
      `page rollups are complete from ${new Date(rolledUpFrom).toISOString().slice(0, 10)}: ` +
        "earlier days are ranked from the site-day documents and the pages' documents",
    );
  }
  const events = new EventCounting();
  const visits = settings.visits.enabled
    ? await openVisits(database, settings, { clock, logger, writeConcern, dimensions, sweeps, intervalMs })
    : undefined;
  const newBatch = (): CounterBatch =>
    new CounterBatch({
      visits: visits !== undefined,
      siteTotals: settings.dashboards.siteTotals,
      seconds: settings.seconds.enabled ? { now: clock(), retentionMs: secondsRetentionMs } : undefined,
      dimensions,
      pageRollup,
      events,
    });
  const { leaseMs, waitMs } = settings.idempotency;
  // Where updates are read-modify-write without a lock, the log's windows and keyed flushes take turns.
  const turns = database.policy.singleWriter && options.ingestLog ? new SerialQueue() : undefined;
  const writeCounters = async (batch: CounterBatch, mark?: FlushMark): Promise<void> => {
    // Database mode: a flush's visit transitions first (idempotent under its mark), then its counters.
    if (visits !== undefined) await visits.prepare(batch, mark);
    return turns ? turns.run(() => counters.write(batch, mark)) : counters.write(batch, mark);
  };
  const flushWriter = createFlushWriter({
    counters: { write: writeCounters },
    ledger,
    clock,
    leaseMs,
    retry: options.retry,
  });
  const committer = new GroupCommitter(flushWriter, {
    intervalMs: options.flushIntervalMs ?? settings.ingest.flushIntervalMs,
    concurrency: Math.min(settings.ingest.flushConcurrency, database.policy.maxFlushesInFlight ?? Infinity),
    maxPendingDocuments: settings.ingest.maxFlushDocuments,
    newBatch,
    observer: options.observer,
    deadlineMs: (flush) => flushDeadlineMs(flush, settings.databaseTimeoutMs, options.retry),
  });
  const windows = options.ingestLog
    ? await WindowCommitter.open({
        dir: options.ingestLog.dir,
        windowMs: options.ingestLog.windowMs,
        idleMs: options.ingestLog.idleMs,
        maxWriteDocuments: Math.min(settings.ingest.maxFlushDocuments, WINDOW_PART_DOCUMENTS),
        spreadShare: WINDOW_WRITE_SPREAD,
        newBatch,
        prepare: visits?.prepare,
        // A window's claim is never taken over (KeyedRequests): it is leased for as long as the entry lives.
        claim: (claims, attempt) => ledger.claim(claims, attempt, { now: clock(), leaseMs: idempotencyWindowMs }),
        // A window's parts hold no visit hits (its visits are prepared above, before it is split): each part is a
        // plain counter write, and the window takes one turn for all of them.
        write: (part, mark) => counters.write(part, mark),
        prebuild: (part, mark) => counters.prebuild(part, mark),
        turn: turns ? (task) => turns.run(task) : undefined,
        logger,
        observer: options.observer,
      })
    : undefined;
  const keyed = new KeyedRequests({
    committer,
    ledger,
    // A re-driven request takes its visit transitions too, under its marks: sessions that took an earlier attempt
    // give that attempt's changes again from their outbox, the others advance once.
    counters: { write: writeCounters, absorbed: (batch, mark) => counters.absorbed(batch, mark) },
    newBatch,
    clock,
    leaseMs,
    waitMs,
    pollMs: options.pollMs,
    log: windows,
  });
  const ingest = new HitIngest({
    unkeyed: windows ?? committer,
    keyed,
    clock,
    limits: settings.ingest,
    enricher,
    salts,
    planner,
    secondsPlanner,
  });

  return {
    ingest,
    counters,
    jobs: { sweeps, preallocations },
    windows,
    drain: async () => {
      await windows?.drain();
      await committer.drain();
    },
    answerWaiting: () => committer.drain(),
    visitSessionsCached: () => visits?.cached() ?? 0,
    forget: (site, page) => {
      planner?.forget(site, page);
      secondsPlanner?.forget(site, page);
    },
    close: async () => {
      await windows?.close().catch((error: unknown) => logger.error({ err: error }, 'the ingest log did not close'));
      await committer.drain().catch((error: unknown) => logger.error({ err: error }, 'pending hits not written'));
    },
  };
}
