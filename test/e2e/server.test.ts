import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('server');
});

afterAll(async () => {
  await app.stop();
});

describe('the HTTP server', () => {
  it('answers /healthz while the process runs', async () => {
    const response = await fetch(`${app.url}/healthz`);
    expect(response.status).toBe(200);
  });

  it('answers /readyz with 200 when the database answers a ping', async () => {
    const response = await fetch(`${app.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready' });
  });

  it('names the database engine in serverInfo', async () => {
    const { status, body } = await app.graphql<{ serverInfo: { version: string; database: { engine: string } } }>(
      'query Info { serverInfo { version database { engine version compatibleWith name } } }',
    );
    expect(status).toBe(200);
    expect(body.data?.serverInfo.version).toMatch(/^\d+\.\d+\.\d+/);
    const embedded = process.env.TALLY_TEST_ENGINE;
    const expected =
      embedded === undefined ? ['MongoDB', 'FerretDB'] : [embedded === 'ferretdb' ? 'FerretDB' : 'MongoDB'];
    expect(expected).toContain(body.data?.serverInfo.database.engine);
  });

  it('exposes Prometheus metrics with MongoDB command counters and GraphQL requests by operation', async () => {
    await app.graphql('query Info { serverInfo { version } }');
    const response = await fetch(`${app.url}/metrics`);
    const text = await response.text();
    expect(response.headers.get('content-type')).toContain('text/plain');
    expect(text).toMatch(/^tally_mongodb_commands_total\{command="createIndexes"\} \d+/m);
    expect(text).toMatch(/^tally_graphql_requests_total\{operation="Info",outcome="ok"\} \d+/m);
    expect(text).toContain('tally_process_cpu_seconds_total');
  });

  it('rejects a malformed query with a GraphQL error, not a 500', async () => {
    const { status, body } = await app.graphql('{ serverInfo { nope } }');
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(body.errors?.[0]?.message).toBe('Cannot query field "nope" on type "ServerInfo".');
  });
});

describe('GET /graphql (issue 31: refused by CSRF prevention without a JSON content type)', () => {
  it('runs a query sent as a plain GET with no extra header, as curl sends it', async () => {
    const query = encodeURIComponent('{ serverInfo { version } }');
    const response = await fetch(`${app.url}/graphql?query=${query}`);
    const body = (await response.json()) as { data?: { serverInfo: { version: string } }; errors?: unknown };
    expect(response.status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data?.serverInfo.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('refuses a mutation sent as GET, and counts nothing', async () => {
    const mutation = encodeURIComponent('mutation { recordHit(site: "get.example", page: "/") { count } }');
    const response = await fetch(`${app.url}/graphql?query=${mutation}`);
    expect(response.status).toBe(405);
    const { body } = await app.graphql<{ siteStats: { total: number } }>(
      '{ siteStats(site: "get.example", range: { from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" }, granularity: MONTH) { total } }',
    );
    expect(body.data?.siteStats.total).toBe(0);
  });

  it('refuses a POST that is not JSON (what a cross-site form can send) before running it', async () => {
    const response = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: 'mutation { recordHit(site: "get.example", page: "/") { count } }' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [
        {
          message: 'POST body missing, invalid Content-Type, or JSON object has no keys.',
          extensions: { code: 'BAD_REQUEST' },
        },
      ],
    });
    const { body } = await app.graphql<{ siteStats: { total: number } }>(
      '{ siteStats(site: "get.example", range: { from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" }, granularity: MONTH) { total } }',
    );
    expect(body.data?.siteStats.total).toBe(0);
  });
});
