/** NODE_ENV=production: no introspection, no schema hints in errors, internal errors masked. */
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { wsClient, wsOperation } from '../support/wsOperation';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('production', { NODE_ENV: 'production', LOG_LEVEL: 'silent' });
});

afterAll(async () => {
  await app.stop();
});

describe('production mode', () => {
  it('refuses introspection over HTTP and WebSocket', async () => {
    const { status, body } = await app.graphql('{ __schema { types { name } } }');
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const client = wsClient(app.url);
    try {
      const outcome = await wsOperation(client, '{ __schema { types { name } } }');
      expect(outcome.errors?.[0]?.message).toContain('introspection');
    } finally {
      await client.dispose();
    }
  });

  it('drops "Did you mean" suggestions, which reveal the schema', async () => {
    const { body } = await app.graphql('{ pageStat { total } }');
    expect(body.errors?.[0]?.message).toBe('Cannot query field "pageStat" on type "Query".');
    const client = wsClient(app.url);
    try {
      const outcome = await wsOperation(client, '{ pageStat { total } }');
      expect(outcome.errors?.[0]?.message).toBe('Cannot query field "pageStat" on type "Query".');
    } finally {
      await client.dispose();
    }
  });
});
