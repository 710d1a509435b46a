/**
 * The dashboard's goals (issue 28) in Chromium: a person types goals into the Goals panel (an event and two page
 * patterns), reads visitors, events, conversion rate and revenue equal to a recount of what was recorded, clicks a
 * goal to chart it, sees the panels count its conversions and its event's property values, and finds it all again
 * after a reload (the URL keeps the goals). No request may leave 127.0.0.1. The screenshot goes to
 * test-artifacts/browser/dashboard-goals.png (docs/dashboard-goals.png is a copy). Without Chromium the tests are
 * skipped (see test/support/chromium).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { buildTestWeb } from '../support/buildTestWeb';
import { browserTestsRun, isLocal, launchChromium } from '../support/chromium';
import type { RecordingBrowser } from '../support/chromium';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { SECRETS, bearer } from '../support/testKeys';

const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts', 'browser');
const SITE = 'goals.test';
const OPS = bearer(SECRETS.ops);
const WAIT = { timeout: 45_000 };
const DAY = 86_400_000;
const describeInChromium = browserTestsRun() ? describe : describe.skip;

/** Each visitor arrives from one place and views one page; some then send events. */
const VISITORS = [
  { visitor: 'alice', referrer: 'https://www.google.com/', source: 'Google', page: '/', daysAgo: 0 },
  { visitor: 'bob', referrer: 'https://news.ycombinator.com/', source: 'Hacker News', page: '/', daysAgo: 1 },
  { visitor: 'carol', source: '(direct)', page: '/pricing', daysAgo: 2 },
  { visitor: 'dave', referrer: 'https://www.google.com/', source: 'Google', page: '/', daysAgo: 3 },
  { visitor: 'erin', source: '(direct)', page: '/blog/first', daysAgo: 4 },
  { visitor: 'frank', referrer: 'https://duckduckgo.com/', source: 'DuckDuckGo', page: '/blog/second', daysAgo: 5 },
] as const;

type Visitor = (typeof VISITORS)[number]['visitor'];

interface EventRow {
  readonly visitor: Visitor;
  readonly event: string;
  readonly plan?: string;
  readonly revenue?: { readonly amount: string; readonly currency: string };
}

const EVENTS: readonly EventRow[] = [
  { visitor: 'alice', event: 'Signup', plan: 'pro', revenue: { amount: '29.90', currency: 'EUR' } },
  { visitor: 'alice', event: 'Signup', plan: 'pro' },
  { visitor: 'bob', event: 'Signup', plan: 'free' },
  { visitor: 'carol', event: 'Signup', plan: 'pro', revenue: { amount: '12.50', currency: 'EUR' } },
  { visitor: 'erin', event: 'Download' },
];

function seedHits(now: number): Array<Record<string, unknown>> {
  const of = (visitor: Visitor): (typeof VISITORS)[number] => VISITORS.find((v) => v.visitor === visitor)!;
  const base = (v: (typeof VISITORS)[number]): Record<string, unknown> => ({
    site: SITE,
    page: v.page,
    at: new Date(now - v.daysAgo * DAY - 60_000).toISOString(),
    visitor: v.visitor,
    ...('referrer' in v ? { referrer: v.referrer } : {}),
  });
  return [
    ...VISITORS.map(base),
    ...EVENTS.map((e) => ({
      ...base(of(e.visitor)),
      event: e.event,
      ...(e.plan ? { props: [{ key: 'plan', value: e.plan }] } : {}),
      ...(e.revenue ? { revenue: e.revenue } : {}),
    })),
  ];
}

