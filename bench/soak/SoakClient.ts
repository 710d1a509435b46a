/**
 * The soak's HTTP client: keep-alive GraphQL POSTs on node:http (light on the shared CPU) that never throw for an
 * answer: each request resolves with the error code a client would act on — none, the first GraphQL error's
 * `extensions.code`, `HTTP <status>` without one, or `NO_ANSWER` when the connection failed.
 */
import http from 'node:http';

export interface Answer<T> {
  readonly data?: T;
  /** Undefined when the request succeeded. */
  readonly code?: string;
}

export class SoakClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(serverUrl: string, maxSockets: number) {
    this.base = new URL(serverUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  async graphql<T>(query: string, variables?: Record<string, unknown>): Promise<Answer<T>> {
    let status: number;
    let text: string;
    try {
      [status, text] = await this.send('POST', '/graphql', JSON.stringify({ query, variables }));
    } catch {
      return { code: 'NO_ANSWER' };
    }
    let body: { data?: T | null; errors?: Array<{ extensions?: { code?: unknown } }> };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return { code: `HTTP ${status}` };
    }
    const code = body.errors?.[0]?.extensions?.code;
    if (body.errors?.length) return { code: typeof code === 'string' ? code : `HTTP ${status}` };
    if (status !== 200 || body.data == null) return { code: `HTTP ${status}` };
    return { data: body.data };
  }

  async text(path: string): Promise<string> {
    const [status, text] = await this.send('GET', path);
    if (status !== 200) throw new Error(`GET ${path}: HTTP ${status}: ${text.slice(0, 200)}`);
    return text;
  }

  close(): void {
    this.agent.destroy();
  }

  private send(method: 'GET' | 'POST', path: string, body?: string): Promise<[number, string]> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port,
          path,
          method,
          headers:
            body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve([response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')]));
          response.on('error', reject);
        },
      );
      request.setTimeout(60_000, () => request.destroy(new Error('no answer within 60 s')));
      request.on('error', reject);
      request.end(body);
    });
  }
}
