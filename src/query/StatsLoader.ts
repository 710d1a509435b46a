/**
 * The per-request DataLoader for stored counters: every pageStats, siteStats and breakdown field of one GraphQL
 * request (a dashboard's aliases) joins one batch, answered by one find per source (loadStats). Bounded batches keep
 * each `$or` small. A key says everything that changes what is read, visitors included: a series asked for with and
 * without visitors is two keys, never one answer missing its sketches.
 */
import DataLoader from 'dataloader';
import type { BreakdownRequest, BreakdownTotals } from './Breakdown';
import { loadStats } from './loadStats';
import type { StatsAnswer, StatsRead } from './loadStats';
import type { Series, SeriesRequest, SpanVisitors } from './Series';
import type { SeriesReader } from './SeriesReader';
import type { SpanVisitorsRequest } from './spanVisitors';

export const MAX_SERIES_PER_BATCH = 100;

export class StatsLoader {
  private readonly loader: DataLoader<StatsRead, StatsAnswer, string>;

  constructor(reader: SeriesReader) {
    this.loader = new DataLoader<StatsRead, StatsAnswer, string>((reads) => loadStats(reader, reads), {
      maxBatchSize: MAX_SERIES_PER_BATCH,
      cacheKeyFn: statsReadKey,
    });
  }

  /** Several series in one call (a series and its comparison), each an answer or its Error. */
  async series(requests: readonly SeriesRequest[]): Promise<Array<Series | Error>> {
    return (await this.loader.loadMany(requests.map((request) => ({ kind: 'series', request })))) as Array<
      Series | Error
    >;
  }

  async breakdown(request: BreakdownRequest): Promise<BreakdownTotals> {
    return (await this.loader.load({ kind: 'breakdown', request })) as BreakdownTotals;
  }

  /** Distinct visitors of several pages over whole UTC days (a ranking's page of results), each or its Error. */
  async spanVisitors(requests: readonly SpanVisitorsRequest[]): Promise<Array<SpanVisitors | Error>> {
    return (await this.loader.loadMany(requests.map((request) => ({ kind: 'visitors', request })))) as Array<
      SpanVisitors | Error
    >;
  }
}

export function statsReadKey(read: StatsRead): string {
  if (read.kind === 'breakdown') {
    const r = read.request;
    return ['b', r.site, r.page, r.dimension, r.from, r.to, r.visitors].join('\u0000');
  }
  if (read.kind === 'visitors') {
    const r = read.request;
    return ['v', r.site, r.page, r.from, r.to, r.horizon?.now ?? '-'].join('\u0000');
  }
  const r = read.request;
  const visitors =
    r.visitors === undefined ? '-' : `v${r.visitors.minutesFrom ?? ''}${r.visitors.pointsOnly ? 'p' : ''}`;
  const filter = r.filter === undefined ? '-' : `${r.filter.dimension}=${r.filter.key}${r.filter.sketched ? '+' : ''}`;
  return ['s', r.granularity, r.from, r.to, r.timeZone ?? 'UTC', r.site, r.page, visitors, filter].join('\u0000');
}
