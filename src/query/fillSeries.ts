/**
 * Turns fetched documents into a dense series: each bucket is the sum of its stored counters (see
 * counterPieces), zero where no document or counter exists (sparse documents and days without hits read as zeros).
 * A filtered series sums its value's `d.<dimension>.<key>` (and its count in the compacted `dz.<dimension>`) over the
 * bucket's days and months instead. Visitors, when asked for, come from seriesVisitors.
 */
import { packedCount } from '../domain/dimensions/packedCounters';
import { floorTo, SECOND_MS } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import type { CounterPiece } from './counterPieces';
import type { DocumentLookup } from './DocumentLookup';
import type { PeriodPiece } from './periodPieces';
import type { SeriesPlan } from './planSeries';
import type { DimensionFilter, Series, SeriesPoint, SeriesRequest } from './Series';
import { documentOf, seriesVisitors } from './seriesVisitors';

export function fillSeries(request: SeriesRequest, plan: SeriesPlan, lookup: DocumentLookup): Series {
  const { filter } = request;
  const { filterPieces } = plan;
  const counts =
    request.granularity === Granularity.SECOND
      ? plan.bucketStarts.map((t) => secondCount(lookup, t))
      : filter && filterPieces
        ? filterPieces.map((pieces) => sumFiltered(lookup, filter, pieces))
        : plan.bucketStarts.map((_, i) => sumPieces(lookup, plan.pieces[i] ?? []));
  const total = counts.reduce((sum, hits) => sum + hits, 0);
  const from = plan.bucketStarts[0] as number;
  if (request.visitors === undefined) {
    const points: SeriesPoint[] = plan.bucketStarts.map((t, i) => ({ t, hits: counts[i] as number }));
    return { request, from, to: plan.end, total, points };
  }
  const visitors = seriesVisitors(request, plan, lookup);
  const points: SeriesPoint[] = plan.bucketStarts.map((t, i) => ({
    t,
    hits: counts[i] as number,
    visitors: visitors.points[i] ?? null,
  }));
  return { request, from, to: plan.end, total, points, visitors: visitors.range };
}

export function sumPieces(lookup: DocumentLookup, pieces: readonly CounterPiece[]): number {
  let sum = 0;
  for (const piece of pieces) sum += pieceCount(lookup, piece);
  return sum;
}

function pieceCount(lookup: DocumentLookup, piece: CounterPiece): number {
  switch (piece.source) {
    case 'monthly':
      return number(lookup.monthly(piece.doc)?.daily?.[piece.dayOfMonth]);
    case 'hourly':
      return number(lookup.daily(piece.doc)?.hourly?.[piece.hour]);
    case 'minute':
      return number((lookup.minutes?.(piece.doc) ?? lookup.daily(piece.doc))?.minute?.[piece.hour]?.[piece.minute]);
  }
}

function sumFiltered(lookup: DocumentLookup, filter: DimensionFilter, pieces: readonly PeriodPiece[]): number {
  let sum = 0;
  for (const piece of pieces) {
    const doc = documentOf(lookup, piece);
    sum += number(doc?.d?.[filter.dimension]?.[filter.key]);
    const packed = doc?.dz?.[filter.dimension];
    if (packed !== undefined) sum += packedCount(packed, filter.key);
  }
  return sum;
}

function secondCount(lookup: DocumentLookup, t: number): number {
  const minute = floorTo(Granularity.MINUTE, t);
  return number(lookup.seconds?.(minute)?.seconds?.[(t - minute) / SECOND_MS]);
}

/** Counters are numbers; a Long from a huge counter or a missing field still reads sanely. */
function number(value: unknown): number {
  if (typeof value === 'number') return value;
  if (value === undefined || value === null) return 0;
  return Number(value);
}
