/**
 * The three browser pages in Chromium, against a whole tally instance: the playground runs the
 * README's Dashboard query and a subscription; a page on another origin includes /tally.js and navigates
 * like a single-page app, and pageStats and every dimension's breakdown count its views; the dashboard shows the
 * right figures, totals and panels, charts a clicked value, and updates live. No request may leave 127.0.0.1.
 * Screenshots go to test-artifacts/browser/. Without Chromium the tests are skipped, and the run's summary names
 * them, says why and how to run them (see test/support/chromium).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { parseUserAgent } from '../../src/domain/dimensions/parseUserAgent';
import { buildTestWeb } from '../support/buildTestWeb';
import { browserTestsRun, isLocal, launchChromium } from '../support/chromium';
import type { RecordingBrowser } from '../support/chromium';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { SECRETS, bearer } from '../support/testKeys';
import { waitFor } from '../support/waitFor';
import { DASHBOARD_SITE, SEED, current, previous, recount, seedHits, total, valueOf } from './dashboardSeed';
import type { PanelDimension } from './dashboardSeed';

const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts', 'browser');
const SITE_KEY = 'pk_browser_test_0123456789';
const OPS = bearer(SECRETS.ops);
const WAIT = { timeout: 45_000 };
/** Skipped only when Chromium is missing and not required (TALLY_REQUIRE_CHROMIUM=1 in CI). */
const describeInChromium = browserTestsRun() ? describe : describe.skip;

let app: TestApp;
let chromium: RecordingBrowser;
let otherOrigin: http.Server;
let otherUrl: string;
/** Known once tally listens, which is after the other origin (its address goes into the site key). */
let tallyUrl = '';

/** A page on another origin that includes the beacon like a site owner would, with SPA-style links. */
function sitePage(tallyUrl: string, extraAttributes: string): string {
  const snippet = `<script defer src="${tallyUrl}/tally.js" data-site="beacon.test" data-key="${SITE_KEY}" ${extraAttributes}></script>`;
  const shown = snippet.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A site using tally</title>
${snippet}
</head><body style="font: 15px system-ui; padding: 8px 24px; max-width: 1100px">
<h1>A site on another origin, using tally</h1>
<p>Its head includes the beacon:</p><pre style="white-space: pre-wrap; background: #f3f4f6; padding: 8px">${shown}</pre>
<p id="where"></p>
<button id="intro" onclick="history.pushState({}, '', '/docs/intro?ref=news'); show()">Docs</button>
<button id="pricing" onclick="history.pushState({}, '', '/pricing'); show()">Pricing</button>
<button id="same" onclick="history.replaceState({}, '', location.href); show()">Same page</button>
<p id="counted"></p>
<script>function show() { document.getElementById('where').textContent = 'Now on ' + location.pathname + location.search + ' (single-page app: no reload)'; } show(); addEventListener('popstate', show);</script>
</body></html>`;
}

async function startOtherOrigin(): Promise<void> {
  otherOrigin = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(sitePage(tallyUrl, url.searchParams.has('dnt') ? 'data-respect-dnt' : ''));
  });
  await new Promise<void>((resolve) => otherOrigin.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(otherOrigin.address() as AddressInfo).port}`;
}

async function screenshot(
  page: Page,
  name: string,
  area: { clip: { x: number; y: number; width: number; height: number } } | { fullPage: true } | object = {},
): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), ...area });
}

interface CodeMirrorHost {
  CodeMirror: { getValue(): string; setValue(value: string): void };
}

/** The page's window, as far as a test reads computed colours (the tests are typed without the DOM library). */
interface StyleHost {
  getComputedStyle(element: unknown): { color: string };
}

/** Sets a GraphiQL (CodeMirror 5) editor's text; typing would fight its bracket auto-closing. */
async function setEditor(page: Page, selector: string, text: string): Promise<void> {
  await page
    .locator(selector)
    .first()
    .evaluate((element, value) => (element as unknown as CodeMirrorHost).CodeMirror.setValue(value), text);
}

/** Opens the Headers tab and puts an Authorization header in it. */
async function setHeaders(page: Page, secret: string): Promise<void> {
  await page.getByRole('button', { name: 'Headers', exact: true }).click();
  await setEditor(
    page,
    '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror',
    JSON.stringify({ Authorization: `Bearer ${secret}` }),
  );
}

async function responseText(page: Page): Promise<string> {
  return page
    .locator('.result-window .CodeMirror')
    .evaluate((element) => (element as unknown as CodeMirrorHost).CodeMirror.getValue());
}

