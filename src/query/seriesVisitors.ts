/**
 * A series' distinct visitors from the documents read for it: each bucket's sketch is the OR of its periods' stored
 * sketches (planSeries' visitorPieces), read at the lowest precision among them (a finer sketch folds in), and the
 * range's is the union of the buckets' when every bucket has one, else the union over the covering periods. A
 * bucket that is not a union of stored periods has no sketch: null, never a guess.
 */
import { isSiteTotal } from '../domain/siteTotal';
import { VISITOR_PRECISION } from '../domain/visitors/VisitorPrecision';
import { VisitorSketch } from '../domain/visitors/VisitorSketch';
import type { PackedSketch, StatsExtras, StoredSketch } from '../store/statsExtras';
import type { DocumentLookup } from './DocumentLookup';
import type { PeriodLevel, PeriodPiece } from './periodPieces';
import type { SeriesPlan } from './planSeries';
import type { DimensionFilter, SeriesRequest, SpanVisitors } from './Series';

export interface SeriesVisitors {
  /** Per bucket; null where the bucket has no sketch. */
  readonly points: readonly (number | null)[];
  readonly range: SpanVisitors | null;
}

export function seriesVisitors(request: SeriesRequest, plan: SeriesPlan, lookup: DocumentLookup): SeriesVisitors {
  const { visitorPieces } = plan;
  if (visitorPieces === undefined) return { points: plan.bucketStarts.map(() => null), range: null };
  const read = sketchReader(request.page, request.filter, lookup);
  const sketches = visitorPieces.map((pieces) => (pieces === undefined ? undefined : read(pieces)));
  const points = sketches.map((sketch) => (sketch === undefined ? null : Math.round(sketch.estimate())));
  if (request.visitors?.pointsOnly === true) return { points, range: null };
  if (plan.visitorCover === undefined) {
    const all = sketches as VisitorSketch[];
    const union = VisitorSketch.empty(Math.min(...all.map((sketch) => sketch.precision)));
    for (const sketch of all) union.merge(sketch);
    return {
      points,
      range: { visitors: Math.round(union.estimate()), from: plan.bucketStarts[0] as number, to: plan.end },
    };
  }
  const { from, to, pieces } = plan.visitorCover;
  return { points, range: { visitors: Math.round(read(pieces).estimate()), from, to } };
}

/**
 * Reads the OR of some periods' sketches of one page (or the site's totals): `v` and `vz`, or with a filter its
 * value's `dv` and `dvz` (kept at the minute precision).
 */
export function sketchReader(
  page: string,
  filter: DimensionFilter | undefined,
  lookup: DocumentLookup,
): (pieces: readonly PeriodPiece[]) => VisitorSketch {
  const site = isSiteTotal(page);
  const precision: Record<PeriodLevel, number> = filter
    ? { month: VISITOR_PRECISION.minute, day: VISITOR_PRECISION.minute, minute: VISITOR_PRECISION.minute }
    : {
        month: site ? VISITOR_PRECISION.siteMonth : VISITOR_PRECISION.pageMonth,
        day: site ? VISITOR_PRECISION.siteDay : VISITOR_PRECISION.pageDay,
        minute: VISITOR_PRECISION.minute,
      };
  const fieldsOf = (doc: StatsExtras | undefined): StoredSketch | undefined =>
    filter ? doc?.dv?.[filter.dimension]?.[filter.key] : doc?.v;
  const packedOf = (doc: StatsExtras | undefined): PackedSketch | undefined =>
    filter ? doc?.dvz?.[filter.dimension]?.[filter.key] : doc?.vz;
  return (pieces) => {
    const sketch = VisitorSketch.empty(Math.min(...pieces.map((piece) => precision[piece.level])));
    for (const piece of pieces) {
      const doc = documentOf(lookup, piece);
      mergeStored(sketch, fieldsOf(doc), packedOf(doc));
    }
    return sketch;
  };
}

/** ORs a document's sketch into `sketch`: its register fields and its compacted bytes, whichever it holds. */
export function mergeStored(
  sketch: VisitorSketch,
  fields: StoredSketch | undefined,
  packed: PackedSketch | undefined,
): void {
  if (fields !== undefined) sketch.merge(VisitorSketch.fromStoredFields(fields, sketch.precision));
  if (packed !== undefined) sketch.mergePacked(packed);
}

export function documentOf(lookup: DocumentLookup, piece: PeriodPiece): StatsExtras | undefined {
  switch (piece.level) {
    case 'month':
      return lookup.monthly(piece.start);
    case 'day':
      return lookup.daily(piece.start);
    case 'minute':
      return lookup.seconds?.(piece.start);
  }
}
