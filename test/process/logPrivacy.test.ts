/**
 * The README's promise that raw addresses, User-Agents, referrers and visitor ids are never logged, read where it
 * would break: the built server's own output at LOG_LEVEL=trace (every request logged), behind a trusted proxy
 * (TRUST_PROXY, so the client address comes from X-Forwarded-For). Hits carrying distinctive values arrive through
 * the beacon, recordHit and a refused batch; none of the values may appear in anything the process printed (as
 * storedRaws checks the database).
 */
import { testDatabaseName, testMongoUri } from '../support/testDatabase';
import { assertBuilt, startServer, stopWith, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';
import { ALLOWED_ORIGIN, KEYS_JSON, SECRETS, SITE_KEY, bearer } from '../support/testKeys';

jest.setTimeout(120_000);

const RAW = {
  forwardedIp: '203.0.113.147',
  hitIp: '198.51.100.233',
  proxiedIp: '192.0.2.181',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) LogPrivacyProbe/7.3.1 Chrome/126.0 Safari/537.36',
  hitUserAgent: 'Mozilla/5.0 (Macintosh) OtherPrivacyProbe/2.9 Safari/605.1.15',
  referrer: 'https://private-referrer.example/secret-path?q=dont-log-me',
  hitReferrer: 'https://another-referrer.example/from/here',
  refererHeader: 'https://a.example/page-with-referer-header',
  visitor: 'visitor-id-4f0c9e2b7d1a',
  refusedVisitor: 'visitor-id-refused-93be41',
} as const;
const DAY = { from: '2026-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z' };

let server: ServerProcess;

beforeAll(async () => {
  assertBuilt();
  server = startServer({
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: testDatabaseName('log-privacy'),
    TALLY_KEYS_JSON: KEYS_JSON,
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'trace',
  });
  await waitUntilServing(server);
});

afterAll(async () => {
  if (server.child.exitCode === null && server.child.signalCode === null) await stopWith(server, 'SIGTERM');
});

async function graphql(
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown>,
): Promise<{ data?: Record<string, unknown> | null; errors?: Array<{ extensions?: { code?: string } }> }> {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, unknown> | null };
}

async function total(page: string): Promise<number> {
  const body = await graphql(
    bearer(SECRETS.dashboard),
    'query($page: String!, $from: DateTime!, $to: DateTime!) { pageStats(site: "a.example", page: $page, range: { from: $from, to: $to }, granularity: MONTH) { total } }',
    { page, ...DAY },
  );
  return (body.data?.pageStats as { total: number }).total;
}

it('logs every request, and no raw address, User-Agent, referrer or visitor id of the hits', async () => {
  const beacon = await fetch(`${server.url}/api/hit`, {
    method: 'POST',
    headers: {
      'content-type': 'text/plain',
      origin: ALLOWED_ORIGIN,
      'user-agent': RAW.userAgent,
      'x-forwarded-for': RAW.forwardedIp,
      referer: RAW.refererHeader,
    },
    body: JSON.stringify({ key: SITE_KEY, site: 'a.example', page: '/from-beacon', referrer: RAW.referrer }),
  });
  expect(beacon.status).toBe(204);

  const hitHeaders = { ...bearer(SECRETS.pipeline), 'user-agent': RAW.userAgent, 'x-forwarded-for': RAW.proxiedIp };
  const recorded = await graphql(
    { ...hitHeaders, referer: RAW.refererHeader },
    'mutation($hit: HitInput!) { recordHits(hits: [$hit]) { accepted } }',
    {
      hit: {
        site: 'a.example',
        page: '/from-graphql',
        visitor: RAW.visitor,
        referrer: RAW.hitReferrer,
        userAgent: RAW.hitUserAgent,
        clientIp: RAW.hitIp,
      },
    },
  );
  expect(recorded).toEqual({ data: { recordHits: { accepted: 1 } } });
  // A refused batch: its valid hit carries the values too, and the refusal is logged.
  const refused = await graphql(hitHeaders, 'mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }', {
    hits: [
      { site: 'a.example', page: '/refused', visitor: RAW.refusedVisitor, referrer: RAW.referrer },
      { site: 'a.example', page: 'no-slash', userAgent: RAW.hitUserAgent, clientIp: RAW.hitIp },
    ],
  });
  expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

  // Both hits were counted (the beacon's is written by the same group commit, read back once flushed).
  await waitFor(() => total('/from-beacon'), {
    what: 'the beacon hit counted',
    timeoutMs: 30_000,
    until: (n) => n === 1,
  });
  expect(await total('/from-graphql')).toBe(1);
  expect(await stopWith(server, 'SIGTERM')).toBe(0);

  // Request logging was on: one line per request, the beacon's and the mutations' among them.
  const requests = server.logs.filter((line) => line.msg === 'request');
  expect(requests.map((line) => line.url)).toEqual(expect.arrayContaining(['/api/hit', '/graphql']));
  const printed = [...server.logs.map((line) => JSON.stringify(line)), ...server.output].join('\n');
  expect(Object.values(RAW).filter((raw) => printed.includes(raw))).toEqual([]);
  // Nor their distinctive parts, in case a value is logged cut or re-encoded.
  expect(
    ['LogPrivacyProbe', 'OtherPrivacyProbe', 'private-referrer', 'another-referrer', '4f0c9e2b7d1a', '93be41'].filter(
      (part) => printed.includes(part),
    ),
  ).toEqual([]);
});
