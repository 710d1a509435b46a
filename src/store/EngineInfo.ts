/**
 * What the connected server is and what it can do, read once from `buildInfo`. What tally does about it is decided
 * from these flags in one place, writePolicyFor (WritePolicy.ts): stores and ingest read the policy, never the flags.
 */
export interface EngineInfo {
  readonly name: 'MongoDB' | 'FerretDB';
  readonly version: string;
  /** The MongoDB version the server claims to be compatible with (FerretDB reports one). */
  readonly compatibleWith: string;
  /** TTL indexes (FerretDB 1.x refuses them with code 238). */
  readonly supportsTtlIndexes: boolean;
  /**
   * Within one tally process, one flush is in flight and each collection is written over one connection at a time.
   * Stock FerretDB 1.x applies updates as read-modify-write without a lock, so two connections updating one document
   * can lose increments. tally's build from `tally18` makes them take turns (atomicDocumentUpdates), and keeps this
   * layout all the same: SQLite writes one database at a time, so concurrent commands would only queue.
   */
  readonly requiresSingleWriter: boolean;
  /**
   * Two connections, or two tally processes, updating one document at once never lose a write, and two upserts of a
   * new `_id` do not race: MongoDB, and tally's FerretDB from `tally18`, whose update, findAndModify and delete
   * commands take turns per collection (scripts/ferretdb/patches/0020-*). Several tally instances may share such a
   * server; on stock FerretDB 1.x run one.
   */
  readonly atomicDocumentUpdates: boolean;
  /**
   * Where one writer per document is required: whether each collection may have a writer of its own, so a flush's
   * collections are written at the same time (Database.writerDb). Not on stock FerretDB 1.24: an update command
   * holds one of its 100 SQLite connections per statement until the command ends (see maxUpdatesPerCommand), so
   * three concurrent commands of 90 updates could take the pool between them and wait for each other for ever.
   */
  readonly concurrentCollectionWriters: boolean;
  /**
   * Stock FerretDB 1.x (SQLite) pushes down to SQL only a filter that is exactly `{_id: <string>}` and evaluates any
   * other on every row, so writes address documents by `_id` alone there (see counterUpsert). tally's own build
   * (scripts/ferretdb/patches/0002-*) pushes an exact `_id` down whatever else the filter holds.
   */
  readonly indexesOnlyExactIdFilters: boolean;
  /**
   * Reads by a list of ids (`{_id: {$in: […]}}`) use the primary key, while range filters on other fields scan
   * the table: tally's FerretDB build. MongoDB reads by shard-key ranges instead, which a sharded cluster targets.
   */
  readonly prefersIdListReads: boolean;
  /**
   * Stock FerretDB 1.24 never answers an `update` command that modifies 100 or more existing documents (each
   * statement's reader stayed open until the command ended, exhausting its 100 connections), so bulk writes go
   * out in commands of at most this many operations there. tally's build closes each reader at once.
   */
  readonly maxUpdatesPerCommand: number | undefined;
  /**
   * Whether a bulk write's per-operation errors name the operations that failed. FerretDB 1.24 ignores `ordered`,
   * stops at the first failing update and reports it as index 0 (measured: E11000 on the third of five upserts
   * came back as index 0, and the fourth and fifth were never applied), so there no failed operation is re-sent on
   * the strength of its index (tally re-reads after any write error instead).
   */
  readonly reportsWriteErrorIndexes: boolean;
}

/** The version suffix scripts/ensure-ferretdb.js gives its patched build (`v1.24.2-tally10`). */
const PATCHED_FERRETDB = /-tally(\d+)$/;
/** The first patched build whose updates take turns per collection (patch 20). */
const ATOMIC_UPDATES_FROM = 18;

export function detectEngine(buildInfo: Readonly<Record<string, unknown>>): EngineInfo {
  const version = typeof buildInfo.version === 'string' ? buildInfo.version : 'unknown';
  if (typeof buildInfo.ferretdbVersion === 'string') {
    const tag = PATCHED_FERRETDB.exec(buildInfo.ferretdbVersion);
    const patched = tag !== null;
    return {
      name: 'FerretDB',
      version: buildInfo.ferretdbVersion.replace(/^v/, ''),
      compatibleWith: version,
      supportsTtlIndexes: false,
      requiresSingleWriter: true,
      atomicDocumentUpdates: tag !== null && Number(tag[1]) >= ATOMIC_UPDATES_FROM,
      concurrentCollectionWriters: patched,
      indexesOnlyExactIdFilters: !patched,
      prefersIdListReads: patched,
      maxUpdatesPerCommand: patched ? undefined : 90,
      reportsWriteErrorIndexes: false,
    };
  }
  return {
    name: 'MongoDB',
    version,
    compatibleWith: version,
    supportsTtlIndexes: true,
    requiresSingleWriter: false,
    atomicDocumentUpdates: true,
    concurrentCollectionWriters: true,
    indexesOnlyExactIdFilters: false,
    prefersIdListReads: false,
    maxUpdatesPerCommand: undefined,
    reportsWriteErrorIndexes: true,
  };
}
