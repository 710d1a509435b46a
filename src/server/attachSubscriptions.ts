/**
 * GraphQL subscriptions over WebSocket (the graphql-ws protocol) on the HTTP server's own port and path
 * /graphql: same schema, a fresh context (fresh DataLoaders) per operation, and the HTTP errors' formatting.
 */
import type { Server } from 'node:http';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Context } from '../graphql/Context';
import type { createFormatError } from '../graphql/formatError';

export interface Subscriptions {
  /** Closes every socket (ending their subscriptions) and stops accepting new ones. */
  close(): Promise<void>;
}

export function attachSubscriptions(options: {
  server: Server;
  schema: GraphQLSchema;
  context: () => Promise<Context>;
  formatError: ReturnType<typeof createFormatError>;
}): Subscriptions {
  const { formatError } = options;
  const format = (errors: readonly { toJSON(): GraphQLFormattedError }[]): GraphQLFormattedError[] =>
    errors.map((error) => formatError(error.toJSON(), error));
  const wss = new WebSocketServer({ server: options.server, path: '/graphql' });
  const disposable = useServer(
    {
      schema: options.schema,
      context: () => options.context(),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: format(result.errors) } : undefined,
      onError: (_ctx, _id, _payload, errors) => format(errors),
    },
    wss,
  );
  return { close: () => Promise.resolve(disposable.dispose()) };
}
