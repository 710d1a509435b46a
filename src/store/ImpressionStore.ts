/**
 * Writes and reads of the impression counters (pairs and item totals), over one Database. On MongoDB a batch
 * costs one unordered bulkWrite per collection whatever its size (the driver splits only past
 * maxWriteBatchSize, 100,000 operations, which IMPRESSIONS_MAX_BATCH stays below).
 */
import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { bulkUpsert, bulkUpsertOptions } from './bulkUpsert';
import type { BulkUpsertOptions } from './bulkUpsert';
import type { Database } from './connectDatabase';
import type { Targeting } from './counterUpsert';
import { ensureIndexes } from './ensureIndexes';
import type { ImpressionBatch } from './ImpressionBatch';
import { findTopItems, impressionItemIndexes, impressionItemsCollection } from './impressionItems';
import type { ImpressionItemDocument, ItemCount } from './impressionItems';
import {
  findPairsOfItem,
  findPairsOfUser,
  findTopPairs,
  impressionPairIndexes,
  impressionPairsCollection,
} from './impressionPairs';
import type { ImpressionPairDocument, PairCount } from './impressionPairs';
import { translateDriverError } from './translateDriverError';

export type { ItemCount, PairCount };

/**
 * Write filters and command sizes follow the database's write policy: only on stock FerretDB 1.24, which never
 * answers an update command modifying 100 or more existing documents, do upserts go out in commands of at most
 * WritePolicy.maxUpdatesPerCommand, so round trips grow with the batch there alone.
 */
export class ImpressionStore {
  private readonly pairs: Collection<ImpressionPairDocument>;
  private readonly items: Collection<ImpressionItemDocument>;
  private readonly bulk: BulkUpsertOptions;

  private readonly targeting: Targeting;

  constructor(database: Database, options: { writeConcern?: string | number | undefined } = {}) {
    this.targeting = database.policy.targeting;
    this.pairs = impressionPairsCollection(database.db);
    this.items = impressionItemsCollection(database.db);
    this.bulk = bulkUpsertOptions(database.policy, options.writeConcern);
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.pairs, impressionPairIndexes);
    await ensureIndexes(this.items, impressionItemIndexes);
  }

  /**
   * Two round trips (on MongoDB), sent together. Upsert + `$inc` is atomic per document on MongoDB, so concurrent batches
   * are exact; E11000 races between two upserts creating one pair are retried by bulkUpsert.
   */
  async write(batch: ImpressionBatch): Promise<void> {
    await Promise.all([
      this.upsert(this.pairs as unknown as Collection<Document>, batch.pairOperations(this.targeting)),
      this.upsert(this.items as unknown as Collection<Document>, batch.itemOperations()),
    ]);
  }

  private upsert(collection: Collection<Document>, operations: AnyBulkWriteOperation<Document>[]): Promise<void> {
    return bulkUpsert(collection, operations, this.bulk);
  }

  userImpressions(userId: string, after: PairCount | undefined, limit: number): Promise<PairCount[]> {
    return translated(findPairsOfUser(this.pairs, userId, after, limit));
  }

  itemImpressions(itemId: string, after: PairCount | undefined, limit: number): Promise<PairCount[]> {
    return translated(findPairsOfItem(this.pairs, itemId, after, limit));
  }

  topPairs(after: PairCount | undefined, limit: number): Promise<PairCount[]> {
    return translated(findTopPairs(this.pairs, after, limit));
  }

  topItems(after: ItemCount | undefined, limit: number): Promise<ItemCount[]> {
    return translated(findTopItems(this.items, after, limit));
  }
}

async function translated<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (error) {
    throw translateDriverError(error);
  }
}
