/**
 * Coalesces increments per document: however many hits touch a document, it gets one upsert
 * (see counterUpsert for how the filter targets a shard, or FerretDB's `_id` index).
 *
 * Ingest adds every hit here, so the per-hit path builds nothing: a hit finds its document by site, page and
 * period (the id string is built once per document), and its field paths are constants from a table, kept in a
 * Map (an object used as a dictionary internalizes every fresh key string: that was the largest item in the
 * ingest profile).
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { counterUpsert } from './counterUpsert';
import type { CounterDocumentKey, Targeting } from './counterUpsert';
import type { FlushMark } from './FlushMark';

export type { CounterDocumentKey };

/** The id of the document of (site, page, period start), e.g. dailyDocumentId. */
export type IdOf = (site: string, page: string, period: number) => string;

/** One document's pending increments, by field path. */
export class PendingDocument {
  readonly inc = new Map<string, number>();

  constructor(readonly key: CounterDocumentKey) {}

  add(path: string, amount: number): void {
    this.inc.set(path, (this.inc.get(path) ?? 0) + amount);
  }
}

export class PendingUpdates {
  private readonly byId = new Map<string, PendingDocument>();
  /** The same documents by site, then page, then period start. */
  private readonly bySite = new Map<string, Map<string, Map<number, PendingDocument>>>();

  get size(): number {
    return this.byId.size;
  }

  /** The document of (site, page, period): its id is `idOf(site, page, period)`, its metadata.date the period. */
  document(site: string, page: string, period: number, idOf: IdOf): PendingDocument {
    let pages = this.bySite.get(site);
    if (pages === undefined) this.bySite.set(site, (pages = new Map()));
    let periods = pages.get(page);
    if (periods === undefined) pages.set(page, (periods = new Map()));
    let document = periods.get(period);
    if (document === undefined) {
      document = this.byKey({ id: idOf(site, page, period), site, page, date: new Date(period) });
      periods.set(period, document);
    }
    return document;
  }

  /** Moves every pending increment of `other` into this one. */
  absorb(other: PendingUpdates): void {
    for (const { key, inc } of other.byId.values()) {
      const document = this.byKey(key);
      for (const [path, amount] of inc) document.add(path, amount);
    }
  }

  toOperations(targeting: Targeting, mark?: FlushMark): AnyBulkWriteOperation<Document>[] {
    return [...this.byId.values()].map(({ key, inc }) =>
      counterUpsert(key, targeting, { inc: Object.fromEntries(inc), mark }),
    );
  }

  /** The documents this holds increments for. */
  keys(): CounterDocumentKey[] {
    return [...this.byId.values()].map(({ key }) => key);
  }

  private byKey(key: CounterDocumentKey): PendingDocument {
    let document = this.byId.get(key.id);
    if (document === undefined) {
      document = new PendingDocument(key);
      this.byId.set(key.id, document);
    }
    return document;
  }
}
