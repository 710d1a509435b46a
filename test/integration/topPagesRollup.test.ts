import fc from 'fast-check';
import type { Collection, Document } from 'mongodb';
import type { Hit } from '../../src/domain/Hit';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { TopPagesQuery } from '../../src/query/TopPagesQuery';
import { CounterStore } from '../../src/store/CounterStore';
import { dailyDocumentId, DAILY_COLLECTION } from '../../src/store/dailyStats';
import { monthlyDocumentId } from '../../src/store/monthlyStats';
import { PageRollup } from '../../src/store/PageRollup';
import { ROLLUPS_COLLECTION } from '../../src/store/pageRollups';
import { startOfMonth } from '../../src/time/buckets';
import { SitePageScan } from '../../src/store/SitePageScan';
import { pageHits, writeHits } from '../support/counterFixtures';
import { naiveRanking } from '../support/naiveRanking';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const ms = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SPAN_FROM = ms('2026-02-25T00:00:00Z');
const SPAN_TO = ms('2026-03-06T00:00:00Z');
const PAGES = ['/', '/a', '/b', '/b/c', '/a.b', '/$x', '/ü', '/a?x=1'];

let database: TestDatabase;
let store: CounterStore;
let scan: SitePageScan;
let query: TopPagesQuery;
let daily: Collection<Document>;
let rollups: Collection<Document>;

beforeAll(async () => {
  database = await connectTestDatabase('top_pages_rollup');
  store = new CounterStore(database);
  await store.ensureIndexes();
  scan = new SitePageScan(database);
  await scan.ensureIndexes();
  query = new TopPagesQuery(scan, { maxPageSize: 100, maxDays: 10_000 });
  daily = database.db.collection(DAILY_COLLECTION);
  rollups = database.db.collection(ROLLUPS_COLLECTION);
  // A database without counters: rollups vouch for every day.
  expect(await store.ensureRollupMarker(true, Date.now())).toBe(0);
});

afterAll(async () => {
  await database.dropAndClose();
});

async function ranking(site: string, from: number, to: number, timeZone = 'UTC') {
  return query.topPages({ site, from: new Date(from), to: new Date(to), timeZone, first: 100 });
}

function siteDayId(site: string, day: number): string {
  return dailyDocumentId(site, SITE_TOTAL_PAGE, day);
}

function siteMonthId(site: string, day: number): string {
  return monthlyDocumentId(site, SITE_TOTAL_PAGE, startOfMonth(day));
}

