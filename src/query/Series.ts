/** A request for one time series, and the dense answer. */
import type { Dimension } from '../domain/dimensions/Dimension';
import type { Granularity } from '../time/Granularity';
import type { RetentionCutoffs } from '../time/retentionCutoffs';
import type { VisitCounts } from './visitCounts';

export interface SeriesRequest {
  readonly site: string;
  /** The page, or SITE_TOTAL_PAGE for the site's totals. */
  readonly page: string;
  readonly granularity: Granularity;
  /** Epoch ms; the range is [from, to). */
  readonly from: number;
  readonly to: number;
  /** IANA zone the buckets follow; absent means UTC. */
  readonly timeZone?: string | undefined;
  /** Present when distinct visitors are wanted (a query selected them): only then are sketches read. */
  readonly visitors?: VisitorOptions | undefined;
  /** Only the hits with one value of one dimension (issue 20); buckets must be unions of UTC days. */
  readonly filter?: DimensionFilter | undefined;
  /** What retention keeps at the request's `now` (retentionCutoffs); absent: everything. */
  readonly retained?: RetentionCutoffs | undefined;
  /** Read the visit counters too (issue 29: a query selected visit figures). */
  readonly visits?: boolean | undefined;
  /**
   * With `visits`: the first UTC minute whose minute document (and its visit counters `vm`) is surely kept; buckets
   * that need minutes from then on sum those. Absent (every request but the live series'): such buckets have null.
   */
  readonly visitMinutesFrom?: number | undefined;
}

export interface VisitorOptions {
  /**
   * The first UTC minute whose minute document (and its sketch) is surely kept, from the seconds retention at the
   * request's `now`; absent when minute documents are not written (SECONDS_ENABLED=false).
   */
  readonly minutesFrom?: number | undefined;
  /** Only the buckets' visitors, not the range's (an export chunk): saves reading a cover nobody shows. */
  readonly pointsOnly?: boolean | undefined;
}

export interface DimensionFilter {
  readonly dimension: Dimension;
  /** The value as the client named it. */
  readonly value: string;
  /** dimensionKey(value): the field name its counters are stored under. */
  readonly key: string;
  /** Whether the documents read keep a sketch per value of this dimension (site documents, DIMENSION_VISITORS). */
  readonly sketched: boolean;
}

export interface SeriesPoint {
  /** Start of the bucket, epoch ms. */
  readonly t: number;
  /** Null when retention dropped a counter the bucket sums (retainedDetail). */
  readonly hits: number | null;
  /**
   * Distinct visitors in the bucket; null when the bucket is not a union of stored sketch periods; absent when
   * visitors were not asked for.
   */
  readonly visitors?: number | null | undefined;
  /**
   * The bucket's visit counters (visitCounts); null where they do not answer it (minutes outside visitMinutesFrom, a
   * dimension filter, SECOND, retention); absent when visits were not asked for.
   */
  readonly visits?: VisitCounts | null | undefined;
}

/** Distinct visitors over an explicit span: the series' own, or the smallest union of stored periods covering it. */
export interface SpanVisitors {
  readonly visitors: number;
  readonly from: number;
  readonly to: number;
}

export interface Series {
  readonly request: SeriesRequest;
  /** Start of the first bucket. */
  readonly from: number;
  /** End of the last bucket. */
  readonly to: number;
  /** Sum of the points; null when one of them is. */
  readonly total: number | null;
  readonly points: readonly SeriesPoint[];
  /** Buckets whose hits or visitors retention made null; absent or 0 when none. */
  readonly droppedPoints?: number | undefined;
  /**
   * Null when no stored sketch answers (a filtered page series) or only points were asked for; absent when visitors
   * were not asked for.
   */
  readonly visitors?: SpanVisitors | null | undefined;
  /** The sum of the points' visit counters; null when one of them is; absent when visits were not asked for. */
  readonly visits?: VisitCounts | null | undefined;
}
