/**
 * API keys end to end: every scope allowed and refused over HTTP and over WebSocket, site-limited keys,
 * unknown keys, and /metrics behind `admin`. Keys come from TALLY_KEYS_JSON (test/support/testKeys.ts).
 */
import type { Client } from 'graphql-ws';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { bearer, KEYS_JSON, SECRETS } from '../support/testKeys';
import { wsClient, wsOperation } from '../support/wsOperation';

const NOW = Date.parse('2026-11-21T12:00:00Z');

const OPS = {
  read: 'query { pageStats(site: "a.example", page: "/", range: { from: "2026-11-21T00:00:00Z", to: "2026-11-21T01:00:00Z" }, granularity: HOUR) { total } }',
  readOtherSite:
    'query { pageStats(site: "b.example", page: "/", range: { from: "2026-11-21T00:00:00Z", to: "2026-11-21T01:00:00Z" }, granularity: HOUR) { total } }',
  ingest: 'mutation { recordHit(site: "a.example", page: "/", at: "2026-11-21T11:00:00Z") { count } }',
  ingestOtherSite:
    'mutation { recordHits(hits: [{ site: "a.example", page: "/" }, { site: "b.example", page: "/" }]) { accepted } }',
  ingestColumnsOtherSite:
    'mutation { recordHitColumns(columns: { sites: ["a.example", "b.example"], pages: ["/"], siteIndex: [0], pageIndex: [0] }) { accepted } }',
  impressions: 'mutation { recordImpressions(impressions: [{ userId: "u", itemId: "i" }]) { accepted } }',
  admin: 'mutation { preallocate(site: "a.example", page: "/", day: "2026-11-22T00:00:00Z") }',
  live: 'subscription { pageStatsLive(site: "a.example", page: "/", granularity: MINUTE, window: 120) { total } }',
  firstDay: 'query { firstDay(site: "a.example") }',
  breakdown:
    'query { breakdown(site: "a.example", dimension: SOURCE, range: { from: "2026-11-20T00:00:00Z", to: "2026-11-21T00:00:00Z" }) { totalCount } }',
};

/** A recordHits batch written as a literal, the way the README writes its example (GRAPHQL_MAX_TOKENS fits 1,000). */
const hitsLiteral = (n: number): string =>
  `mutation { recordHits(hits: [${Array.from(
    { length: n },
    (_, i) => `{ site: "a.example", page: "/literal/${i % 10}", count: 3, at: "2026-01-05T10:15:00Z" }`,
  ).join(' ')}]) { accepted total } }`;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('auth', { TALLY_KEYS_JSON: KEYS_JSON, NODE_ENV: 'test' }, () => NOW);
});

afterAll(async () => {
  await app.stop();
});

