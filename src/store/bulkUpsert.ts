/**
 * Sends coalesced upserts as one unordered bulkWrite (or, where the engine needs it, commands of at most
 * `maxPerCommand` operations: see EngineInfo.maxUpdatesPerCommand). Two writers creating the same new document can
 * race (E11000 on _id); the loser's operations are retried once the winner's document exists.
 *
 * Marked writes (FlushMark, issue 9) are idempotent, so after an E11000 they are re-sent after reading back which
 * documents absorbed them already: a guarded upsert whose document absorbed the attempt misses its filter and tries
 * to insert, which is E11000 — "already applied", not a race. Reading back also sidesteps FerretDB 1.24, which stops
 * an unordered bulk write at its first error and reports the wrong index for it.
 */
import { MongoBulkWriteError } from 'mongodb';
import type { AnyBulkWriteOperation, Collection, Document, WriteConcern } from 'mongodb';
import { translateDriverError } from './translateDriverError';
import { isAbsorbed, markProjection } from './FlushMark';
import type { FlushMark } from './FlushMark';

const DUPLICATE_KEY = 11000;
const MAX_ATTEMPTS = 3;

export interface BulkUpsertOptions {
  readonly writeConcern?: WriteConcern | undefined;
  readonly maxPerCommand?: number | undefined;
  /** Set when every operation carries this exactly-once guard (see counterUpsert). */
  readonly mark?: FlushMark | undefined;
}

export async function bulkUpsert(
  collection: Collection<Document>,
  operations: AnyBulkWriteOperation<Document>[],
  options: BulkUpsertOptions = {},
): Promise<void> {
  const size = options.maxPerCommand ?? operations.length;
  for (let start = 0; start < operations.length; start += size) {
    const chunk = operations.slice(start, start + size);
    if (options.mark) await markedBulkUpsert(collection, chunk, options.writeConcern, options.mark);
    else await bulkUpsertOnce(collection, chunk, options.writeConcern);
  }
}

async function bulkUpsertOnce(
  collection: Collection<Document>,
  operations: AnyBulkWriteOperation<Document>[],
  writeConcern: WriteConcern | undefined,
): Promise<void> {
  let remaining = operations;
  for (let attempt = 1; remaining.length > 0; attempt++) {
    try {
      await collection.bulkWrite(remaining, { ordered: false, ...(writeConcern ? { writeConcern } : {}) });
      return;
    } catch (error) {
      const retry = duplicateKeyRetries(error, remaining);
      if (!retry || attempt >= MAX_ATTEMPTS) throw translateDriverError(error);
      remaining = retry;
    }
  }
}

function duplicateKeyRetries(
  error: unknown,
  operations: AnyBulkWriteOperation<Document>[],
): AnyBulkWriteOperation<Document>[] | undefined {
  if (!(error instanceof MongoBulkWriteError)) return undefined;
  const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
  if (writeErrors.length === 0 || writeErrors.some((e) => e.code !== DUPLICATE_KEY)) return undefined;
  return writeErrors.map((e) => operations[e.index] as AnyBulkWriteOperation<Document>);
}

const MARKED_MAX_ATTEMPTS = 5;

async function markedBulkUpsert(
  collection: Collection<Document>,
  operations: AnyBulkWriteOperation<Document>[],
  writeConcern: WriteConcern | undefined,
  mark: FlushMark,
): Promise<void> {
  let remaining = operations;
  for (let attempt = 1; remaining.length > 0; attempt++) {
    try {
      await collection.bulkWrite(remaining, { ordered: false, ...(writeConcern ? { writeConcern } : {}) });
      return;
    } catch (error) {
      if (!isDuplicateKeyOnly(error) || attempt >= MARKED_MAX_ATTEMPTS) throw translateDriverError(error);
      remaining = await notYetAbsorbed(collection, remaining, mark);
    }
  }
}

function isDuplicateKeyOnly(error: unknown): boolean {
  if (!(error instanceof MongoBulkWriteError)) return false;
  const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
  return writeErrors.length > 0 && writeErrors.every((e) => e.code === DUPLICATE_KEY);
}

/** One read of the operations' documents: keeps the operations whose document has not absorbed the attempt. */
async function notYetAbsorbed(
  collection: Collection<Document>,
  operations: AnyBulkWriteOperation<Document>[],
  mark: FlushMark,
): Promise<AnyBulkWriteOperation<Document>[]> {
  const idOf = (op: AnyBulkWriteOperation<Document>): unknown =>
    'updateOne' in op ? (op.updateOne.filter as Document)._id : undefined;
  try {
    const found = await collection
      .find({ _id: { $in: operations.map(idOf) } } as Document, { projection: markProjection(mark) })
      .toArray();
    const absorbed = new Set(found.filter((doc) => isAbsorbed(doc, mark)).map((doc) => doc._id as unknown));
    return operations.filter((op) => !absorbed.has(idOf(op)));
  } catch (error) {
    throw translateDriverError(error);
  }
}