describe('topPages from the page rollups', () => {
  it('equals a naive ranking whatever the cap, the zone and the range (rollup days and scanned days mixed)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        pageHits(PAGES, { from: SPAN_FROM, to: SPAN_TO }, { maxCount: 3, minLength: 0, maxLength: 60 }),
        fc.integer({ min: SPAN_FROM, max: SPAN_TO - 1 }),
        fc.integer({ min: 1, max: 8 * DAY }),
        fc.constantFrom('UTC', 'Europe/Berlin', 'Asia/Kolkata'),
        fc.integer({ min: 1, max: PAGES.length + 1 }),
        async (raw, from, length, timeZone, maxPages) => {
          const site = `rollup-${run++}`;
          const hits: Hit[] = raw.map((h) => ({ site, ...h }));
          if (hits.length > 0) {
            await writeHits(store, hits, { siteTotals: true, pageRollup: new PageRollup({ maxPages }) });
          }
          const result = await ranking(site, from, from + length, timeZone);
          const expected = naiveRanking(hits, result.from, result.to);
          expect(result.edges.map((e) => e.node)).toEqual(expected);
          expect(result.totalCount).toBe(expected.length);
        },
      ),
      { numRuns: 20, seed: 27, endOnFailure: true },
    );
  });

  it('reads a complete rollup instead of the pages’ documents: a month whole, or its days', async () => {
    const site = 'rollup-read';
    const day = ms('2026-03-02T00:00:00Z');
    const hits: Hit[] = [
      { site, page: '/a', at: day + HOUR, count: 3 },
      { site, page: '/b', at: day + 2 * HOUR, count: 1 },
      { site, page: '/c', at: day + DAY + HOUR, count: 2 },
    ];
    await writeHits(store, hits, { siteTotals: true, pageRollup: new PageRollup({ maxPages: 10 }) });
    const dayDoc = await rollups.findOne({ _id: siteDayId(site, day) } as Document);
    expect(dayDoc).toMatchObject({ t: 4, p: { '/a': 3, '/b': 1 } });
    const monthDoc = await rollups.findOne({ _id: siteMonthId(site, day) } as Document);
    expect(monthDoc).toMatchObject({ t: 6, d: { 2: 4, 3: 2 }, p: { '/a': 3, '/b': 1, '/c': 2 } });
    // The site's own documents no longer carry the rollup.
    expect((await daily.findOne({ _id: siteDayId(site, day) } as Document))?.p).toBeUndefined();

    // Moved between pages, a rollup still adds up to its total: the ranking follows it, so it read it. One day of
    // the month's two with hits comes from the day's document; both from the month's.
    await rollups.updateOne({ _id: siteDayId(site, day) } as Document, { $set: { 'p./a': 1, 'p./b': 3 } });
    await rollups.updateOne({ _id: siteMonthId(site, day) } as Document, { $set: { 'p./a': 2, 'p./c': 3 } });
    expect((await ranking(site, day, day + DAY)).edges.map((e) => e.node)).toEqual([
      { page: '/b', hits: 3 },
      { page: '/a', hits: 1 },
    ]);
    expect((await ranking(site, day - 5 * DAY, day + 5 * DAY)).edges.map((e) => e.node)).toEqual([
      { page: '/c', hits: 3 },
      { page: '/a', hits: 2 },
      { page: '/b', hits: 1 },
    ]);

    // No longer adding up: the period is ranked from the pages' own documents, the true counts.
    await rollups.updateOne({ _id: siteDayId(site, day) } as Document, { $set: { 'p./b': 2 } });
    await rollups.updateOne({ _id: siteMonthId(site, day) } as Document, { $set: { 'p./c': 4 } });
    expect((await ranking(site, day, day + DAY)).edges.map((e) => e.node)).toEqual([
      { page: '/a', hits: 3 },
      { page: '/b', hits: 1 },
    ]);
    expect((await ranking(site, day - 5 * DAY, day + 5 * DAY)).edges.map((e) => e.node)).toEqual(
      naiveRanking(hits, day - 5 * DAY, day + 5 * DAY),
    );
  });

  it('rolls up at most the cap of pages per site-day, and ranks a capped day exactly from the pages', async () => {
    const site = 'rollup-cap';
    const day = ms('2026-03-03T00:00:00Z');
    const pages = ['/1', '/2', '/3', '/4', '/5'];
    const hits: Hit[] = pages.map((page, i) => ({ site, page, at: day + i * HOUR, count: i + 1 }));
    await writeHits(store, hits, { siteTotals: true, pageRollup: new PageRollup({ maxPages: 2 }) });
    const stored = await rollups.findOne({ _id: siteDayId(site, day) } as Document);
    expect(Object.keys(stored?.p as object)).toEqual(['/1', '/2']);
    expect(stored?.t).toBe(15);
    const result = await ranking(site, day, day + DAY);
    expect(result.edges.map((e) => e.node)).toEqual(naiveRanking(hits, day, day + DAY));
  });

  it('ranks days before the rollups’ marker as earlier versions wrote them: the site-day rollup, else the pages', async () => {
    const legacy = await connectTestDatabase('top_pages_rollup_legacy');
    try {
      const site = 'rollup-legacy';
      const day = ms('2026-03-04T00:00:00Z');
      const legacyStore = new CounterStore(legacy);
      const legacyQuery = new TopPagesQuery(new SitePageScan(legacy), { maxPageSize: 100, maxDays: 10_000 });
      const before: Hit[] = [
        { site, page: '/old', at: day + HOUR, count: 4 },
        { site, page: '/older', at: day + DAY + HOUR, count: 1 },
      ];
      // An earlier version: no rollup documents, and the first day's rollup in its site-day document.
      await writeHits(legacyStore, before, { siteTotals: true });
      const legacyDaily = legacy.db.collection(DAILY_COLLECTION);
      await legacyDaily.updateOne({ _id: siteDayId(site, day) } as Document, { $set: { 'p./old': 4 } });
      // This version starts on it the next day: its rollups are complete from the day after.
      const marker = await legacyStore.ensureRollupMarker(true, day + DAY + 2 * HOUR);
      expect(marker).toBe(day + 2 * DAY);
      const after: Hit[] = [
        { site, page: '/new', at: day + DAY + 3 * HOUR, count: 2 },
        { site, page: '/new', at: day + 2 * DAY + HOUR, count: 5 },
      ];
      await writeHits(legacyStore, after, { siteTotals: true, pageRollup: new PageRollup({ maxPages: 10 }) });
      const rank = (from: number, to: number) =>
        legacyQuery.topPages({ site, from: new Date(from), to: new Date(to), timeZone: 'UTC', first: 100 });
      // The month holds days of both kinds: never read whole, each day as its writer left it.
      for (const [from, to] of [
        [day, day + 3 * DAY],
        [day - DAY, day + 10 * DAY],
        [day + 2 * DAY, day + 3 * DAY],
      ] as const) {
        expect((await rank(from, to)).edges.map((e) => e.node)).toEqual(naiveRanking([...before, ...after], from, to));
      }
      // The earlier site-day rollup is what the first day is ranked from: it is followed where it adds up.
      await legacyDaily.updateOne({ _id: siteDayId(site, day) } as Document, {
        $set: { 'p./gone': 4 },
        $unset: { 'p./old': '' },
      });
      expect((await rank(day, day + DAY)).edges.map((e) => e.node)).toEqual([{ page: '/gone', hits: 4 }]);
    } finally {
      await legacy.dropAndClose();
    }
  });

  it('keeps the marker a database got first, and takes it away where a writer stops rolling up', async () => {
    const other = await connectTestDatabase('top_pages_rollup_marker');
    try {
      const first = new CounterStore(other);
      expect(await first.ensureRollupMarker(true, ms('2026-03-04T10:00:00Z'))).toBe(0);
      expect(await new CounterStore(other).ensureRollupMarker(true, ms('2026-05-01T10:00:00Z'))).toBe(0);
      expect(await new CounterStore(other).ensureRollupMarker(false, ms('2026-05-02T10:00:00Z'))).toBeUndefined();
      await writeHits(first, [{ site: 's', page: '/', at: ms('2026-05-02T11:00:00Z'), count: 1 }], {
        siteTotals: true,
      });
      expect(await first.ensureRollupMarker(true, ms('2026-05-03T10:00:00Z'))).toBe(ms('2026-05-04T00:00:00Z'));
    } finally {
      await other.dropAndClose();
    }
  });

  it('ranks a day whose site-day document is gone (retention) from its rollup, as before', async () => {
    const site = 'rollup-dropped';
    const day = ms('2026-03-05T00:00:00Z');
    const hits: Hit[] = [
      { site, page: '/kept', at: day + HOUR, count: 2 },
      { site, page: '/kept', at: day + DAY + HOUR, count: 1 },
      { site, page: '/next', at: day + DAY + 2 * HOUR, count: 5 },
    ];
    await writeHits(store, hits, { siteTotals: true, pageRollup: new PageRollup({ maxPages: 10 }) });
    await daily.deleteOne({ _id: siteDayId(site, day) } as Document);
    const result = await ranking(site, day - 3 * DAY, day + 3 * DAY);
    expect(result.edges.map((e) => e.node)).toEqual([
      { page: '/next', hits: 5 },
      { page: '/kept', hits: 3 },
    ]);
  });
});
