/**
 * /metrics on a port of its own (METRICS_PORT, on METRICS_HOST, loopback by default), for deployments that
 * scrape from a private network and keep the API port public. Unauthenticated: reach is the protection.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/createMetrics';

export function createMetricsServer(metrics: Metrics): FastifyInstance {
  const app = Fastify({ forceCloseConnections: true });
  app.get('/metrics', async (_request, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
  return app;
}
