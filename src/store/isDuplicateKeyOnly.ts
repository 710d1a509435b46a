/**
 * Whether a write failed only on duplicate keys (E11000): an insert or a guarded upsert lost to a document already
 * there, which the caller settles by reading back what is stored. Any other error among them is a real failure.
 */
import { MongoBulkWriteError, MongoServerError } from 'mongodb';

const DUPLICATE_KEY = 11000;

export function isDuplicateKeyOnly(error: unknown): boolean {
  if (error instanceof MongoBulkWriteError) {
    const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    return writeErrors.length > 0 && writeErrors.every((e) => e.code === DUPLICATE_KEY);
  }
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}
