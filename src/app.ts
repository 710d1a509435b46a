/**
 * Assembles one tally instance from a Config: embedded database (when MONGODB_URI is unset) → HTTP server (live
 * at once, not ready) → database, waited for with backoff → store → ingest → services (ready). Returns a handle
 * whose close() shuts everything down in order. Aborting `signal` during start-up undoes what was started and
 * rejects with the abort reason. The browser pages (dist/web), API keys and /metrics on its own port are wired
 * here too.
 */
import path from 'node:path';
import { authorizeRequest } from './auth/authorizeRequest';
import { KeyRing } from './auth/KeyRing';
import type { Principal } from './auth/Principal';
import type { Config } from './config/loadConfig';
import { createContext } from './graphql/Context';
import type { Context } from './graphql/Context';
import { buildSchema } from './graphql/buildSchema';
import type { Services } from './graphql/Services';
import { ServiceUnavailableError } from './errors/ServiceUnavailableError';
import { createHitStores } from './ingest/createHitStores';
import { createHitIngestCore } from './ingest/createHitIngestCore';
import { ImpressionIngest } from './ingest/ImpressionIngest';
import { SerialQueue } from './ingest/SerialQueue';
import { HOURLY_SCHEDULE, PreallocationPlanner } from './ingest/PreallocationPlanner';
import { startPreallocationTicker } from './ingest/startPreallocationTicker';
import type { Logger } from './logging/createLogger';
import { createMetrics } from './metrics/createMetrics';
import type { Metrics } from './metrics/createMetrics';
import { LiveSeriesHub } from './query/LiveSeriesHub';
import { readVersion } from './readVersion';
import { createHttpServer } from './server/createHttpServer';
import { createMetricsServer } from './server/createMetricsServer';
import type { ExportAuthorize } from './server/registerExport';
import { MISSING_ASSETS_MESSAGE, WebAssets } from './server/WebAssets';
import { projectRoot } from './projectRoot';
import { TopPagesQuery } from './query/TopPagesQuery';
import { SitePageScan } from './store/SitePageScan';
import { connectDatabase } from './store/connectDatabase';
import type { Database } from './store/connectDatabase';
import { startSecondsSweeper } from './store/secondsRetention';
import { isUnavailable } from './store/translateDriverError';
import { HOUR_MS } from './time/buckets';
import { ImpressionStore } from './store/ImpressionStore';
import { ImpressionQueries } from './query/ImpressionQueries';
import { startEmbeddedDatabase } from './store/embedded/startEmbeddedDatabase';
import type { EmbeddedDatabase } from './store/embedded/startEmbeddedDatabase';

export interface App {
  readonly url: string;
  /** Where /metrics is served when METRICS_PORT is set. */
  readonly metricsUrl: string | undefined;
  readonly services: Services;
  readonly database: Database;
  /** The embedded server, when tally started one. */
  readonly embedded: EmbeddedDatabase | undefined;
  close(): Promise<void>;
}

const MAX_TRACKED_PAGES = 1_000_000;
/** Where the server has no TTL indexes, expired second-level documents are deleted this often. */
const SECONDS_SWEEP_INTERVAL_MS = 5 * 60_000;
/** Where the server has no TTL indexes, expired idempotency keys are deleted this often. */
const LEDGER_SWEEP_INTERVAL_MS = 10 * 60_000;
/** Live subscriptions re-read their series this often: at most one message per second per series. */
const LIVE_POLL_INTERVAL_MS = 1_000;

/** Hooks the lead wires in from other branches (e.g. the security branch's read-scope check for GET /export). */
export interface AppHooks {
  readonly authorizeExport?: ExportAuthorize | undefined;
}

