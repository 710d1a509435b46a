/**
 * `impressions.pairs`: how many times one user saw one item, `{ _id: "<u>\u001f<i>", u, i, c }`. The _id is
 * built from the pair, so it is the same in every process; no validated id holds U+001F (control characters
 * are refused), so two pairs cannot share it. A compound `{ _id: { u, i } }` would store each id once, but
 * FerretDB 1.x cannot look an embedded-document _id up by index: every upsert scanned the table.
 * Sharding: shard key `{ u: 'hashed' }`. Upserts carry `u` in their filter, so each targets one shard, and
 * one user's items (the per-user query) live on one shard; the per-item and top queries merge every shard's
 * index order.
 */
import type { AnyBulkWriteOperation, Collection, Db, Document, Filter } from 'mongodb';
import type { Targeting } from './counterUpsert';

export const IMPRESSION_PAIRS_COLLECTION = 'impressions.pairs';

const SEPARATOR = '\u001f';

export interface ImpressionPairDocument {
  _id: string;
  u: string;
  i: string;
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
  { key: { u: 1, c: -1, i: 1 }, name: 'user_count_item' },
  // findPairsOfItem: one item's users, most-seen first.
  { key: { i: 1, c: -1, u: 1 }, name: 'item_count_user' },
  // findTopPairs: the most-seen (user, item) pairs overall.
  { key: { c: -1, u: 1, i: 1 }, name: 'count_user_item' },
] as const;

export function impressionPairsCollection(db: Db): Collection<ImpressionPairDocument> {
  return db.collection<ImpressionPairDocument>(IMPRESSION_PAIRS_COLLECTION);
}

export function pairId(userId: string, itemId: string): string {
  // parseImpressionId refuses control characters; this guards the invariant the id's uniqueness rests on.
  if (userId.includes(SEPARATOR) || itemId.includes(SEPARATOR)) {
    throw new Error(`impression ids must not contain U+001F: ${JSON.stringify([userId, itemId])}`);
  }
  return `${userId}${SEPARATOR}${itemId}`;
}

/**
 * Creates the pair at `count` or adds `count` to it; atomic per document, so concurrent batches are exact.
 * `shardKey` (MongoDB): the filter carries u (the shard key) and i, and the upsert copies them in. `idOnly`
 * (FerretDB 1.x, which pushes down only an exact `{_id}` filter): u and i are set on insert instead. Both
 * store the same document.
 */
export function pairIncrement(
  userId: string,
  itemId: string,
  count: number,
  targeting: Targeting,
): AnyBulkWriteOperation<Document> {
  const _id = pairId(userId, itemId);
  const filter: Document = targeting === 'shardKey' ? { _id, u: userId, i: itemId } : { _id };
  const update: Document =
    targeting === 'shardKey' ? { $inc: { c: count } } : { $setOnInsert: { u: userId, i: itemId }, $inc: { c: count } };
  return { updateOne: { filter, update, upsert: true } };
}

/** One user's items by count desc then itemId asc, after the position `after` (keyset pagination). */
export function findPairsOfUser(
  collection: Collection<ImpressionPairDocument>,
  userId: string,
  after: PairCount | undefined,
  limit: number,
): Promise<PairCount[]> {
  const filter: Filter<Document> = { u: userId, ...keyset(after, [['i', after?.itemId]]) };
  return findPairs(collection, filter, { c: -1, i: 1 }, 'user_count_item', limit);
}

/** One item's users by count desc then userId asc, after `after`. */
export function findPairsOfItem(
  collection: Collection<ImpressionPairDocument>,
  itemId: string,
  after: PairCount | undefined,
  limit: number,
): Promise<PairCount[]> {
  const filter: Filter<Document> = { i: itemId, ...keyset(after, [['u', after?.userId]]) };
  return findPairs(collection, filter, { c: -1, u: 1 }, 'item_count_user', limit);
}

/** All pairs by count desc, then userId, then itemId, after `after`. */
export function findTopPairs(
  collection: Collection<ImpressionPairDocument>,
  after: PairCount | undefined,
  limit: number,
): Promise<PairCount[]> {
  const filter = keyset(after, [
    ['u', after?.userId],
    ['i', after?.itemId],
  ]);
  return findPairs(collection, filter, { c: -1, u: 1, i: 1 }, 'count_user_item', limit);
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
  return documents.map((doc) => ({ userId: doc.u, itemId: doc.i, count: doc.c }));
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
