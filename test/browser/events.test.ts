/**
 * The beacon's custom events (issue 28) in Chromium: a page on another origin queues `tally()` calls before the
 * script loads, sends an event with properties and revenue from a click, and opts into outbound-link and
 * file-download capture; the events, their properties and the revenue are read back through the API. No request
 * may leave 127.0.0.1. Without Chromium the tests are skipped (see test/support/chromium).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestWeb } from '../support/buildTestWeb';
import { browserTestsRun, isLocal, launchChromium } from '../support/chromium';
import type { RecordingBrowser } from '../support/chromium';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { SECRETS, bearer } from '../support/testKeys';
import { waitFor } from '../support/waitFor';

const SITE_KEY = 'pk_events_test_0123456789';
const SITE = 'events.test';
const OPS = bearer(SECRETS.ops);
const describeInChromium = browserTestsRun() ? describe : describe.skip;

let app: TestApp;
let chromium: RecordingBrowser;
let otherOrigin: http.Server;
let otherUrl = '';
let tallyUrl = '';

function sitePage(): string {
  const stub = 'window.tally = window.tally || function () { (tally.q = tally.q || []).push(arguments) };';
  return `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Events</title>
<script>${stub} tally('Early', { props: { when: 'before load' } });</script>
<script defer src="${tallyUrl}/tally.js" data-site="${SITE}" data-key="${SITE_KEY}" data-outbound-links data-file-downloads></script>
</head><body>
<button id="buy" onclick="tally('Purchase', { props: { plan: 'pro' }, revenue: { amount: '29.90', currency: 'EUR' } })">Buy</button>
<a id="out" href="${tallyUrl}/elsewhere?secret=1" onclick="event.preventDefault()">Elsewhere</a>
<a id="file" href="/files/report.pdf" onclick="event.preventDefault()">Report</a>
<a id="inside" href="/about" onclick="event.preventDefault()">About</a>
</body></html>`;
}

beforeAll(async () => {
  const webDir = await buildTestWeb();
  otherOrigin = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(sitePage());
  });
  await new Promise<void>((resolve) => otherOrigin.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(otherOrigin.address() as AddressInfo).port}`;
  const sha256 = (secret: string): string => createHash('sha256').update(secret).digest('hex');
  app = await startTestApp('browser_events', {
    TALLY_WEB_DIR: webDir,
    TALLY_KEYS_JSON: JSON.stringify({
      keys: [{ name: 'ops', sha256: sha256(SECRETS.ops), scopes: ['admin', 'read', 'ingest'] }],
      siteKeys: [{ key: SITE_KEY, site: SITE, origins: [otherUrl] }],
    }),
  });
  tallyUrl = app.url;
  chromium = await launchChromium();
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await new Promise((resolve) => otherOrigin?.close(resolve));
  await app?.stop();
});

interface Read {
  events: { edges: Array<{ node: { value: string; hits: number } }> };
  urls: { edges: Array<{ node: { value: string; hits: number } }> };
  files: { edges: Array<{ node: { value: string; hits: number } }> };
  conversions: Array<{ events: number; revenue: Array<{ currency: string; amount: string }> }>;
}

async function read(): Promise<Read> {
  const range = `{ from: "${new Date(Date.now() - 86_400_000).toISOString()}", to: "${new Date(Date.now() + 86_400_000).toISOString()}" }`;
  const { body } = await app.graphqlAs<Read>(
    OPS,
    `query { events(site: "${SITE}", range: ${range}) { edges { node { value hits } } }
      urls: properties(site: "${SITE}", event: "Outbound Link: Click", key: "url", range: ${range}) { edges { node { value hits } } }
      files: properties(site: "${SITE}", event: "File Download", key: "url", range: ${range}) { edges { node { value hits } } }
      conversions(site: "${SITE}", range: ${range}, goals: [{ event: "Purchase" }]) { events revenue { currency amount } } }`,
  );
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as Read;
}

describeInChromium('tally() in Chromium', () => {
  it('sends queued and direct events with props and revenue, and captures outbound links and downloads', async () => {
    const page = await chromium.context.newPage();
    await page.goto(`${otherUrl}/shop`);
    // The script replaced the stub (whose queue it drained) with its own tally().
    await page.waitForFunction('typeof window.tally === "function" && window.tally.q === undefined');
    await page.click('#buy');
    await page.click('#out');
    await page.click('#file');
    await page.click('#inside');
    const names = (r: Read): Array<[string, number]> => r.events.edges.map((e) => [e.node.value, e.node.hits]);
    const seen = await waitFor(read, {
      what: 'four events counted',
      timeoutMs: 30_000,
      until: (r) => names(r).length === 4,
    });
    expect(new Map(names(seen))).toEqual(
      new Map([
        ['Early', 1],
        ['Purchase', 1],
        ['Outbound Link: Click', 1],
        ['File Download', 1],
      ]),
    );
    // The link's query is not sent: it may carry personal data.
    expect(seen.urls.edges).toEqual([{ node: { value: `${tallyUrl}/elsewhere`, hits: 1 } }]);
    expect(seen.files.edges).toEqual([{ node: { value: `${otherUrl}/files/report.pdf`, hits: 1 } }]);
    expect(seen.conversions).toEqual([{ events: 1, revenue: [{ currency: 'EUR', amount: '29.90' }] }]);
    expect(chromium.outside).toEqual([]);
    expect(chromium.requests.filter((url) => !isLocal(url))).toEqual([]);
    await page.close();
  }, 90_000);
});
