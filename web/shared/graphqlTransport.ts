/**
 * How the browser pages talk to tally: queries and mutations as POST /graphql (JSON), subscriptions over
 * graphql-ws on the same origin and path. A secret key goes as `Authorization` on HTTP and as
 * `connectionParams.authorization` on the WebSocket (contracts: keys).
 */
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import type { FormattedExecutionResult } from 'graphql';

export interface GraphQLRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export type GraphQLResult<T = Record<string, unknown>> = FormattedExecutionResult<T>;

/** Relative, so pages served under a path prefix reach the API under the same prefix. */
export const GRAPHQL_PATH = 'graphql';

export async function postGraphQL<T = Record<string, unknown>>(
  request: GraphQLRequest,
  headers: Record<string, string> = {},
): Promise<GraphQLResult<T>> {
  const response = await fetch(GRAPHQL_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(request),
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as GraphQLResult<T>;
  } catch {
    return { errors: [{ message: `HTTP ${response.status}: ${text.slice(0, 200)}` }] };
  }
}

/** One WebSocket per authorization value: the key is fixed when the socket connects. */
const clients = new Map<string, Client>();

export function wsClient(authorization: string | undefined): Client {
  const id = authorization ?? '';
  let client = clients.get(id);
  if (!client) {
    const url = new URL(GRAPHQL_PATH, location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    client = createClient({
      url: url.href,
      connectionParams: authorization ? { authorization } : {},
      lazy: true,
      retryAttempts: Infinity,
    });
    clients.set(id, client);
  }
  return client;
}
