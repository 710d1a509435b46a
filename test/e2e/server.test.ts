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
