/**
 * Request limits end to end, over the transports that enforce them: typed LIMIT_EXCEEDED (or RATE_LIMITED)
 * naming the limit and the value, with a 4xx status, never a 5xx. Boundaries of the per-operation limits are
 * in test/unit/graphql/guard/limits.test.ts; here each limit once at its boundary through the real server.
 */
import { getIntrospectionQuery } from 'graphql';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { bearer, KEYS_JSON, SECRETS } from '../support/testKeys';
import { wsClient, wsOperation } from '../support/wsOperation';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const aliased = (n: number, field = 'serverInfo { version }'): string =>
  `query Many { ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
/** A recordHits batch written as a literal, the way the README writes its example. */
const hitsLiteral = (n: number): string =>
  `mutation Batch { recordHits(hits: [${Array.from(
    { length: n },
    (_, i) => `{ site: "example.com", page: "/pricing/${i % 10}", count: 3, at: "2026-01-05T10:15:00Z" }`,
  ).join(' ')}]) { accepted total } }`;
/** `a { a { … } }`, `depth` fields deep: refused for its depth before anything else is said of it. */
const nested = (depth: number): string => (depth === 1 ? 'a' : `a { ${nested(depth - 1)} }`);
/** What introspection tools ask of one type: its fields' types down to `[T!]!` (three ofType deep: depth 7). */
const TYPE_WITH_OF_TYPES =
  '{ __type(name: "Mutation") { name fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }';
const WEEK_OF_MINUTES =
  'pageStats(site: "s", page: "/", range: { from: "2026-11-14T00:00:00Z", to: "2026-11-21T00:00:00Z" }, granularity: MINUTE) { total values }';

describe('limits at their defaults', () => {
  let app: TestApp;
  const clients: Client[] = [];
  const ws = (): Client => {
    const client = wsClient(app.url);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    app = await startTestApp('limits_default', {}, () => NOW);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await app.stop();
  });

  it('accepts a 500-hit recordHits literal without keys on loopback, over HTTP and WebSocket', async () => {
    const { status, body } = await app.graphql(hitsLiteral(500));
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect(body.data).toEqual({ recordHits: { accepted: 500, total: 1500 } });
    const outcome = await wsOperation(ws(), hitsLiteral(500));
    expect(outcome).toEqual({ data: { recordHits: { accepted: 500, total: 1500 } } });
  });

  it('refuses a 30-level deep query naming GRAPHQL_MAX_DEPTH, over HTTP and WebSocket', async () => {
    const refused = await app.graphql(`query Deep { ${nested(30)} }`);
    expect(refused.status).toBe(400);
    const depth = {
      message: 'the depth of the operation is 30, more than the limit of 6 (GRAPHQL_MAX_DEPTH)',
      extensions: { code: 'LIMIT_EXCEEDED', limit: 'GRAPHQL_MAX_DEPTH', max: 6, value: 30 },
    };
    expect(refused.body.errors?.[0]).toEqual(depth);
    expect((await wsOperation(ws(), `query Deep { ${nested(30)} }`)).errors?.[0]).toEqual(depth);
  });

  it('serves a __type query nesting ofType three deep, over HTTP and WebSocket', async () => {
    const { status, body } = await app.graphql<{ __type: { fields: Array<{ name: string; type: unknown }> } }>(
      TYPE_WITH_OF_TYPES,
    );
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    const recordHits = body.data?.__type.fields.find((field) => field.name === 'recordHits');
    expect(recordHits?.type).toEqual({
      kind: 'NON_NULL',
      name: null,
      ofType: { kind: 'OBJECT', name: 'RecordHitsPayload', ofType: null },
    });
    expect(await wsOperation(ws(), TYPE_WITH_OF_TYPES)).toEqual({ data: body.data });
  });

  it.each([
    ['the default introspection query', getIntrospectionQuery()],
    ["GraphiQL's introspection query", getIntrospectionQuery({ inputValueDeprecation: true, schemaDescription: true })],
  ])('serves %s, over HTTP and WebSocket', async (_what, query) => {
    const { status, body } = await app.graphql<{ __schema: { types: unknown[] } }>(query);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect(body.data?.__schema.types.length).toBeGreaterThan(10);
    const outcome = await wsOperation(ws(), query);
    expect(outcome.errors).toBeUndefined();
    expect(outcome.data).toEqual(body.data);
  });

  it('refuses introspection nested deeper than graphql-js allows, over HTTP and WebSocket', async () => {
    const query = '{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }';
    const refused = await app.graphql(query);
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]).toMatchObject({
      message: 'Maximum introspection depth exceeded',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect((await wsOperation(ws(), query)).errors?.[0]).toMatchObject({
      message: 'Maximum introspection depth exceeded',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('counts refusals the same way over HTTP and WebSocket', async () => {
    const labels = { code: 'LIMIT_EXCEEDED', limit: 'GRAPHQL_MAX_DEPTH' };
    const before = await app.metric('tally_requests_rejected_total', labels);
    await app.graphql(`{ ${nested(7)} }`);
    await wsOperation(ws(), `{ ${nested(7)} }`);
    expect(await app.metric('tally_requests_rejected_total', labels)).toBe(before + 2);
    const invalid = { code: 'GRAPHQL_VALIDATION_FAILED', limit: '' };
    const invalidBefore = await app.metric('tally_requests_rejected_total', invalid);
    await app.graphql('{ nope }');
    await wsOperation(ws(), '{ nope }');
    expect(await app.metric('tally_requests_rejected_total', invalid)).toBe(invalidBefore + 2);
  });

  it.each([200, 3000])('refuses %d aliased week-long MINUTE series with a typed error', async (n) => {
    const { status, body } = await app.graphql(aliased(n, WEEK_OF_MINUTES));
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED' });
    expect(['GRAPHQL_MAX_ALIASES', 'GRAPHQL_MAX_TOKENS']).toContain(body.errors?.[0]?.extensions?.limit);
  });

  it('refuses more buckets than QUERY_MAX_BUCKETS_PER_REQUEST summed over series (11 weeks of minutes)', async () => {
    const { status, body } = await app.graphql(aliased(11, WEEK_OF_MINUTES));
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      {
        message:
          'the number of buckets over all series of the request is 110880, more than the limit of 100000 (QUERY_MAX_BUCKETS_PER_REQUEST)',
        extensions: { code: 'LIMIT_EXCEEDED', limit: 'QUERY_MAX_BUCKETS_PER_REQUEST', max: 100000, value: 110880 },
      },
    ]);
  });

  it('answers a persisted query with a wrong hash as BAD_REQUEST, not an internal error', async () => {
    const response = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: '{ __typename }',
        extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [{ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } }],
    });
  });

  it('rejects a range in the years 0–99 in the DateTime scalar', async () => {
    const { status, body } = await app.graphql(
      '{ pageStats(site: "s", page: "/", range: { from: "0050-01-01T00:00:00Z", to: "0050-01-02T00:00:00Z" }, granularity: DAY) { total } }',
    );
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(body.errors?.[0]?.message).toContain(
      'expected a date-time in the years 1000 to 9999, got "0050-01-01T00:00:00Z"',
    );
  });

  it('quotes at most a bounded prefix of a huge non-string input', async () => {
    const huge = Array.from({ length: 200_000 }, (_, i) => i);
    const { status, body } = await app.graphql(
      'query($from: DateTime!) { pageStats(site: "s", page: "/", range: { from: $from, to: "2026-01-01T00:00:00Z" }, granularity: DAY) { total } }',
      { from: huge },
    );
    expect(status).toBe(400);
    expect(JSON.stringify(body).length).toBeLessThan(2_000);
  });
});

describe('limits set low', () => {
  let app: TestApp;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await startTestApp(
      'limits_low',
      {
        GRAPHQL_MAX_ALIASES: '3',
        GRAPHQL_MAX_TOKENS: '60',
        HTTP_MAX_BODY_BYTES: '2048',
        WS_MAX_MESSAGE_BYTES: '2048',
        WS_MAX_SUBSCRIPTIONS_PER_CONNECTION: '2',
        WS_MAX_SUBSCRIPTIONS: '3',
        RATE_LIMIT_PER_ADDRESS: '1000',
      },
      () => NOW,
    );
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    await app.stop();
  });

  it('accepts GRAPHQL_MAX_ALIASES aliases and refuses one more, over HTTP and WebSocket', async () => {
    expect((await app.graphql(aliased(3))).body.errors).toBeUndefined();
    const refused = await app.graphql(aliased(4));
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.extensions).toEqual({
      code: 'LIMIT_EXCEEDED',
      limit: 'GRAPHQL_MAX_ALIASES',
      max: 3,
      value: 4,
    });
    const client = wsClient(app.url);
    clients.push(client);
    expect((await wsOperation(client, aliased(3))).errors).toBeUndefined();
    expect((await wsOperation(client, aliased(4))).errors?.[0]?.extensions).toEqual({
      code: 'LIMIT_EXCEEDED',
      limit: 'GRAPHQL_MAX_ALIASES',
      max: 3,
      value: 4,
    });
  });

  it('refuses a document over GRAPHQL_MAX_TOKENS, over HTTP and WebSocket', async () => {
    const fields = (n: number): string => `{ ${Array.from({ length: n }, () => '__typename').join(' ')} }`;
    expect((await app.graphql(fields(58))).body.errors).toBeUndefined();
    const refused = await app.graphql(fields(59));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      {
        message: 'the number of tokens in the document exceeds the limit of 60 (GRAPHQL_MAX_TOKENS)',
        extensions: { code: 'LIMIT_EXCEEDED', limit: 'GRAPHQL_MAX_TOKENS', max: 60 },
      },
    ]);
    const client = wsClient(app.url);
    clients.push(client);
    expect((await wsOperation(client, fields(59))).errors?.[0]?.extensions?.code).toBe('LIMIT_EXCEEDED');
  });

  it('refuses a body over HTTP_MAX_BODY_BYTES with 413 LIMIT_EXCEEDED', async () => {
    const body = (size: number): string => {
      const base = JSON.stringify({ query: '{ __typename }', variables: { pad: '' } });
      return JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(size - base.length) } });
    };
    const post = (text: string): Promise<Response> =>
      fetch(`${app.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect((await post(body(2048))).status).toBe(200);
    const refused = await post(body(2049));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({
      errors: [
        {
          message: 'the request body in bytes is 2049, more than the limit of 2048 (HTTP_MAX_BODY_BYTES)',
          extensions: { code: 'LIMIT_EXCEEDED', limit: 'HTTP_MAX_BODY_BYTES', max: 2048, value: 2049 },
        },
      ],
    });
  });

  it('closes a WebSocket that sends a message over WS_MAX_MESSAGE_BYTES, as a client mistake', async () => {
    const consoleError = jest.spyOn(console, 'error');
    const socket = new WebSocket(`${app.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { pad: 'x'.repeat(3000) } }));
    expect(await closed).toBe(1009);
    // Counted, not printed with a stack as an internal error.
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
    expect(
      await app.metric('tally_requests_rejected_total', { code: 'LIMIT_EXCEEDED', limit: 'WS_MAX_MESSAGE_BYTES' }),
    ).toBe(1);
  });

  it('accepts WS_MAX_SUBSCRIPTIONS_PER_CONNECTION live subscriptions on one connection and refuses one more', async () => {
    const client = wsClient(app.url);
    clients.push(client);
    const live = (page: string): string =>
      `subscription { pageStatsLive(site: "s", page: "${page}", granularity: MINUTE, window: 120) { total } }`;
    const subscribed: Array<() => void> = [];
    for (const page of ['/1', '/2']) {
      await new Promise<void>((resolve, reject) => {
        subscribed.push(
          client.subscribe({ query: live(page) }, { next: () => resolve(), error: reject, complete: () => undefined }),
        );
      });
    }
    const third = await wsOperation(client, live('/3'));
    expect(third.errors).toEqual([
      {
        message:
          'the number of live operations on this connection is 3, more than the limit of 2 (WS_MAX_SUBSCRIPTIONS_PER_CONNECTION)',
        extensions: { code: 'LIMIT_EXCEEDED', limit: 'WS_MAX_SUBSCRIPTIONS_PER_CONNECTION', max: 2, value: 3 },
      },
    ]);
    // Another connection may hold one more (the process limit is 3), then the process is full.
    const other = wsClient(app.url);
    clients.push(other);
    await new Promise<void>((resolve, reject) => {
      subscribed.push(
        other.subscribe({ query: live('/4') }, { next: () => resolve(), error: reject, complete: () => undefined }),
      );
    });
    const full = await wsOperation(other, live('/5'));
    expect(full.errors?.[0]?.extensions).toEqual({
      code: 'LIMIT_EXCEEDED',
      limit: 'WS_MAX_SUBSCRIPTIONS',
      max: 3,
      value: 4,
    });
    for (const unsubscribe of subscribed) unsubscribe();
  });

  it('counts WebSocket operations in tally_graphql_requests_total', async () => {
    const before = await app.metric('tally_graphql_requests_total', { operation: 'Many', outcome: 'ok' });
    const client = wsClient(app.url);
    clients.push(client);
    await wsOperation(client, aliased(1));
    expect(await app.metric('tally_graphql_requests_total', { operation: 'Many', outcome: 'ok' })).toBe(before + 1);
  });
});

describe('rate limits', () => {
  let app: TestApp;

  beforeAll(async () => {
    // With keys: a loopback server without any has no per-address limit (below).
    app = await startTestApp('limits_rate', {
      TALLY_KEYS_JSON: KEYS_JSON,
      RATE_LIMIT_PER_ADDRESS: '5',
      RATE_LIMIT_WINDOW_MS: '60000',
    });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('allows RATE_LIMIT_PER_ADDRESS requests per window from one address and refuses the next with 429', async () => {
    for (let i = 0; i < 5; i++) expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    const refused = await fetch(`${app.url}/healthz`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = (await refused.json()) as { errors: Array<{ extensions: Record<string, unknown> }> };
    expect(body.errors[0]?.extensions).toEqual({ code: 'RATE_LIMITED', limit: 'RATE_LIMIT_PER_ADDRESS', max: 5 });
  });

  it('applies no per-address limit on a loopback-only server without keys: its one client is the machine itself', async () => {
    const local = await startTestApp('limits_rate_local', {
      RATE_LIMIT_PER_ADDRESS: '5',
      RATE_LIMIT_WINDOW_MS: '60000',
    });
    try {
      for (let i = 0; i < 12; i++) expect((await fetch(`${local.url}/healthz`)).status).toBe(200);
    } finally {
      await local.stop();
    }
  });

  it('counts requests with a key against RATE_LIMIT_PER_KEY, apart from the address', async () => {
    const keyed = await startTestApp('limits_rate_key', {
      TALLY_KEYS_JSON: KEYS_JSON,
      RATE_LIMIT_PER_KEY: '3',
      RATE_LIMIT_PER_ADDRESS: '100',
    });
    try {
      const info = (): Promise<Response> =>
        fetch(`${keyed.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer(SECRETS.dashboard) },
          body: JSON.stringify({ query: '{ serverInfo { version } }' }),
        });
      for (let i = 0; i < 3; i++) expect((await info()).status).toBe(200);
      const refused = await info();
      expect(refused.status).toBe(429);
      const body = (await refused.json()) as { errors: Array<{ extensions: Record<string, unknown> }> };
      expect(body.errors[0]?.extensions).toEqual({ code: 'RATE_LIMITED', limit: 'RATE_LIMIT_PER_KEY', max: 3 });
      // Another key, and requests without one, have buckets of their own.
      const other = await keyed.graphqlAs(bearer(SECRETS.ops), '{ serverInfo { version } }');
      expect(other.status).toBe(200);
      expect((await fetch(`${keyed.url}/healthz`)).status).toBe(200);
    } finally {
      await keyed.stop();
    }
  });
});
