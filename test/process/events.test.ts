/**
 * Issue 28 on the built server as a person runs it (its own embedded database, API keys from a keys file, the
 * ingest log on: INGEST_ACK=log, its embedded default): events with every field (name, properties, revenue,
 * visitor, referrer, User-Agent, client address, explicit dimensions) through recordHit, recordHits and
 * recordHitColumns, a keyed request sent twice, and the beacon; read back through events, properties, conversions
 * and breakdown(event:) against an independent recount. After a restart on the same data the counts are the same.
 * At thousands of visitors, where sketches estimate, conversions stay within the error the README states.
 */
import { httpGraphql } from '../support/httpGraphql';
import type { HttpGraphqlReply } from '../support/httpGraphql';
import { keyedDataDir, keyedEnv, stopAndRemove } from '../support/keyedDataDir';
import { readMetric } from '../support/readMetric';
import { assertBuilt, startServer, stopWith, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { bearer, SECRETS } from '../support/testKeys';
import { waitFor } from '../support/waitFor';

const SITE = 'shop.example';
const OPS = bearer(SECRETS.ops);
const DAY = Date.UTC(2026, 9, 5);
const iso = (t: number): string => new Date(t).toISOString();
const RANGE = { from: iso(DAY), to: iso(DAY + 86_400_000) };
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

let dataDir: string;
let server: ServerProcess;
let base: string;

const gql = async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
  const reply: HttpGraphqlReply<T> = await httpGraphql<T>(`${base}/graphql`, query, variables, OPS);
  if (reply.body.errors) throw new Error(JSON.stringify(reply.body.errors));
  return reply.body.data as T;
};

async function start(): Promise<void> {
  server = startServer({
    ...keyedEnv(dataDir),
    INGEST_ACK: 'log',
    FLUSH_WINDOW_MS: '100',
  });
  base = await waitUntilServing(server);
}

const READ = `query($site: String!, $range: TimeRangeInput!) {
  events(site: $site, range: $range) { edges { node { value hits visitors } } }
  props: properties(site: $site, event: "Purchase", key: "plan", range: $range) { edges { node { value hits } } }
  sources: breakdown(site: $site, dimension: SOURCE, event: "Purchase", range: $range) { edges { node { value hits } } }
  countries: breakdown(site: $site, dimension: COUNTRY, event: "Purchase", range: $range) { edges { node { value hits } } }
  conversions(site: $site, range: $range, goals: [{ event: "Purchase" }, { page: "/shop/**" }]) {
    goal events visitors conversionRate revenue { currency amount }
  }
}`;

interface Read {
  events: { edges: Array<{ node: { value: string; hits: number; visitors: number } }> };
  props: { edges: Array<{ node: { value: string; hits: number } }> };
  sources: { edges: Array<{ node: { value: string; hits: number } }> };
  countries: { edges: Array<{ node: { value: string; hits: number } }> };
  conversions: Array<{
    goal: string;
    events: number;
    visitors: number;
    conversionRate: number;
    revenue: Array<{ currency: string; amount: string }>;
  }>;
}

/** What the mutations below send, recounted by hand: 2 + 3 + 2 Purchases, 1 Signup; 4 pageviews on /shop/…. */
const EXPECTED_EVENTS = [
  ['Purchase', 7],
  ['Signup', 1],
];

beforeAll(async () => {
  assertBuilt();
  dataDir = keyedDataDir('events');
  await start();
  const at = iso(DAY + 3_600_000);
  const every = {
    site: SITE,
    page: '/shop/checkout',
    at,
    visitor: 'customer-1',
    referrer: 'https://www.google.com/search?q=x',
    userAgent: CHROME,
    clientIp: '81.2.69.160',
    dimensions: { country: 'DE' },
  };
  await gql(
    `mutation($r: RevenueInput) { recordHit(site: "${SITE}", page: "/shop/checkout", at: "${at}", count: 2, visitor: "customer-1",
      referrer: "https://www.google.com/", userAgent: "${CHROME}", clientIp: "81.2.69.160", dimensions: { country: "DE" },
      event: "Purchase", props: [{ key: "plan", value: "pro" }], revenue: $r) { count } }`,
    { r: { amount: '19.99', currency: 'EUR' } },
  );
  const hits = [
    {
      ...every,
      event: 'Purchase',
      count: 3,
      props: [{ key: 'plan', value: 'free' }],
      revenue: { amount: '5', currency: 'USD' },
    },
    { ...every, visitor: 'customer-2', event: 'Signup', props: [{ key: 'plan', value: 'pro' }] },
    { ...every, page: '/shop/a', visitor: 'customer-3' },
    { ...every, page: '/shop/b/c', visitor: 'customer-4', dimensions: { country: 'FR' } },
  ];
  // A keyed request and its retry: counted once.
  for (let i = 0; i < 2; i++) {
    await gql(`mutation($h: [HitInput!]!) { recordHits(hits: $h, idempotencyKey: "events-process") { accepted } }`, {
      h: hits,
    });
  }
  await gql(`mutation($c: HitColumnsInput!) { recordHitColumns(columns: $c) { accepted } }`, {
    c: {
      sites: [SITE],
      pages: ['/shop/x', '/shop/checkout'],
      pageIndex: [0, 1, 0],
      atMs: [DAY + 7_200_000, DAY + 7_200_000, DAY + 7_200_000],
      count: [1, 2, 1],
      visitors: ['customer-5'],
      visitorIndex: [0, 0, 0],
      referrers: ['https://news.example/item'],
      referrerIndex: [0, 0, 0],
      events: ['Purchase'],
      eventIndex: [-1, 0, -1],
      properties: [[{ key: 'plan', value: 'pro' }]],
      propertiesIndex: [-1, 0, -1],
      revenues: [{ amount: '0.01', currency: 'EUR' }],
      revenueIndex: [-1, 0, -1],
    },
  });
}, 180_000);

