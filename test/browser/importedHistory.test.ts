/**
 * Last year's access log in the dashboard (issue 30): the built `tally import` sends a generated log of the past
 * calendar year to the built server, and Chromium opens the dashboard on a custom range of days
 * (`?from=…&to=…`), picks one through the form, and shows "all time". The figures, the series table and the
 * comparison with the period before equal counts made from the generated lines themselves (page views only: bots,
 * assets, errors and POSTs are not counted), not from anything tally answered.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { timeLocal } from '../../bench/shared/accessLogs';
import { seededRandom } from '../../bench/shared/random';
import { startCliChild } from '../support/builtCli';
import { browserTestsRun, launchChromium } from '../support/chromium';
import type { RecordingBrowser } from '../support/chromium';
import { assertBuilt, startServer, stopWith, temporaryDataDir, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';

const describeInChromium = browserTestsRun() ? describe : describe.skip;
const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts', 'browser');
const WAIT = { timeout: 45_000 };
const DAY = 86_400_000;
const SITE = 'history.example';
/** The calendar year before this one: always wholly in the past. */
const YEAR = new Date().getUTCFullYear() - 1;
const YEAR_START = Date.UTC(YEAR, 0, 1);
const YEAR_DAYS = (Date.UTC(YEAR + 1, 0, 1) - YEAR_START) / DAY;
const PAGES = ['/', '/pricing', '/docs/install'];
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

interface Line {
  readonly text: string;
  /** The instant logged, and the page it counts for when it is a page view. */
  readonly at: number;
  readonly view?: string;
}

/** 700 requests over the year at four UTC offsets; about 70 % are page views. */
function generateLog(): Line[] {
  const random = seededRandom(30);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return Array.from({ length: 700 }, (_, i): Line => {
    // Whole seconds: a log has no milliseconds. The first line is on 2 January, so all time has a known start.
    const at = i === 0 ? YEAR_START + DAY + 3_600_000 : YEAR_START + Math.floor(random() * YEAR_DAYS * 86_400) * 1000;
    const offset = pick([0, 120, -420, 330]);
    const page = pick(PAGES);
    const roll = random();
    const request = (method: string, target: string, status: number, agent: string): string =>
      `198.51.100.${i % 50} - - [${timeLocal(at, offset)}] "${method} ${target} HTTP/1.1" ${status} 512 "-" "${agent}"`;
    if (i === 0 || roll < 0.7) return { text: request('GET', page, 200, BROWSER), at, view: page };
    if (roll < 0.78) return { text: request('GET', page, 404, BROWSER), at };
    if (roll < 0.86) return { text: request('GET', '/static/site.css', 200, BROWSER), at };
    if (roll < 0.93) return { text: request('POST', page, 200, BROWSER), at };
    return { text: request('GET', page, 200, BOT), at };
  });
}

const LINES = generateLog();

/** Page views in [from, to), in all and per page (most first, ties by path: the dashboard's order). */
function recount(from: number, to: number): { hits: number; pages: Array<[string, number]> } {
  const views = LINES.filter((line) => line.view !== undefined && line.at >= from && line.at < to);
  const pages = new Map<string, number>();
  for (const line of views) pages.set(line.view as string, (pages.get(line.view as string) ?? 0) + 1);
  return {
    hits: views.length,
    pages: [...pages].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)),
  };
}

const change = (now: number, before: number): string => {
  const percent = Math.round((Math.abs(now - before) / before) * 100);
  return `${now > before ? '▲' : '▼'} ${percent} %`;
};

async function figure(page: Page, key: string): Promise<string> {
  return (await page.locator(`#figures .figure[data-figure="${key}"]`).innerText()).replace(/\s+/g, ' ').trim();
}

async function tableRows(page: Page): Promise<string[][]> {
  return page
    .locator('#totals tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent?.trim() ?? '')),
    );
}

const expectedRows = (counted: { hits: number; pages: Array<[string, number]> }): string[][] => [
  [`${SITE} (whole site)`, counted.hits.toLocaleString('en-US')],
  ...counted.pages.map(([p, hits]) => [p, hits.toLocaleString('en-US')]),
];

let dir: string;
let server: ServerProcess;
let url: string;
let chromium: RecordingBrowser;

