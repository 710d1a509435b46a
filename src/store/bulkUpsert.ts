/**
 * Sends coalesced upserts as one unordered bulkWrite (or, where the engine needs it, commands of at most
 * `maxPerCommand` operations: see EngineInfo.maxUpdatesPerCommand). Two writers creating the same new document can
 * race (E11000 on _id); the loser's operations are retried once the winner's document exists.
 */
import { MongoBulkWriteError } from 'mongodb';
import type { AnyBulkWriteOperation, Collection, Document, WriteConcern } from 'mongodb';
import { translateDriverError } from './translateDriverError';

const DUPLICATE_KEY = 11000;
const MAX_ATTEMPTS = 3;

export interface BulkUpsertOptions {
  readonly writeConcern?: WriteConcern | undefined;
  readonly maxPerCommand?: number | undefined;
}

export async function bulkUpsert(
  collection: Collection<Document>,
  operations: AnyBulkWriteOperation<Document>[],
  options: BulkUpsertOptions = {},
): Promise<void> {
  const size = options.maxPerCommand ?? operations.length;
  for (let start = 0; start < operations.length; start += size) {
    await bulkUpsertOnce(collection, operations.slice(start, start + size), options.writeConcern);
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