afterAll(() => stopAndRemove(server, dataDir));

/**
 * Waits until the ingest log holds no window the database has not taken. A window writes its collections one after
 * the other, so a read between them can see, say, the page rollup's hits before the pages' sketches.
 */
async function windowsWritten(): Promise<void> {
  await waitFor(() => readMetric(base, 'tally_ingest_log_windows', { headers: OPS }), {
    what: 'every window of the ingest log written',
    timeoutMs: 30_000,
    until: (windows) => windows === 0,
  });
}

function expectRecount(read: Read): void {
  expect(read.events.edges.map((e) => [e.node.value, e.node.hits])).toEqual(EXPECTED_EVENTS);
  expect(read.events.edges.map((e) => e.node.visitors)).toEqual([2, 1]);
  expect(read.props.edges.map((e) => [e.node.value, e.node.hits])).toEqual([
    ['pro', 4],
    ['free', 3],
  ]);
  expect(new Map(read.sources.edges.map((e) => [e.node.value, e.node.hits]))).toEqual(
    new Map([
      ['Google', 5],
      ['news.example', 2],
    ]),
  );
  expect(read.countries.edges.map((e) => [e.node.value, e.node.hits])).toEqual([
    ['DE', 5],
    ['(unknown)', 2],
  ]);
  const [purchase, shop] = read.conversions;
  // 19.99 × 2 + 0.01 × 2 EUR; 5 × 3 USD. Site visitors: customers 1 to 5.
  expect(purchase).toEqual({
    goal: 'Purchase',
    events: 7,
    visitors: 2,
    conversionRate: 0.4,
    revenue: [
      { currency: 'EUR', amount: '40.00' },
      { currency: 'USD', amount: '15.00' },
    ],
  });
  expect(shop).toMatchObject({ goal: 'Visit /shop/**', events: 4, visitors: 3, conversionRate: 0.6 });
}

describe('events on the built server', () => {
  it('reads back every source as recounted, and again after a restart', async () => {
    await windowsWritten();
    const read = await waitFor(() => gql<Read>(READ, { site: SITE, range: RANGE }), {
      what: 'the recounted figures',
      timeoutMs: 30_000,
      until: (r) => r.events.edges.length === 2 && r.events.edges[0]?.node.hits === 7 && r.conversions[1]?.events === 4,
    });
    expectRecount(read);
    expect(await stopWith(server, 'SIGTERM')).toBe(0);
    await start();
    expectRecount(await gql<Read>(READ, { site: SITE, range: RANGE }));
  }, 120_000);

  it('estimates conversions at thousands of visitors within the stated error, and counts events exactly', async () => {
    // 4,000 visitors view /home; every 20th also sends Trial (5 %), 3 in 10 view a /pricing/ page (30 %).
    const site = 'many.example';
    const at = iso(DAY + 5 * 3_600_000);
    const hits: Array<Record<string, unknown>> = [];
    const exact = { trial: 0, pricing: 0, pricingHits: 0 };
    for (let i = 0; i < 4_000; i++) {
      const visitor = `reader-${i}`;
      hits.push({ site, page: '/home', at, visitor });
      if (i % 20 === 0) {
        hits.push({ site, page: '/home', at, visitor, event: 'Trial' });
        exact.trial++;
      }
      if (i % 10 < 3) {
        hits.push({ site, page: `/pricing/plan-${i % 4}`, at, visitor });
        exact.pricing++;
        exact.pricingHits++;
      }
    }
    for (let from = 0; from < hits.length; from += 500) {
      await gql(`mutation($h: [HitInput!]!) { recordHits(hits: $h) { accepted } }`, {
        h: hits.slice(from, from + 500),
      });
    }
    const query = `query($range: TimeRangeInput!) {
      conversions(site: "${site}", range: $range, goals: [{ event: "Trial" }, { page: "/pricing/*" }]) {
        goal events visitors conversionRate
      }
    }`;
    type Answer = { conversions: Read['conversions'] };
    await windowsWritten();
    const { conversions } = await gql<Answer>(query, { range: RANGE });
    const [trial, pricing] = conversions as [Read['conversions'][number], Read['conversions'][number]];
    // The README's stated error: standard errors of 1.44 % for an event's or a page's visitors (2,048 registers) and
    // 0.72 % for the site's (8,192); bounds at four standard errors, so a run fails by chance about once in 10^4.
    const goalError = 0.0144;
    const rateError = Math.hypot(0.0144, 0.0072);
    expect(trial).toMatchObject({ goal: 'Trial', events: exact.trial });
    expect(Math.abs(trial.visitors - exact.trial)).toBeLessThanOrEqual(4 * goalError * exact.trial);
    expect(pricing).toMatchObject({ goal: 'Visit /pricing/*', events: exact.pricingHits });
    expect(Math.abs(pricing.visitors - exact.pricing)).toBeLessThanOrEqual(4 * goalError * exact.pricing);
    for (const [answer, visitors] of [
      [trial, exact.trial],
      [pricing, exact.pricing],
    ] as const) {
      const rate = visitors / 4_000;
      expect(Math.abs(answer.conversionRate - rate)).toBeLessThanOrEqual(4 * rateError * rate);
    }
    // Within a percentage point at the rate events usually have, as the README says.
    expect(Math.abs(trial.conversionRate - exact.trial / 4_000)).toBeLessThanOrEqual(0.01);
  }, 120_000);
});
