/**
 * The use-cases resolvers and routes call, built once the stores are open: hit ingest and the series it feeds
 * (the pipeline's), live series, impressions, top pages, and the limits every series request is parsed against.
 *
 * Invariants:
 * - Built once per process and shared by every request; per-request state (DataLoaders) lives in the context.
 * - Impression batches queue one at a time where the write policy has a single writer.
 * - `live` polls the database until its close(), which the shutdown calls before the database closes.
 */
import type { Config } from '../config/loadConfig';
import type { Dimension } from '../domain/dimensions/Dimension';
import type { Services } from '../graphql/Services';
import { ImpressionIngest } from '../ingest/ImpressionIngest';
import { SerialQueue } from '../ingest/SerialQueue';
import type { Logger } from '../logging/createLogger';
import { BreakdownQuery } from '../query/BreakdownQuery';
import { EventQueries } from '../query/events/EventQueries';
import { ImpressionQueries } from '../query/ImpressionQueries';
import { LiveSeriesHub } from '../query/LiveSeriesHub';
import { TopPagesQuery } from '../query/TopPagesQuery';
import { readVersion } from '../readVersion';
import { EventStore } from '../store/EventStore';
import { HOUR_MS } from '../time/buckets';
import type { Stores } from './openStores';

/** Live subscriptions re-read their series this often: at most one message per second per series. */
const LIVE_POLL_INTERVAL_MS = 1_000;

export function createServices(config: Config, stores: Stores, clock: () => number, logger: Logger): Services {
  const { database, pipeline } = stores;
  // The dimensions whose site documents keep per-value visitor sketches (DIMENSION_VISITORS): the only ones a read
  // may answer per-value visitors for.
  const dimensionVisitors: ReadonlySet<Dimension> = new Set(config.dimensions.visitors);
  const { counters } = pipeline;
  const breakdown = new BreakdownQuery({
    maxPageSize: config.dashboards.topPagesMaxPage,
    maxDays: config.query.maxBuckets,
    dimensionVisitors,
    retention: config.retention,
  });
  return {
    version: readVersion(),
    engine: database.engine,
    databaseName: config.mongodbDb,
    ingest: pipeline.ingest,
    counters,
    seriesReader: counters,
    seriesLimits: {
      ...config.query,
      secondsRetentionMs: config.seconds.enabled ? config.seconds.retentionHours * HOUR_MS : undefined,
      siteTotals: config.dashboards.siteTotals,
      dimensionVisitors,
      retention: config.retention,
      visits: config.visits.enabled,
    },
    clock,
    live: new LiveSeriesHub(counters, { clock, logger, intervalMs: LIVE_POLL_INTERVAL_MS }),
    impressions: new ImpressionIngest({
      writer: stores.impressions,
      limits: config.impressions,
      queue: database.policy.singleWriter ? new SerialQueue() : undefined,
    }),
    impressionQueries: new ImpressionQueries(stores.impressions, config.impressions),
    topPages: new TopPagesQuery(stores.sitePages, {
      maxPageSize: config.dashboards.topPagesMaxPage,
      maxDays: config.query.maxBuckets,
      retention: config.retention,
    }),
    breakdown,
    events: new EventQueries(
      breakdown,
      {
        maxDays: config.query.maxBuckets,
        horizon: () => ({ now: clock(), maxClockSkewMs: config.ingest.maxClockSkewMs }),
      },
      stores.sitePages,
    ),
    // Event documents read with register fields are nominated, so the compaction job compacts them (old data).
    eventStore: new EventStore(database, {
      onUncompacted: (level, id, start) =>
        counters.eventNominations.nominate(level === 'day' ? 'daily' : 'monthly', id, start),
    }),
    deletions: stores.deletions,
  };
}
