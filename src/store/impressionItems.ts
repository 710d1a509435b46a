/**
 * `impressions.items`: every item's impressions over all users, `{ _id: itemId, c }`, kept alongside the
 * pairs so "most-seen items" reads an index instead of grouping billions of pairs.
 * Sharding: `{ _id: 'hashed' }`; upserts target one shard, findTopItems merges each shard's index order.
 */
import type { AnyBulkWriteOperation, Collection, Db, Document, Filter } from 'mongodb';
import { keyset } from './impressionPairs';

export const IMPRESSION_ITEMS_COLLECTION = 'impressions.items';

export interface ImpressionItemDocument {
  _id: string;
  c: number;
}

export interface ItemCount {
  readonly itemId: string;
  readonly count: number;
}

export const impressionItemIndexes = [
  // findTopItems: the most-seen items overall, ties by itemId.
  { key: { c: -1, _id: 1 }, name: 'count_item' },
] as const;

export function impressionItemsCollection(db: Db): Collection<ImpressionItemDocument> {
  return db.collection<ImpressionItemDocument>(IMPRESSION_ITEMS_COLLECTION);
}

export function itemIncrement(itemId: string, count: number): AnyBulkWriteOperation<Document> {
  const filter: Document = { _id: itemId };
  return { updateOne: { filter, update: { $inc: { c: count } }, upsert: true } };
}

/** Items by count desc then itemId asc, after the position `after` (keyset pagination). */
export async function findTopItems(
  collection: Collection<ImpressionItemDocument>,
  after: ItemCount | undefined,
  limit: number,
): Promise<ItemCount[]> {
  const filter = keyset(after, [['_id', after?.itemId]]) as Filter<ImpressionItemDocument>;
  const documents = await collection.find(filter, { sort: { c: -1, _id: 1 }, limit, hint: 'count_item' }).toArray();
  return documents.map((doc) => ({ itemId: doc._id, count: doc.c }));
}
