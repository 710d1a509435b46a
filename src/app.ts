/**
 * Assembles one tally instance from a Config: database (embedded when MONGODB_URI is unset) → store →
 * ingest → GraphQL → HTTP. Returns a handle whose close() shuts everything down in order.
 */
import path from 'node:path';
import type { Config } from './config/loadConfig';
import { createContext } from './graphql/Context';
import { buildSchema } from './graphql/buildSchema';
import type { Services } from './graphql/Services';
import { GroupCommitter } from './ingest/GroupCommitter';
import { HitIngest } from './ingest/HitIngest';
import { ImpressionIngest } from './ingest/ImpressionIngest';
import { SerialQueue } from './ingest/SerialQueue';
import { HOURLY_SCHEDULE, PreallocationPlanner } from './ingest/PreallocationPlanner';
import { startPreallocationTicker } from './ingest/startPreallocationTicker';
import type { Logger } from './logging/createLogger';
import { createMetrics } from './metrics/createMetrics';
import { LiveSeriesHub } from './query/LiveSeriesHub';
import { readVersion } from './readVersion';
import { createHttpServer } from './server/createHttpServer';
import { MISSING_ASSETS_MESSAGE, WebAssets } from './server/WebAssets';
import { projectRoot } from './projectRoot';
import { createMetricsServer } from './server/createMetricsServer';
import { KeyRing } from './auth/KeyRing';
import type { ExportAuthorize } from './server/registerExport';
import { connectDatabase } from './store/connectDatabase';
import type { Database } from './store/connectDatabase';
import { CounterBatch } from './store/CounterBatch';
import { CounterStore } from './store/CounterStore';
import { startSecondsSweeper } from './store/secondsRetention';
import { HOUR_MS } from './time/buckets';
import { ImpressionStore } from './store/ImpressionStore';
import { ImpressionQueries } from './query/ImpressionQueries';
import { TopPagesQuery } from './query/TopPagesQuery';
import { SitePageScan } from './store/SitePageScan';
import { startEmbeddedDatabase } from './store/embedded/startEmbeddedDatabase';
import type { EmbeddedDatabase } from './store/embedded/startEmbeddedDatabase';

export interface App {
  readonly url: string;
  /** Where /metrics is served when METRICS_PORT is set. */
  readonly metricsUrl: string | undefined;
  readonly services: Services;
  readonly database: Database;
  close(): Promise<void>;
}

const MAX_PENDING_DOCUMENTS = 5_000;
const MAX_TRACKED_PAGES = 1_000_000;
/** Where the server has no TTL indexes, expired second-level documents are deleted this often. */
const SECONDS_SWEEP_INTERVAL_MS = 5 * 60_000;
/** Live subscriptions re-read their series this often: at most one message per second per series. */
const LIVE_POLL_INTERVAL_MS = 1_000;

/** Hooks the lead wires in from other branches (e.g. the security branch's read-scope check for GET /export). */
export interface AppHooks {
  readonly authorizeExport?: ExportAuthorize | undefined;
}

