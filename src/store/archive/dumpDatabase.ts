/**
 * Writes every collection tally owns (ARCHIVED_COLLECTIONS) into an archive, one cursor per collection, each
 * document read once. Values are read unpromoted (Int32, Double, Long and Binary as they are), so the archive keeps
 * every BSON type.
 *
 * Consistency: each document is archived as it was when the cursor reached it. A hit written during the dump is
 * counted in the source either way; it is in the archive only if its document was read after the write. So the
 * archive is a consistent point per document, not across documents: a day's page document and its site total may
 * be read on either side of a hit. A server keeps running on the source meanwhile: the dump only reads.
 *
 * Order: by `_id` where the engine scans an index for it (MongoDB, sharded clusters included: `_id` never changes,
 * so no document is met twice). FerretDB 1.x would sort the whole collection in memory, so there the scan is in
 * table order (SQLite's rowid, which an update keeps: each document is met once as well). restoreArchive sorts
 * each batch itself.
 */
import type { Writable } from 'node:stream';
import type { Database } from '../connectDatabase';
import { ArchiveWriter } from './ArchiveWriter';
import type { ArchiveCollection, ArchiveTrailer } from './ArchiveFormat';
import { ARCHIVED_COLLECTIONS } from './archivedCollections';

/** Documents per cursor batch: a few MB at most even of site documents full of sketches. */
const CURSOR_BATCH = 200;

export interface DumpOptions {
  readonly now: number;
  /** Called before a collection is read, with the header's estimates of every collection. */
  readonly onStart?: ((collections: readonly ArchiveCollection[]) => void) | undefined;
  /** Called after each document written. */
  readonly onDocument?: ((collection: string) => void) | undefined;
  /** Aborted: stop at the next document; the archive is left without its trailer (so no restore accepts it). */
  readonly signal?: AbortSignal | undefined;
}

export interface DumpSummary {
  readonly counts: ReadonlyMap<string, number>;
  readonly trailer: ArchiveTrailer;
}

export async function dumpDatabase(database: Database, sink: Writable, options: DumpOptions): Promise<DumpSummary> {
  const collections: ArchiveCollection[] = [];
  for (const { name } of ARCHIVED_COLLECTIONS) {
    const estimated = await database.db
      .collection(name)
      .estimatedDocumentCount()
      .catch(() => 0);
    collections.push({ name, estimated });
  }
  options.onStart?.(collections);
  const writer = new ArchiveWriter(sink, {
    createdAt: new Date(options.now).toISOString(),
    database: database.db.databaseName,
    engine: `${database.engine.name} ${database.engine.version}`,
    collections,
  });
  const sort = database.policy.reads === 'shardKeyRanges' ? { _id: 1 as const } : undefined;
  const counts = new Map<string, number>();
  for (const { name } of collections) {
    await writer.startCollection(name);
    const cursor = database.db.collection(name).find(
      {},
      {
        ...(sort ? { sort } : {}),
        batchSize: CURSOR_BATCH,
        promoteValues: false,
        promoteLongs: false,
        promoteBuffers: false,
      },
    );
    try {
      for await (const document of cursor) {
        options.signal?.throwIfAborted();
        await writer.document(document);
        options.onDocument?.(name);
      }
    } finally {
      await cursor.close();
    }
    counts.set(name, await writer.endCollection());
  }
  return { counts, trailer: await writer.finish() };
}
