/**
 * Custom events, properties, revenue and goals (issue 28) end to end, on both acknowledgement paths: events sent
 * through recordHits, recordHitColumns and keyed retries read back through events, properties, conversions and
 * breakdown(event:) equal an independent recount of the same input; events never count as hits; bad input writes
 * nothing.
 */
import { readMetric } from '../support/readMetric';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp } from '../support/startTestApp';
import type { GraphQLResponse, TestApp } from '../support/startTestApp';
import { waitFor } from '../support/waitFor';

const NOW = Date.parse('2026-05-20T12:00:00Z');
const SITE = 'events.example';
const RANGE = { from: '2026-05-20T00:00:00Z', to: '2026-05-21T00:00:00Z' };
const PAGES = ['/', '/pricing', '/blog/a', '/blog/b/c'];
const COUNTRIES = ['DE', 'FR', 'US'];

interface SentHit {
  site: string;
  page: string;
  at: string;
  visitor: string;
  dimensions: { country: string };
  event?: string;
  props?: Array<{ key: string; value: string }>;
  revenue?: { amount: string; currency: string };
}

/** 400 pageviews by 200 visitors; 60 Signups (by 60 of them) and 20 Purchases with revenue. */
function traffic(): SentHit[] {
  const hits: SentHit[] = [];
  for (let i = 0; i < 400; i++) {
    hits.push({
      site: SITE,
      page: PAGES[i % PAGES.length] as string,
      at: new Date(NOW - 3_600_000 + i * 1_000).toISOString(),
      visitor: `v${i % 200}`,
      dimensions: { country: COUNTRIES[i % 3] as string },
    });
  }
  for (let i = 0; i < 60; i++) {
    hits.push({
      site: SITE,
      page: '/pricing',
      at: new Date(NOW - 1_800_000 + i * 1_000).toISOString(),
      visitor: `v${i * 3}`,
      dimensions: { country: COUNTRIES[i % 3] as string },
      event: 'Signup',
      props: [
        { key: 'plan', value: i % 4 === 0 ? 'pro' : 'free' },
        { key: 'path', value: '/pricing' },
      ],
    });
  }
  for (let i = 0; i < 20; i++) {
    hits.push({
      site: SITE,
      page: '/checkout',
      at: new Date(NOW - 900_000 + i * 1_000).toISOString(),
      visitor: `v${i}`,
      dimensions: { country: 'DE' },
      event: 'Purchase',
      revenue: i % 2 === 0 ? { amount: `${i}.05`, currency: 'EUR' } : { amount: `${100 + i}`, currency: 'JPY' },
    });
  }
  return hits;
}

/** The independent recount: what the queries must say, from the input alone. */
function recount(hits: readonly SentHit[]) {
  const events = new Map<string, number>();
  const revenue = new Map<string, number>();
  const plans = new Map<string, number>();
  const signupCountries = new Map<string, number>();
  let pageviews = 0;
  let blogAny = 0;
  let blogOne = 0;
  for (const hit of hits) {
    if (hit.event === undefined) {
      pageviews++;
      if (hit.page.startsWith('/blog/')) blogAny++;
      if (/^\/blog\/[^/]*$/.test(hit.page)) blogOne++;
      continue;
    }
    events.set(hit.event, (events.get(hit.event) ?? 0) + 1);
    if (hit.revenue) {
      const [whole, fraction = ''] = hit.revenue.amount.split('.');
      const digits = hit.revenue.currency === 'JPY' ? 0 : 2;
      const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || 0);
      revenue.set(hit.revenue.currency, (revenue.get(hit.revenue.currency) ?? 0) + minor);
    }
    if (hit.event === 'Signup') {
      const plan = hit.props?.find((p) => p.key === 'plan')?.value as string;
      plans.set(plan, (plans.get(plan) ?? 0) + 1);
      signupCountries.set(hit.dimensions.country, (signupCountries.get(hit.dimensions.country) ?? 0) + 1);
    }
  }
  return { events, revenue, plans, signupCountries, pageviews, blogAny, blogOne };
}

function data<T>(response: GraphQLResponse<T>): T {
  if (response.body.errors) throw new Error(JSON.stringify(response.body.errors));
  return response.body.data as T;
}

const RECORD = `mutation($hits: [HitInput!]!, $key: String) { recordHits(hits: $hits, idempotencyKey: $key) { accepted } }`;
const READ = `query($site: String!, $range: TimeRangeInput!) {
  events(site: $site, range: $range, first: 10) { totalCount edges { node { value hits visitors } } }
  plans: properties(site: $site, event: "Signup", key: "plan", range: $range) { edges { node { value hits } } }
  countries: breakdown(site: $site, dimension: COUNTRY, event: "Signup", range: $range) { edges { node { value hits } } }
  conversions(site: $site, range: $range, goals: [{ event: "Signup" }, { event: "Purchase" }, { page: "/blog/**" }, { page: "/blog/*" }, { event: "Never" }]) {
    goal events visitors conversionRate revenue { currency amount }
  }
  siteStats(site: $site, range: $range, granularity: DAY) { total }
  signups: siteStats(site: $site, range: $range, granularity: DAY, event: "Signup", compare: PREVIOUS_PERIOD) {
    total values visitors comparison { total }
  }
  pricingSignups: pageStats(site: $site, page: "/pricing", range: $range, granularity: DAY, event: "Signup") { total }
}`;