/** What the Goals panel should say, recounted from the seed: [goal, visitors, events, rate, revenue]. */
function expectedGoalRows(): string[][] {
  const siteVisitors = VISITORS.length;
  const rate = (visitors: number): string => `${((visitors / siteVisitors) * 100).toFixed(1)} %`;
  const signups = EVENTS.filter((e) => e.event === 'Signup');
  const signupVisitors = new Set(signups.map((e) => e.visitor)).size;
  const cents = signups.reduce((sum, e) => sum + (e.revenue ? Math.round(Number(e.revenue.amount) * 100) : 0), 0);
  const onPage = (match: (page: string) => boolean): number => VISITORS.filter((v) => match(v.page)).length;
  const pricing = onPage((p) => p === '/pricing');
  const blog = onPage((p) => /^\/blog\/[^/]*$/.test(p));
  return [
    ['Signup', String(signupVisitors), String(signups.length), rate(signupVisitors), `${(cents / 100).toFixed(2)} EUR`],
    ['Visit /pricing', String(pricing), String(pricing), rate(pricing), '—'],
    ['Visit /blog/*', String(blog), String(blog), rate(blog), '—'],
  ];
}

/** Signups by source, ranked as tally ranks them (count, then value). */
function signupsBySource(): string[][] {
  const counts = new Map<string, number>();
  for (const e of EVENTS.filter((row) => row.event === 'Signup')) {
    const source = VISITORS.find((v) => v.visitor === e.visitor)!.source;
    counts.set(source, (counts.get(source) ?? 0) + 1);
  }
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([value, hits]) => [value, String(hits)]);
}

let app: TestApp;
let chromium: RecordingBrowser;

beforeAll(async () => {
  const webDir = await buildTestWeb();
  const sha256 = (secret: string): string => createHash('sha256').update(secret).digest('hex');
  app = await startTestApp('browser_goals', {
    TALLY_WEB_DIR: webDir,
    TALLY_KEYS_JSON: JSON.stringify({
      keys: [
        { name: 'dashboard', sha256: sha256(SECRETS.dashboard), scopes: ['read'] },
        { name: 'ops', sha256: sha256(SECRETS.ops), scopes: ['admin', 'read', 'ingest'] },
      ],
    }),
  });
  chromium = await launchChromium();
}, 120_000);

afterAll(async () => {
  await chromium?.close();
  await app?.stop();
});

afterEach(() => {
  expect(chromium.outside).toEqual([]);
  expect(chromium.requests.filter((url) => !isLocal(url))).toEqual([]);
});

async function showWithKey(page: Page): Promise<void> {
  await page.locator('input[name="key"]').fill(SECRETS.dashboard);
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await page.locator('#status[data-state="live"]').waitFor(WAIT);
}

async function addGoal(page: Page, text: string, rows: number): Promise<void> {
  await page.locator('#goals input[name="goal"]').fill(text);
  await page.locator('#goals input[name="goal"]').press('Enter');
  await page.locator(`#goals tbody tr:nth-child(${rows}) td.events`, { hasText: /\d/ }).waitFor(WAIT);
}

async function goalRows(page: Page): Promise<string[][]> {
  return page
    .locator('#goals tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) =>
        ['value', 'visitors', 'events', 'rate', 'revenue'].map((c) => tr.querySelector(`td.${c}`)?.textContent ?? ''),
      ),
    );
}

async function rowsOf(page: Page, selector: string): Promise<string[][]> {
  return page
    .locator(`${selector} tbody tr`)
    .evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-value') ?? '', tr.querySelector('td.hits')?.textContent ?? '']),
    );
}

