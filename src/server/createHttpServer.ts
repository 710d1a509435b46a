/**
 * The HTTP surface: POST/GET /graphql (Apollo Server on Fastify, chosen by measurement: see README),
 * /healthz (process up), /readyz (database answers a ping) and /metrics (Prometheus text); GraphQL
 * subscriptions over WebSocket on the same port and path (attachSubscriptions); the browser pages
 * (playground at GET /graphql, /dashboard, /tally.js: registerWebRoutes).
 */
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import fastifyApollo, { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import type { Context } from '../graphql/Context';
import { createFormatError } from '../graphql/formatError';
import { metricsPlugin } from '../graphql/metricsPlugin';
import type { Logger } from '../logging/createLogger';
import type { Metrics } from '../metrics/createMetrics';
import { attachSubscriptions } from './attachSubscriptions';
import type { Subscriptions } from './attachSubscriptions';
import { playgroundLandingPage } from './playgroundLandingPage';
import { registerWebRoutes } from './registerWebRoutes';
import type { WebAssets } from './WebAssets';

export interface HttpServerOptions {
  readonly schema: GraphQLSchema;
  readonly context: () => Promise<Context>;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly ready: () => Promise<boolean>;
  readonly introspection: boolean;
  /** Serve the GraphiQL playground at GET /graphql for browsers. */
  readonly playground: boolean;
  readonly includeStacktrace: boolean;
  /** Built browser assets (dist/web): playground, dashboard, beacon. */
  readonly webAssets: WebAssets;
}

export interface HttpServer {
  readonly app: FastifyInstance;
  readonly apollo: ApolloServer<Context>;
  /** Close before the Fastify app: open WebSockets would otherwise hold the server open. */
  readonly subscriptions: Subscriptions;
}

export async function createHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const { logger, metrics } = options;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Fastify's two lines per request are replaced by our one (onResponse below).
    logController: new LogController({ disableRequestLogging: true }),
    forceCloseConnections: 'idle',
    bodyLimit: 16 * 1024 * 1024,
  });

  // One log line per request, with what an operator needs to find it.
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });

  const formatError = createFormatError(logger, options.includeStacktrace);
  const apollo = new ApolloServer<Context>({
    schema: options.schema,
    introspection: options.introspection,
    includeStacktraceInErrorResponses: options.includeStacktrace,
    formatError,
    plugins: [
      fastifyApolloDrainPlugin(app),
      metricsPlugin<Context>(metrics),
      options.playground ? playgroundLandingPage<Context>(options.webAssets) : ApolloServerPluginLandingPageDisabled(),
    ],
  });
  await apollo.start();
  await app.register(fastifyApollo(apollo), {
    context: options.context,
    path: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
  });

  registerWebRoutes(app, { assets: options.webAssets, playground: options.playground });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const ok = await options.ready();
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'database unavailable' });
  });
  app.get('/metrics', async (_request, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
  const subscriptions = attachSubscriptions({
    server: app.server,
    schema: options.schema,
    context: options.context,
    formatError,
  });
  return { app, apollo, subscriptions };
}
