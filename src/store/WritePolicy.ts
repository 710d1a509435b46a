/**
 * How tally writes to (and reads back from) the connected server, decided once by connectDatabase from EngineInfo
 * and carried on Database: the stores, the hit pipeline and the connection layout read this, never engine flags.
 * Three policies come out (test/unit/store/WritePolicy.test.ts pins them):
 * - MongoDB: shard-key write filters and range reads, commands as large as the driver makes them, per-operation
 *   write errors trusted, concurrent writers (INGEST_FLUSH_CONCURRENCY flushes in flight), TTL indexes.
 * - tally's FerretDB build: the same filters, reads by id list, one connection per written collection and one
 *   flush in flight, write-error indexes not trusted, sweeps; from tally18 (atomic updates) the main client's reads
 *   go out over a few connections at once, before it over one (updates were read-modify-write without a lock).
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
  /** One flush in flight, impression batches queue, background reads and per-collection writers of their own. */
  readonly singleWriter: boolean;
  /**
   * The main client's connections (queries, and the writes not made through a collection's writer); undefined: the
   * driver's default. One where two connections could lose each other's updates (FerretDB before tally18, or a
   * single connection asked for). On tally's FerretDB from tally18, MAIN_CONNECTIONS_ATOMIC_FERRETDB: a request's
   * finds (a conversions request sends four to six) and concurrent requests' run side by side instead of queueing on
   * one connection, which took 21–32 % off conversions' p50 (docs/ferretdb.md, patch 20).
   */
  readonly mainConnections: number | undefined;
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

/** See WritePolicy.mainConnections; measured against 1 (docs/ferretdb.md), not tuned further. */
export const MAIN_CONNECTIONS_ATOMIC_FERRETDB = 4;

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
    mainConnections: !singleWriter
      ? undefined
      : engine.atomicDocumentUpdates && !singleConnection
        ? MAIN_CONNECTIONS_ATOMIC_FERRETDB
        : 1,
    writerPerCollection: engine.requiresSingleWriter && engine.concurrentCollectionWriters && !singleConnection,
    maxFlushesInFlight: singleWriter ? 1 : undefined,
    expiry: engine.supportsTtlIndexes ? 'ttl' : 'sweep',
  };
}

/** The smaller of two limits, either of which may be unset (no limit). */
function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
