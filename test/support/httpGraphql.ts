/**
 * GraphQL over HTTP with request headers (an API key), for process tests whose server has keys configured; the
 * reply's status and body as they came.
 */
export interface HttpGraphqlReply<T> {
  readonly status: number;
  readonly body: {
    data?: T | null;
    errors?: Array<{ message: string; extensions?: { code?: string; field?: string; [key: string]: unknown } }>;
  };
}

export async function httpGraphql<T = Record<string, unknown>>(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<HttpGraphqlReply<T>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as HttpGraphqlReply<T>['body'] };
}