describe('API keys over HTTP', () => {
  it.each([
    ['read', 'dashboard', OPS.read],
    ['a breakdown', 'dashboard', OPS.breakdown],
    ['the first day', 'dashboard', OPS.firstDay],
    ['read (any site without a site list)', 'dashboard', OPS.readOtherSite],
    ['ingest on its own site', 'pipeline', OPS.ingest],
    ['admin', 'ops', OPS.admin],
    ['ingest of impressions with a key for all sites', 'ops', OPS.impressions],
  ] as const)('allows %s with the %s key', async (_what, key, query) => {
    const { status, body } = await app.graphqlAs(bearer(SECRETS[key]), query);
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
  });

  it.each([
    ['read', 'pipeline', OPS.read, 'this operation needs scope "read", which the API key lacks'],
    ['a breakdown', 'pipeline', OPS.breakdown, 'this operation needs scope "read", which the API key lacks'],
    ['the first day', 'pipeline', OPS.firstDay, 'this operation needs scope "read", which the API key lacks'],
    ['ingest', 'dashboard', OPS.ingest, 'this operation needs scope "ingest", which the API key lacks'],
    ['admin', 'dashboard', OPS.admin, 'this operation needs scope "admin", which the API key lacks'],
    ['admin', 'pipeline', OPS.admin, 'this operation needs scope "admin", which the API key lacks'],
    [
      'a live subscription',
      'pipeline',
      OPS.live,
      'subscriptions are served over WebSocket (graphql-ws protocol, path /graphql), not over HTTP',
    ],
    [
      'ingest on another site',
      'pipeline',
      OPS.ingestOtherSite,
      'the API key is not valid for site "b.example" (scope "ingest")',
    ],
    [
      'columnar ingest naming another site',
      'pipeline',
      OPS.ingestColumnsOtherSite,
      'the API key is not valid for site "b.example" (scope "ingest")',
    ],
    [
      'impressions with a site-limited key',
      'pipeline',
      OPS.impressions,
      'this operation is not about one site and needs an API key valid for all sites',
    ],
  ] as const)('refuses %s to the %s key, naming what is missing', async (_what, key, query, message) => {
    const { status, body } = await app.graphqlAs(bearer(SECRETS[key]), query);
    const code = message.startsWith('subscriptions') ? 'BAD_REQUEST' : 'FORBIDDEN';
    expect(status).toBe(code === 'FORBIDDEN' ? 403 : 400);
    expect(body.errors).toEqual([{ message, extensions: { code } }]);
    expect(JSON.stringify(body)).not.toContain(SECRETS[key]);
  });

  it('accepts a 500-hit recordHits literal with an ingest key', async () => {
    const { status, body } = await app.graphqlAs(bearer(SECRETS.pipeline), hitsLiteral(500));
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect(body.data).toEqual({ recordHits: { accepted: 500, total: 1500 } });
  });

  it('refuses a request without a key as UNAUTHENTICATED', async () => {
    const { status, body } = await app.graphql(OPS.read);
    expect(status).toBe(401);
    expect(body.errors?.[0]).toEqual({
      message: 'this operation needs an API key with scope "read": send "Authorization: Bearer <secret>"',
      extensions: { code: 'UNAUTHENTICATED' },
    });
  });

  it('refuses an unknown key and a malformed header as UNAUTHENTICATED without echoing them', async () => {
    const unknown = await app.graphqlAs(bearer('tally_sk_nobody'), OPS.read);
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors?.[0]).toEqual({
      message: 'the API key is not known to this server',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect(JSON.stringify(unknown.body)).not.toContain('tally_sk_nobody');
    const malformed = await app.graphqlAs({ authorization: `Basic ${SECRETS.ops}` }, OPS.read);
    expect(malformed.status).toBe(401);
    expect(malformed.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it.each([
    [
      'recordHits',
      'mutation { recordHits(hits: [{ site: "a.example", page: "/refused/hits" }, { site: "b.example", page: "/refused/hits" }]) { accepted } }',
      '/refused/hits',
    ],
    [
      'recordHitColumns',
      'mutation { recordHitColumns(columns: { sites: ["a.example", "b.example"], pages: ["/refused/columns"], siteIndex: [0, 1], pageIndex: [0, 0] }) { accepted } }',
      '/refused/columns',
    ],
  ])(
    'writes nothing of a %s refused for one of its sites, not even for the allowed one',
    async (_field, mutation, page) => {
      // The pipeline key may ingest a.example only: the batch names b.example too.
      const refused = await app.graphqlAs(bearer(SECRETS.pipeline), mutation);
      expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const totals = async (): Promise<Array<number | undefined>> => {
        const { body } = await app.graphqlAs<Record<'a' | 'b', { total: number }>>(
          bearer(SECRETS.ops),
          `query($page: String!) {
          a: pageStats(site: "a.example", page: $page, range: { from: "2026-11-21T00:00:00Z", to: "2026-11-22T00:00:00Z" }, granularity: DAY) { total }
          b: pageStats(site: "b.example", page: $page, range: { from: "2026-11-21T00:00:00Z", to: "2026-11-22T00:00:00Z" }, granularity: DAY) { total }
        }`,
          { page },
        );
        expect(body.errors).toBeUndefined();
        return [body.data?.a.total, body.data?.b.total];
      };
      expect(await totals()).toEqual([0, 0]);
      // The same batch from a key allowed both sites is counted on both (the read above would see it).
      const allowed = await app.graphqlAs(bearer(SECRETS.ops), mutation);
      expect(allowed.body.errors).toBeUndefined();
      expect(await totals()).toEqual([1, 1]);
    },
  );

  it('serves __typename without a key (nothing to protect; graphql-http audits need it)', async () => {
    const { status, body } = await app.graphql('{ __typename }');
    expect(status).toBe(200);
    expect(body.data).toEqual({ __typename: 'Query' });
  });

  it('serves GET /export only to a key with the read scope', async () => {
    const url = `${app.url}/export?site=a.example&page=/&from=2026-11-21T00:00:00Z&to=2026-11-21T02:00:00Z&granularity=HOUR`;
    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(401);
    expect(
      ((await anonymous.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]?.extensions.code,
    ).toBe('UNAUTHENTICATED');
    const ingestOnly = await fetch(url, { headers: bearer(SECRETS.pipeline) });
    expect(ingestOnly.status).toBe(403);
    const reader = await fetch(url, { headers: bearer(SECRETS.dashboard) });
    expect(reader.status).toBe(200);
    expect((await reader.text()).split('\r\n')[0]).toContain('start,end,hits,site,page');
  });

  it('serves /metrics only to an admin key', async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    const forbidden = await fetch(`${app.url}/metrics`, { headers: bearer(SECRETS.dashboard) });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({
      errors: [
        { message: 'this operation needs scope "admin", which the API key lacks', extensions: { code: 'FORBIDDEN' } },
      ],
    });
    const allowed = await fetch(`${app.url}/metrics`, { headers: bearer(SECRETS.ops) });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('tally_graphql_requests_total');
  });
});

describe('API keys over WebSocket (connectionParams.authorization)', () => {
  const clients: Client[] = [];
  const client = (authorization?: string): Client => {
    const created = wsClient(app.url, authorization);
    clients.push(created);
    return created;
  };

  afterAll(async () => {
    await Promise.all(clients.map((one) => one.dispose()));
  });

  it('allows a live subscription with a read key', async () => {
    const outcome = await wsOperation(client(`Bearer ${SECRETS.dashboard}`), OPS.live);
    expect(outcome.errors).toBeUndefined();
    expect(outcome.data).toEqual({ pageStatsLive: { total: expect.any(Number) } });
  });

  it.each([
    ['read', 'pipeline', OPS.live, 'this operation needs scope "read", which the API key lacks'],
    ['ingest', 'dashboard', OPS.ingest, 'this operation needs scope "ingest", which the API key lacks'],
    ['admin', 'dashboard', OPS.admin, 'this operation needs scope "admin", which the API key lacks'],
  ] as const)('refuses %s to the %s key as FORBIDDEN', async (_what, key, query, message) => {
    const outcome = await wsOperation(client(`Bearer ${SECRETS[key]}`), query);
    expect(outcome.errors).toEqual([{ message, extensions: { code: 'FORBIDDEN' } }]);
  });

  it.each([
    ['ingest', 'pipeline', OPS.ingest],
    ['admin', 'ops', OPS.admin],
    ['a 500-hit recordHits literal', 'pipeline', hitsLiteral(500)],
  ] as const)('allows %s to the %s key', async (_what, key, query) => {
    const outcome = await wsOperation(client(`Bearer ${SECRETS[key]}`), query);
    expect(outcome.errors).toBeUndefined();
  });

  it('refuses operations without a key, or with an unknown one, as UNAUTHENTICATED', async () => {
    const none = await wsOperation(client(), OPS.live);
    expect(none.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const unknown = await wsOperation(client('Bearer tally_sk_nobody'), OPS.live);
    expect(unknown.errors).toEqual([
      { message: 'the API key is not known to this server', extensions: { code: 'UNAUTHENTICATED' } },
    ]);
  });
});

describe('/metrics on its own port (METRICS_PORT)', () => {
  it('serves /metrics there without a key, and no longer on the API port', async () => {
    const separate = await startTestApp('auth_metrics_port', { TALLY_KEYS_JSON: KEYS_JSON, METRICS_PORT: '0' });
    try {
      expect(separate.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const scraped = await fetch(`${separate.metricsUrl}/metrics`);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('tally_graphql_requests_total');
      const moved = await fetch(`${separate.url}/metrics`, { headers: bearer(SECRETS.ops) });
      expect(moved.status).toBe(404);
      expect(await moved.json()).toEqual({
        errors: [{ message: 'no route GET /metrics', extensions: { code: 'NOT_FOUND' } }],
      });
    } finally {
      await separate.stop();
    }
  });
});
