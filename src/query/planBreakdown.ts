/**
 * Maps a breakdown to the documents that answer it: the span's whole UTC months from monthly documents and its other
 * days from daily documents (periodPieces), each read for `d.<dimension>` (and `dv.<dimension>` when visitors are
 * wanted) in the same finds as the batch's series.
 */
import type { ExtraFields } from '../store/statsExtras';
import type { BreakdownRequest } from './Breakdown';
import { DocumentNeeds } from './DocumentNeeds';
import { periodPieces } from './periodPieces';
import type { PeriodPiece } from './periodPieces';
import { PERIOD_SOURCE } from './SeriesRead';
import type { SeriesRead } from './SeriesRead';

export interface BreakdownPlan {
  readonly reads: readonly SeriesRead[];
  readonly hours: ReadonlySet<number>;
  readonly pieces: readonly PeriodPiece[];
}

export function planBreakdown(request: BreakdownRequest): BreakdownPlan {
  const pieces = periodPieces(request.from, request.to);
  // parseBreakdownRequest widens every span to UTC days.
  if (pieces === undefined) throw new RangeError('a breakdown span must be whole UTC days');
  const all = new Map([[request.dimension, 'all' as const]]);
  const extra: ExtraFields = {
    dimensions: all,
    ...(request.visitors ? { dimensionVisitors: all } : {}),
    ...(request.visits === true ? { dimensionVisits: all } : {}),
  };
  const docs = new DocumentNeeds();
  for (const piece of pieces) docs.add(PERIOD_SOURCE[piece.level], piece.start, extra);
  return { reads: docs.reads(request.site, request.page), hours: docs.hours, pieces };
}
