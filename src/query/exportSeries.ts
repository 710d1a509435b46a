/**
 * A whole series, read in chunks of `chunkBuckets` buckets so an export of 100,000 buckets streams with bounded
 * memory: each chunk is one batched read (loadSeries) of the same documents a GraphQL series would read.
 */
import { UTC_ZONE } from '../time/zoneOffset';
import { bucketStartsIn } from '../time/zonedBuckets';
import { loadSeries } from './loadSeries';
import type { Series, SeriesRequest } from './Series';
import type { SeriesReader } from './SeriesReader';

export const EXPORT_CHUNK_BUCKETS = 1_000;

export async function* exportSeries(
  reader: SeriesReader,
  request: SeriesRequest,
  chunkBuckets = EXPORT_CHUNK_BUCKETS,
): AsyncGenerator<Series> {
  const starts = bucketStartsIn(request.timeZone ?? UTC_ZONE, request.granularity, request.from, request.to);
  for (let i = 0; i < starts.length; i += chunkBuckets) {
    const from = starts[i] as number;
    const to = i + chunkBuckets < starts.length ? (starts[i + chunkBuckets] as number) : request.to;
    const [series] = await loadSeries(reader, [{ ...request, from, to }]);
    if (series instanceof Error || series === undefined) throw series ?? new Error('export chunk returned nothing');
    yield series;
  }
}
