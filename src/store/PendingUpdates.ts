/**
 * Coalesces increments per document: however many hits touch a document, it gets one upsert
 * (see counterUpsert for how the filter targets a shard, or FerretDB's `_id` index).
 *
 * Ingest adds every hit here, so the per-hit path builds nothing: a hit finds its document by site, page and
 * period (the id string is built once per document), and its field paths are constants from a table, kept in a
 * Map (an object used as a dictionary internalizes every fresh key string: that was the largest item in the
 * ingest profile). Visitor-sketch words (`$bit … or`) coalesce the same way, by OR: writing the result once
 * leaves the document as writing every word would, so a flush carries one word per register it touched. Dimension
 * values coalesce into one DimensionTally each, found by the value's slot (an identity lookup, no path built).
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { counterUpsert } from './counterUpsert';
import type { CounterDocumentKey, Targeting } from './counterUpsert';
import type { FlushMark } from './FlushMark';
import type { AdmittedKeys } from './DimensionCounting';
import { DimensionTally } from './DimensionTally';
import type { DimensionSlot } from './DimensionTally';

export type { CounterDocumentKey };

/** The id of the document of (site, page, period start), e.g. dailyDocumentId. */
export type IdOf = (site: string, page: string, period: number) => string;

/** One document's pending increments and sketch words, by field path, and its dimension tallies. */
export class PendingDocument {
  readonly inc = new Map<string, number>();
  /** `$bit … or` operands: the OR of every word a register got. */
  readonly bits = new Map<string, number>();
  /**
   * Dimension values counted here, by slot. A value the document does not admit maps to the `(other)` tally, so
   * admission is decided once per value and flush.
   */
  readonly tallyOf = new Map<DimensionSlot, DimensionTally>();
  /** The distinct tallies of tallyOf, in order. */
  readonly tallies: DimensionTally[] = [];
  /** Per dimension, the slot counted last and its tally: consecutive hits mostly repeat a value, skipping the Map. */
  readonly recentSlots: Array<DimensionSlot | undefined> = [];
  readonly recentTallies: DimensionTally[] = [];
  /** The dimension keys this process admitted into the document (DimensionCounting), once it counts dimensions. */
  admitted: AdmittedKeys | undefined;

  constructor(readonly key: CounterDocumentKey) {}

  add(path: string, amount: number): void {
    this.inc.set(path, (this.inc.get(path) ?? 0) + amount);
  }

  or(path: string, word: number): void {
    this.bits.set(path, (this.bits.get(path) ?? 0) | word);
  }

  /** The tally `slot` counts into, made (for `into`'s value) when the document has none for it yet. */
  tally(slot: DimensionSlot, into: DimensionSlot = slot): DimensionTally {
    let tally = this.tallyOf.get(into);
    if (tally === undefined) {
      tally = new DimensionTally(into);
      this.tallyOf.set(into, tally);
      this.tallies.push(tally);
    }
    if (into !== slot) this.tallyOf.set(slot, tally);
    return tally;
  }

  carriesSketches(): boolean {
    return this.bits.size > 0 || this.tallies.some((t) => t.words !== undefined);
  }

  /** The upsert's `$inc` and `$bit` operands, built once per flush (`$bit` undefined when empty). */
  operands(): { readonly inc: Record<string, number>; readonly bit: Document | undefined } {
    const inc: Record<string, number> = Object.fromEntries(this.inc);
    const bit: Document = {};
    for (const [path, word] of this.bits) bit[path] = { or: word };
    for (const tally of this.tallies) tally.writeInto(inc, bit);
    return { inc, bit: this.carriesSketches() ? bit : undefined };
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

  /** Every pending document, in `_id` order (the order bulk writes send them in). */
  documentsById(): PendingDocument[] {
    return [...this.byId.values()].sort((a, b) => (a.key.id < b.key.id ? -1 : a.key.id > b.key.id ? 1 : 0));
  }

  /** Holds `document` for writing (a part of a larger batch: see CounterBatch.split); it takes no more hits here. */
  adopt(document: PendingDocument): void {
    this.byId.set(document.key.id, document);
  }

  /** Moves every pending increment of `other` into this one. */
  absorb(other: PendingUpdates): void {
    for (const { key, inc, bits, tallies } of other.byId.values()) {
      const document = this.byKey(key);
      for (const [path, amount] of inc) document.add(path, amount);
      for (const [path, word] of bits) document.or(path, word);
      for (const tally of tallies) document.tally(tally.slot).absorb(tally);
    }
  }

  toOperations(targeting: Targeting, mark?: FlushMark): AnyBulkWriteOperation<Document>[] {
    return [...this.byId.values()].map((document) => {
      const { inc, bit } = document.operands();
      return counterUpsert(document.key, targeting, { inc, bits: bit, mark });
    });
  }

  /** The documents whose upsert writes what compaction folds once the period is over: sketch words or dimensions. */
  compactableKeys(): CounterDocumentKey[] {
    const keys: CounterDocumentKey[] = [];
    for (const document of this.byId.values()) {
      if (document.tallies.length > 0 || document.carriesSketches()) keys.push(document.key);
    }
    return keys;
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
