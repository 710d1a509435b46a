import fc from 'fast-check';
import type { Hit } from '../../src/domain/Hit';
import { TopPagesQuery } from '../../src/query/TopPagesQuery';
import type { TopPagesResult } from '../../src/query/TopPagesQuery';
import { CounterStore } from '../../src/store/CounterStore';
import { SitePageScan } from '../../src/store/SitePageScan';
import { Granularity } from '../../src/time/Granularity';
import { pageHits, writeHits } from '../support/counterFixtures';
import { naiveRanking } from '../support/naiveRanking';
import { naiveGrid } from '../support/naiveZoneCount';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';
import { assertProperty } from '../support/assertProperty';

const ms = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;
const SPAN_FROM = ms('2026-03-25T00:00:00Z');
const SPAN_TO = ms('2026-04-08T00:00:00Z');
const PAGES = ['/', '/a', '/b', '/b/c', '/Z', '/ü', '/a?x=1'];

let database: TestDatabase;
let store: CounterStore;
let query: TopPagesQuery;

beforeAll(async () => {
  database = await connectTestDatabase('top_pages');
  store = new CounterStore(database);
  await store.ensureIndexes();
  const scan = new SitePageScan(database);
  await scan.ensureIndexes();
  query = new TopPagesQuery(scan, { maxPageSize: 100, maxDays: 10_000 });
});

afterAll(async () => {
  await database.dropAndClose();
});

/** Every page of the ranking, read `first` at a time through the cursors. */
async function readAll(
  site: string,
  from: number,
  to: number,
  timeZone: string,
  first: number,
): Promise<{ rows: Array<{ page: string; hits: number }>; pages: TopPagesResult[] }> {
  const pages: TopPagesResult[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await query.topPages({ site, from: new Date(from), to: new Date(to), timeZone, first, after });
    pages.push(page);
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  return { rows: pages.flatMap((p) => p.edges.map((e) => e.node)), pages };
}

describe('topPages', () => {
  it('equals a naive ranking of the counted days, ties by page, across every page of results', async () => {
    let run = 0;
    await assertProperty(
      'topPages equals a naive ranking',
      fc.asyncProperty(
        // Counts of 1–2 make ties common.
        pageHits(PAGES, { from: SPAN_FROM, to: SPAN_TO }, { maxCount: 2, minLength: 0, maxLength: 60 }),
        fc.integer({ min: SPAN_FROM, max: SPAN_TO - 1 }),
        fc.integer({ min: 1, max: 9 * 24 * HOUR }),
        fc.constantFrom('UTC', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe'),
        fc.integer({ min: 1, max: 4 }),
        async (raw, from, length, timeZone, first) => {
          const site = `top-${run++}`;
          const hits: Hit[] = raw.map((h) => ({ site, ...h }));
          if (hits.length > 0) await writeHits(store, hits);
          const { rows, pages } = await readAll(site, from, from + length, timeZone, first);
          const counted = pages[0] as TopPagesResult;
          // The counted span is the whole local days the range touches, found without the server's answer.
          const days = naiveGrid(Granularity.DAY, timeZone, from, from + length);
          expect([counted.from, counted.to]).toEqual([days.starts[0], days.end]);
          const expected = naiveRanking(hits, days.starts[0] as number, days.end);
          expect(rows).toEqual(expected);
          for (const page of pages) {
            expect(page.totalCount).toBe(expected.length);
            expect(page.edges.length).toBeLessThanOrEqual(first);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('rejects a cursor it did not issue, naming the argument', async () => {
    await expect(
      query.topPages({ site: 's', from: new Date(SPAN_FROM), to: new Date(SPAN_TO), first: 1, after: 'bogus' }),
    ).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
      message: 'after must be a cursor returned by topPages, got "bogus"',
    });
  });

  it('rejects a page size outside 1 to the limit', async () => {
    await expect(
      query.topPages({ site: 's', from: new Date(SPAN_FROM), to: new Date(SPAN_TO), first: 101 }),
    ).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
      message: 'first must be an integer from 1 to 100 (TOP_PAGES_MAX_PAGE), got 101',
    });
  });

  it('rejects an unknown time zone, naming it', async () => {
    await expect(
      query.topPages({ site: 's', from: new Date(SPAN_FROM), to: new Date(SPAN_TO), first: 1, timeZone: 'Mars/Base' }),
    ).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
      message: 'timeZone must be an IANA time zone name such as "Europe/Berlin" or "UTC", got "Mars/Base"',
    });
  });
});