export async function startApp(
  config: Config,
  logger: Logger,
  clock: () => number = Date.now,
  hooks: AppHooks = {},
): Promise<App> {
  const metrics = createMetrics();
  let embedded: EmbeddedDatabase | undefined;
  let uri = config.mongodbUri;
  if (uri === undefined) {
    embedded = await startEmbeddedDatabase({
      engine: config.embeddedEngine,
      dataDir: config.embeddedDataDir,
      logger,
      now: clock(),
    });
    uri = embedded.uri;
  }
  const database = await connectDatabase({
    uri,
    dbName: config.mongodbDb,
    logger,
    onCommand: (command) => metrics.mongodbCommands.inc({ command }),
  });
  const secondsRetentionMs = config.seconds.retentionHours * HOUR_MS;
  const counters = new CounterStore(database, {
    writeConcern: config.ingest.writeConcern,
    secondsRetentionMs,
    logger,
    targeting: config.documentTargeting === 'auto' ? undefined : config.documentTargeting,
  });
  await counters.ensureIndexes();
  const secondsRetention = config.seconds.enabled ? await counters.ensureSecondsIndexes() : undefined;
  const sweeper =
    secondsRetention === 'sweep'
      ? startSecondsSweeper({
          sweep: (now) => counters.sweepSeconds(now),
          clock,
          logger,
          intervalMs: SECONDS_SWEEP_INTERVAL_MS,
        })
      : undefined;
  const impressionStore = new ImpressionStore(database, {
    writeConcern: config.ingest.writeConcern,
    targeting: config.documentTargeting === 'auto' ? undefined : config.documentTargeting,
  });
  await impressionStore.ensureIndexes();
  const sitePages = new SitePageScan(database);
  await sitePages.ensureIndexes();

  const committer = new GroupCommitter((batch) => counters.write(batch), {
    intervalMs: config.ingest.flushIntervalMs,
    concurrency: database.engine.requiresSingleWriter ? 1 : config.ingest.flushConcurrency,
    maxPendingDocuments: MAX_PENDING_DOCUMENTS,
    newBatch: () =>
      new CounterBatch({
        siteTotals: config.dashboards.siteTotals,
        seconds: config.seconds.enabled ? { now: clock(), retentionMs: secondsRetentionMs } : undefined,
      }),
  });
  const planner = config.ingest.preallocate ? new PreallocationPlanner(MAX_TRACKED_PAGES) : undefined;
  const ticker = planner
    ? startPreallocationTicker({
        planner,
        preallocate: (pages, day) => counters.preallocate(pages.map((page) => ({ ...page, day }))),
        what: 'tomorrow',
        clock,
        logger,
      })
    : undefined;
  const secondsPlanner =
    config.seconds.enabled && config.seconds.preallocate
      ? new PreallocationPlanner(MAX_TRACKED_PAGES, HOURLY_SCHEDULE)
      : undefined;
  const secondsTicker = secondsPlanner
    ? startPreallocationTicker({
        planner: secondsPlanner,
        preallocate: (pages, hour) => counters.preallocateSeconds(pages.map((page) => ({ ...page, hour }))),
        what: "next hour's second-level minutes",
        clock,
        logger,
      })
    : undefined;
  const live = new LiveSeriesHub(counters, { clock, logger, intervalMs: LIVE_POLL_INTERVAL_MS });
  const services: Services = {
    version: readVersion(),
    engine: database.engine,
    databaseName: config.mongodbDb,
    ingest: new HitIngest({ committer, planner, secondsPlanner, clock, limits: config.ingest }),
    counters,
    seriesReader: counters,
    seriesLimits: {
      ...config.query,
      secondsRetentionMs: config.seconds.enabled ? secondsRetentionMs : undefined,
      siteTotals: config.dashboards.siteTotals,
    },
    clock,
    live,
    impressions: new ImpressionIngest({
      writer: impressionStore,
      limits: config.impressions,
      queue: database.engine.requiresSingleWriter ? new SerialQueue() : undefined,
    }),
    impressionQueries: new ImpressionQueries(impressionStore, config.impressions),
    topPages: new TopPagesQuery(sitePages, {
      maxPageSize: config.dashboards.topPagesMaxPage,
      maxDays: config.query.maxBuckets,
    }),
  };

  const webAssets = WebAssets.load(config.webDir ?? path.join(projectRoot(), 'dist', 'web'));
  if (webAssets.names().length === 0) logger.warn({ dir: webAssets.dir }, MISSING_ASSETS_MESSAGE);
  const keyRing = new KeyRing(config.auth.keys, config.auth.off);
  if (config.auth.off) {
    logger.warn(
      { host: config.host },
      'TALLY_AUTH=off: GraphQL is served WITHOUT API keys; anyone who can reach this address can read, record and preallocate',
    );
  }
  const { app, subscriptions } = await createHttpServer({
    schema: buildSchema(),
    context: async (principal) => createContext(services, principal),
    metrics,
    logger,
    ready: () => database.ping(),
    introspection: config.introspection,
    playground: config.playground,
    includeStacktrace: config.includeStacktrace,
    webAssets,
    keyRing,
    limits: {
      ...config.limits,
      maxHitsPerRequest: config.ingest.maxBatchSize,
      maxImpressionsPerRequest: config.impressions.maxBatchSize,
    },
    ingest: services.ingest,
    metricsRoute: config.metricsPort === undefined,
    export: {
      reader: counters,
      limits: {
        ...services.seriesLimits,
        maxBuckets: config.dashboards.exportMaxBuckets,
        maxBucketsSetting: 'EXPORT_MAX_BUCKETS',
      },
      clock,
      logger,
      authorize: hooks.authorizeExport,
    },
  });
  const metricsServer = config.metricsPort === undefined ? undefined : createMetricsServer(metrics);
  const address = await app.listen({ host: config.host, port: config.port });
  const metricsAddress = await metricsServer?.listen({ host: config.metricsHost, port: config.metricsPort });
  logger.info(
    {
      url: `${address}/graphql`,
      dashboard: `${address}/dashboard`,
      beacon: `${address}/tally.js`,
      auth: keyRing.enabled ? 'keys' : 'off',
      ...(metricsAddress ? { metrics: `${metricsAddress}/metrics` } : {}),
    },
    'tally is serving GraphQL',
  );

  let closing: Promise<void> | undefined;
  return {
    url: address,
    metricsUrl: metricsAddress,
    services,
    database,
    close() {
      closing ??= (async () => {
        // WebSockets first: their subscriptions end, then nothing holds the HTTP server open.
        await subscriptions.close();
        live.close();
        await app.close();
        await metricsServer?.close();
        ticker?.stop();
        secondsTicker?.stop();
        sweeper?.stop();
        await committer.drain();
        await database.close();
        await embedded?.stop();
      })();
      return closing;
    },
  };
}