interface Read {
  events: { totalCount: number; edges: Array<{ node: { value: string; hits: number; visitors: number } }> };
  plans: { edges: Array<{ node: { value: string; hits: number } }> };
  countries: { edges: Array<{ node: { value: string; hits: number } }> };
  conversions: Array<{
    goal: string;
    events: number;
    visitors: number | null;
    conversionRate: number | null;
    revenue: Array<{ currency: string; amount: string }>;
  }>;
  siteStats: { total: number };
  signups: { total: number; values: number[]; visitors: number; comparison: { total: number } };
  pricingSignups: { total: number };
}

async function gauge(app: TestApp, name: string): Promise<number> {
  return (await readMetric(app.url, name)) ?? Number.NaN;
}

describe.each(['database', 'log'])('events with INGEST_ACK=%s', (ack) => {
  let app: TestApp;
  let logDir: string;

  beforeAll(async () => {
    logDir = mkdtempSync(join(tmpdir(), 'tally-events-'));
    const env: Record<string, string> =
      ack === 'log' ? { INGEST_ACK: 'log', INGEST_LOG_DIR: logDir, FLUSH_WINDOW_MS: '50' } : {};
    app = await startTestApp(`events_${ack}`, env, () => NOW);
  });

  afterAll(async () => {
    await app.stop();
    rmSync(logDir, { recursive: true, force: true });
  });

  /**
   * A window is written in parts (documents in `_id` order), so a read can see the site's documents before the
   * pages': with the log, figures are read once no window is pending.
   */
  const written = async () => {
    if (ack !== 'log') return;
    await waitFor(() => gauge(app, 'tally_ingest_log_windows'), {
      what: 'every logged window written',
      timeoutMs: 20_000,
      until: (windows) => windows === 0,
    });
  };

  it('counts events, properties, revenue and goals as an independent recount, never as hits', async () => {
    const hits = traffic();
    const half = hits.length >> 1;
    data(await app.graphql(RECORD, { hits: hits.slice(0, half) }));
    // A keyed request sent twice (a retry) counts once.
    data(await app.graphql(RECORD, { hits: hits.slice(half), key: `events-${ack}` }));
    data(await app.graphql(RECORD, { hits: hits.slice(half), key: `events-${ack}` }));
    const expected = recount(hits);
    await written();

    const read = await waitFor(async () => data(await app.graphql<Read>(READ, { site: SITE, range: RANGE })), {
      what: 'every event and pageview written',
      timeoutMs: 20_000,
      until: (r) => r.siteStats.total === expected.pageviews && r.events.edges.length === 2,
    });

    expect(read.siteStats.total).toBe(expected.pageviews);
    expect(read.signups).toMatchObject({ total: 60, values: [60], comparison: { total: 0 } });
    expect(Math.abs(read.signups.visitors - 60)).toBeLessThanOrEqual(2);
    expect(read.pricingSignups.total).toBe(60);
    const exported = await fetch(
      `${app.url}/export?site=${SITE}&from=${RANGE.from}&to=${RANGE.to}&event=Signup&format=ndjson`,
    );
    expect(exported.status).toBe(200);
    const rows = (await exported.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { hits: number; page: string; visitors: number });
    expect(rows.map((row) => [row.hits, row.page])).toEqual([[60, '']]);
    expect(Math.abs((rows[0]?.visitors ?? 0) - 60)).toBeLessThanOrEqual(2);
    expect(read.events.totalCount).toBe(2);
    expect(read.events.edges.map((e) => [e.node.value, e.node.hits])).toEqual([
      ['Signup', expected.events.get('Signup')],
      ['Purchase', expected.events.get('Purchase')],
    ]);
    // 60 and 20 distinct visitors; sketches of 2048 registers are exact-ish at this size.
    expect(Math.abs((read.events.edges[0]?.node.visitors ?? 0) - 60)).toBeLessThanOrEqual(2);
    expect(Math.abs((read.events.edges[1]?.node.visitors ?? 0) - 20)).toBeLessThanOrEqual(1);
    expect(read.plans.edges.map((e) => [e.node.value, e.node.hits])).toEqual(
      [...expected.plans].sort((a, b) => b[1] - a[1]),
    );
    expect(new Map(read.countries.edges.map((e) => [e.node.value, e.node.hits]))).toEqual(expected.signupCountries);

    const [signup, purchase, blogAny, blogOne, never] = read.conversions;
    expect(signup).toMatchObject({ goal: 'Signup', events: 60, revenue: [] });
    // 200 site visitors (events' visitors are among them): the rate is 60 / 200 within a point.
    expect(Math.abs((signup?.conversionRate ?? 0) - 0.3)).toBeLessThanOrEqual(0.01);
    expect(purchase?.events).toBe(20);
    const eur = expected.revenue.get('EUR') as number;
    expect(purchase?.revenue).toEqual([
      { currency: 'EUR', amount: `${Math.floor(eur / 100)}.${String(eur % 100).padStart(2, '0')}` },
      { currency: 'JPY', amount: String(expected.revenue.get('JPY')) },
    ]);
    expect(blogAny).toMatchObject({ goal: 'Visit /blog/**', events: expected.blogAny, revenue: [] });
    expect(blogOne).toMatchObject({ goal: 'Visit /blog/*', events: expected.blogOne });
    // /blog/a and /blog/b/c are visited by 100 visitors each half: v(i % 200) with i ≡ 2, 3 (mod 4).
    expect(Math.abs((blogAny?.visitors ?? 0) - 100)).toBeLessThanOrEqual(3);
    expect(never).toEqual({ goal: 'Never', events: 0, visitors: 0, conversionRate: 0, revenue: [] });
    const goals = encodeURIComponent(JSON.stringify([{ event: 'Purchase' }, { page: '/blog/*' }]));
    const csv = await (
      await fetch(`${app.url}/export?site=${SITE}&from=${RANGE.from}&to=${RANGE.to}&goals=${goals}`)
    ).text();
    const lines = csv.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('goal,events,visitors,conversionRate,revenue');
    expect(lines[1]).toMatch(
      new RegExp(`^Purchase,20,\\d+,[\\d.]+,${purchase?.revenue.map((m) => `${m.amount} ${m.currency}`).join('; ')}$`),
    );
    expect(lines[2]).toMatch(new RegExp(`^Visit /blog/\\*,${expected.blogOne},`));
  });

  it('takes events as recordHitColumns dictionaries', async () => {
    const site = 'columns.example';
    const columns = {
      sites: [site],
      pages: ['/', '/buy'],
      pageIndex: [0, 1, 1, 1],
      visitors: ['a', 'b'],
      visitorIndex: [0, 0, 1, 1],
      events: ['Purchase'],
      eventIndex: [-1, 0, 0, 0],
      properties: [[{ key: 'plan', value: 'pro' }]],
      propertiesIndex: [-1, 0, -1, 0],
      revenues: [
        { amount: '10.50', currency: 'EUR' },
        { amount: '3', currency: 'JPY' },
      ],
      revenueIndex: [-1, 0, 0, 1],
    };
    data(
      await app.graphql(
        `mutation($c: HitColumnsInput!) { recordHitColumns(columns: $c, idempotencyKey: "cols-${ack}") { accepted } }`,
        {
          c: columns,
        },
      ),
    );
    await written();
    const read = await waitFor(
      async () =>
        data(
          await app.graphql<Pick<Read, 'conversions' | 'plans'>>(
            `query($site: String!, $range: TimeRangeInput!) {
              conversions(site: $site, range: $range, goals: [{ event: "Purchase" }]) { goal events visitors conversionRate revenue { currency amount } }
              plans: properties(site: $site, event: "Purchase", key: "plan", range: $range) { edges { node { value hits } } } }`,
            { site, range: RANGE },
          ),
        ),
      { what: 'the columns written', timeoutMs: 20_000, until: (r) => r.conversions[0]?.events === 3 },
    );
    expect(read.conversions).toEqual([
      {
        goal: 'Purchase',
        events: 3,
        visitors: 2,
        conversionRate: 1,
        revenue: [
          { currency: 'EUR', amount: '21.00' },
          { currency: 'JPY', amount: '3' },
        ],
      },
    ]);
    expect(read.plans.edges).toEqual([{ node: { value: 'pro', hits: 2 } }]);
  });

  it('refuses bad events with BAD_USER_INPUT naming the field and row, writing nothing of the request', async () => {
    const good = { site: 'bad.example', page: '/', event: 'Signup' };
    const response = await app.graphql(RECORD, {
      hits: [good, { ...good, revenue: { amount: '1.005', currency: 'EUR' } }],
    });
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'AMOUNT_TOO_PRECISE',
      field: 'hits[1].revenue.amount',
    });
    const goals = await app.graphql(
      `query { conversions(site: "bad.example", range: { from: "${RANGE.from}", to: "${RANGE.to}" }, goals: [{ event: "A", page: "/" }]) { goal } }`,
    );
    expect(goals.body.errors?.[0]?.message).toBe('goals[0] must set exactly one of event and page, got both');
    const hourly = await app.graphql(
      `query { siteStats(site: "bad.example", range: { from: "${RANGE.from}", to: "${RANGE.to}" }, granularity: HOUR, event: "A") { total } }`,
    );
    expect(hourly.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'granularity' });
    const pattern = await app.graphql(
      `query { conversions(site: "bad.example", range: { from: "${RANGE.from}", to: "${RANGE.to}" }, goals: [{ page: "blog/*" }]) { goal } }`,
    );
    expect(pattern.body.errors?.[0]?.message).toBe('goals[0].page must start with "/", got "blog/*"');
    const events = await app.graphql<{ events: { totalCount: number } }>(
      `query { events(site: "bad.example", range: { from: "${RANGE.from}", to: "${RANGE.to}" }) { totalCount } }`,
    );
    expect(data(events).events.totalCount).toBe(0);
  });
});
