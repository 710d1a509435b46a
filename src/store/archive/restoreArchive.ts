/**
 * Writes an archive's documents into a database. Without `merge` the target must hold no data (a document in any
 * collection whose `data` flag is set; the visitor secret and salts a bare start makes do not count): documents go
 * in as they are, the archive's visitor secret and salts replacing the target's, so restored sketches and new hits
 * hash visitors alike. With `merge`, each document is added to the target's (mergeOperation: counters added, sketches
 * ORed, packed forms unpacked); ledger entries, salts and the secret the target has are kept. A secret that differs
 * from the archive's is reported: the same visitor hashed under two secrets counts twice.
 *
 * Writes go out in bounded batches (at most MAX_BATCH_DOCUMENTS documents and about MAX_BATCH_BYTES of archive
 * text, fewer where the write policy caps a command), each sorted by `_id` as every tally writer orders them, through
 * the collection's writer, one batch at a time; each command is bounded by the connection's timeouts, on any engine.
 * A failed batch stops the restore: a restore that did not finish is re-run into a fresh (dropped) target, since
 * a merge run twice adds twice.
 */
import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { BSON } from 'mongodb';
import type { Database } from '../connectDatabase';
import { translateDriverError } from '../translateDriverError';
import { VISITOR_SECRET_COLLECTION } from '../visitorSecret';
import { ArchiveError } from './ArchiveFormat';
import type { ArchiveTrailer } from './ArchiveFormat';
import { ARCHIVED_COLLECTIONS, archivedCollection } from './archivedCollections';
import type { ArchivedCollection } from './archivedCollections';
import { mergeOperation } from './mergeOperation';
import {
  ROLLUP_MARKER_ID,
  ROLLUPS_COLLECTION,
  clearRollupMarker,
  markerDay,
  readRollupMarker,
  rollupsCollection,
} from '../pageRollups';
import type { PageRollupDocument } from '../pageRollups';
import type { OpenArchive } from './readArchive';

export const MAX_BATCH_DOCUMENTS = 100;
export const MAX_BATCH_BYTES = 1_000_000;

export interface RestoreOptions {
  readonly merge: boolean;
  /** Called after each batch written, with its collection and size. */
  readonly onWritten?: ((collection: string, documents: number) => void) | undefined;
  /** Aborted: stop before the next batch (the target then holds part of the archive). */
  readonly signal?: AbortSignal | undefined;
}

export interface RestoreSummary {
  readonly counts: ReadonlyMap<string, number>;
  readonly trailer: ArchiveTrailer;
  /** `differs`: merged into a target whose visitor secret is not the archive's (visitors in both count twice). */
  readonly secret: 'restored' | 'kept' | 'differs' | 'none';
}

/** The target holds data and the restore is not a merge. */
export class TargetNotEmptyError extends Error {
  constructor(readonly collections: readonly string[]) {
    super(`the target database already holds data (${collections.join(', ')})`);
    this.name = 'TargetNotEmptyError';
  }
}

/** The collections of `database` that hold data, in archive order; empty for a fresh database. */
export async function collectionsWithData(database: Database): Promise<string[]> {
  const found: string[] = [];
  for (const { name, data } of ARCHIVED_COLLECTIONS) {
    if (!data) continue;
    const one = await database.db.collection(name).findOne({}, { projection: { _id: 1 } });
    if (one !== null) found.push(name);
  }
  return found;
}

