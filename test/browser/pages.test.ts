/**
 * The three browser pages in Chromium, against a whole tally instance: the playground runs the
 * README's Dashboard query and a subscription; a page on another origin includes /tally.js and navigates
 * like a single-page app, and pageStats counts its views; the dashboard charts the right totals and
 * updates live. No request may leave 127.0.0.1. Screenshots go to test-artifacts/browser/. Without Chromium the
 * tests are skipped, and the run's summary names them, says why and how to run them (see test/support/chromium).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { buildTestWeb } from '../support/buildTestWeb';
import { browserTestsRun, isLocal, launchChromium } from '../support/chromium';
import type { RecordingBrowser } from '../support/chromium';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { SECRETS, bearer } from '../support/testKeys';
import { waitFor } from '../support/waitFor';

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
  clip?: { x: number; y: number; width: number; height: number },
): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), ...(clip ? { clip } : {}) });
}

interface CodeMirrorHost {
  CodeMirror: { getValue(): string; setValue(value: string): void };
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
  it('counts the first view and two SPA navigations from another origin, without the query string', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${otherUrl}/`);
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
    await screenshot(page, 'beacon-site', { x: 0, y: 0, width: 1200, height: 330 });
    // No cookies and nothing stored, on either origin.
    expect(await chromium.context.cookies()).toEqual([]);
    expect(await page.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
    await page.close();
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
    expect(await page.locator('#chart .u-legend .u-series').count()).toBe(4); // time, site, two pages

    await app.graphqlAs(
      OPS,
      'mutation { recordHits(hits: [{ site: "dash.test", page: "/pricing", count: 5 }]) { total } }',
    );
    await page.locator('#totals tbody tr.site td.total', { hasText: /^11$/ }).waitFor(WAIT);
    expect(await totals()).toEqual(['11', '4', '7']);
    await screenshot(page, 'dashboard', { x: 0, y: 0, width: 1200, height: 600 });

    // Another range re-reads the series: the week at hour granularity (minutes are not offered) has them too.
    await page.locator('select[name="range"]').selectOption('7d');
    await page.locator('#status[data-state="live"]').waitFor(WAIT);
    await page.locator('#totals tbody tr.site td.total', { hasText: /^11$/ }).waitFor(WAIT);
    expect(await totals()).toEqual(['11', '4', '7']);
    expect(new URL(page.url()).searchParams.get('granularity')).toBe('HOUR');
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
    expect(rows.map((row) => row.split('\t').map((cell) => cell.trim()))).toEqual([
      ['top.test (whole site)', '4'],
      ['/a', '3'],
      ['/b', '1'],
    ]);
    await page.close();
  });
});
