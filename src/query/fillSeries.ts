/**
 * Turns fetched documents into a dense series: each bucket is the sum of its stored counters (see
 * counterPieces), zero where no document or counter exists (sparse documents and days without hits read as zeros).
 */
import { floorTo, SECOND_MS } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import type { CounterPiece } from './counterPieces';
import type { DocumentLookup } from './DocumentLookup';
import type { SeriesPlan } from './planSeries';
import type { Series, SeriesPoint, SeriesRequest } from './Series';

export function fillSeries(request: SeriesRequest, plan: SeriesPlan, lookup: DocumentLookup): Series {
  const points: SeriesPoint[] =
    request.granularity === Granularity.SECOND
      ? plan.bucketStarts.map((t) => ({ t, hits: secondCount(lookup, t) }))
      : plan.bucketStarts.map((t, i) => ({ t, hits: sumPieces(lookup, plan.pieces[i] ?? []) }));
  const total = points.reduce((sum, point) => sum + point.hits, 0);
  return { request, from: plan.bucketStarts[0] as number, to: plan.end, total, points };
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
