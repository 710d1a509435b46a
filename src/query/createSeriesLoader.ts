/**
 * A per-request DataLoader for series: every pageStats field of one GraphQL request (a dashboard's aliases)
 * is answered by one find per source. Bounded batches keep each `$or` small.
 */
import DataLoader from 'dataloader';
import { loadSeries } from './loadSeries';
import type { Series, SeriesRequest } from './Series';
import type { SeriesReader } from './SeriesReader';

export const MAX_SERIES_PER_BATCH = 100;

export function createSeriesLoader(reader: SeriesReader): DataLoader<SeriesRequest, Series, string> {
  return new DataLoader<SeriesRequest, Series, string>((requests) => loadSeries(reader, requests), {
    maxBatchSize: MAX_SERIES_PER_BATCH,
    cacheKeyFn: (r) =>
      `${r.granularity}\u0000${r.from}\u0000${r.to}\u0000${r.timeZone ?? 'UTC'}\u0000${r.site}\u0000${r.page}`,
  });
}
