/**
 * Coalesces increments per document: however many hits touch a document, it gets one upsert
 * (see counterUpsert for how the filter targets a shard, or FerretDB's `_id` index).
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { counterUpsert } from './counterUpsert';
import type { CounterDocumentKey, Targeting } from './counterUpsert';
import type { FlushMark } from './FlushMark';

export type { CounterDocumentKey };

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

  toOperations(targeting: Targeting, mark?: FlushMark): AnyBulkWriteOperation<Document>[] {
    return [...this.byId.values()].map(({ key, inc }) => counterUpsert(key, targeting, { inc, mark }));
  }

  /** The documents this holds increments for. */
  keys(): CounterDocumentKey[] {
    return [...this.byId.values()].map(({ key }) => key);
  }
}
