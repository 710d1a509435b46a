/**
 * The HTTP surface: POST/GET /graphql (Apollo Server on Fastify, chosen by measurement: see README),
 * POST /api/hit (browser beacons), /healthz (process up), /readyz (database answers a ping) and /metrics
 * (Prometheus text; `admin` scope when keys are configured, or on its own port); GraphQL over WebSocket on
 * the same port and path (attachSubscriptions); the browser pages (playground at GET /graphql, /dashboard,
 * /tally.js: registerWebRoutes). Keys, limits and rate limits: README "Security".
 */
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { authorizeRequest, installAuth, principalOf } from '../auth/authorizeRequest';
import type { KeyRing } from '../auth/KeyRing';
import type { Principal } from '../auth/Principal';
import type { Context } from '../graphql/Context';
import { contextCreationError } from '../graphql/contextCreationError';
import { createFormatError } from '../graphql/formatError';
import { createValidationRules } from '../graphql/guard/createValidationRules';
import { guardPlugin } from '../graphql/guard/guardPlugin';
import { createOperationLabel, metricsPlugin } from '../graphql/metricsPlugin';
import { responseNotesPlugin } from '../graphql/responseNotesPlugin';
import type { HitIngest } from '../ingest/HitIngest';
import type { Logger } from '../logging/createLogger';
import type { Metrics } from '../metrics/createMetrics';
import { attachSubscriptions } from './attachSubscriptions';
import { DocumentCache } from './DocumentCache';
import type { Subscriptions, WebSocketLimits } from './attachSubscriptions';
import { playgroundLandingPage } from './playgroundLandingPage';
import { registerWebRoutes } from './registerWebRoutes';
import type { WebAssets } from './WebAssets';
import { registerBeaconRoute } from './beaconRoute';
import { installErrorHandler } from './installErrorHandler';
import { installRateLimit } from './installRateLimit';
import type { RateLimits } from './installRateLimit';
import { registerExport } from './registerExport';
import type { ExportRouteOptions } from './registerExport';

export interface ServerLimits extends WebSocketLimits, RateLimits {
  readonly maxBodyBytes: number;
  readonly maxBeaconBodyBytes: number;
}

export interface HttpServerOptions {
  readonly schema: GraphQLSchema;
  /** Builds a request's context; `headers` are the HTTP request's (absent for WebSocket operations). */
  readonly context: (
    principal: Principal,
    headers?: Readonly<Record<string, string | string[] | undefined>>,
  ) => Promise<Context>;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly ready: () => Promise<boolean>;
  readonly introspection: boolean;
  /** Serve the GraphiQL playground at GET /graphql for browsers. */
  readonly playground: boolean;
  readonly includeStacktrace: boolean;
  /** Built browser assets (dist/web): playground, dashboard, beacon. */
  readonly webAssets: WebAssets;
  readonly keyRing: KeyRing;
  /** Heap the parsed-document cache may hold (GRAPHQL_DOCUMENT_CACHE_MB); 0: every request is parsed. */
  readonly documentCacheBytes: number;
  /** Whether HOST is a loopback address: without keys, such a server has no per-address rate limit. */
  readonly loopbackOnly: boolean;
  readonly limits: ServerLimits;
  /** Where beacons (POST /api/hit) are recorded; throws SERVICE_UNAVAILABLE until the database is ready. */
  readonly ingest: () => HitIngest;
  /** False when /metrics is served on its own port (createMetricsServer) instead. */
  readonly metricsRoute: boolean;
  /** GET /export (streamed CSV/NDJSON series); absent: no export route. */
  readonly export?: ExportRouteOptions | undefined;
  /**
   * TRUST_PROXY, as Fastify's `trustProxy`: which proxies' X-Forwarded-For gives `request.ip` (the beacon's client
   * address, the per-address rate limit). Absent or false: the socket's peer.
   */
  readonly trustProxy?: boolean | number | readonly string[] | undefined;
}

export interface HttpServer {
  readonly app: FastifyInstance;
  readonly apollo: ApolloServer<Context>;
  /** Close before the Fastify app: open WebSockets would otherwise hold the server open. */
  readonly subscriptions: Subscriptions;
}

