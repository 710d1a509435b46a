/**
 * Turns fetched documents into a dense series: each bucket is the sum of its stored counters (see
 * counterPieces), zero where no document or counter exists (sparse documents and days without hits read as zeros).
 * A filtered series sums its value's `d.<dimension>.<key>` (and its count in the compacted `dz.<dimension>`) over the
 * bucket's days and months instead. Visitors, when asked for, come from seriesVisitors. A bucket that needs a counter
 * or sketch retention dropped (retainedDetail) is null instead, and so is the total then.
 */
import { packedCount } from '../domain/dimensions/packedCounters';
import { floorTo, SECOND_MS } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import { KEEP_EVERYTHING } from '../time/retentionCutoffs';
import type { RetentionCutoffs } from '../time/retentionCutoffs';
import type { CounterPiece } from './counterPieces';
import type { DocumentLookup } from './DocumentLookup';
import { SITE_TOTAL_PAGE } from '../domain/siteTotal';
import { addVisitCounts, NO_VISITS, sumVisitPieces } from './visitCounts';
import type { VisitCounts } from './visitCounts';
import type { PeriodPiece } from './periodPieces';
import type { SeriesPlan } from './planSeries';
import { counterPieceDropped, periodPieceDropped, secondDropped } from './retainedDetail';
import type { DimensionFilter, Series, SeriesPoint, SeriesRequest } from './Series';
import { documentOf, seriesVisitors } from './seriesVisitors';
import { storedCount } from './storedCount';
import type { SeriesVisitors } from './seriesVisitors';

export function fillSeries(request: SeriesRequest, plan: SeriesPlan, lookup: DocumentLookup): Series {
  const { filter } = request;
  const { filterPieces } = plan;
  const cutoffs = request.retained ?? KEEP_EVERYTHING;
  const counts: Array<number | null> =
    request.granularity === Granularity.SECOND
      ? plan.bucketStarts.map((t) => (secondDropped(t, cutoffs) ? null : secondCount(lookup, t)))
      : filter && filterPieces
        ? filterPieces.map((pieces) =>
            pieces.some((piece) => periodPieceDropped(piece, cutoffs)) ? null : sumFiltered(lookup, filter, pieces),
          )
        : plan.bucketStarts.map((_, i) => {
            const pieces = plan.pieces[i] ?? [];
            return pieces.some((piece) => counterPieceDropped(piece, cutoffs)) ? null : sumPieces(lookup, pieces);
          });
  const total = counts.some((hits) => hits === null)
    ? null
    : counts.reduce<number>((sum, hits) => sum + (hits as number), 0);
  const from = plan.bucketStarts[0] as number;
  const visits = request.visits === true ? fillVisits(request, plan, lookup, counts) : undefined;
  if (request.visitors === undefined) {
    const points: SeriesPoint[] = plan.bucketStarts.map((t, i) =>
      visits
        ? { t, hits: counts[i] as number | null, visits: visits.points[i] ?? null }
        : { t, hits: counts[i] as number | null },
    );
    return {
      request,
      from,
      to: plan.end,
      total,
      points,
      droppedPoints: countNull(counts),
      ...(visits ? { visits: visits.total } : {}),
    };
  }
  const visitors = retainedVisitors(seriesVisitors(request, plan, lookup), plan, cutoffs);
  const points: SeriesPoint[] = plan.bucketStarts.map((t, i) => ({
    t,
    hits: counts[i] as number | null,
    visitors: visitors.points[i] ?? null,
    ...(visits ? { visits: visits.points[i] ?? null } : {}),
  }));
  const droppedPoints = counts.filter((hits, i) => hits === null || visitors.dropped[i] === true).length;
  return {
    request,
    from,
    to: plan.end,
    total,
    points,
    visitors: visitors.range,
    droppedPoints,
    ...(visits ? { visits: visits.total } : {}),
  };
}

/**
 * Each bucket's visit counters, and their sum: null for a bucket whose hits retention dropped or that visit counters
 * do not answer (minutes outside visitMinutesFrom, SECOND buckets, a dimension filter), and the sum null then too.
 */
function fillVisits(
  request: SeriesRequest,
  plan: SeriesPlan,
  lookup: DocumentLookup,
  counts: readonly (number | null)[],
): { readonly points: Array<VisitCounts | null>; readonly total: VisitCounts | null } {
  const site = request.page === SITE_TOTAL_PAGE;
  const answered = request.granularity !== Granularity.SECOND && request.filter === undefined;
  const points = plan.bucketStarts.map((_, i) =>
    !answered || counts[i] === null
      ? null
      : sumVisitPieces(lookup, plan.pieces[i] ?? [], site, request.visitMinutesFrom),
  );
  let total: VisitCounts | null = NO_VISITS;
  for (const point of points) total = point === null || total === null ? null : addVisitCounts(total, point);
  return { points, total };
}

/**
 * Nulls the visitors of buckets whose sketch periods retention dropped, and the range's when a period it is read
 * from is one of them (a missing sketch reads as no visitors: never a wrong number).
 */
function retainedVisitors(
  visitors: SeriesVisitors,
  plan: SeriesPlan,
  cutoffs: RetentionCutoffs,
): SeriesVisitors & { readonly dropped: readonly boolean[] } {
  const dropped = (pieces: readonly PeriodPiece[] | undefined): boolean =>
    pieces !== undefined && pieces.some((piece) => periodPieceDropped(piece, cutoffs));
  const pointDropped = (plan.visitorPieces ?? []).map(dropped);
  const rangeDropped = plan.visitorCover ? dropped(plan.visitorCover.pieces) : pointDropped.some(Boolean);
  return {
    points: visitors.points.map((count, i) => (pointDropped[i] === true ? null : count)),
    range: rangeDropped ? null : visitors.range,
    dropped: pointDropped,
  };
}

function countNull(values: readonly (number | null)[]): number {
  return values.filter((value) => value === null).length;
}

export function sumPieces(lookup: DocumentLookup, pieces: readonly CounterPiece[]): number {
  let sum = 0;
  for (const piece of pieces) sum += pieceCount(lookup, piece);
  return sum;
}

function pieceCount(lookup: DocumentLookup, piece: CounterPiece): number {
  switch (piece.source) {
    case 'monthly':
      return storedCount(lookup.monthly(piece.doc)?.daily?.[piece.dayOfMonth]);
    case 'hourly':
      return storedCount(lookup.daily(piece.doc)?.hourly?.[piece.hour]);
    case 'minute':
      return storedCount(
        (lookup.minutes?.(piece.doc) ?? lookup.daily(piece.doc))?.minute?.[piece.hour]?.[piece.minute],
      );
  }
}

function sumFiltered(lookup: DocumentLookup, filter: DimensionFilter, pieces: readonly PeriodPiece[]): number {
  let sum = 0;
  for (const piece of pieces) {
    const doc = documentOf(lookup, piece);
    sum += storedCount(doc?.d?.[filter.dimension]?.[filter.key]);
    const packed = doc?.dz?.[filter.dimension];
    if (packed !== undefined) sum += packedCount(packed, filter.key);
  }
  return sum;
}

function secondCount(lookup: DocumentLookup, t: number): number {
  const minute = floorTo(Granularity.MINUTE, t);
  return storedCount(lookup.seconds?.(minute)?.seconds?.[(t - minute) / SECOND_MS]);
}