interface Running {
  readonly services: Services;
  readonly database: Database;
  /** Writes pending hits now; failures reach their callers, not this promise. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export async function startApp(
  config: Config,
  logger: Logger,
  clock: () => number = Date.now,
  signal?: AbortSignal,
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

  let running: Running | undefined;
  const started = (): Running => {
    if (!running)
      throw new ServiceUnavailableError('tally is starting and the database is not reachable yet; retry later');
    return running;
  };
  const context = async (
    principal: Principal,
    headers?: Readonly<Record<string, string | string[] | undefined>>,
  ): Promise<Context> => createContext(started().services, principal, headers);
  const webAssets = WebAssets.load(config.webDir ?? path.join(projectRoot(), 'dist', 'web'));
  if (webAssets.names().length === 0) logger.warn({ dir: webAssets.dir }, MISSING_ASSETS_MESSAGE);
  const keyRing = new KeyRing(config.auth.keys, config.auth.off);
  if (config.auth.off) {
    logger.warn(
      { host: config.host },
      'TALLY_AUTH=off: GraphQL is served WITHOUT API keys; anyone who can reach this address can read, record and preallocate',
    );
  }
  const metricsServer = config.metricsPort === undefined ? undefined : createMetricsServer(metrics);
  let http: Awaited<ReturnType<typeof createHttpServer>> | undefined;
  try {
    http = await createHttpServer({
      schema: buildSchema(),
      context,
      metrics,
      logger,
      ready: async () => (running ? running.database.ping() : false),
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
      ingest: () => started().services.ingest,
      metricsRoute: metricsServer === undefined,
      export: {
        deps: () => {
          const { services } = started();
          return {
            reader: services.seriesReader,
            limits: {
              ...services.seriesLimits,
              maxBuckets: config.dashboards.exportMaxBuckets,
              maxBucketsSetting: 'EXPORT_MAX_BUCKETS',
            },
          };
        },
        clock,
        logger,
        // The same keys, scopes and sites as GraphQL: an export is a read of the site's series.
        authorize:
          hooks.authorizeExport ?? ((request, site) => authorizeRequest(request, 'read', site).then(() => undefined)),
      },
    });
    const address = await http.app.listen({ host: config.host, port: config.port });
    const metricsAddress = await metricsServer?.listen({ host: config.metricsHost, port: config.metricsPort });
    logger.info({ url: `${address}/graphql` }, 'listening; not ready until the database answers');
    running = await startServices(config, logger, clock, metrics, uri, signal);
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

    const { app, subscriptions } = http;
    const ready = running;
    let closing: Promise<void> | undefined;
    return {
      url: address,
      metricsUrl: metricsAddress,
      services: ready.services,
      database: ready.database,
      embedded,
      close() {
        closing ??= (async () => {
          // WebSockets first: their subscriptions end, then nothing holds the HTTP server open.
          await subscriptions.close();
          // Stop accepting; in-flight requests are answered as soon as their hits are written, which starts now
          // instead of after the group-commit window.
          const closingHttp = app.close();
          await ready.flush();
          await closingHttp;
          await metricsServer?.close();
          await ready.stop();
          await embedded?.stop();
        })();
        return closing;
      },
    };
  } catch (error) {
    await http?.subscriptions.close().catch(() => undefined);
    await http?.app.close().catch(() => undefined);
    await metricsServer?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
}

/** Everything that needs the database: connect (waiting for it), indexes, stores, ingest, services. */
async function startServices(
  config: Config,
  logger: Logger,
  clock: () => number,
  metrics: Metrics,
  uri: string,
  signal: AbortSignal | undefined,
): Promise<Running> {
  for (let attempt = 1; ; attempt++) {
    const database = await connectDatabase({
      uri,
      dbName: config.mongodbDb,
      logger,
      timeoutMs: config.databaseTimeoutMs,
      signal,
      onCommand: (command) => metrics.mongodbCommands.inc({ command }),
    });
    try {
      return await prepare(config, logger, clock, database);
    } catch (error) {
      await database.close().catch(() => undefined);
      // The server answered the probe and then went away (or froze): wait for it again.
      if (!isUnavailable(error) || signal?.aborted) throw error;
      logger.warn({ attempt, err: error }, 'database lost while preparing collections; waiting for it again');
    }
  }
}

function seriesLimits(config: Config): Services['seriesLimits'] {
  return {
    ...config.query,
    secondsRetentionMs: config.seconds.enabled ? config.seconds.retentionHours * HOUR_MS : undefined,
    siteTotals: config.dashboards.siteTotals,
  };
}

async function prepare(config: Config, logger: Logger, clock: () => number, database: Database): Promise<Running> {
  const targeting = config.documentTargeting === 'auto' ? undefined : config.documentTargeting;
  const { counters, ledger } = createHitStores(config, database, logger);
  await counters.ensureIndexes();
  const secondsRetention = config.seconds.enabled ? await counters.ensureSecondsIndexes() : undefined;
  const impressionStore = new ImpressionStore(database, { writeConcern: config.ingest.writeConcern, targeting });
  await impressionStore.ensureIndexes();
  const sitePages = new SitePageScan(database);
  await sitePages.ensureIndexes();

  const sweeper =
    secondsRetention === 'sweep'
      ? startSecondsSweeper({
          sweep: (now) => counters.sweepSeconds(now),
          clock,
          logger,
          intervalMs: SECONDS_SWEEP_INTERVAL_MS,
        })
      : undefined;
  const ledgerSweeper =
    (await ledger.ensureIndexes(database.engine, logger)) === 'sweep'
      ? startSecondsSweeper({
          sweep: (now) => ledger.sweep(now),
          clock,
          logger,
          intervalMs: LEDGER_SWEEP_INTERVAL_MS,
          what: 'idempotency keys',
        })
      : undefined;
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
  const { committer, ingest } = createHitIngestCore({
    config,
    counters,
    ledger,
    clock,
    singleWriter: database.engine.requiresSingleWriter,
    planners: { planner, secondsPlanner },
  });
  const live = new LiveSeriesHub(counters, { clock, logger, intervalMs: LIVE_POLL_INTERVAL_MS });
  const services: Services = {
    version: readVersion(),
    engine: database.engine,
    databaseName: config.mongodbDb,
    ingest,
    counters,
    seriesReader: counters,
    seriesLimits: seriesLimits(config),
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
  return {
    services,
    database,
    flush: () => committer.drain().catch(() => undefined),
    async stop() {
      live.close();
      ticker?.stop();
      secondsTicker?.stop();
      sweeper?.stop();
      ledgerSweeper?.stop();
      // Pending hits are written before the database closes; a write that fails here was never acknowledged.
      await committer.drain().catch((error: unknown) => logger.error({ err: error }, 'pending hits not written'));
      await database.close();
    },
  };
}
