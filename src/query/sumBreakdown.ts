/**
 * A breakdown's totals from the documents read for it: hits per key summed over the span's months and days (from
 * the counters `d` and the compacted `dz` alike), and, when the per-value sketches were read, each key's visitors on
 * demand (the OR of its sketches, at the minute precision they are written at): a page of ten values merges ten
 * sketches, not every value's.
 */
import { addPackedCounters } from '../domain/dimensions/packedCounters';
import { VISITOR_PRECISION } from '../domain/visitors/VisitorPrecision';
import { VisitorSketch } from '../domain/visitors/VisitorSketch';
import type { PackedSketch, StoredSketch } from '../store/statsExtras';
import type { StoredVisitCounts } from '../store/visitCounters';
import { addStoredVisits, NO_VISITS } from './visitCounts';
import type { VisitCounts } from './visitCounts';
import type { BreakdownRequest, BreakdownTotals } from './Breakdown';
import type { DocumentLookup } from './DocumentLookup';
import type { BreakdownPlan } from './planBreakdown';
import { documentOf, mergeStored } from './seriesVisitors';
import { storedCount } from './storedCount';

export function sumBreakdown(request: BreakdownRequest, plan: BreakdownPlan, lookup: DocumentLookup): BreakdownTotals {
  const hits = new Map<string, number>();
  // Per document read, its per-value sketches in either form (register fields, compacted bytes).
  const sketches: Array<{
    readonly fields: Readonly<Record<string, StoredSketch>> | undefined;
    readonly packed: Readonly<Record<string, PackedSketch>> | undefined;
  }> = [];
  // Per document read, its per-value visit counters (site documents, issue 29).
  const visitCounters: Array<Readonly<Record<string, StoredVisitCounts>>> = [];
  for (const piece of plan.pieces) {
    const doc = documentOf(lookup, piece);
    const counters = doc?.d?.[request.dimension];
    if (counters) {
      for (const key in counters) {
        const count = storedCount(counters[key]);
        if (count !== 0) hits.set(key, (hits.get(key) ?? 0) + count);
      }
    }
    const packedCounters = doc?.dz?.[request.dimension];
    if (packedCounters) addPackedCounters(packedCounters, hits);
    const fields = doc?.dv?.[request.dimension];
    const packed = doc?.dvz?.[request.dimension];
    if (fields || packed) sketches.push({ fields, packed });
    const visits = doc?.dx?.[request.dimension];
    if (visits) visitCounters.push(visits);
  }
  const visitsOf =
    request.visits === true
      ? (key: string): VisitCounts =>
          visitCounters.reduce((sum, byKey) => addStoredVisits(sum, byKey[key], true), NO_VISITS)
      : undefined;
  if (!request.visitors) return { request, hits, visitsOf };
  const visitorsOf = (key: string): number => {
    const sketch = VisitorSketch.empty(VISITOR_PRECISION.minute);
    for (const { fields, packed } of sketches) mergeStored(sketch, fields?.[key], packed?.[key]);
    return Math.round(sketch.estimate());
  };
  return { request, hits, visitorsOf, visitsOf };
}