async function pageTotal(site: string, page: string): Promise<number> {
  const to = new Date(Date.now() + 60_000).toISOString();
  const from = new Date(Date.now() - 3_600_000).toISOString();
  const { body } = await app.graphqlAs<{ pageStats: { total: number } | null }>(
    OPS,
    'query Total($site: String!, $page: String!, $from: DateTime!, $to: DateTime!) { pageStats(site: $site, page: $page, range: { from: $from, to: $to }, granularity: MINUTE) { total } }',
    { site, page, from, to },
  );
  return body.data?.pageStats?.total ?? -1;
}

/** Polls until `read` returns `expected` (the beacon is fire-and-forget). */
async function eventually<T>(read: () => Promise<T>, expected: T, what: string): Promise<T> {
  return waitFor(read, {
    until: (value) => JSON.stringify(value) === JSON.stringify(expected),
    timeoutMs: 30_000,
    intervalMs: 200,
    what: `${what} to be ${JSON.stringify(expected)}`,
  });
}

type BeaconDimension = PanelDimension | 'UTM_SOURCE' | 'UTM_MEDIUM';

/**
 * What the beacons said, counted by the rules of issue 20 written out again: the referrer's host without "www." and
 * port, "(internal)" for the site's own host or the page's (its origin), "(unknown)" for a host that is an IP
 * address, "(direct)" without one; UTM values from the page's query (source and
 * medium lower-cased); browser, OS and device from the User-Agent through the parser tally names in the README.
 */
function recountBeacons(
  sent: ReadonlyArray<{ page: string; referrer?: string }>,
  userAgent: string,
  pageHost: string,
): Record<BeaconDimension, Array<[string, number]>> {
  const agent = parseUserAgent(userAgent);
  const counts = new Map<BeaconDimension, Map<string, number>>();
  const add = (dimension: BeaconDimension, value: string): void => {
    const values = counts.get(dimension) ?? new Map<string, number>();
    values.set(value, (values.get(value) ?? 0) + 1);
    counts.set(dimension, values);
  };
  for (const beacon of sent) {
    let source = '(direct)';
    if (beacon.referrer) {
      const host = new URL(beacon.referrer).hostname.replace(/^www\./, '');
      source =
        host === 'beacon.test' || host === pageHost ? '(internal)' : /^[\d.]+$|:/.test(host) ? '(unknown)' : host;
    }
    add('SOURCE', source);
    const query = new URLSearchParams(beacon.page.split('?')[1] ?? '');
    const utm = (name: string, lower: boolean): string => {
      const value = query.get(name)?.trim().replace(/\s+/g, ' ');
      return value ? (lower ? value.toLowerCase() : value) : '(none)';
    };
    add('UTM_SOURCE', utm('utm_source', true));
    add('UTM_MEDIUM', utm('utm_medium', true));
    add('UTM_CAMPAIGN', utm('utm_campaign', false));
    add('BROWSER', agent.browser);
    add('OS', agent.os);
    add('DEVICE', agent.device);
    add('COUNTRY', '(unknown)');
  }
  const ranked = (values: Map<string, number>): Array<[string, number]> =>
    [...values].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries([...counts].map(([dimension, values]) => [dimension, ranked(values)])) as Record<
    BeaconDimension,
    Array<[string, number]>
  >;
}

/** Each dimension's breakdown of a site today, as [value, hits] pairs, all in one request. */
async function breakdowns<D extends string>(
  site: string,
  dimensions: readonly D[],
): Promise<Record<D, Array<[string, number]>>> {
  const range = {
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 60_000).toISOString(),
  };
  const fields = dimensions.map(
    (d) =>
      `${d}: breakdown(site: $site, dimension: ${d}, range: { from: $from, to: $to }, first: 100) { other totalCount edges { node { value hits } } }`,
  );
  const { body } = await app.graphqlAs<
    Record<string, { other: number; totalCount: number; edges: { node: { value: string; hits: number } }[] }>
  >(OPS, `query Breakdowns($site: String!, $from: DateTime!, $to: DateTime!) { ${fields.join(' ')} }`, {
    site,
    ...range,
  });
  expect(body.errors).toBeUndefined();
  return Object.fromEntries(
    dimensions.map((d) => {
      const connection = body.data?.[d];
      expect(connection?.other).toBe(0);
      expect(connection?.totalCount).toBe(connection?.edges.length);
      return [d, connection?.edges.map(({ node }): [string, number] => [node.value, node.hits]) ?? []];
    }),
  ) as Record<D, Array<[string, number]>>;
}

