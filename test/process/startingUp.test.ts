/**
 * While the database is unreachable at start-up, every route that needs it refuses the whole request the same way:
 * 503 SERVICE_UNAVAILABLE with Retry-After and the plain message, GraphQL as well as /export (issue 31: GraphQL
 * answered 500 with Apollo's "Context creation failed: " prefix). Driven on the built server, as the issue
 * reproduced it.
 */
import { assertBuilt, startServer, stopWith } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';

jest.setTimeout(120_000);

const NOT_READY = 'tally is starting and the database is not reachable yet; retry later';
let server: ServerProcess;

beforeAll(async () => {
  assertBuilt();
  server = startServer({ MONGODB_URI: 'mongodb://127.0.0.1:1', MONGODB_TIMEOUT_MS: '1000' });
  await server.waitForLog((line) => line.msg === 'database not reachable yet; waiting for it');
  await server.waitForLog((line) => typeof line.url === 'string');
});

afterAll(async () => {
  expect(await stopWith(server, 'SIGTERM')).toBe(0);
});

interface Refusal {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly errors: Array<{ message: string; extensions?: { code?: string } }>;
}

async function refusal(response: Response): Promise<Refusal> {
  const body = (await response.json()) as { errors: Refusal['errors'] };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), errors: body.errors };
}

const expected: Refusal = {
  status: 503,
  retryAfter: '5',
  errors: [{ message: NOT_READY, extensions: { code: 'SERVICE_UNAVAILABLE' } }],
};

describe('before the database answers', () => {
  it('answers a GraphQL POST 503 with Retry-After and the plain message', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { recordHit(site: "starting.example", page: "/") { count } }' }),
    });
    expect(await refusal(response)).toEqual(expected);
  });

  it('answers GET /export the same way', async () => {
    const query = 'site=starting.example&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z&granularity=HOUR';
    expect(await refusal(await fetch(`${server.url}/export?${query}`))).toEqual(expected);
  });
});
