/** A request for one time series, and the dense answer. */
import type { Granularity } from '../time/Granularity';

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
}

export interface SeriesPoint {
  /** Start of the bucket, epoch ms. */
  readonly t: number;
  readonly hits: number;
}

export interface Series {
  readonly request: SeriesRequest;
  /** Start of the first bucket. */
  readonly from: number;
  /** End of the last bucket. */
  readonly to: number;
  readonly total: number;
  readonly points: readonly SeriesPoint[];
}
