/**
 * A batch of impressions summed per (user, item) pair and per item, so each document gets exactly one
 * `$inc` upsert however often it appears: duplicates in a batch add up instead of being counted once.
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import type { Impression } from '../domain/Impression';
import type { Targeting } from './counterUpsert';
import { itemIncrement } from './impressionItems';
import type { ItemCount } from './impressionItems';
import { pairIncrement } from './impressionPairs';
import type { PairCount } from './impressionPairs';

export class ImpressionBatch {
  /** userId → itemId → count: nested maps need no key encoding, so no two pairs can share a key. */
  private readonly pairs = new Map<string, Map<string, number>>();
  private readonly items = new Map<string, number>();
  private distinctPairs = 0;
  /** Sum of all counts added. */
  total = 0;

  static of(impressions: readonly Impression[]): ImpressionBatch {
    const batch = new ImpressionBatch();
    for (const impression of impressions) batch.add(impression);
    return batch;
  }

  add({ userId, itemId, count }: Impression): void {
    let ofUser = this.pairs.get(userId);
    if (!ofUser) {
      ofUser = new Map();
      this.pairs.set(userId, ofUser);
    }
    const before = ofUser.get(itemId);
    if (before === undefined) this.distinctPairs += 1;
    ofUser.set(itemId, (before ?? 0) + count);
    this.items.set(itemId, (this.items.get(itemId) ?? 0) + count);
    this.total += count;
  }

  /** Distinct (user, item) pairs: the upserts on impressions.pairs. */
  get pairCount(): number {
    return this.distinctPairs;
  }

  /** Distinct items: the upserts on impressions.items. */
  get itemCount(): number {
    return this.items.size;
  }

  pairCounts(): PairCount[] {
    const result: PairCount[] = [];
    for (const [userId, ofUser] of this.pairs) {
      for (const [itemId, count] of ofUser) result.push({ userId, itemId, count });
    }
    return result;
  }

  itemCounts(): ItemCount[] {
    return [...this.items].map(([itemId, count]) => ({ itemId, count }));
  }

  pairOperations(targeting: Targeting): AnyBulkWriteOperation<Document>[] {
    return this.pairCounts().map((p) => pairIncrement(p.userId, p.itemId, p.count, targeting));
  }

  itemOperations(): AnyBulkWriteOperation<Document>[] {
    return this.itemCounts().map((item) => itemIncrement(item.itemId, item.count));
  }
}
