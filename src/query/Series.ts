/** A request for one time series, and the dense answer. */
import type { Granularity } from '../time/Granularity';

export interface SeriesRequest {
  readonly site: string;
  readonly page: string;
  readonly granularity: Granularity;
  /** Epoch ms; the range is [from, to). */
  readonly from: number;
  readonly to: number;
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
