/**
 * GraphQL over WebSocket (the graphql-ws protocol) on the HTTP server's own port and path /graphql: same
 * schema, a fresh context (fresh DataLoaders) per operation, the HTTP errors' formatting, and the same
 * guards as HTTP: the key from `connectionParams.authorization` (or the upgrade request's Authorization
 * header), token/depth/alias limits, checkOperation (scopes, sites, summed costs), plus live operations per
 * connection and per process, and a maximum message size. Every operation is counted in
 * tally_graphql_requests_total and logged, like an HTTP request.
 */
import type { IncomingMessage, Server } from 'node:http';
import { getOperationAST, GraphQLError, parse, specifiedRules, validate } from 'graphql';
import type { DocumentNode, ExecutionArgs, GraphQLFormattedError, GraphQLSchema, ValidationRule } from 'graphql';
import type { Context as WsContext } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { KeyRing } from '../auth/KeyRing';
import type { Principal } from '../auth/Principal';
import { AppError } from '../errors/AppError';
import { BadRequestError } from '../errors/BadRequestError';
import { LimitExceededError } from '../errors/LimitExceededError';
import type { Context } from '../graphql/Context';
import type { createFormatError } from '../graphql/formatError';
import { checkOperation } from '../graphql/guard/checkOperation';
import type { RequestLimits } from '../graphql/guard/RequestLimits';
import { toGraphQLError } from '../graphql/guard/toGraphQLError';
import type { OperationLabel } from '../graphql/metricsPlugin';
import type { Logger } from '../logging/createLogger';
import type { Metrics } from '../metrics/createMetrics';

export interface Subscriptions {
  /** Closes every socket (ending their subscriptions) and stops accepting new ones. */
  close(): Promise<void>;
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
  formatError: ReturnType<typeof createFormatError>;
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
  const rules = [...specifiedRules, ...options.validationRules];
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
        metrics.rejectedRequests.inc({
          code: tooLarge ? 'LIMIT_EXCEEDED' : 'BAD_REQUEST',
          limit: tooLarge ? 'WS_MAX_MESSAGE_BYTES' : '',
        });
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
        let operationLabel = options.label(payload.operationName);
        const refuse = (error: unknown): readonly GraphQLError[] => {
          const errors = (Array.isArray(error) ? error : [error]).map((one) =>
            one instanceof GraphQLError ? one : (toGraphQLError(one) as GraphQLError),
          );
          const first = errors[0]?.originalError;
          if (first instanceof AppError) {
            metrics.rejectedRequests.inc({
              code: first.code,
              limit: first instanceof LimitExceededError ? first.limit : '',
            });
          }
          record(operationLabel, 'error', started, first instanceof AppError ? first.code : undefined);
          return errors;
        };
        // The operation being subscribed is already in ctx.subscriptions.
        const onConnection = Object.keys(ctx.subscriptions).length;
        if (onConnection > limits.maxSubscriptionsPerConnection) {
          return refuse(
            new LimitExceededError(
              'WS_MAX_SUBSCRIPTIONS_PER_CONNECTION',
              limits.maxSubscriptionsPerConnection,
              onConnection,
              'the number of live operations on this connection',
              429,
            ),
          );
        }
        const total = live();
        if (total > limits.maxSubscriptions) {
          return refuse(
            new LimitExceededError(
              'WS_MAX_SUBSCRIPTIONS',
              limits.maxSubscriptions,
              total,
              'the number of live operations on this server',
              503,
            ),
          );
        }
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: limits.maxTokens });
        } catch (error) {
          return refuse(error instanceof GraphQLError ? withCode(error, 'GRAPHQL_PARSE_FAILED') : error);
        }
        const errors = validate(schema, document, rules);
        if (errors.length > 0) return refuse(errors.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED')));
        const operation = getOperationAST(document, payload.operationName);
        if (!operation) {
          return refuse(
            new BadRequestError('the document must hold exactly one operation, or name one in operationName'),
          );
        }
        // Like Apollo's, the label is the name of the operation executed, whether or not the client sent it.
        operationLabel = options.label(operation.name?.value);
        const principal = principals.get(ctx) ?? { kind: 'anonymous' };
        try {
          checkOperation(
            {
              schema,
              document,
              operation,
              variables: payload.variables ?? undefined,
              principal,
              transport: 'websocket',
            },
            limits,
          );
        } catch (error) {
          if (error instanceof AppError) return refuse(error);
          throw error;
        }
        record(operationLabel, 'ok', started);
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await options.context(principal),
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: format(result.errors) } : undefined,
      onError: (_ctx, _id, _payload, errors) => format(errors),
    },
    wss,
  );
  return { close: () => Promise.resolve(disposable.dispose()) };
}

/** graphql-js's request errors carry no code; Apollo adds these same ones over HTTP. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code !== undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}