async function browserVisitors(site: string): Promise<Array<[string, number | null]>> {
  const range = {
    from: new Date(Date.now() - 3_600_000).toISOString(),
    to: new Date(Date.now() + 60_000).toISOString(),
  };
  const { body } = await app.graphqlAs<{
    breakdown: { edges: { node: { value: string; visitors: number | null } }[] };
  }>(
    OPS,
    'query Visitors($site: String!, $from: DateTime!, $to: DateTime!) { breakdown(site: $site, dimension: BROWSER, range: { from: $from, to: $to }) { edges { node { value visitors } } } }',
    { site, ...range },
  );
  return body.data?.breakdown.edges.map(({ node }): [string, number | null] => [node.value, node.visitors]) ?? [];
}

/** The six panels, by the alias the dashboard gives each (web/dashboard/panels.ts). */
const PANEL_ALIASES: ReadonlyArray<[string, PanelDimension]> = [
  ['sources', 'SOURCE'],
  ['campaigns', 'UTM_CAMPAIGN'],
  ['countries', 'COUNTRY'],
  ['browsers', 'BROWSER'],
  ['systems', 'OS'],
  ['devices', 'DEVICE'],
];

/** The top-line figures as a person reads them: "7 visitors ▲ 75 %". */
async function figures(page: Page): Promise<string[]> {
  return (await page.locator('#figures .figure').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
}

/** The figures of a minute chart of hits without visitor ids. */
const MINUTE_CHART_FIGURES = (hits: number): string[] => [
  '0 visitors —',
  '0 visits —',
  `${hits} hits —`,
  '— views per visit —',
  '— bounce rate —',
  '— visit duration —',
];

/** The series table's rows: name, hits, visitors. */
async function tableRows(page: Page, rows = 'tr'): Promise<string[][]> {
  return page
    .locator(`#totals tbody ${rows}`)
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
}

/** A panel's rows: value, hits, visitors. */
async function panelRows(page: Page, alias: string): Promise<string[][]> {
  return page
    .locator(`#panel-${alias} tbody tr`)
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute('data-value') ?? '',
        tr.querySelector('td.hits')?.textContent ?? '',
        tr.querySelector('td.visitors')?.textContent ?? '',
      ]),
    );
}

/** An entry or exit pages panel's rows: page, count. */
async function visitPageRows(page: Page, alias: 'entries' | 'exits'): Promise<string[][]> {
  return page
    .locator(`#panel-${alias} tbody tr`)
    .evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-value') ?? '', tr.querySelector('td.hits')?.textContent ?? '']),
    );
}

/** A breakdown panel's rows with their visit figures: value, hits, visits, bounce rate. */
async function panelVisitRows(page: Page, alias: string): Promise<string[][]> {
  return page
    .locator(`#panel-${alias} tbody tr`)
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute('data-value') ?? '',
        tr.querySelector('td.hits')?.textContent ?? '',
        tr.querySelector('td.visits')?.textContent ?? '',
        tr.querySelector('td.rate')?.textContent ?? '',
      ]),
    );
}

/** The chart legend's series names. */
async function legend(page: Page): Promise<string[]> {
  return page.locator('#chart .u-legend .u-series .u-label').allTextContents();
}

/** Secret keys for the API (read for the dashboard, everything for ops) and the test site's public key. */
function keysJson(siteOrigin: string): string {
  const sha256 = (secret: string): string => createHash('sha256').update(secret).digest('hex');
  return JSON.stringify({
    keys: [
      { name: 'dashboard', sha256: sha256(SECRETS.dashboard), scopes: ['read'] },
      { name: 'ops', sha256: sha256(SECRETS.ops), scopes: ['admin', 'read', 'ingest'] },
    ],
    siteKeys: [{ key: SITE_KEY, site: 'beacon.test', origins: [siteOrigin] }],
  });
}

beforeAll(async () => {
  const webDir = await buildTestWeb();
  await startOtherOrigin();
  app = await startTestApp('browser', {
    TALLY_WEB_DIR: webDir,
    GRAPHQL_PLAYGROUND: 'true',
    TALLY_KEYS_JSON: keysJson(otherUrl),
  });
  tallyUrl = app.url;
  chromium = await launchChromium();
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await new Promise((resolve) => otherOrigin?.close(resolve));
  await app?.stop();
});

afterEach(() => {
  expect(chromium.outside).toEqual([]);
  expect(chromium.requests.filter((url) => !isLocal(url))).toEqual([]);
  expect(chromium.requests.length).toBeGreaterThan(0);
});

