/**
 * The HTTP side of one tally instance, listening before the database is there: GraphQL, beacon, export, browser
 * pages and /metrics (on the API port, or on METRICS_PORT), with API keys.
 *
 * Invariants:
 * - Live at once, ready only when `ready()` says so; every route that needs the database asks `services()`, which
 *   throws SERVICE_UNAVAILABLE until the stores are open.
 * - close() sends WebSockets their close frames and stops accepting, runs `whileClosing` (the caller writes pending
 *   hits, so in-flight requests are answered now instead of after the group-commit window), waits for in-flight
 *   requests, then closes the metrics port. It is bounded: half of SHUTDOWN_TIMEOUT_MS after it began, every
 *   connection still open is destroyed (a client that stopped reading a response, a WebSocket that never answers
 *   its close frame), leaving the other half for the writes and the database (issue 31).
 */
import path from 'node:path';
import { authorizeRequest } from '../auth/authorizeRequest';
import { isLoopbackHost } from '../auth/isLoopbackHost';
import { KeyRing } from '../auth/KeyRing';
import type { Principal } from '../auth/Principal';
import type { Config } from '../config/loadConfig';
import { buildSchema } from '../graphql/buildSchema';
import { createContext } from '../graphql/Context';
import type { Context } from '../graphql/Context';
import type { Services } from '../graphql/Services';
import type { Logger } from '../logging/createLogger';
import type { Metrics } from '../metrics/createMetrics';
import { projectRoot } from '../projectRoot';
import { createHttpServer } from '../server/createHttpServer';
import { createMetricsServer } from '../server/createMetricsServer';
import type { ExportAuthorize } from '../server/registerExport';
import { MISSING_ASSETS_MESSAGE, WebAssets } from '../server/WebAssets';
import { requestLimitsOf } from './requestLimitsOf';

/** Hooks the lead wires in from other branches (e.g. the security branch's read-scope check for GET /export). */
export interface AppHooks {
  readonly authorizeExport?: ExportAuthorize | undefined;
}

export interface Http {
  /** The API's base URL (http://host:port). */
  readonly url: string;
  /** Where /metrics is served when METRICS_PORT is set. */
  readonly metricsUrl: string | undefined;
  /** Logs where tally serves, once the stores are open. */
  announceReady(): void;
  close(whileClosing: () => Promise<void>): Promise<void>;
  /** Closes everything at once, errors ignored: start-up failed. */
  abort(): Promise<void>;
}

export async function startHttp(
  config: Config,
  deps: {
    readonly logger: Logger;
    readonly clock: () => number;
    readonly metrics: Metrics;
    readonly hooks: AppHooks;
    /** The services once the stores are open; throws SERVICE_UNAVAILABLE before. */
    readonly services: () => Services;
    readonly ready: () => Promise<boolean>;
  },
): Promise<Http> {
  const { logger, clock, metrics, services } = deps;
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
  const context = async (
    principal: Principal,
    headers?: Readonly<Record<string, string | string[] | undefined>>,
  ): Promise<Context> => createContext(services(), principal, headers);
  const { app, subscriptions } = await createHttpServer({
    schema: buildSchema(),
    context,
    metrics,
    logger,
    ready: deps.ready,
    introspection: config.introspection,
    playground: config.playground,
    includeStacktrace: config.includeStacktrace,
    webAssets,
    keyRing,
    loopbackOnly: isLoopbackHost(config.host),
    documentCacheBytes: config.documentCacheBytes,
    limits: requestLimitsOf(config),
    ingest: () => services().ingest,
    trustProxy: config.trustProxy,
    metricsRoute: metricsServer === undefined,
    export: {
      deps: () => {
        const { seriesReader, seriesLimits, breakdown, eventStore, events } = services();
        return {
          reader: seriesReader,
          breakdown,
          events: eventStore,
          eventQueries: events,
          limits: {
            ...seriesLimits,
            maxBuckets: config.dashboards.exportMaxBuckets,
            maxBucketsSetting: 'EXPORT_MAX_BUCKETS',
          },
        };
      },
      clock,
      logger,
      // The same keys, scopes and sites as GraphQL: an export is a read of the site's series.
      authorize:
        deps.hooks.authorizeExport ??
        ((request, site) => authorizeRequest(request, 'read', site).then(() => undefined)),
    },
  });
  const abort = async (): Promise<void> => {
    await subscriptions.close().catch(() => undefined);
    await app.close().catch(() => undefined);
    await metricsServer?.close().catch(() => undefined);
  };
  try {
    const url = await app.listen({ host: config.host, port: config.port });
    const metricsUrl = await metricsServer?.listen({ host: config.metricsHost, port: config.metricsPort });
    logger.info({ url: `${url}/graphql` }, 'listening; not ready until the database answers');
    return {
      url,
      metricsUrl,
      announceReady() {
        logger.info(
          {
            url: `${url}/graphql`,
            dashboard: `${url}/dashboard`,
            beacon: `${url}/tally.js`,
            auth: keyRing.enabled ? 'keys' : 'off',
            ...(metricsUrl ? { metrics: `${metricsUrl}/metrics` } : {}),
          },
          'tally is serving GraphQL',
        );
      },
      async close(whileClosing) {
        const ended = subscriptions.close();
        const closing = app.close();
        const graceOver = setTimeout(() => {
          logger.warn('shutdown: closing the connections still open after the grace period');
          subscriptions.terminate();
          app.server.closeAllConnections();
        }, config.shutdownTimeoutMs / 2);
        try {
          await whileClosing();
          await Promise.all([ended, closing]);
        } finally {
          clearTimeout(graceOver);
        }
        await metricsServer?.close();
      },
      abort,
    };
  } catch (error) {
    await abort();
    throw error;
  }
}