export async function restoreArchive(
  database: Database,
  archive: OpenArchive,
  options: RestoreOptions,
): Promise<RestoreSummary> {
  try {
    if (!options.merge) {
      const nonEmpty = await collectionsWithData(database);
      if (nonEmpty.length > 0) throw new TargetNotEmptyError(nonEmpty);
    }
    const existingSecret = await database.db.collection(VISITOR_SECRET_COLLECTION).findOne({});
    const rollups = rollupsCollection(database.writerDb(ROLLUPS_COLLECTION));
    const targetMarker = await readRollupMarker(rollups);
    let archivedMarker: number | undefined;
    let secret: RestoreSummary['secret'] = 'none';
    const counts = new Map<string, number>(archive.header.collections.map(({ name }) => [name, 0]));
    const maxDocuments = Math.min(MAX_BATCH_DOCUMENTS, database.policy.maxUpdatesPerCommand ?? Infinity);
    let batch: Document[] = [];
    let batchBytes = 0;
    let batchOf: ArchivedCollection | undefined;

    const flush = async (): Promise<void> => {
      if (batchOf === undefined || batch.length === 0) return;
      options.signal?.throwIfAborted();
      const collection = batchOf;
      const operations = sortById(batch)
        .map((document) => operationFor(collection, document, options.merge, database))
        .filter((operation): operation is AnyBulkWriteOperation<Document> => operation !== undefined);
      if (operations.length > 0) {
        await database.writerDb(collection.name).collection(collection.name).bulkWrite(operations, { ordered: true });
      }
      options.onWritten?.(collection.name, batch.length);
      batch = [];
      batchBytes = 0;
    };

    for await (const { collection: name, document, bytes } of archive.documents) {
      const collection = archivedCollection(name);
      if (collection === undefined) {
        throw new ArchiveError(`the archive holds a collection this tally does not know: ${name}`);
      }
      if (collection !== batchOf || batch.length >= maxDocuments || batchBytes + bytes > MAX_BATCH_BYTES) {
        await flush();
        batchOf = collection;
      }
      if (name === VISITOR_SECRET_COLLECTION) secret = secretOutcome(existingSecret, document, options.merge);
      counts.set(name, (counts.get(name) ?? 0) + 1);
      if (name === ROLLUPS_COLLECTION && document._id === ROLLUP_MARKER_ID) {
        archivedMarker = markerDay(document);
        continue;
      }
      batch.push(document);
      batchBytes += bytes;
    }
    await flush();
    await settleRollupMarker(rollups, targetMarker, archivedMarker, options.merge);
    return { counts, trailer: archive.trailer(), secret };
  } catch (error) {
    if (error instanceof ArchiveError || error instanceof TargetNotEmptyError) throw error;
    throw translateDriverError(error);
  }
}

function operationFor(
  collection: ArchivedCollection,
  document: Document,
  merge: boolean,
  database: Database,
): AnyBulkWriteOperation<Document> | undefined {
  if (!merge) {
    // The secret and salts a bare start made have hashed nothing stored yet: the archive's replace them, so its
    // sketches and new hits (beacon hits of the salt's period too) hash a visitor alike.
    return collection.data
      ? { insertOne: { document } }
      : { replaceOne: { filter: { _id: document._id }, replacement: document, upsert: true } };
  }
  if (collection.merge === 'keep') {
    const { _id, ...rest } = document;
    return { updateOne: { filter: { _id }, update: { $setOnInsert: rest }, upsert: true } };
  }
  return mergeOperation(document, database.policy.targeting);
}

/**
 * The page rollups' marker (pageRollups) after a restore: the archive's into an empty target (whatever a bare start
 * wrote there); after a merge, the later of the two, since a day is complete only where both sides rolled it up.
 * Where a side has none, none: the next start vouches from its next day.
 */
async function settleRollupMarker(
  rollups: Collection<PageRollupDocument>,
  target: number | undefined,
  archived: number | undefined,
  merge: boolean,
): Promise<void> {
  const day = !merge
    ? archived
    : target !== undefined && archived !== undefined
      ? Math.max(target, archived)
      : undefined;
  if (day === undefined) {
    await clearRollupMarker(rollups);
    return;
  }
  await (rollups as unknown as Collection<Document>).replaceOne(
    { _id: ROLLUP_MARKER_ID } as Document,
    { day: new Date(day) },
    { upsert: true },
  );
}

function secretOutcome(existing: Document | null, archived: Document, merge: boolean): RestoreSummary['secret'] {
  if (!merge || existing === null) return 'restored';
  return sameValue(existing.key, archived.key) ? 'kept' : 'differs';
}

function sameValue(a: unknown, b: unknown): boolean {
  return BSON.EJSON.stringify({ v: a }, { relaxed: false }) === BSON.EJSON.stringify({ v: b }, { relaxed: false });
}

/** By `_id` (strings in every collection tally owns; anything else by its Extended JSON). */
function sortById(documents: readonly Document[]): Document[] {
  const key = (document: Document): string =>
    typeof document._id === 'string' ? document._id : BSON.EJSON.stringify({ v: document._id }, { relaxed: false });
  return documents
    .map((document) => [key(document), document] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, document]) => document);
}
