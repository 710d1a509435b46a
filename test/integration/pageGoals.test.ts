/**
 * Page goals of `conversions` (issue 28) read the matching pages' documents by id where the site-day page rollups
 * are complete, and scan the site's page documents elsewhere: both give the same hits (an exact recount) and the
 * same visitors (the same sketches ORed), whatever the rollup cap leaves complete.
 */
import type { Hit } from '../../src/domain/Hit';
import { BreakdownQuery } from '../../src/query/BreakdownQuery';
import { EventQueries } from '../../src/query/events/EventQueries';
import type { SitePageVisitorsReader } from '../../src/query/events/EventQueries';
import { CounterStore } from '../../src/store/CounterStore';
import { PageRollup } from '../../src/store/PageRollup';
import { SitePageScan } from '../../src/store/SitePageScan';
import type { DocumentReads } from '../../src/store/WritePolicy';
import { writeHits } from '../support/counterFixtures';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const DAY = 86_400_000;
/** Three days of February and the whole of March: day pieces and a month piece. */
const FROM = Date.parse('2026-02-26T00:00:00Z');
const TO = Date.parse('2026-04-01T00:00:00Z');
const PAGES = ['/', '/blog/a', '/blog/b/c', '/blog/d', '/shop/x', '/shop/y/z'];
const GOALS = [{ page: '/blog/*' }, { page: '/blog/**' }, { page: '/shop/x' }, { page: '/nowhere/**' }];

let database: TestDatabase;
let store: CounterStore;
let scan: SitePageScan;

beforeAll(async () => {
  database = await connectTestDatabase('page_goals');
  store = new CounterStore(database);
  await store.ensureIndexes();
  scan = new SitePageScan(database);
  await scan.ensureIndexes();
});

/** The scan reading ids as the policy of `reads` does (MongoDB's, tally's FerretDB build's, stock FerretDB's). */
function scanReading(reads: DocumentReads): SitePageScan {
  return new SitePageScan({ ...database, policy: { ...database.policy, reads } });
}

afterAll(async () => {
  await database.dropAndClose();
});

/** 400 hits of 150 visitors over the span, every page every few days. */
function traffic(site: string): Hit[] {
  const hits: Hit[] = [];
  const days = (TO - FROM) / DAY;
  for (let i = 0; i < 400; i++) {
    const v = (i * 7) % 150;
    hits.push({
      site,
      page: PAGES[i % PAGES.length] as string,
      at: FROM + (i % days) * DAY + ((i * 3_700_000) % DAY),
      count: 1 + (i % 3),
      visitor: { hi: v * 2_654_435_761, lo: (v * 40_503 + 17) >>> 0 },
    });
  }
  return hits;
}

/** The reader, counting how page documents were read; `rollups: false` hides every rollup (all periods scanned). */
function reader(options: { rollups: boolean; scan?: SitePageScan }) {
  const calls = { byId: 0, scans: 0 };
  const pages = options.scan ?? scan;
  const wrapped: SitePageVisitorsReader = {
    pageRollups: (site, days) => (options.rollups ? pages.pageRollups(site, days) : Promise.resolve(new Map())),
    forEachPageById: (site, ids, onDocument) => {
      if (ids.daily.length + ids.monthly.length > 0) calls.byId++;
      return pages.forEachPageById(site, ids, onDocument);
    },
    forEachPage: (site, dates, fields, onDocument, visitorOptions) => {
      if (dates.length > 0) calls.scans++;
      return pages.forEachPage(site, dates, fields, onDocument, visitorOptions);
    },
  };
  return { wrapped, calls };
}

async function conversions(site: string, pages: SitePageVisitorsReader, span = { from: FROM, to: TO }) {
  const queries = new EventQueries(
    new BreakdownQuery({ maxPageSize: 100, maxDays: 1_000, dimensionVisitors: new Set() }),
    { maxDays: 1_000 },
    pages,
  );
  return queries.conversions({ site, page: '', ...span }, queries.parseGoals(GOALS), {
    events: () => Promise.reject(new Error('no event goal was asked for')),
    siteVisitors: () => Promise.resolve(150),
  });
}

function recount(hits: readonly Hit[]): number[] {
  const patterns = [/^\/blog\/[^/]*$/, /^\/blog\//, /^\/shop\/x$/, /^\/nowhere\//];
  return patterns.map((pattern) => hits.filter((h) => pattern.test(h.page)).reduce((sum, h) => sum + h.count, 0));
}

describe('page goals', () => {
  it.each([
    ['every rollup complete: matching pages read by id', 10_000, { byId: 1, scans: 0 }],
    ['rollups capped below the pages: every period scanned', 2, { byId: 0, scans: 2 }],
  ])('%s, with the hits of a recount and the visitors of a scan', async (_, maxPages, expectedCalls) => {
    const site = `goals-${maxPages}`;
    const hits = traffic(site);
    await writeHits(store, hits, { siteTotals: true, pageRollup: new PageRollup({ maxPages }) });

    const used = reader({ rollups: true });
    const answer = await conversions(site, used.wrapped);
    const scanned = await conversions(site, reader({ rollups: false }).wrapped);

    expect(used.calls).toEqual(expectedCalls);
    expect(answer.map((c) => c.goal)).toEqual([
      'Visit /blog/*',
      'Visit /blog/**',
      'Visit /shop/x',
      'Visit /nowhere/**',
    ]);
    expect(answer.map((c) => c.events)).toEqual(recount(hits));
    expect(answer).toEqual(scanned);
    expect(answer[3]).toMatchObject({ events: 0, visitors: 0 });
    // /blog/* and /blog/** share /blog/a and /blog/d; /blog/** adds /blog/b/c: visitors of the wider goal are more.
    expect(answer[1]?.visitors).toBeGreaterThan(answer[0]?.visitors ?? 0);
  });

  describe.each<DocumentReads>(['idList', 'exactIds', 'shardKeyRanges'])('reading ids as %s', (reads) => {
    const site = `goals-${reads}`;
    beforeAll(async () => {
      // Every page every day besides: 4 matching pages a day.
      const everyDay = Array.from({ length: ((TO - FROM) / DAY) * PAGES.length }, (_, i): Hit => {
        const v = i % 90;
        return {
          site,
          page: PAGES[i % PAGES.length] as string,
          at: FROM + Math.floor(i / PAGES.length) * DAY + 3_600_000,
          count: 1,
          visitor: { hi: v, lo: (v * 2_654_435_761) >>> 0 },
        };
      });
      await writeHits(store, [...traffic(site), ...everyDay], {
        siteTotals: true,
        pageRollup: new PageRollup({ maxPages: 10_000 }),
      });
    });

    it.each([
      // 4 matching pages × (3 days + 1 month): 16 documents; × 30 days: 120, past stock FerretDB's 64 exact reads.
      ['days and a month', { from: FROM, to: TO }, { byId: 1, scans: 0 }],
      ['30 days', { from: Date.parse('2026-03-01T00:00:00Z'), to: Date.parse('2026-03-31T00:00:00Z') }, undefined],
    ])('answers %s as a scan does', async (_, span, expectedCalls) => {
      const used = reader({ rollups: true, scan: scanReading(reads) });
      const answer = await conversions(site, used.wrapped, span);
      expect(answer).toEqual(await conversions(site, reader({ rollups: false }).wrapped, span));
      expect(answer[1]?.events).toBeGreaterThan(0);
      const scansPast64 = reads === 'exactIds' ? { byId: 1, scans: 1 } : { byId: 1, scans: 0 };
      expect(used.calls).toEqual(expectedCalls ?? scansPast64);
    });
  });
});