describeInChromium('the playground', () => {
  it('runs the prefilled Dashboard query over HTTP, with the API key typed in the Headers tab', async () => {
    await app.graphqlAs(
      OPS,
      'mutation { recordHits(hits: [{ site: "example.com", page: "/pricing", count: 3 }]) { total } }',
    );
    const page = await chromium.context.newPage();
    const response = await page.goto(`${app.url}/graphql`);
    expect(response?.headers()['content-type']).toContain('text/html');
    await setHeaders(page, SECRETS.dashboard);
    // The schema was introspected without a key on load: fetch it again with the key, as a user would.
    await page.getByRole('button', { name: 'Re-fetch GraphQL schema' }).click();
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.result-window', { hasText: 'lastHour' }).waitFor(WAIT);
    const result = JSON.parse(await responseText(page)) as {
      data: { lastHour: { total: number; values: number[] }; serverInfo: { version: string } };
    };
    expect(result.data.lastHour.total).toBe(3);
    expect(result.data.lastHour.values.length).toBeGreaterThanOrEqual(60);
    expect(result.data.serverInfo.version).toMatch(/^\d+\.\d+\.\d+/);
    // The documentation explorer lists the schema's root types from introspection.
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.getByText('Query', { exact: true }).first().waitFor(WAIT);
    await screenshot(page, 'playground');
    await page.close();
  });

  it('runs a subscription over graphql-ws on the same port', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${app.url}/graphql`);
    await setHeaders(page, SECRETS.dashboard);
    await setEditor(
      page,
      '.graphiql-query-editor .CodeMirror',
      'subscription Live { pageStatsLive(site: "example.com", page: "/pricing", granularity: MINUTE, window: 600) { snapshot total } }',
    );
    // GraphiQL picks up the operation name from the edited text: run only once the tab is named after it.
    await page.locator('.graphiql-tab-button', { hasText: 'Live' }).waitFor(WAIT);
    await page.locator('.graphiql-execute-button').click();
    await page.locator('.result-window', { hasText: 'snapshot' }).waitFor(WAIT);
    expect(JSON.parse(await responseText(page))).toEqual({ data: { pageStatsLive: { snapshot: true, total: 3 } } });
    expect(chromium.requests.some((url) => url.startsWith(`${app.url.replace('http', 'ws')}/graphql`))).toBe(true);
    await page.close();
  });
});

describeInChromium('the /tally.js beacon', () => {
  it('counts the first view and two SPA navigations from another origin, without the query string, by every dimension the browser sent', async () => {
    const page = await chromium.context.newPage();
    const beacons: string[] = [];
    page.on('request', (request) => {
      if (request.url() === `${app.url}/api/hit`) beacons.push(request.postData() ?? '');
    });
    // Arrives from a link on a blog, with a campaign in the URL.
    await page.goto(`${otherUrl}/?utm_source=Mastodon&utm_medium=Social&utm_campaign=Launch%20Week`, {
      referer: 'http://www.blog.example.org/posts/tally',
    });
    await page.locator('#intro').click();
    await page.locator('#pricing').click();
    await page.locator('#same').click(); // replaceState to the same URL: not a new view
    await page.goBack(); // popstate back to the docs page: a view
    await page.locator('#where').filter({ hasText: '/docs/intro?ref=news' }).waitFor(WAIT);
    const read = async (): Promise<number[]> =>
      Promise.all(['/', '/docs/intro', '/pricing'].map((p) => pageTotal('beacon.test', p)));
    expect(await eventually(read, [1, 2, 1], 'the views of /, /docs/intro and /pricing')).toEqual([1, 2, 1]);
    expect(await pageTotal('beacon.test', '/docs/intro?ref=news')).toBe(0);
    await page.locator('#counted').evaluate((element) => {
      element.textContent = 'tally counted (pageStats): / 1, /docs/intro 2, /pricing 1';
    });
    await screenshot(page, 'beacon-site', { clip: { x: 0, y: 0, width: 1200, height: 330 } });
    // No cookies and nothing stored, on either origin.
    expect(await chromium.context.cookies()).toEqual([]);
    expect(await page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);

    // Every dimension's breakdown equals a recount of what the browser sent: the referrer and page of each beacon,
    // the browser's own User-Agent, and 127.0.0.1 (no country).
    const userAgent = (await page.evaluate('navigator.userAgent')) as string;
    await page.close();
    expect(beacons).toHaveLength(4);
    const sent = beacons.map((body) => JSON.parse(body) as { page: string; referrer?: string });
    expect(sent[0]?.referrer).toMatch(/^http:\/\/www\.blog\.example\.org\//);
    const expected = recountBeacons(sent, userAgent, new URL(otherUrl).hostname);
    const counted = await breakdowns('beacon.test', Object.keys(expected) as BeaconDimension[]);
    expect(counted).toEqual(expected);
    // A single-page app's later views come from the page's own origin: internal, though the site is named otherwise.
    expect(counted.SOURCE.map(([value]) => value)).toEqual(['(internal)', 'blog.example.org']);
    // One browser on one address: one visitor, kept per browser family (DIMENSION_VISITORS).
    expect(await browserVisitors('beacon.test')).toEqual([[parseUserAgent(userAgent).browser, 1]]);
  });

  it('records nothing for a Do Not Track visitor when the site asks for it, and counts them otherwise', async () => {
    const page = await chromium.context.newPage();
    await page.addInitScript("Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })");
    const hitsBefore = chromium.requests.filter((url) => url.endsWith('/api/hit')).length;
    await page.goto(`${otherUrl}/respecting?dnt`);
    await page.goto(`${otherUrl}/ignoring`);
    expect(await eventually(() => pageTotal('beacon.test', '/ignoring'), 1, 'the views of /ignoring')).toBe(1);
    expect(await pageTotal('beacon.test', '/respecting')).toBe(0);
    const hitUrls = chromium.requests.filter((url) => url.endsWith('/api/hit')).slice(hitsBefore);
    expect(hitUrls).toEqual([`${app.url}/api/hit`]);
    await page.close();
  });
});

describeInChromium('the dashboard', () => {
  it('charts the chosen pages with the right totals, then updates live when hits arrive', async () => {
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000).toISOString();
    await app.graphqlAs(
      OPS,
      `mutation { recordHits(hits: [
        { site: "dash.test", page: "/", count: 4, at: "${tenMinutesAgo}" },
        { site: "dash.test", page: "/pricing", count: 2, at: "${tenMinutesAgo}" }
      ]) { total } }`,
    );
    const page = await chromium.context.newPage();
    let viewReads = 0;
    page.on('request', (request) => {
      if (request.url() === `${app.url}/graphql` && request.postData()?.includes('DashboardView')) viewReads += 1;
    });
    await page.goto(`${app.url}/dashboard?site=dash.test&pages=/,/pricing&range=1h&granularity=MINUTE`);
    // Keys are configured: without one the API says so, and the page shows it.
    await page.locator('#status[data-state="error"]', { hasText: 'UNAUTHENTICATED' }).waitFor(WAIT);
    await page.locator('input[name="key"]').fill(SECRETS.dashboard);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    // The whole site (siteStats) first, then the chosen pages (pageStats).
    const totals = async (): Promise<string[]> => page.locator('#totals tbody td.total').allTextContents();
    expect(await totals()).toEqual(['6', '4', '2']);
    expect(await page.locator('#chart canvas').count()).toBe(1);
    // Time, the site's hits and visitors, two pages.
    expect(await page.locator('#chart .u-legend .u-series').count()).toBe(5);
    // No visitor ids were sent: no visitors and no visits (a minute chart counts them from the minute documents);
    // nothing in the hour before to compare with.
    expect(await figures(page)).toEqual(MINUTE_CHART_FIGURES(6));

    // The hits figure follows live updates too, and the small print says the others are as read. The view's
    // once-a-minute re-read takes hits in as read and drops that note: when it lands between a hit and the hit's
    // live update, nothing is left to arrive live, so one more hit is sent (the next re-read is a minute away).
    // Without a re-read in between, the note must come.
    const note = page.locator('#figure-notes', { hasText: 'Hits include live updates' });
    let pricing = 2;
    for (let attempt = 1; ; attempt++) {
      const readsBefore = viewReads;
      const count = attempt === 1 ? 5 : 1;
      await app.graphqlAs(
        OPS,
        `mutation { recordHits(hits: [{ site: "dash.test", page: "/pricing", count: ${count} }]) { total } }`,
      );
      pricing += count;
      const shown = await waitFor(
        async () => ((await note.isVisible()) ? 'note' : viewReads > readsBefore ? 'reread' : undefined),
        { until: (value) => value !== undefined, timeoutMs: WAIT.timeout, intervalMs: 100, what: 'the live note' },
      );
      if (shown === 'note') break;
      expect(attempt).toBe(1);
    }
    const total = String(4 + pricing);
    await page.locator('#totals tbody tr.site td.total', { hasText: new RegExp(`^${total}$`) }).waitFor(WAIT);
    expect(await totals()).toEqual([total, '4', String(pricing)]);
    expect(await figures(page)).toEqual(MINUTE_CHART_FIGURES(4 + pricing));
    await screenshot(page, 'dashboard-live', { clip: { x: 0, y: 0, width: 1200, height: 600 } });

    // Another range re-reads the series: the week at hour granularity (minutes are not offered) has them too.
    await page.locator('select[name="range"]').selectOption('7d');
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    await page.locator('#totals tbody tr.site td.total', { hasText: new RegExp(`^${total}$`) }).waitFor(WAIT);
    expect(await totals()).toEqual([total, '4', String(pricing)]);
    expect(new URL(page.url()).searchParams.get('granularity')).toBe('HOUR');
    await page.close();
  });

  it('shows the top-line figures, the visitors line and the panels, and charts a clicked value', async () => {
    await app.graphqlAs(OPS, 'mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { total } }', {
      hits: seedHits(Date.now()),
    });
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 1280, height: 1100 });
    const views: string[] = [];
    page.on('request', (request) => {
      if (request.url() === `${app.url}/graphql` && request.postData()?.includes('DashboardView')) {
        views.push(request.postData() ?? '');
      }
    });
    await page.goto(`${app.url}/dashboard?site=${DASHBOARD_SITE}&range=7d&granularity=DAY`);
    await page.locator('input[name="key"]').fill(SECRETS.dashboard);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#status[data-state="live"]').waitFor(WAIT);

    // The last 7 days (8 UTC days at DAY) against the 8 days before, recounted from what was sent.
    const now = total(SEED.filter(current));
    const before = total(SEED.filter(previous));
    const change = (a: number, b: number): string => {
      const percent = Math.round(((a - b) / b) * 100);
      return `${percent > 0 ? '▲' : '▼'} ${Math.abs(percent)} %`;
    };
    expect((await figures(page)).filter((_, i) => i === 0 || i === 2)).toEqual([
      `${now.visitors} visitors ${change(now.visitors, before.visitors)}`,
      `${now.hits} hits ${change(now.hits, before.hits)}`,
    ]);
    // Each seed row is one instant: a visit, except alice's two rows of today, one visit of three pageviews. Now 8
    // visits of 17 pageviews, 3 of them one pageview (bob's, dave's, frank's); before 4 of 10, 1 (ivan's).
    expect(await figures(page)).toEqual([
      '7 visitors ▲ 75 %',
      '8 visits ▲ 100 %',
      '17 hits ▲ 70 %',
      '2.13 views per visit ▼ 15 %',
      '38 % bounce rate ▲ 13 pp',
      '0s visit duration —',
    ]);

    // The series table: the whole site, then the top pages, each with hits and visitors.
    const byPage = recount(SEED.filter(current), (row) => row.page);
    expect(await tableRows(page)).toEqual([
      [`${DASHBOARD_SITE} (whole site)`, String(now.hits), String(now.visitors)],
      ...byPage.map(([p, r]) => [p, String(r.hits), String(r.visitors)]),
    ]);
    // Time, the site's hits, its visitors, four pages.
    expect(await legend(page)).toEqual([
      'Time',
      `${DASHBOARD_SITE} (whole site)`,
      `visitors (${DASHBOARD_SITE})`,
      ...byPage.map(([p]) => p),
    ]);

    // Each panel: the values with their hits, and visitors where tally keeps them (browser, OS, device).
    const sketched = new Set<PanelDimension>(['BROWSER', 'OS', 'DEVICE']);
    for (const [alias, dimension] of PANEL_ALIASES) {
      const expected = recount(SEED.filter(current), (row) => valueOf(row, dimension)).map(([value, r]) => [
        value,
        String(r.hits),
        sketched.has(dimension) ? String(r.visitors) : '—',
      ]);
      expect([alias, await panelRows(page, alias)]).toEqual([alias, expected]);
    }
    expect(await page.locator('#panel-sources tr[data-value="(internal)"] .note').innerText()).toBe(
      'from the site itself',
    );
    await screenshot(page, 'dashboard-panels', { fullPage: true });

    // Clicking a source charts its hits per day; the URL keeps it.
    await page.locator('#panel-sources button', { hasText: /^Google$/ }).click();
    await page.locator('#totals tbody tr.filtered').waitFor(WAIT);
    const google = total(SEED.filter((row) => current(row) && valueOf(row, 'SOURCE') === 'Google'));
    expect(await tableRows(page, 'tr.filtered')).toEqual([['source: Google', String(google.hits), '—']]);
    expect(new URL(page.url()).searchParams.get('filter')).toBe('source:Google');
    expect(await legend(page)).toContain('source: Google');
    expect(await page.locator('#filter').innerText()).toContain('Charting source: Google');
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    await page.mouse.move(0, 0);
    // docs/dashboard.png is a copy of this one.
    await screenshot(page, 'dashboard', { fullPage: true });

    // A reload keeps the charted value (the key is kept in memory only: type it again).
    await page.reload();
    await page.locator('input[name="key"]').fill(SECRETS.dashboard);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#totals tbody tr.filtered').waitFor(WAIT);
    expect(await tableRows(page, 'tr.filtered')).toEqual([['source: Google', String(google.hits), '—']]);
    expect(await page.locator('#panel-sources tr.selected').getAttribute('data-value')).toBe('Google');

    // Over the last hour it cannot be charted (counted per UTC day), and the bar says so; 30 days chart it by day.
    await page.locator('select[name="range"]').selectOption('1h');
    await page.locator('#filter .reason').waitFor(WAIT);
    expect(await page.locator('#filter .reason').innerText()).toBe(
      'source: Google cannot be charted over the last hour: hits per source are counted per UTC day, so they chart by day, week or month. Pick “Last 7 days” or longer.',
    );
    expect(await page.locator('#totals tbody tr.filtered').count()).toBe(0);
    await page.locator('select[name="range"]').selectOption('30d');
    await page.locator('#totals tbody tr.filtered').waitFor(WAIT);
    expect(new URL(page.url()).searchParams.get('granularity')).toBe('DAY');

    // Clearing it removes the line and the URL's filter.
    await page.getByRole('button', { name: 'Clear ×' }).click();
    await page.locator('#filter').waitFor({ state: 'hidden', ...WAIT });
    expect(await page.locator('#totals tbody tr.filtered').count()).toBe(0);
    expect(new URL(page.url()).searchParams.has('filter')).toBe(false);
    await page.close();

    // The dashboard asked for everything in one query per view: figures, series and the six panels.
    expect(views.length).toBeGreaterThan(0);
    for (const body of views) {
      expect(((JSON.parse(body) as { query: string }).query.match(/breakdown\(/g) ?? []).length).toBe(6);
    }
  });

  it('shows the visit figures of a known pattern of visits, each against the previous period', async () => {
    const at = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();
    const MINUTE = 60_000;
    const DAY = 86_400_000;
    const { body } = await app.graphqlAs(OPS, 'mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { total } }', {
      hits: [
        // The period before (the 8 UTC days before the last 8): carol views two pages a minute apart.
        { site: 'visits.test', page: '/', visitor: 'carol', at: at(10 * DAY + 2 * MINUTE) },
        { site: 'visits.test', page: '/pricing', visitor: 'carol', at: at(10 * DAY + MINUTE) },
        // Now: alice views two pages 2 minutes apart; bob views one page and leaves (a bounce).
        { site: 'visits.test', page: '/', visitor: 'alice', at: at(5 * MINUTE) },
        { site: 'visits.test', page: '/', visitor: 'bob', at: at(4 * MINUTE) },
        { site: 'visits.test', page: '/docs', visitor: 'alice', at: at(3 * MINUTE) },
      ],
    });
    expect(body.errors).toBeUndefined();
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${app.url}/dashboard?site=visits.test&range=7d&granularity=DAY`);
    await page.locator('input[name="key"]').fill(SECRETS.dashboard);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    // 2 visits of 3 pageviews, one a bounce, lasting 2 minutes and 0: against 1 visit of 2 pageviews lasting 1 minute.
    expect(await figures(page)).toEqual([
      '2 visitors ▲ 100 %',
      '2 visits ▲ 100 %',
      '3 hits ▲ 50 %',
      '1.5 views per visit ▼ 25 %',
      '50 % bounce rate ▲ 50 pp',
      '1m 00s visit duration ± 0 %',
    ]);
    // A bounce rate going up is shown as bad news.
    const color = async (figure: string): Promise<string> =>
      page
        .locator(`#figures .figure[data-figure="${figure}"] .change`)
        .evaluate((e) => (globalThis as unknown as StyleHost).getComputedStyle(e).color);
    expect(await color('bounceRate')).toBe('rgb(180, 35, 24)');
    expect(await color('visits')).toBe('rgb(21, 128, 61)');
    expect(await page.locator('#figures .figure[data-figure="visitDuration"] .change').getAttribute('title')).toMatch(
      /^against 1m 00s in the previous period, /,
    );
    await page.mouse.move(0, 0);
    // docs/dashboard-visits.png is a copy of this one.
    await screenshot(page, 'dashboard-visits', { clip: { x: 0, y: 0, width: 1280, height: 640 } });

    // Both visits entered on /; alice's left from /docs, bob's from /. Ties are listed by page path.
    expect(await visitPageRows(page, 'entries')).toEqual([['/', '2']]);
    expect(await visitPageRows(page, 'exits')).toEqual([
      ['/', '1'],
      ['/docs', '1'],
    ]);
    // Per source (no referrer: direct), the visits its hits began and how many of them bounced (bob's).
    expect(await panelVisitRows(page, 'sources')).toEqual([['(direct)', '3', '2', '50 %']]);
    // docs/dashboard-visits-panels.png is a copy of this one.
    await screenshot(page, 'dashboard-visits-panels', { fullPage: true });

    // Over the last hour (a minute chart) the same two visits, from the minute documents' visit counters; nothing in
    // the hour before to compare with.
    await page.locator('select[name="range"]').selectOption('1h');
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    await page.locator('#figures .figure[data-figure="visits"] .value', { hasText: /^2$/ }).waitFor(WAIT);
    expect((await figures(page)).slice(1)).toEqual([
      '2 visits —',
      '3 hits —',
      '1.5 views per visit —',
      '50 % bounce rate —',
      '1m 00s visit duration —',
    ]);
    // The entry and exit pages count the whole UTC days the hour touches, as the API answers them.
    expect(await visitPageRows(page, 'entries')).toEqual([['/', '2']]);

    // With a goal selected the panels count its conversions, which are not visits: no visit figures beside them.
    await page.goto(`${app.url}/dashboard?site=visits.test&range=7d&granularity=DAY&goal=%2Fdocs&selected=%2Fdocs`);
    await page.locator('input[name="key"]').fill(SECRETS.dashboard);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    expect(await panelVisitRows(page, 'sources')).toEqual([['(direct)', '1', '—', '—']]);
    await page.close();
  });

  it('re-reads the figures and panels once a minute, for hits the live updates do not carry', async () => {
    const record = async (page: string, referrer?: string): Promise<void> => {
      const { body } = await app.graphqlAs(OPS, 'mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { total } }', {
        hits: [{ site: 'refresh.test', page, visitor: `v-${page}`, ...(referrer ? { referrer } : {}) }],
      });
      expect(body.errors).toBeUndefined();
    };
    await record('/');
    const page = await chromium.context.newPage();
    // The page's timers run on a clock the test moves: the minute passes without waiting for it.
    await page.clock.install();
    await page.goto(`${app.url}/dashboard?site=refresh.test&range=24h&pages=/`);
    await page.locator('input[name="key"]').fill(SECRETS.dashboard);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    expect(await figures(page)).toEqual([
      '1 visitor —',
      '1 visit —',
      '1 hit —',
      '1 views per visit —',
      '100 % bounce rate —',
      '0s visit duration —',
    ]);
    expect(await panelRows(page, 'sources')).toEqual([['(direct)', '1', '—']]);

    // A hit on a page the chart does not show: no subscription carries it, the minute's re-read does.
    await record('/elsewhere', 'https://www.bing.com/');
    await page.clock.fastForward(60_000);
    await page.locator('#panel-sources tr[data-value="Bing"]').waitFor(WAIT);
    expect(await panelRows(page, 'sources')).toEqual([
      ['(direct)', '1', '—'],
      ['Bing', '1', '—'],
    ]);
    expect(await figures(page)).toEqual([
      '2 visitors —',
      '2 visits —',
      '2 hits —',
      '1 views per visit —',
      '100 % bounce rate —',
      '0s visit duration —',
    ]);
    await page.close();
  });

  it("charts the site's top pages when no page is chosen", async () => {
    const at = new Date(Date.now() - 5 * 60_000).toISOString();
    await app.graphqlAs(
      OPS,
      `mutation { recordHits(hits: [
        { site: "top.test", page: "/b", count: 1, at: "${at}" },
        { site: "top.test", page: "/a", count: 3, at: "${at}" }
      ]) { total } }`,
    );
    const page = await chromium.context.newPage();
    await page.goto(`${app.url}/dashboard?site=top.test&range=24h`);
    await page.locator('input[name="key"]').fill(SECRETS.dashboard);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    const rows = await page.locator('#totals tbody tr').allInnerTexts();
    // Hits without visitor ids: the visitors column says 0, which is what was sent. On an HOUR chart pages'
    // visitors are read per UTC day, marked *.
    expect(rows.map((row) => row.split('\t').map((cell) => cell.trim()))).toEqual([
      ['top.test (whole site)', '4', '0'],
      ['/a', '3', '0*'],
      ['/b', '1', '0*'],
    ]);
    expect(await page.locator('#totals tbody tr.page td.visitors').first().getAttribute('title')).toMatch(
      /^visitors counted over \d+ \w{3}( – \d+ \w{3})? UTC$/,
    );
    await page.close();
  });
});
