/** Runs one operation over graphql-ws and returns its first result, or the errors it was refused with. */
import type { FormattedExecutionResult, GraphQLFormattedError } from 'graphql';
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';

export function wsClient(url: string, authorization?: string): Client {
  return createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    connectionParams: authorization === undefined ? {} : { authorization },
  });
}

export interface WsOutcome {
  readonly data?: unknown;
  readonly errors?: readonly GraphQLFormattedError[];
}

export function wsOperation(client: Client, query: string, variables?: Record<string, unknown>): Promise<WsOutcome> {
  return new Promise((resolve, reject) => {
    let unsubscribe = (): void => undefined;
    unsubscribe = client.subscribe(
      { query, variables },
      {
        next: (result: FormattedExecutionResult) => {
          unsubscribe();
          resolve(result.errors ? { data: result.data, errors: result.errors } : { data: result.data });
        },
        error: (error: unknown) => {
          if (Array.isArray(error)) resolve({ errors: error as GraphQLFormattedError[] });
          else reject(error instanceof Error ? error : new Error(JSON.stringify(error)));
        },
        complete: () => undefined,
      },
    );
  });
}
