/**
 * GraphQL over WebSocket (the graphql-ws protocol) on the HTTP server's own port and path /graphql: same
 * schema, a fresh context (fresh DataLoaders) per operation, the same formatError, and the same steps before
 * execution as HTTP through prepareOperation (token, depth and alias limits, graphql-js validation,
 * checkOperation's scopes, sites and summed costs), with the key from `connectionParams.authorization` (or the
 * upgrade request's Authorization header). Its own limits: live operations per connection and per process, and a
 * maximum message size. Every operation is counted in tally_graphql_requests_total and logged, like an HTTP
 * request; a refused one, or a protocol violation, also through countRejection; a result carrying
 * SERVICE_UNAVAILABLE through countUnavailable.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { ExecutionArgs, GraphQLError, GraphQLFormattedError, GraphQLSchema, ValidationRule } from 'graphql';
import type { Context as WsContext } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { KeyRing } from '../auth/KeyRing';
import type { Principal } from '../auth/Principal';
import { LimitExceededError } from '../errors/LimitExceededError';
import { normalizeError } from '../errors/normalizeError';
import { unavailableCause } from '../errors/ServiceUnavailableError';
import type { Context } from '../graphql/Context';
import type { FormatError } from '../graphql/formatError';
import type { RequestLimits } from '../graphql/guard/RequestLimits';
import { toGraphQLError } from '../graphql/guard/toGraphQLError';
import type { OperationLabel } from '../graphql/metricsPlugin';
import { createOperationPreparer } from '../graphql/prepareOperation';
import type { Logger } from '../logging/createLogger';
import { countRejection } from '../metrics/countRejection';
import { countUnavailable } from '../metrics/countUnavailable';
import type { Metrics } from '../metrics/createMetrics';

export interface Subscriptions {
  /**
   * Sends every socket a close frame (ending its subscriptions) and stops accepting new ones; resolves when every
   * client has answered, which one that stopped reading never does (see terminate).
   */
  close(): Promise<void>;
  /** Destroys the sockets still open, without waiting for their clients: the end of shutdown's grace period. */
  terminate(): void;
}

export interface WebSocketLimits extends RequestLimits {
  readonly maxWebSocketMessageBytes: number;
  readonly maxSubscriptionsPerConnection: number;
  readonly maxSubscriptions: number;
}

type Extra = { socket: unknown; request: IncomingMessage };
type Connection = WsContext<Record<string, unknown> | undefined, Extra>;

export function attachSubscriptions(options: {
  server: Server;
  schema: GraphQLSchema;
  context: (principal: Principal) => Promise<Context>;
  formatError: FormatError;
  keyRing: KeyRing;
  limits: WebSocketLimits;
  validationRules: readonly ValidationRule[];
  metrics: Metrics;
  label: OperationLabel;
  logger: Logger;
}): Subscriptions {
  const { formatError, limits, schema, metrics, logger } = options;
  const format = (errors: readonly { toJSON(): GraphQLFormattedError }[]): GraphQLFormattedError[] =>
    errors.map((error) => formatError(error.toJSON(), error));
  const prepare = createOperationPreparer({ schema, validationRules: options.validationRules, limits });
  const principals = new WeakMap<object, Principal>();
  const connections = new Set<Connection>();
  const live = (): number => {
    let total = 0;
    for (const connection of connections) total += Object.keys(connection.subscriptions).length;
    return total;
  };
  const record = (operation: string, outcome: 'ok' | 'error', started: number, code?: string): void => {
    metrics.graphqlRequests.inc({ operation, outcome });
    metrics.graphqlDuration.observe({ operation }, (performance.now() - started) / 1000);
    logger.info(
      {
        transport: 'websocket',
        operation,
        outcome,
        ...(code ? { code } : {}),
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  };

  const wss = new WebSocketServer({
    server: options.server,
    path: '/graphql',
    // `ws` closes the socket (1009) instead of buffering a larger message.
    maxPayload: limits.maxWebSocketMessageBytes,
  });
  // Registered before graphql-ws's own listener: `ws` reports a client's protocol violation (an oversized or
  // malformed frame) as a socket error and destroys the socket itself; graphql-ws would print it with a stack
  // as an internal error. It is the client's mistake: one info line and a counter.
  wss.on('connection', (socket) => {
    const emit = socket.emit.bind(socket);
    socket.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
      const code = (args[0] as { code?: unknown } | undefined)?.code;
      if (event === 'error' && typeof code === 'string' && code.startsWith('WS_ERR_')) {
        const tooLarge = code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';
        countRejection(
          metrics,
          tooLarge ? { code: 'LIMIT_EXCEEDED', limit: 'WS_MAX_MESSAGE_BYTES' } : { code: 'BAD_REQUEST' },
        );
        logger.info({ transport: 'websocket', code }, 'closed a WebSocket that broke the protocol or a size limit');
        return true;
      }
      return emit(event, ...args);
    }) as typeof socket.emit;
  });
  const disposable = useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      onConnect(ctx) {
        const params = ctx.connectionParams?.authorization;
        principals.set(ctx, options.keyRing.authenticate(params ?? ctx.extra.request.headers.authorization));
        connections.add(ctx);
        return true;
      },
      onClose(ctx) {
        connections.delete(ctx);
      },
      async onSubscribe(ctx, _id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> {
        const started = performance.now();
        const refuse = (errors: readonly GraphQLError[], operation: string): readonly GraphQLError[] => {
          const first = normalizeError(errors[0]).extensions;
          countRejection(metrics, first);
          record(operation, 'error', started, first.code);
          return errors;
        };
        // The operation being subscribed is already in ctx.subscriptions.
        const onConnection = Object.keys(ctx.subscriptions).length;
        if (onConnection > limits.maxSubscriptionsPerConnection) {
          const limit = new LimitExceededError(
            'WS_MAX_SUBSCRIPTIONS_PER_CONNECTION',
            limits.maxSubscriptionsPerConnection,
            onConnection,
            'the number of live operations on this connection',
            429,
          );
          return refuse([toGraphQLError(limit)], options.label(payload.operationName));
        }
        const total = live();
        if (total > limits.maxSubscriptions) {
          const limit = new LimitExceededError(
            'WS_MAX_SUBSCRIPTIONS',
            limits.maxSubscriptions,
            total,
            'the number of live operations on this server',
            503,
          );
          return refuse([toGraphQLError(limit)], options.label(payload.operationName));
        }
        const principal = principals.get(ctx) ?? { kind: 'anonymous' };
        const prepared = prepare({
          query: payload.query,
          variables: payload.variables,
          operationName: payload.operationName,
          principal,
          transport: 'websocket',
        });
        if (!prepared.ok) return refuse(prepared.errors, options.label(payload.operationName));
        // Like Apollo's, the label is the name of the operation executed, whether or not the client sent it.
        record(options.label(prepared.operation.name?.value), 'ok', started);
        return {
          schema,
          document: prepared.document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await options.context(principal),
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (!result.errors) return undefined;
        countUnavailable(
          metrics,
          result.errors.map(unavailableCause).find((cause) => cause !== undefined),
        );
        return { ...result, errors: format(result.errors) };
      },
      onError: (_ctx, _id, _payload, errors) => format(errors),
    },
    wss,
  );
  return {
    close: () => Promise.resolve(disposable.dispose()),
    terminate: () => wss.clients.forEach((socket) => socket.terminate()),
  };
}
