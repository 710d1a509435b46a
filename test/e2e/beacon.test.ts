/**
 * POST /api/hit, the browser beacon (contract: text/plain or JSON body with a public site key): origin check,
 * CORS only for allowed origins (preflight included), bots answered but not counted, the query string
 * dropped unless the site key keeps it, and typed 4xx errors. Visitors and dimensions (issues 19, 20): the
 * dimensions of the referrer, the page's query, the User-Agent and the address (X-Forwarded-For's only with
 * TRUST_PROXY), and a cookieless visitor under the day's salt; none of them stored raw.
 */
import type { Document } from 'mongodb';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { VISITOR_SALTS_COLLECTION } from '../../src/store/VisitorSaltStore';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { ALLOWED_ORIGIN, bearer, KEEP_QUERY_SITE_KEY, KEYS_JSON, SECRETS, SITE_KEY } from '../support/testKeys';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('beacon', { TALLY_KEYS_JSON: KEYS_JSON }, () => NOW);
});

afterAll(async () => {
  await app.stop();
});

function beacon(
  body: unknown,
  options: { origin?: string; userAgent?: string; contentType?: string; forwardedFor?: string; to?: TestApp } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'text/plain;charset=UTF-8',
    'user-agent': options.userAgent ?? BROWSER,
  };
  if (options.origin !== '') headers.origin = options.origin ?? ALLOWED_ORIGIN;
  if (options.forwardedFor !== undefined) headers['x-forwarded-for'] = options.forwardedFor;
  return fetch(`${(options.to ?? app).url}/api/hit`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function total(site: string, page: string): Promise<number> {
  const { body } = await app.graphqlAs<{ pageStats: { total: number } }>(
    bearer(SECRETS.ops),
    'query($site: String!, $page: String!) { pageStats(site: $site, page: $page, range: { from: "2026-11-21T00:00:00Z", to: "2026-11-22T00:00:00Z" }, granularity: DAY) { total } }',
    { site, page },
  );
  return body.data?.pageStats.total ?? -1;
}

async function errorsOf(response: Response): Promise<Array<{ message: string; extensions: Record<string, unknown> }>> {
  return ((await response.json()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> })
    .errors;
}

const metric = (outcome: string): Promise<number> =>
  app.metric('tally_beacon_requests_total', { outcome }, bearer(SECRETS.ops));

describe('POST /api/hit', () => {
  it('counts a sendBeacon hit (text/plain) from an allowed origin, with CORS for that origin', async () => {
    const response = await beacon({ key: SITE_KEY, site: 'a.example', page: '/docs/intro' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(response.headers.get('vary')).toContain('Origin');
    expect(await total('a.example', '/docs/intro')).toBe(1);
    expect(await metric('counted')).toBeGreaterThanOrEqual(1);
  });

  it('counts a fetch hit with an application/json body', async () => {
    const response = await beacon(
      { key: SITE_KEY, site: 'a.example', page: '/json' },
      { contentType: 'application/json' },
    );
    expect(response.status).toBe(204);
    expect(await total('a.example', '/json')).toBe(1);
  });

  it('drops the query string unless the site key keeps it', async () => {
    expect((await beacon({ key: SITE_KEY, site: 'a.example', page: '/q?email=x@y.z' })).status).toBe(204);
    expect(await total('a.example', '/q')).toBe(1);
    expect(await total('a.example', '/q?email=x@y.z')).toBe(0);
    const kept = await beacon({ key: KEEP_QUERY_SITE_KEY, site: 'q.example', page: '/q?ref=hn' });
    expect(kept.status).toBe(204);
    expect(await total('q.example', '/q?ref=hn')).toBe(1);
  });

  it('answers a bot 204 without counting it, and counts it by reason', async () => {
    const before = await metric('bot_user_agent');
    const response = await beacon({ key: SITE_KEY, site: 'a.example', page: '/bot' }, { userAgent: BOT });
    expect(response.status).toBe(204);
    expect(await total('a.example', '/bot')).toBe(0);
    expect(await metric('bot_user_agent')).toBe(before + 1);
  });

  it('refuses an origin the site key does not allow, without CORS headers', async () => {
    const response = await beacon(
      { key: SITE_KEY, site: 'a.example', page: '/evil' },
      { origin: 'https://evil.example' },
    );
    expect(response.status).toBe(403);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(await response.json()).toEqual({
      errors: [
        {
          message: 'origin "https://evil.example" may not send hits with this site key',
          extensions: { code: 'FORBIDDEN' },
        },
      ],
    });
    expect(await total('a.example', '/evil')).toBe(0);
  });

  it('refuses a request without Origin', async () => {
    const response = await beacon({ key: SITE_KEY, site: 'a.example', page: '/' }, { origin: '' });
    expect(response.status).toBe(403);
    expect((await errorsOf(response))[0]!.message).toBe('an Origin header is required');
  });

  it('answers the CORS preflight for an allowed origin only', async () => {
    const allowed = await fetch(`${app.url}/api/hit`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(allowed.headers.get('access-control-allow-methods')).toBe('POST');
    expect(allowed.headers.get('access-control-allow-headers')).toBe('content-type');
    const refused = await fetch(`${app.url}/api/hit`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.each([
    [
      { key: 'pk_unknown_0000000', site: 'a.example', page: '/' },
      401,
      'UNAUTHENTICATED',
      'the site key is not known to this server',
    ],
    [
      { key: SITE_KEY, site: 'b.example', page: '/' },
      403,
      'FORBIDDEN',
      'the site key is not valid for site "b.example"',
    ],
    [
      { key: SITE_KEY, site: 'a.example', page: 'index.html' },
      400,
      'BAD_USER_INPUT',
      'page must start with "/", got "index.html"',
    ],
    [{ key: SITE_KEY, site: 'a.example' }, 400, 'BAD_REQUEST', 'page must be a string, got undefined'],
    ['not json', 400, 'BAD_REQUEST', 'the body must be JSON: {"key": "<site key>", "site": "…", "page": "/…"}'],
    [[1, 2], 400, 'BAD_REQUEST', 'the body must be a JSON object with key, site and page, got a list of 2 items'],
  ])('refuses %p with %d %s', async (body, status, code, message) => {
    const response = await beacon(body);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ errors: [{ message, extensions: expect.objectContaining({ code }) }] });
  });

  it('refuses a body over 4 KB with LIMIT_EXCEEDED naming BEACON_MAX_BODY_BYTES', async () => {
    const body = JSON.stringify({ key: SITE_KEY, site: 'a.example', page: `/${'x'.repeat(5000)}` });
    const response = await beacon(body);
    expect(response.status).toBe(413);
    expect(await errorsOf(response)).toEqual([
      {
        message: `the request body in bytes is ${Buffer.byteLength(body)}, more than the limit of 4096 (BEACON_MAX_BODY_BYTES)`,
        extensions: {
          code: 'LIMIT_EXCEEDED',
          limit: 'BEACON_MAX_BODY_BYTES',
          max: 4096,
          value: Buffer.byteLength(body),
        },
      },
    ]);
  });

  it('takes its body limit from the BEACON_MAX_BODY_BYTES variable', async () => {
    const small = await startTestApp('beacon-small', { TALLY_KEYS_JSON: KEYS_JSON, BEACON_MAX_BODY_BYTES: '512' });
    try {
      const response = await beacon({ key: SITE_KEY, site: 'a.example', page: `/${'x'.repeat(600)}` }, { to: small });
      expect(response.status).toBe(413);
      expect((await errorsOf(response))[0]!.extensions).toMatchObject({
        code: 'LIMIT_EXCEEDED',
        limit: 'BEACON_MAX_BODY_BYTES',
        max: 512,
      });
    } finally {
      await small.stop();
    }
  });

  it('refuses other content types with 415', async () => {
    const response = await beacon('key=x', { contentType: 'application/x-www-form-urlencoded' });
    expect(response.status).toBe(415);
    expect((await errorsOf(response))[0]!.extensions.code).toBe('BAD_REQUEST');
  });
});

describe('POST /api/hit: visitors and dimensions', () => {
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
  const day = (page: string, to: TestApp = app): Promise<Document | null> =>
    to.database.db.collection<Document>(DAILY_COLLECTION).findOne({ _id: `20261121/a.example${page}` } as Document);
  const visitors = async (page: string): Promise<number> =>
    Math.round(VisitorSketch.fromStoredFields((await day(page))?.v as Document, 11).estimate());

  it('derives every dimension from the referrer, the query it drops, the User-Agent and the address', async () => {
    const body = {
      key: SITE_KEY,
      site: 'a.example',
      page: '/derived?utm_source=HN&utm_medium=Social',
      referrer: 'https://news.ycombinator.com/item?id=42',
    };
    expect((await beacon(body)).status).toBe(204);
    expect((await day('/derived'))?.d).toEqual({
      source: { 'Hacker News': 1 },
      utmSource: { hn: 1 },
      utmMedium: { social: 1 },
      utmCampaign: { '(none)': 1 },
      browser: { Chrome: 1 },
      os: { Linux: 1 },
      device: { desktop: 1 },
      // The test client connects from 127.0.0.1, which locates no one.
      country: { '(unknown)': 1 },
    });
    expect(await visitors('/derived')).toBe(1);
  });

  it("counts a site's own pages as internal, and a beacon without referrer as direct", async () => {
    await beacon({ key: SITE_KEY, site: 'a.example', page: '/inside', referrer: 'https://a.example/before' });
    await beacon({ key: SITE_KEY, site: 'a.example', page: '/inside' });
    expect(((await day('/inside'))?.d as Document).source).toEqual({ '(internal)': 1, '(direct)': 1 });
  });

  it('counts one visitor per address and User-Agent under the day salt, which it keeps in visitors.salts', async () => {
    for (const userAgent of [BROWSER, BROWSER, FIREFOX]) {
      await beacon({ key: SITE_KEY, site: 'a.example', page: '/people' }, { userAgent });
    }
    expect(await total('a.example', '/people')).toBe(3);
    expect(await visitors('/people')).toBe(2);
    const salts = await app.database.db.collection(VISITOR_SALTS_COLLECTION).find().toArray();
    expect(salts.map((salt) => salt._id)).toEqual(['day:2026-11-21']);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY says to trust the proxy', async () => {
    await beacon({ key: SITE_KEY, site: 'a.example', page: '/forwarded' }, { forwardedFor: '193.0.6.139' });
    expect(((await day('/forwarded'))?.d as Document).country).toEqual({ '(unknown)': 1 });
    const behindProxy = await startTestApp(
      'beaconProxy',
      { TALLY_KEYS_JSON: KEYS_JSON, TRUST_PROXY: 'true' },
      () => NOW,
    );
    try {
      const response = await beacon(
        { key: SITE_KEY, site: 'a.example', page: '/forwarded' },
        { forwardedFor: '193.0.6.139, 10.0.0.1', to: behindProxy },
      );
      expect(response.status).toBe(204);
      expect(((await day('/forwarded', behindProxy))?.d as Document).country).toEqual({ NL: 1 });
    } finally {
      await behindProxy.stop();
    }
  });

  it('stores neither the address nor the User-Agent nor the referrer', async () => {
    const dump: string[] = [];
    for (const { name } of await app.database.db.listCollections().toArray()) {
      for (const document of await app.database.db.collection(name).find().toArray())
        dump.push(JSON.stringify(document));
    }
    const text = dump.join('\n');
    for (const raw of ['127.0.0.1', 'X11; Linux', 'news.ycombinator.com/item', 'a.example/before']) {
      expect({ raw, stored: text.includes(raw) }).toEqual({ raw, stored: false });
    }
  });
});

describe('POST /api/hit with an event (issue 28)', () => {
  const range = '{ from: "2026-11-21T00:00:00Z", to: "2026-11-22T00:00:00Z" }';

  it("counts tally()'s event with its props and revenue, not as a page view", async () => {
    const response = await beacon({
      key: SITE_KEY,
      site: 'a.example',
      page: '/signup?ref=x',
      event: 'Signup',
      props: { plan: 'pro', seats: 3, trial: false },
      revenue: { amount: '29.90', currency: 'EUR' },
    });
    expect(response.status).toBe(204);
    const { body } = await app.graphqlAs<{
      conversions: Array<{ events: number; visitors: number; revenue: Array<{ currency: string; amount: string }> }>;
      properties: { edges: Array<{ node: { value: string; hits: number } }> };
    }>(
      bearer(SECRETS.ops),
      `query { conversions(site: "a.example", range: ${range}, goals: [{ event: "Signup" }]) { events visitors revenue { currency amount } }
        properties(site: "a.example", event: "Signup", key: "seats", range: ${range}) { edges { node { value hits } } } }`,
    );
    expect(body.data?.conversions).toEqual([
      { events: 1, visitors: 1, revenue: [{ currency: 'EUR', amount: '29.90' }] },
    ]);
    expect(body.data?.properties.edges).toEqual([{ node: { value: '3', hits: 1 } }]);
    expect(await total('a.example', '/signup')).toBe(0);
  });

  it('refuses a bad event with BAD_USER_INPUT naming the field', async () => {
    const response = await beacon({ key: SITE_KEY, site: 'a.example', page: '/', event: 'x'.repeat(121) });
    expect(response.status).toBe(400);
    expect((await errorsOf(response))[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'event' });
  });
});
