/**
 * `impressions.pairs`: how many times one user saw one item, `{ _id: { u, i }, c }`. The compound _id is the
 * pair itself: the same in every process, collision-free, stored once (no hash, no copies of u and i).
 * Sharding: `{ _id: 'hashed' }` would spread the write-heavy upserts evenly, each targeting one shard by its
 * `_id` equality; the three reads are top-N index scans that mongos merges from every shard.
 */
import type { AnyBulkWriteOperation, Collection, Db, Document, Filter } from 'mongodb';

export const IMPRESSION_PAIRS_COLLECTION = 'impressions.pairs';

/** Field order matters: BSON compares embedded documents field by field, so `{ i, u }` would be another id. */
export interface PairId {
  readonly u: string;
  readonly i: string;
}

export interface ImpressionPairDocument {
  _id: PairId;
  c: number;
}

export interface PairCount {
  readonly userId: string;
  readonly itemId: string;
  readonly count: number;
}

/**
 * Each read is an equality prefix (or none) plus the sort (c desc, other id asc) it pages by, so every page is
 * an index scan that stops after `limit` entries, ties included.
 */
export const impressionPairIndexes = [
  // findPairsOfUser: one user's items, most-seen first.
  { key: { '_id.u': 1, c: -1, '_id.i': 1 }, name: 'user_count_item' },
  // findPairsOfItem: one item's users, most-seen first.
  { key: { '_id.i': 1, c: -1, '_id.u': 1 }, name: 'item_count_user' },
  // findTopPairs: the most-seen (user, item) pairs overall.
  { key: { c: -1, '_id.u': 1, '_id.i': 1 }, name: 'count_user_item' },
] as const;

export function impressionPairsCollection(db: Db): Collection<ImpressionPairDocument> {
  return db.collection<ImpressionPairDocument>(IMPRESSION_PAIRS_COLLECTION);
}

export function pairId(userId: string, itemId: string): PairId {
  return { u: userId, i: itemId };
}

/** An upsert that creates the pair at `count` or adds `count` to it: atomic, so concurrent batches are exact. */
export function pairIncrement(userId: string, itemId: string, count: number): AnyBulkWriteOperation<Document> {
  return { updateOne: { filter: { _id: pairId(userId, itemId) }, update: { $inc: { c: count } }, upsert: true } };
}

/** One user's items by count desc then itemId asc, after the position `after` (keyset pagination). */
export function findPairsOfUser(
  collection: Collection<ImpressionPairDocument>,
  userId: string,
  after: PairCount | undefined,
  limit: number,
): Promise<PairCount[]> {
  const filter: Filter<Document> = { '_id.u': userId, ...keyset(after, [['_id.i', after?.itemId]]) };
  return findPairs(collection, filter, { c: -1, '_id.i': 1 }, 'user_count_item', limit);
}

/** One item's users by count desc then userId asc, after `after`. */
export function findPairsOfItem(
  collection: Collection<ImpressionPairDocument>,
  itemId: string,
  after: PairCount | undefined,
  limit: number,
): Promise<PairCount[]> {
  const filter: Filter<Document> = { '_id.i': itemId, ...keyset(after, [['_id.u', after?.userId]]) };
  return findPairs(collection, filter, { c: -1, '_id.u': 1 }, 'item_count_user', limit);
}

/** All pairs by count desc, then userId, then itemId, after `after`. */
export function findTopPairs(
  collection: Collection<ImpressionPairDocument>,
  after: PairCount | undefined,
  limit: number,
): Promise<PairCount[]> {
  const filter = keyset(after, [
    ['_id.u', after?.userId],
    ['_id.i', after?.itemId],
  ]);
  return findPairs(collection, filter, { c: -1, '_id.u': 1, '_id.i': 1 }, 'count_user_item', limit);
}

async function findPairs(
  collection: Collection<ImpressionPairDocument>,
  filter: Filter<Document>,
  sort: Record<string, 1 | -1>,
  index: (typeof impressionPairIndexes)[number]['name'],
  limit: number,
): Promise<PairCount[]> {
  // The hint makes the index scan certain on MongoDB (and fails loudly if the index is missing); FerretDB
  // 1.x ignores hints and scans the table.
  const documents = await collection
    .find(filter as Filter<ImpressionPairDocument>, { sort, limit, hint: index })
    .toArray();
  return documents.map((doc) => ({ userId: doc._id.u, itemId: doc._id.i, count: doc.c }));
}

/**
 * Entries strictly after `after` in (c desc, ties asc) order. The top-level `c <= count` bounds the index
 * scan to start at the cursor; the `$or` then drops the ties already returned.
 */
export function keyset(
  after: { readonly count: number } | undefined,
  ties: ReadonlyArray<readonly [path: string, value: string | undefined]>,
): Filter<Document> {
  if (!after) return {};
  const or: Filter<Document>[] = [{ c: { $lt: after.count } }];
  ties.forEach(([path, value], index) => {
    const clause: Filter<Document> = { c: after.count };
    for (const [earlier, equal] of ties.slice(0, index)) clause[earlier] = equal;
    clause[path] = { $gt: value };
    or.push(clause);
  });
  return { c: { $lte: after.count }, $or: or };
}