describeInChromium('last year imported, in the dashboard', () => {
  beforeAll(async () => {
    assertBuilt();
    dir = temporaryDataDir('history');
    const log = path.join(dir, 'access.log');
    fs.writeFileSync(log, `${LINES.map((line) => line.text).join('\n')}\n`);
    server = startServer({ TALLY_DATA_DIR: path.join(dir, 'data') });
    url = await waitUntilServing(server);
    const imported = await startCliChild([
      'import',
      '--url',
      `${url}/graphql`,
      '--site',
      SITE,
      '--progress',
      'none',
      '--json',
      log,
    ]).done;
    expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: '' });
    expect((JSON.parse(imported.stdout) as { hitsImported: number }).hitsImported).toBe(recount(0, Infinity).hits);
    chromium = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      expect(await stopWith(server, 'SIGTERM')).toBe(0);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows a custom range of days exactly, against the days before it, and keeps it in the URL', async () => {
    const first = `${YEAR}-03-01`;
    const last = `${YEAR}-05-31`;
    const from = Date.UTC(YEAR, 2, 1);
    const to = Date.UTC(YEAR, 5, 1);
    const now = recount(from, to);
    // 92 days by DAY: the previous period is the 92 days before 1 March.
    const before = recount(from - 92 * DAY, from);
    expect(now.hits).toBeGreaterThan(0);
    expect(before.hits).toBeGreaterThan(0);

    const page = await chromium.context.newPage();
    await page.goto(`${url}/dashboard?site=${SITE}&from=${first}&to=${last}`);
    await page.locator('#status[data-state="ready"]', { hasText: 'the period is over' }).waitFor(WAIT);
    expect(await figure(page, 'hits')).toBe(`${now.hits} hits ${change(now.hits, before.hits)}`);
    expect(await tableRows(page)).toEqual(expectedRows(now));
    expect(await page.locator('#figure-notes').innerText()).toContain('1 Mar – 31 May UTC');
    const params = new URL(page.url()).searchParams;
    expect([params.get('from'), params.get('to'), params.get('range'), params.get('granularity')]).toEqual([
      first,
      last,
      null,
      'DAY',
    ]);
    expect(await page.locator('select[name="range"]').inputValue()).toBe('custom');
    expect(await page.locator('input[name="from"]').inputValue()).toBe(first);
    await page.mouse.move(0, 0);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    // docs/dashboard-custom-range.png is a copy of this one.
    await page.screenshot({ path: path.join(ARTIFACTS, 'dashboard-custom-range.png'), fullPage: true });

    // Another range through the form: one day, by the hour.
    await page.locator('input[name="from"]').fill(`${YEAR}-01-02`);
    await page.locator('input[name="to"]').fill(`${YEAR}-01-02`);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL((at) => at.searchParams.get('from') === `${YEAR}-01-02`, WAIT);
    const day = recount(YEAR_START + DAY, YEAR_START + 2 * DAY);
    await page.locator('#totals tbody tr.site td.total', { hasText: new RegExp(`^${day.hits}$`) }).waitFor(WAIT);
    expect(await tableRows(page)).toEqual(expectedRows(day));
    expect(new URL(page.url()).searchParams.get('granularity')).toBe('HOUR');

    // Days the wrong way round are refused where they were typed, and the view stays.
    await page.locator('input[name="from"]').fill(`${YEAR}-01-05`);
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('#status[data-state="error"]', { hasText: 'A custom range needs two days' }).waitFor(WAIT);
    expect(new URL(page.url()).searchParams.get('from')).toBe(`${YEAR}-01-02`);
    expect(await tableRows(page)).toEqual(expectedRows(day));
    await page.close();
  });

  it('shows all time from the first imported day, with every imported view', async () => {
    const all = recount(0, Infinity);
    const page = await chromium.context.newPage();
    await page.goto(`${url}/dashboard?site=${SITE}&range=1h`);
    await page.locator('#status[data-state]:not([data-state="loading"])').waitFor(WAIT);
    await page.locator('select[name="range"]').selectOption('all');
    await page.waitForURL((at) => at.searchParams.get('range') === 'all', WAIT);
    await page.locator('#totals tbody tr.site td.total', { hasText: all.hits.toLocaleString('en-US') }).waitFor(WAIT);
    // Nothing was stored before the first day: no earlier number to compare with.
    expect(await figure(page, 'hits')).toBe(`${all.hits.toLocaleString('en-US')} hits —`);
    expect(await tableRows(page)).toEqual(expectedRows(all));
    // Longer than 400 days: by month, from the first imported day's month.
    expect(new URL(page.url()).searchParams.get('granularity')).toBe('MONTH');
    expect(await page.locator('#figure-notes').innerText()).toMatch(new RegExp(`^1 Jan ${YEAR} – `));
    expect(chromium.outside).toEqual([]);
    await page.close();
  });
});
