/**
 * How event documents (eventDocument) count one event, and which names, keys and values each document admits, one
 * per process. Caps, each overflowing into `(other)` as dimensions do, so a document stays bounded and its counts
 * still add up:
 * - MAX_EVENT_NAMES names per document; an event beyond them counts (and its revenue sums) under `(other)`,
 *   without sketch, properties or dimensions;
 * - MAX_PROP_KEYS property keys per event name, MAX_PROP_VALUES values per key, and MAX_DOCUMENT_PROP_VALUES
 *   property values per document over all names;
 * - MAX_DIMENSION_VALUES values per (event name, dimension);
 * - MAX_CURRENCIES currencies per event name: revenue in a further currency sums under the currency `(other)`
 *   (any three capital letters pass validation, so the set is not bounded by ISO 4217 alone).
 * The largest document these allow is measured by test/unit/store/EventCounting.test.ts (under 5 MB against
 * MongoDB's 16 MB). As with DimensionCounting, admission is decided in memory, never by reading the document: the
 * bound is per process that wrote the document, and per stretch of time it stayed among those tracked. Memory is
 * bounded too: names, keys and values are remembered as 53-bit hashes (a collision only admits a value as if it had
 * been seen), at most MAX_TRACKED_ENTRIES of them over all documents, the least recently written forgotten first.
 */
import { DIMENSIONS } from '../domain/dimensions/Dimension';
import type { Dimension, DimensionValues } from '../domain/dimensions/Dimension';
import { dimensionKey } from '../domain/dimensions/dimensionKey';
import { OTHER } from '../domain/dimensions/dimensionMarkers';
import type { HitEvent } from '../domain/events/HitEvent';
import type { PendingDocument } from './PendingUpdates';
import { registerName } from './visitorSketchPaths';

export const MAX_EVENT_NAMES = 30;
export const MAX_PROP_KEYS = 30;
export const MAX_PROP_VALUES = 100;
export const MAX_DOCUMENT_PROP_VALUES = 500;
export const MAX_DIMENSION_VALUES = 100;
export const MAX_CURRENCIES = 20;
export const MAX_TRACKED_ENTRIES = 500_000;

class NameAdmission {
  readonly currencies = new Set<string>();
  readonly keys = new Map<number, Set<number>>();
  readonly dimensions: Array<Set<number>> = DIMENSIONS.map(() => new Set());
}

class DocumentAdmission {
  readonly names = new Map<number, NameAdmission>();
  /** The `(other)` name's currencies. */
  other: NameAdmission | undefined;
  propValues = 0;
  /** Names, keys, values and currencies remembered here. */
  entries = 0;
}

export class EventCounting {
  /** Admission per document id, least recently written first. */
  private readonly documents = new Map<string, DocumentAdmission>();
  private entries = 0;

  constructor(private readonly maxTrackedEntries = MAX_TRACKED_ENTRIES) {}

  /** Documents and entries tracked now (for tests and the memory bound). */
  get tracking(): { readonly documents: number; readonly entries: number } {
    return { documents: this.documents.size, entries: this.entries };
  }

  /**
   * Counts `count` occurrences of `event` in `document`; with a visitor (`word` ≠ 0) ORs it into the event's sketch
   * at `register` (the hash's low bits under EVENT_VISITOR_MASK).
   */
  count(
    document: PendingDocument,
    event: HitEvent,
    count: number,
    word: number,
    register: number,
    dimensions: DimensionValues | undefined,
  ): void {
    const admission = this.admissionOf(document.key.id);
    const entriesBefore = admission.entries;
    const nameHash = hash53(event.name);
    let names = admission.names.get(nameHash);
    if (names === undefined && admission.names.size < MAX_EVENT_NAMES) {
      names = new NameAdmission();
      admission.names.set(nameHash, names);
      admission.entries++;
    }
    const name = names === undefined ? OTHER : event.name;
    const nameKey = dimensionKey(name);
    document.add(`n.${nameKey}`, count);
    if (event.revenue !== undefined) {
      let currency = event.revenue.currency;
      const currencies = (names ?? (admission.other ??= new NameAdmission())).currencies;
      if (!currencies.has(currency)) {
        if (currencies.size < MAX_CURRENCIES) {
          currencies.add(currency);
          admission.entries++;
        } else currency = OTHER;
      }
      document.add(`r.${nameKey}.${dimensionKey(currency)}`, event.revenue.minor * count);
    }
    if (names !== undefined)
      this.countDetails(document, admission, names, nameKey, event, count, word, register, dimensions);
    this.entries += admission.entries - entriesBefore;
    if (this.entries > this.maxTrackedEntries) this.forgetOldest();
  }

  private countDetails(
    document: PendingDocument,
    admission: DocumentAdmission,
    names: NameAdmission,
    nameKey: string,
    event: HitEvent,
    count: number,
    word: number,
    register: number,
    dimensions: DimensionValues | undefined,
  ): void {
    if (word !== 0) document.or(`ev.${nameKey}.${registerName(register)}`, word);
    for (const [key, value] of event.props) {
      const keyHash = hash53(key);
      let values = names.keys.get(keyHash);
      if (values === undefined && names.keys.size < MAX_PROP_KEYS) {
        values = new Set();
        names.keys.set(keyHash, values);
        admission.entries++;
      }
      let admitted = OTHER;
      if (values !== undefined) {
        const valueHash = hash53(value);
        if (values.has(valueHash)) admitted = value;
        else if (values.size < MAX_PROP_VALUES && admission.propValues < MAX_DOCUMENT_PROP_VALUES) {
          values.add(valueHash);
          admission.propValues++;
          admission.entries++;
          admitted = value;
        }
      }
      const keyPath = values === undefined ? OTHER : key;
      document.add(`p.${nameKey}.${dimensionKey(keyPath)}.${dimensionKey(admitted)}`, count);
    }
    if (dimensions === undefined) return;
    for (let index = 0; index < DIMENSIONS.length; index++) {
      const dimension = DIMENSIONS[index] as Dimension;
      const value = dimensions[dimension];
      const seen = names.dimensions[index] as Set<number>;
      const valueHash = hash53(value);
      let admitted = value;
      if (!seen.has(valueHash)) {
        if (seen.size < MAX_DIMENSION_VALUES) {
          seen.add(valueHash);
          admission.entries++;
        } else admitted = OTHER;
      }
      document.add(`d.${nameKey}.${dimension}.${dimensionKey(admitted)}`, count);
    }
  }

  /** The document's admission, now the most recently written. */
  private admissionOf(id: string): DocumentAdmission {
    let admission = this.documents.get(id);
    if (admission === undefined) admission = new DocumentAdmission();
    else this.documents.delete(id);
    this.documents.set(id, admission);
    return admission;
  }

  /** Forgets the least recently written documents until the entries fit (the newest is kept). */
  private forgetOldest(): void {
    for (const [id, admission] of this.documents) {
      if (this.entries <= this.maxTrackedEntries || this.documents.size <= 1) return;
      this.documents.delete(id);
      this.entries -= admission.entries;
    }
  }
}

/** cyrb53: a fast 53-bit string hash; admission only, never stored. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
