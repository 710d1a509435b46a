/**
 * What the event documents of one span say, summed on demand: counts per event name, converting visitors (the OR
 * of the name's sketches), revenue per currency, counts per property value and per dimension value. Keys are the
 * stored, escaped ones (dimensionKey); the rankings unescape the page they return.
 */
import type { Dimension } from '../../domain/dimensions/Dimension';
import { mergeCompactSketch } from '../../domain/visitors/compactSketch';
import { VisitorSketch } from '../../domain/visitors/VisitorSketch';
import { EVENT_VISITOR_PRECISION } from '../../store/eventDocument';
import type { EventStatsDocument } from '../../store/eventDocument';
import { storedCount } from '../storedCount';

export class EventTotals {
  constructor(
    /** The span, UTC midnights. */
    readonly from: number,
    readonly to: number,
    private readonly docs: readonly EventStatsDocument[],
  ) {}

  /** Occurrences per event name key. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const doc of this.docs) addAll(counts, doc.n);
    return counts;
  }

  /**
   * Distinct visitors who sent the event: its sketches ORed over the span, both the register fields (`ev`) and the
   * compacted bytes (`evz`) a document holds.
   */
  visitors(nameKey: string): number {
    const sketch = VisitorSketch.empty(EVENT_VISITOR_PRECISION);
    for (const doc of this.docs) {
      const fields = doc.ev?.[nameKey];
      if (fields !== undefined) sketch.merge(VisitorSketch.fromStoredFields(fields, EVENT_VISITOR_PRECISION));
      const bytes = doc.evz?.[nameKey];
      if (bytes !== undefined) mergeCompactSketch(sketch, bytes);
    }
    return Math.round(sketch.estimate());
  }

  /** Revenue per currency, in minor units. */
  revenue(nameKey: string): Map<string, number> {
    const sums = new Map<string, number>();
    for (const doc of this.docs) addAll(sums, doc.r?.[nameKey]);
    return sums;
  }

  /** Occurrences per value key of one property key. */
  propertyCounts(nameKey: string, propertyKey: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const doc of this.docs) addAll(counts, doc.p?.[nameKey]?.[propertyKey]);
    return counts;
  }

  /** Occurrences per value key of one dimension. */
  dimensionCounts(nameKey: string, dimension: Dimension): Map<string, number> {
    const counts = new Map<string, number>();
    for (const doc of this.docs) addAll(counts, doc.d?.[nameKey]?.[dimension]);
    return counts;
  }
}

function addAll(into: Map<string, number>, counters: Readonly<Record<string, unknown>> | undefined): void {
  if (counters === undefined) return;
  for (const key in counters) {
    const n = storedCount(counters[key]);
    if (n !== 0) into.set(key, (into.get(key) ?? 0) + n);
  }
}
