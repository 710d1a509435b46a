import fc from 'fast-check';
import type { Collection, Document } from 'mongodb';
import type { Hit } from '../../src/domain/Hit';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { TopPagesQuery } from '../../src/query/TopPagesQuery';
import { CounterStore } from '../../src/store/CounterStore';
import { dailyDocumentId, DAILY_COLLECTION } from '../../src/store/dailyStats';
import { PageRollup } from '../../src/store/PageRollup';
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

beforeAll(async () => {
  database = await connectTestDatabase('top_pages_rollup');
  store = new CounterStore(database);
  await store.ensureIndexes();
  scan = new SitePageScan(database);
  await scan.ensureIndexes();
  query = new TopPagesQuery(scan, { maxPageSize: 100, maxDays: 10_000 });
  daily = database.db.collection(DAILY_COLLECTION);
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

describe('topPages from the site-day page rollup', () => {
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

  it('reads a complete rollup instead of the pages’ documents', async () => {
    const site = 'rollup-read';
    const day = ms('2026-03-02T00:00:00Z');
    const hits: Hit[] = [
      { site, page: '/a', at: day + HOUR, count: 3 },
      { site, page: '/b', at: day + 2 * HOUR, count: 1 },
    ];
    await writeHits(store, hits, { siteTotals: true, pageRollup: new PageRollup({ maxPages: 10 }) });
    const stored = await daily.findOne({ _id: siteDayId(site, day) } as Document);
    expect(stored?.p).toEqual({ '/a': 3, '/b': 1 });

    // Moved between pages, the rollup still adds up to the day's total: the ranking follows it, so it read it.
    await daily.updateOne({ _id: siteDayId(site, day) } as Document, { $set: { 'p./a': 1, 'p./b': 3 } });
    const moved = await ranking(site, day, day + DAY);
    expect(moved.edges.map((e) => e.node)).toEqual([
      { page: '/b', hits: 3 },
      { page: '/a', hits: 1 },
    ]);

    // No longer adding up: the day is ranked from the pages' own documents, the true counts.
    await daily.updateOne({ _id: siteDayId(site, day) } as Document, { $set: { 'p./b': 2 } });
    const checked = await ranking(site, day, day + DAY);
    expect(checked.edges.map((e) => e.node)).toEqual([
      { page: '/a', hits: 3 },
      { page: '/b', hits: 1 },
    ]);
  });

  it('rolls up at most the cap of pages per site-day, and ranks a capped day exactly from the pages', async () => {
    const site = 'rollup-cap';
    const day = ms('2026-03-03T00:00:00Z');
    const pages = ['/1', '/2', '/3', '/4', '/5'];
    const hits: Hit[] = pages.map((page, i) => ({ site, page, at: day + i * HOUR, count: i + 1 }));
    await writeHits(store, hits, { siteTotals: true, pageRollup: new PageRollup({ maxPages: 2 }) });
    const stored = await daily.findOne({ _id: siteDayId(site, day) } as Document);
    expect(Object.keys(stored?.p as object)).toEqual(['/1', '/2']);
    expect(stored?.daily).toBe(15);
    const result = await ranking(site, day, day + DAY);
    expect(result.edges.map((e) => e.node)).toEqual(naiveRanking(hits, day, day + DAY));
  });

  it('ranks days written before the rollup existed from the pages’ documents', async () => {
    const site = 'rollup-legacy';
    const day = ms('2026-03-04T00:00:00Z');
    const before: Hit[] = [{ site, page: '/old', at: day + HOUR, count: 4 }];
    const after: Hit[] = [{ site, page: '/new', at: day + DAY + HOUR, count: 2 }];
    await writeHits(store, before, { siteTotals: true });
    await writeHits(store, after, { siteTotals: true, pageRollup: new PageRollup({ maxPages: 10 }) });
    expect((await daily.findOne({ _id: siteDayId(site, day) } as Document))?.p).toBeUndefined();
    const result = await ranking(site, day, day + 2 * DAY);
    expect(result.edges.map((e) => e.node)).toEqual([
      { page: '/old', hits: 4 },
      { page: '/new', hits: 2 },
    ]);
  });

  it('ranks a day whose site-day document is gone (retention) but whose month counts it from the pages’ documents', async () => {
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
