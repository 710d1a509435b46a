/** Series through the batched read (loadStats), without a DataLoader: what live series, exports and tests use. */
import { loadStats } from './loadStats';
import type { Series, SeriesRequest } from './Series';
import type { SeriesReader } from './SeriesReader';

export async function loadSeries(
  reader: SeriesReader,
  requests: readonly SeriesRequest[],
): Promise<Array<Series | Error>> {
  const reads = requests.map((request) => ({ kind: 'series' as const, request }));
  return (await loadStats(reader, reads)) as Array<Series | Error>;
}
