/** A request for one dimension's hits per value over a span of whole UTC days, and its totals (issue 20). */
import type { Dimension } from '../domain/dimensions/Dimension';
import type { VisitCounts } from './visitCounts';

export interface BreakdownRequest {
  readonly site: string;
  /** The page, or SITE_TOTAL_PAGE for the site's totals. */
  readonly page: string;
  readonly dimension: Dimension;
  /** The counted span, UTC midnights: [from, to). */
  readonly from: number;
  readonly to: number;
  /** Read the per-value sketches (`dv`) as well: visitors were asked for and the documents keep them. */
  readonly visitors: boolean;
  /** Read the per-value visit counters (`dx`) as well (site totals; issue 29). */
  readonly visits?: boolean | undefined;
}

export interface BreakdownTotals {
  readonly request: BreakdownRequest;
  /** Hits per stored key (dimensionKey) over the span, the `(other)` key included; zero counts left out. */
  readonly hits: ReadonlyMap<string, number>;
  /** Distinct visitors of one key over the span; absent when the request read no per-value sketches. */
  readonly visitorsOf?: ((key: string) => number) | undefined;
  /** One key's visit counters over the span; absent when the request read none. */
  readonly visitsOf?: ((key: string) => VisitCounts) | undefined;
}