describeInChromium('the Goals panel', () => {
  it('shows the goals entered with their recounted figures, charts a clicked goal with its conversions and properties, and keeps them in the URL', async () => {
    const { body } = await app.graphqlAs<{ recordHits: { total: number } }>(
      OPS,
      'mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { total } }',
      { hits: seedHits(Date.now()) },
    );
    expect(body.errors).toBeUndefined();
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 1280, height: 1250 });
    await page.goto(`${app.url}/dashboard?site=${SITE}&range=7d&granularity=DAY`);
    await showWithKey(page);
    expect(await page.locator('#goals p.empty').innerText()).toContain('Add an event name');

    await addGoal(page, 'Signup', 1);
    await addGoal(page, '/pricing', 2);
    await addGoal(page, '/blog/*', 3);
    expect(await goalRows(page)).toEqual(expectedGoalRows());
    // Without a selected goal the panels count hits, and no properties panel shows.
    expect(await page.locator('#panel-sources th').nth(1).innerText()).toBe('Hits');
    expect(await page.locator('#properties').isHidden()).toBe(true);

    // An event goal: its series is charted, the panels count its events, and its properties can be listed.
    await page.locator('#goals tbody tr[data-goal="Signup"] button[aria-pressed]').click();
    await page.locator('#goal-bar', { hasText: 'Charting goal Signup' }).waitFor(WAIT);
    await page.locator('#totals tbody tr.goal').waitFor(WAIT);
    expect(await page.locator('#totals tbody tr.goal td').allTextContents()).toEqual(['goal: Signup', '4', '3']);
    expect(await page.locator('#chart .u-legend .u-series .u-label').allTextContents()).toContain('goal: Signup');
    expect(await page.locator('#panel-sources th').nth(1).innerText()).toBe('Events');
    expect(await rowsOf(page, '#panel-sources')).toEqual(signupsBySource());
    await page.locator('#properties input[name="key"]').fill('plan');
    await page.locator('#properties input[name="key"]').press('Enter');
    await page.locator('#properties tbody tr').first().waitFor(WAIT);
    expect(await rowsOf(page, '#properties')).toEqual([
      ['pro', '3'],
      ['free', '1'],
    ]);
    const url = new URL(page.url());
    expect(url.searchParams.getAll('goal')).toEqual(['Signup', '/pricing', '/blog/*']);
    expect(url.searchParams.get('selected')).toBe('Signup');
    expect(url.searchParams.get('property')).toBe('plan');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-goals.png'), fullPage: true });

    // A reload keeps the goals, the selected one and its property (the API key is kept in memory only).
    await page.reload();
    await showWithKey(page);
    await page.locator('#properties tbody tr').first().waitFor(WAIT);
    expect(await goalRows(page)).toEqual(expectedGoalRows());
    expect(
      await page.locator('#goals tbody tr[data-goal="Signup"] button[aria-pressed]').getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await page.locator('#totals tbody tr.goal td').allTextContents()).toEqual(['goal: Signup', '4', '3']);
    expect(await rowsOf(page, '#properties')).toEqual([
      ['pro', '3'],
      ['free', '1'],
    ]);

    // Over the last hour (no day buckets) the event goal is not charted, and the bar says why; its panels still count it.
    await page.locator('select[name="range"]').selectOption('1h');
    await page.locator('#goal-bar .reason', { hasText: 'cannot be charted over the last hour' }).waitFor(WAIT);
    expect(await page.locator('#totals tbody tr.goal').count()).toBe(0);
    // The panels count the UTC days the hour touches: today's signups (alice's two, from Google) at least.
    expect(await page.locator('#panel-sources th').nth(1).innerText()).toBe('Events');
    expect((await rowsOf(page, '#panel-sources'))[0]).toEqual(['Google', '2']);
    await page.locator('select[name="range"]').selectOption('7d');
    await page.locator('#goal-bar', { hasText: 'Charting goal Signup' }).waitFor(WAIT);

    // An exact page goal charts that page's hits and the panels count them; a pattern says why it is not charted.
    await page.locator('#goals tbody tr[data-goal="/pricing"] button[aria-pressed]').click();
    await page.locator('#goal-bar', { hasText: 'Charting goal Visit /pricing' }).waitFor(WAIT);
    expect(await page.locator('#totals tbody tr.goal td.total').innerText()).toBe('1');
    expect(await rowsOf(page, '#panel-sources')).toEqual([['(direct)', '1']]);
    expect(await page.locator('#properties').isHidden()).toBe(true);
    await page.locator('#goals tbody tr[data-goal="/blog/*"] button[aria-pressed]').click();
    await page.locator('#goal-bar .reason', { hasText: 'Visit /blog/* matches many pages' }).waitFor(WAIT);
    expect(await page.locator('#totals tbody tr.goal').count()).toBe(0);

    // Removing a goal removes it from the URL too.
    await page.locator('#goals tbody tr[data-goal="/pricing"] button.remove').click();
    await page.locator('#goals tbody tr[data-goal="/pricing"]').waitFor({ state: 'detached', ...WAIT });
    expect(new URL(page.url()).searchParams.getAll('goal')).toEqual(['Signup', '/blog/*']);
    await page.close();
  });
});
