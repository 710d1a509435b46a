/**
 * Creates a small document once, whoever asks first, and answers what is stored: an upsert that only sets fields on
 * insert (through bulkUpsert, so two instances racing to create it retry their E11000 and find the winner's), then a
 * read of it. Every caller gets the same document back, never its own candidate unless it won.
 */
import type { Collection, Document } from 'mongodb';
import { bulkUpsert } from './bulkUpsert';
import type { BulkUpsertOptions } from './bulkUpsert';
import { translateDriverError } from './translateDriverError';

/** A document keyed by a string `_id`. */
export interface StringIdDocument {
  _id: string;
  [field: string]: unknown;
}

export async function insertIfAbsent(
  collection: Collection<StringIdDocument>,
  id: string,
  candidate: Readonly<Document>,
  options: BulkUpsertOptions,
): Promise<StringIdDocument> {
  const filter: Document = { _id: id };
  await bulkUpsert(
    collection as unknown as Collection<Document>,
    [{ updateOne: { filter, update: { $setOnInsert: candidate }, upsert: true } }],
    options,
  );
  let stored: StringIdDocument | null;
  try {
    stored = await collection.findOne({ _id: id });
  } catch (error) {
    throw translateDriverError(error);
  }
  // Deleted between the two commands (a salt rotating out at that very moment): the caller asks again.
  if (stored === null) throw new Error(`${collection.collectionName} ${JSON.stringify(id)} vanished after its upsert`);
  return stored;
}
