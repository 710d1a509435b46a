/**
 * Coalesces increments per document: however many hits touch a document, it gets one upsert.
 * Filters carry the shard key (metadata.site, metadata.page) so each write targets one shard.
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';

export interface CounterDocumentKey {
  readonly id: string;
  readonly site: string;
  readonly page: string;
  /** metadata.date: the UTC start of the document's period. */
  readonly date: Date;
}

interface Pending {
  readonly key: CounterDocumentKey;
  readonly inc: Record<string, number>;
}

export class PendingUpdates {
  private readonly byId = new Map<string, Pending>();

  get size(): number {
    return this.byId.size;
  }

  add(key: CounterDocumentKey, path: string, amount: number): void {
    let pending = this.byId.get(key.id);
    if (!pending) {
      pending = { key, inc: {} };
      this.byId.set(key.id, pending);
    }
    pending.inc[path] = (pending.inc[path] ?? 0) + amount;
  }

  /** Moves every pending increment of `other` into this one. */
  absorb(other: PendingUpdates): void {
    for (const { key, inc } of other.byId.values()) {
      for (const [path, amount] of Object.entries(inc)) this.add(key, path, amount);
    }
  }

  toOperations(): AnyBulkWriteOperation<Document>[] {
    return [...this.byId.values()].map(({ key, inc }) => ({
      updateOne: {
        filter: shardTargetedFilter(key),
        update: { $setOnInsert: { 'metadata.date': key.date }, $inc: inc },
        upsert: true,
      },
    }));
  }
}

/** `_id` plus the shard key: a sharded cluster routes the write to one shard, and an upsert copies both in. */
export function shardTargetedFilter(key: CounterDocumentKey): Document {
  return { _id: key.id, 'metadata.site': key.site, 'metadata.page': key.page };
}