export async function createHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const { logger, metrics, limits, keyRing } = options;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Fastify's two lines per request are replaced by our one (onResponse below).
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: 'idle',
    bodyLimit: limits.maxBodyBytes,
    trustProxy: fastifyTrustProxy(options.trustProxy),
  });

  // Once closing, answer in-flight requests with `Connection: close`: a keep-alive socket that turns idle after
  // close() began would otherwise hold the server open until its keep-alive timeout (72 s in Fastify). A response
  // whose headers went out before close() began cannot say so: its connection is closed as soon as it is idle.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async () => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });

  // One log line per request, with what an operator needs to find it (the key's name, never its secret).
  app.addHook('onResponse', async (request, reply) => {
    const principal = request.tallyPrincipal;
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ...(principal?.kind === 'key' ? { key: principal.name } : {}),
      },
      'request',
    );
  });
  installErrorHandler(app, { maxBodyBytes: limits.maxBodyBytes, metrics });
  installAuth(app, keyRing);
  const rates = await installRateLimit(app, limits, { keys: keyRing.enabled, loopbackOnly: options.loopbackOnly });
  if (rates.ratePerAddress !== limits.ratePerAddress) {
    logger.info('loopback only and no API keys: no per-address rate limit (RATE_LIMIT_PER_ADDRESS does not apply)');
  }

  const formatError = createFormatError(logger, {
    includeStacktrace: options.includeStacktrace,
    hideSuggestions: !options.introspection,
    maxTokens: limits.maxTokens,
  });
  const validationRules = createValidationRules(limits, { introspection: options.introspection });
  const label = createOperationLabel();
  const apollo = new ApolloServer<Context>({
    schema: options.schema,
    introspection: options.introspection,
    hideSchemaDetailsFromClientErrors: !options.introspection,
    includeStacktraceInErrorResponses: options.includeStacktrace,
    formatError,
    parseOptions: { maxTokens: limits.maxTokens },
    // Bounded by the heap documents really hold, and only for documents used twice (DocumentCache).
    documentStore:
      options.documentCacheBytes === 0
        ? null
        : new DocumentCache(options.documentCacheBytes, (bytes, documents) => {
            metrics.documentCacheBytes.set(bytes);
            metrics.documentCacheDocuments.set(documents);
          }),
    validationRules,
    // Apollo's CSRF prevention refuses a GET without a JSON content type or `apollo-require-preflight`, which the
    // GraphQL-over-HTTP spec's safe GET query needs none of (issue 31). It guards against a browser sending a
    // cross-site request with the user's cookies; tally authenticates with bearer keys, which no cross-site form or
    // image can send. What a cross-site request could still do, Apollo refuses without it: a mutation over GET (405),
    // a POST body other than JSON (400 BAD_REQUEST). test/e2e/server.test.ts pins all three.
    csrfPrevention: false,
    // main.ts owns SIGTERM/SIGINT: Apollo's handlers would stop the server and re-send the signal before our
    // graceful shutdown (flush pending hits, close the database, stop the embedded server) could finish.
    stopOnTerminationSignals: false,
    plugins: [
      // tally sets no cache hints; the plugin would still wrap every field's resolution (thousands per dashboard).
      ApolloServerPluginCacheControlDisabled(),
      fastifyApolloDrainPlugin(app),
      metricsPlugin<Context>(metrics, label),
      guardPlugin(limits),
      responseNotesPlugin<Context>(),
      options.playground ? playgroundLandingPage<Context>(options.webAssets) : ApolloServerPluginLandingPageDisabled(),
    ],
  });
  await apollo.start();
  await app.register(fastifyApollo(apollo), {
    context: async (request) => {
      try {
        return await options.context(principalOf(request), request.headers);
      } catch (error) {
        throw contextCreationError(error);
      }
    },
    path: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
  });
  registerBeaconRoute(app, { keyRing, ingest: options.ingest, metrics, maxBodyBytes: limits.maxBeaconBodyBytes });

  registerWebRoutes(app, { assets: options.webAssets, playground: options.playground });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ok = await options.ready();
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'database unavailable' });
  });
  if (options.metricsRoute) {
    app.get('/metrics', async (request, reply) => {
      await authorizeRequest(request, 'admin');
      const body = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    });
  }
  if (options.export) registerExport(app, options.export);
  const subscriptions = attachSubscriptions({
    server: app.server,
    schema: options.schema,
    context: options.context,
    formatError,
    keyRing,
    limits,
    validationRules,
    metrics,
    label,
    logger,
  });
  return { app, apollo, subscriptions };
}

/** A hop count trusts that many proxies from the socket's peer inwards (what Fastify does with a number). */
function fastifyTrustProxy(
  trust: HttpServerOptions['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  if (typeof trust === 'object') return [...trust];
  return trust ?? false;
}
