/** Prometheus metrics of one process: default process metrics, GraphQL requests, and MongoDB round trips. */
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  readonly graphqlRequests: Counter<'operation' | 'outcome'>;
  readonly graphqlDuration: Histogram<'operation'>;
  readonly mongodbCommands: Counter<'command'>;
  readonly beaconRequests: Counter<'outcome'>;
  /** Whole-request refusals; counted only through countRejection, which says what one is. */
  readonly rejectedRequests: Counter<'code' | 'limit'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tally_' });
  return {
    registry,
    graphqlRequests: new Counter({
      name: 'tally_graphql_requests_total',
      help: 'GraphQL requests by operation name and outcome (ok, error).',
      labelNames: ['operation', 'outcome'],
      registers: [registry],
    }),
    graphqlDuration: new Histogram({
      name: 'tally_graphql_request_duration_seconds',
      help: 'GraphQL request latency by operation name.',
      labelNames: ['operation'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    mongodbCommands: new Counter({
      name: 'tally_mongodb_commands_total',
      help: 'Commands sent to MongoDB, by command name (driver command monitoring): database round trips.',
      labelNames: ['command'],
      registers: [registry],
    }),
    beaconRequests: new Counter({
      name: 'tally_beacon_requests_total',
      help: 'POST /api/hit by outcome: counted, bot_user_agent, no_user_agent (not counted), or why it was refused.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    rejectedRequests: new Counter({
      name: 'tally_requests_rejected_total',
      help: 'Requests (HTTP, or WebSocket operations and messages) refused as a whole before execution for their size, rate, credentials or form, by error code and (LIMIT_EXCEEDED, RATE_LIMITED) the limit.',
      labelNames: ['code', 'limit'],
      registers: [registry],
    }),
  };
}
