/**
 * The hit-ingest core, wired one way for every entry point (the server, `tally import --mongodb-uri`): batches that
 * carry site totals and second-level counters as configured, the group committer over the flush writer, and the
 * keyed-request path for idempotency keys. A second copy of this wiring once forgot site totals.
 */
import type { HitPipelineSettings } from './HitPipelineSettings';
import { CounterBatch } from '../store/CounterBatch';
import type { CounterStore } from '../store/CounterStore';
import type { RequestLedger } from '../store/requestLedger';
import { HOUR_MS } from '../time/buckets';
import { createFlushWriter } from './createFlushWriter';
import { GroupCommitter } from './GroupCommitter';
import { HitIngest } from './HitIngest';
import type { HitIngestDeps } from './HitIngest';
import { KeyedRequests } from './KeyedRequests';

export interface HitIngestCore {
  readonly committer: GroupCommitter;
  readonly keyed: KeyedRequests;
  readonly ingest: HitIngest;
}

export function createHitIngestCore(options: {
  readonly config: HitPipelineSettings;
  readonly counters: CounterStore;
  readonly ledger: RequestLedger;
  readonly clock: () => number;
  /** One flush in flight (EngineInfo.requiresSingleWriter). */
  readonly singleWriter: boolean;
  /** Overrides INGEST_FLUSH_INTERVAL_MS (an import has no concurrent single hits to wait for). */
  readonly intervalMs?: number;
  readonly planners?: Pick<HitIngestDeps, 'planner' | 'secondsPlanner'>;
}): HitIngestCore {
  const { config, counters, ledger, clock } = options;
  const secondsRetentionMs = config.seconds.retentionHours * HOUR_MS;
  const newBatch = (): CounterBatch =>
    new CounterBatch({
      siteTotals: config.dashboards.siteTotals,
      seconds: config.seconds.enabled ? { now: clock(), retentionMs: secondsRetentionMs } : undefined,
    });
  const committer = new GroupCommitter(
    createFlushWriter({ counters, ledger, clock, leaseMs: config.idempotency.leaseMs }),
    {
      intervalMs: options.intervalMs ?? config.ingest.flushIntervalMs,
      concurrency: options.singleWriter ? 1 : config.ingest.flushConcurrency,
      maxPendingDocuments: config.ingest.maxFlushDocuments,
      newBatch,
    },
  );
  const keyed = new KeyedRequests({
    committer,
    ledger,
    counters,
    newBatch,
    clock,
    leaseMs: config.idempotency.leaseMs,
    waitMs: config.idempotency.waitMs,
  });
  const ingest = new HitIngest({ committer, keyed, clock, limits: config.ingest, ...options.planners });
  return { committer, keyed, ingest };
}
