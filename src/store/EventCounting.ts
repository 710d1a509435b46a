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
 * The largest document these allow is measured by test/unit/store/eventDocumentBytes.test.ts (under 5 MB against
 * MongoDB's 16 MB). As with DimensionCounting, admission is decided in memory, never by reading the document: the
 * bound is per process that wrote the document, and per stretch of time it stayed among the MAX_TRACKED_DOCUMENTS
 * most recently written.
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
const MAX_TRACKED_DOCUMENTS = 20_000;

class NameAdmission {
  readonly currencies = new Set<string>();
  readonly keys = new Map<string, Set<string>>();
  readonly dimensions: Array<Set<string>> = DIMENSIONS.map(() => new Set());
}

class DocumentAdmission {
  readonly names = new Map<string, NameAdmission>();
  /** The `(other)` name's currencies. */
  other: NameAdmission | undefined;
  propValues = 0;
}

export class EventCounting {
  /** Admission per document id, least recently written first. */
  private readonly documents = new Map<string, DocumentAdmission>();

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
    let names = admission.names.get(event.name);
    if (names === undefined && admission.names.size < MAX_EVENT_NAMES) {
      names = new NameAdmission();
      admission.names.set(event.name, names);
    }
    const name = names === undefined ? OTHER : event.name;
    const nameKey = dimensionKey(name);
    document.add(`n.${nameKey}`, count);
    if (event.revenue !== undefined) {
      let currency = event.revenue.currency;
      const currencies = (names ?? (admission.other ??= new NameAdmission())).currencies;
      if (!currencies.has(currency)) {
        if (currencies.size < MAX_CURRENCIES) currencies.add(currency);
        else currency = OTHER;
      }
      document.add(`r.${nameKey}.${dimensionKey(currency)}`, event.revenue.minor * count);
    }
    if (names === undefined) return;
    if (word !== 0) document.or(`ev.${nameKey}.${registerName(register)}`, word);
    for (const [key, value] of event.props) {
      let values = names.keys.get(key);
      if (values === undefined && names.keys.size < MAX_PROP_KEYS) {
        values = new Set();
        names.keys.set(key, values);
      }
      let admitted = OTHER;
      if (values !== undefined) {
        if (values.has(value)) admitted = value;
        else if (values.size < MAX_PROP_VALUES && admission.propValues < MAX_DOCUMENT_PROP_VALUES) {
          values.add(value);
          admission.propValues++;
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
      const seen = names.dimensions[index] as Set<string>;
      let admitted = value;
      if (!seen.has(value)) {
        if (seen.size < MAX_DIMENSION_VALUES) seen.add(value);
        else admitted = OTHER;
      }
      document.add(`d.${nameKey}.${dimension}.${dimensionKey(admitted)}`, count);
    }
  }

  /** The document's admission, now the most recently written. */
  private admissionOf(id: string): DocumentAdmission {
    let admission = this.documents.get(id);
    if (admission === undefined) {
      admission = new DocumentAdmission();
      if (this.documents.size >= MAX_TRACKED_DOCUMENTS) {
        const oldest = this.documents.keys().next().value as string;
        this.documents.delete(oldest);
      }
    } else this.documents.delete(id);
    this.documents.set(id, admission);
    return admission;
  }
}
