/**
 * Distinct visitors of one page (or the site's totals) over a span of whole UTC days, for rankings (topPages) and
 * conversion rates: the span's months from monthly `v` and its other days from daily `v`, read in the batch's finds
 * (loadStats). With a horizon, a span through today reads this month's document, not its days' (spanPieces).
 */
import type { DocumentLookup } from './DocumentLookup';
import { DocumentNeeds } from './DocumentNeeds';
import type { PeriodPiece } from './periodPieces';
import type { SpanVisitors } from './Series';
import { PERIOD_SOURCE } from './SeriesRead';
import type { SeriesRead } from './SeriesRead';
import { sketchReader } from './seriesVisitors';
import { spanPieces } from './spanPieces';
import type { HitHorizon } from './spanPieces';

export interface SpanVisitorsRequest {
  readonly site: string;
  readonly page: string;
  /** UTC midnights: [from, to). */
  readonly from: number;
  readonly to: number;
  /** Where stored hits end (spanPieces); absent: the span's own months and days. */
  readonly horizon?: HitHorizon | undefined;
}

export interface SpanVisitorsPlan {
  readonly reads: readonly SeriesRead[];
  readonly hours: ReadonlySet<number>;
  readonly pieces: readonly PeriodPiece[];
}

const VISITORS = { visitors: true } as const;

export function planSpanVisitors(request: SpanVisitorsRequest): SpanVisitorsPlan {
  const pieces = spanPieces(request.from, request.to, request.horizon);
  if (pieces === undefined) throw new RangeError('a visitors span must be whole UTC days');
  const docs = new DocumentNeeds();
  for (const piece of pieces) docs.add(PERIOD_SOURCE[piece.level], piece.start, VISITORS);
  return { reads: docs.reads(request.site, request.page), hours: docs.hours, pieces };
}

export function fillSpanVisitors(
  request: SpanVisitorsRequest,
  plan: SpanVisitorsPlan,
  lookup: DocumentLookup,
): SpanVisitors {
  const sketch = sketchReader(request.page, undefined, lookup)(plan.pieces);
  return { visitors: Math.round(sketch.estimate()), from: request.from, to: request.to };
}
