/**
 * How tally writes to (and reads back from) the connected server, decided once by connectDatabase from EngineInfo
 * and carried on Database: the stores, the hit pipeline and the connection layout read this, never engine flags.
 * Three policies come out (test/unit/store/WritePolicy.test.ts pins them):
 * - MongoDB: shard-key write filters and range reads, commands as large as the driver makes them, per-operation
 *   write errors trusted, concurrent writers (INGEST_FLUSH_CONCURRENCY flushes in flight), TTL indexes.
 * - tally's FerretDB build: the same filters, reads by id list, one connection per written collection and one
 *   flush in flight (updates are read-modify-write without a lock), write-error indexes not trusted, sweeps.
 * - stock FerretDB 1.24 (only the benchmark's comparison engine): its unpatched build's workarounds on top —
 *   `_id`-only write filters, exact-id reads, commands of at most 90 updates, everything over one connection.
 * The workarounds are reachable through that last policy (or DOCUMENT_TARGETING=idOnly) and nothing else.
 */
import type { Targeting } from './counterUpsert';
import type { EngineInfo } from './EngineInfo';
import type { ExpiryMode } from './ttlOrSweep';

/**
 * How documents are read by id: `shardKeyRanges` (an `$or` of site/page/date range scans, which a sharded cluster
 * targets), `idList` (one `{_id: {$in}}` per collection, through the primary key) or `exactIds` (one find per
 * exact `_id` while few are needed: stock FerretDB looks nothing else up by index).
 */
export type DocumentReads = 'shardKeyRanges' | 'idList' | 'exactIds';

export interface WritePolicy {
  /** Write filters of counter documents (see counterUpsert). */
  readonly targeting: Targeting;
  readonly reads: DocumentReads;
  /** Operations per write command; undefined: as many as the driver puts in one. */
  readonly maxUpdatesPerCommand: number | undefined;
  /** Whether a bulk write's per-operation errors name the operations that failed (bulkUpsert re-sends only those). */
  readonly trustWriteErrorIndexes: boolean;
  /** One write per document at a time: the main client holds one connection, impression batches queue. */
  readonly singleWriter: boolean;
  /** Each counter collection is written through a single-connection client of its own (Database.writerDb). */
  readonly writerPerCollection: boolean;
  /** Flushes the group committer may have in flight; undefined: as configured (INGEST_FLUSH_CONCURRENCY). */
  readonly maxFlushesInFlight: number | undefined;
  /** How windows expire: idempotency keys, second-level counters (see ttlOrSweep). */
  readonly expiry: ExpiryMode;
}

/** What configuration may change in the derived policy. */
export interface WritePolicyOverrides {
  /** DOCUMENT_TARGETING: `auto` keeps the engine's choice; tests run both write modes on one server. */
  readonly targeting?: Targeting | 'auto' | undefined;
  /** Everything over one connection, one flush in flight, on any engine (stock FerretDB's layout; tests). */
  readonly singleConnection?: boolean | undefined;
  /**
   * WRITE_MAX_UPDATES_PER_COMMAND: at most this many updates per write command, for an engine that holds locks or a
   * time budget per command (a lock-based engine holds row locks for a whole command); unset keeps the engine's.
   */
  readonly maxUpdatesPerCommand?: number | undefined;
}

export function writePolicyFor(engine: EngineInfo, overrides: WritePolicyOverrides = {}): WritePolicy {
  const targeting: Targeting =
    overrides.targeting === undefined || overrides.targeting === 'auto'
      ? engine.indexesOnlyExactIdFilters
        ? 'idOnly'
        : 'shardKey'
      : overrides.targeting;
  const singleConnection = overrides.singleConnection === true;
  const singleWriter = engine.requiresSingleWriter || singleConnection;
  return {
    targeting,
    reads: engine.prefersIdListReads ? 'idList' : targeting === 'idOnly' ? 'exactIds' : 'shardKeyRanges',
    maxUpdatesPerCommand: minDefined(overrides.maxUpdatesPerCommand, engine.maxUpdatesPerCommand),
    trustWriteErrorIndexes: engine.reportsWriteErrorIndexes,
    singleWriter,
    writerPerCollection: engine.requiresSingleWriter && engine.concurrentCollectionWriters && !singleConnection,
    maxFlushesInFlight: singleWriter ? 1 : undefined,
    expiry: engine.supportsTtlIndexes ? 'ttl' : 'sweep',
  };
}

/** The smaller of two limits, either of which may be unset (no limit). */
function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
