/**
 * A keep-alive HTTP client for GraphQL POSTs and /metrics, on node:http (lighter than fetch, so the load
 * generator spends less of the shared CPU than the server it measures). `exchange` serves other HTTP APIs (the peer
 * benchmark's GoatCounter), with headers such as a token sent on every request.
 */
import http from 'node:http';

export interface GraphqlResponse<T> {
  readonly data?: T | null;
  readonly errors?: ReadonlyArray<{ message: string }>;
  /** Size of the HTTP response body. */
  readonly bytes: number;
}

export class GraphqlClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(
    serverUrl: string,
    maxSockets: number,
    private readonly headers: Readonly<Record<string, string>> = {},
  ) {
    this.base = new URL(serverUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  async request<T>(query: string, variables?: Record<string, unknown>): Promise<GraphqlResponse<T>> {
    const body = await this.send('POST', '/graphql', JSON.stringify({ query, variables }));
    const parsed = JSON.parse(body) as { data?: T | null; errors?: Array<{ message: string }> };
    return { ...parsed, bytes: Buffer.byteLength(body) };
  }

  /** Like request, but a GraphQL error is thrown. */
  async mustRequest<T>(query: string, variables?: Record<string, unknown>): Promise<GraphqlResponse<T>> {
    const response = await this.request<T>(query, variables);
    if (response.errors?.length) throw new Error(`GraphQL error: ${response.errors[0]?.message}`);
    return response;
  }

  /**
   * Sends a request body serialized beforehand (`JSON.stringify({ query, variables })`), so a timed run does not
   * charge the load generator's serialization to the server it shares the machine with; a GraphQL error is thrown.
   */
  async mustPost<T>(body: string): Promise<GraphqlResponse<T>> {
    const text = await this.send('POST', '/graphql', body);
    const parsed = JSON.parse(text) as { data?: T | null; errors?: Array<{ message: string }> };
    if (parsed.errors?.length) throw new Error(`GraphQL error: ${parsed.errors[0]?.message}`);
    return { ...parsed, bytes: Buffer.byteLength(text) };
  }

  text(path: string): Promise<string> {
    return this.send('GET', path);
  }

  close(): void {
    this.agent.destroy();
  }

  private async send(method: 'GET' | 'POST', path: string, body?: string): Promise<string> {
    const { status, text } = await this.exchange(method, path, body);
    if (status >= 500) throw new Error(`HTTP ${status}: ${text.slice(0, 300)}`);
    return text;
  }

  /** One request with a JSON body (if any); resolves with the status and body whatever the status. */
  exchange(method: 'GET' | 'POST', path: string, body?: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port,
          path,
          method,
          headers: {
            ...this.headers,
            ...(body === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 500, text: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }
}
