/**
 * Coalesces increments per document: however many hits touch a document, it gets one upsert
 * (see counterUpsert for how the filter targets a shard, or FerretDB's `_id` index).
 *
 * Ingest adds every hit here, so the per-hit path builds nothing: a hit finds its document by site, page and
 * period (the id string is built once per document), and its field paths are constants from a table, kept in a
 * Map (an object used as a dictionary internalizes every fresh key string: that was the largest item in the
 * ingest profile). Visitor-sketch words (`$bit … or`) coalesce the same way, by OR: writing the result once
 * leaves the document as writing every word would, so a flush carries one word per register it touched.
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { counterUpsert } from './counterUpsert';
import type { CounterDocumentKey, Targeting } from './counterUpsert';
import type { FlushMark } from './FlushMark';
import type { AdmittedKeys } from './DimensionCounting';
import { registerName } from './visitorSketchPaths';

export type { CounterDocumentKey };

/** The id of the document of (site, page, period start), e.g. dailyDocumentId. */
export type IdOf = (site: string, page: string, period: number) => string;

/** One document's pending increments and sketch words, by field path. */
export class PendingDocument {
  readonly inc = new Map<string, number>();
  /** `$bit … or` operands: the OR of every word a register got. */
  readonly bits = new Map<string, number>();
  /**
   * The same for sketches whose paths are not constants (`dv.<dimension>.<key>.<r>`): words by register, under the
   * sketch's path prefix, so a hit concatenates no path; the paths are built once per flush.
   */
  readonly sketches = new Map<string, Map<number, number>>();
  /** The dimension keys this process admitted into the document (DimensionCounting), once it counts dimensions. */
  admitted: AdmittedKeys | undefined;

  constructor(readonly key: CounterDocumentKey) {}

  add(path: string, amount: number): void {
    this.inc.set(path, (this.inc.get(path) ?? 0) + amount);
  }

  or(path: string, word: number): void {
    this.bits.set(path, (this.bits.get(path) ?? 0) | word);
  }

  orRegister(prefix: string, register: number, word: number): void {
    let words = this.sketches.get(prefix);
    if (words === undefined) this.sketches.set(prefix, (words = new Map()));
    words.set(register, (words.get(register) ?? 0) | word);
  }

  /** The `$bit` operand of the upsert (`{<path>: {or: <word>}}`), built once per flush; undefined when empty. */
  bitOperand(): Document | undefined {
    if (this.bits.size === 0 && this.sketches.size === 0) return undefined;
    const operand: Document = {};
    for (const [path, word] of this.bits) operand[path] = { or: word };
    for (const [prefix, words] of this.sketches) {
      for (const [register, word] of words) operand[prefix + registerName(register)] = { or: word };
    }
    return operand;
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
    for (const { key, inc, bits, sketches } of other.byId.values()) {
      const document = this.byKey(key);
      for (const [path, amount] of inc) document.add(path, amount);
      for (const [path, word] of bits) document.or(path, word);
      for (const [prefix, words] of sketches) {
        for (const [register, word] of words) document.orRegister(prefix, register, word);
      }
    }
  }

  toOperations(targeting: Targeting, mark?: FlushMark): AnyBulkWriteOperation<Document>[] {
    return [...this.byId.values()].map((document) =>
      counterUpsert(document.key, targeting, {
        inc: Object.fromEntries(document.inc),
        bits: document.bitOperand(),
        mark,
      }),
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
