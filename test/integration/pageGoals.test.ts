/**
 * Page goals of `conversions` (issue 28) read closed periods from their page digests, the matching pages' documents
 * by id where the site-day page rollups are complete, and scan the site's page documents elsewhere: all give the
 * same hits (an exact recount) and the same visitors (the same sketches ORed), whatever the rollup cap leaves
 * complete and whichever digests are current.
 */
import type { Hit } from '../../src/domain/Hit';
import { BreakdownQuery } from '../../src/query/BreakdownQuery';
import { EventQueries } from '../../src/query/events/EventQueries';
import type { SitePageVisitorsReader } from '../../src/query/events/EventQueries';
import { buildPageDigests } from '../../src/store/buildPageDigests';
import { CounterStore } from '../../src/store/CounterStore';
import { dailyDocumentId } from '../../src/store/dailyStats';
import { monthlyDocumentId } from '../../src/store/monthlyStats';
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
  await store.ensureRollupMarker(true, Date.now());
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

/**
 * The reader, counting how page documents were read; `rollups: false` hides every rollup (all periods scanned),
 * `digests: false` every page digest.
 */
function reader(options: { rollups: boolean; digests?: boolean; scan?: SitePageScan }) {
  const calls = { byId: 0, scans: 0 };
  const pages = options.scan ?? scan;
  const wrapped: SitePageVisitorsReader = {
    pageDigests: (site, periods) =>
      options.digests === false
        ? Promise.resolve({ days: new Map(), months: new Map() })
        : pages.pageDigests(site, periods),
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
    const scanned = await conversions(site, reader({ rollups: false, digests: false }).wrapped);

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
      expect(answer).toEqual(await conversions(site, reader({ rollups: false, digests: false }).wrapped, span));
      expect(answer[1]?.events).toBeGreaterThan(0);
      const scansPast64 = reads === 'exactIds' ? { byId: 1, scans: 1 } : { byId: 1, scans: 0 };
      expect(used.calls).toEqual(expectedCalls ?? scansPast64);
    });
  });

  describe('page digests', () => {
    const MARCH = Date.parse('2026-03-01T00:00:00Z');
    const spans = [
      ['days and a month', { from: FROM, to: TO }],
      ['days of one month', { from: Date.parse('2026-03-03T00:00:00Z'), to: Date.parse('2026-03-27T00:00:00Z') }],
    ] as const;

    /** Writes the digests of every day and month of the span, as the compaction job does once they are over. */
    async function buildDigests(site: string): Promise<{ days: number; months: number }> {
      const days = Array.from({ length: (TO - FROM) / DAY }, (_, i) => dailyDocumentId(site, '', FROM + i * DAY));
      const months = [FROM, MARCH].map((month) => monthlyDocumentId(site, '', month));
      return {
        days: await buildPageDigests(store.digestSources(), 'daily', days),
        months: await buildPageDigests(store.digestSources(), 'monthly', months),
      };
    }

    async function compare(site: string, span: { from: number; to: number }) {
      const used = reader({ rollups: true });
      const answer = await conversions(site, used.wrapped, span);
      const fromDocuments = await conversions(site, reader({ rollups: true, digests: false }).wrapped, span);
      const scanned = await conversions(site, reader({ rollups: false, digests: false }).wrapped, span);
      return { answer, fromDocuments, scanned, calls: used.calls };
    }

    it.each(spans)('answer %s from the digests alone, as the pages documents do', async (_, span) => {
      const site = `digests-${span.from}`;
      const hits = traffic(site);
      await writeHits(store, hits, { siteTotals: true, pageRollup: new PageRollup({ maxPages: 10_000 }) });
      // Every day of the span has hits (400 hits over 34 days), and both months have every day's digest.
      expect(await buildDigests(site)).toEqual({ days: 34, months: 2 });

      const { answer, fromDocuments, scanned, calls } = await compare(site, span);
      expect(calls).toEqual({ byId: 0, scans: 0 });
      expect(answer).toEqual(fromDocuments);
      expect(answer).toEqual(scanned);
      expect(answer[1]?.events).toBeGreaterThan(0);
    });

    it('reads a period from the pages documents once a late hit makes its digest stale', async () => {
      const site = 'digests-late';
      await writeHits(store, traffic(site), { siteTotals: true, pageRollup: new PageRollup({ maxPages: 10_000 }) });
      await buildDigests(site);
      const late: Hit = {
        site,
        page: '/blog/a',
        at: Date.parse('2026-03-10T12:00:00Z'),
        count: 5,
        visitor: { hi: 999, lo: 12_345 },
      };
      await writeHits(store, [late], { siteTotals: true, pageRollup: new PageRollup({ maxPages: 10_000 }) });

      const { answer, fromDocuments, scanned, calls } = await compare(site, { from: FROM, to: TO });
      // March (its month digest counts the day's old total) is read by id; the February days still from digests.
      expect(calls).toEqual({ byId: 1, scans: 0 });
      expect(answer).toEqual(fromDocuments);
      expect(answer).toEqual(scanned);
      expect(answer.map((c) => c.events)).toEqual(recount([...traffic(site), late]));
    });

    it('nominates the closed periods it finds without a current digest, a month with its days', async () => {
      const site = 'digests-nominated';
      await writeHits(store, traffic(site), { siteTotals: true, pageRollup: new PageRollup({ maxPages: 10_000 }) });
      const nominated: string[] = [];
      const nominating = new SitePageScan(database, {
        onMissingDigest: (level, id) => nominated.push(`${level} ${id}`),
      });
      const periods = { days: [FROM, FROM + DAY], months: [MARCH] };
      await nominating.pageDigests(site, periods);
      expect(nominated).toHaveLength(2 + 31 + 1);
      expect(nominated.slice(0, 2)).toEqual(['daily 20260226/digests-nominated', 'daily 20260227/digests-nominated']);
      expect(nominated.at(-1)).toBe('monthly 202603/digests-nominated');

      await buildDigests(site);
      nominated.length = 0;
      const found = await nominating.pageDigests(site, periods);
      expect(nominated).toEqual([]);
      expect([found.days.size, found.months.size]).toEqual([2, 1]);
    });

    it('are written by the compaction job once their periods are over', async () => {
      const site = 'digests-job';
      await writeHits(store, traffic(site), { siteTotals: true, pageRollup: new PageRollup({ maxPages: 10_000 }) });
      expect((await compare(site, { from: FROM, to: TO })).calls).toEqual({ byId: 1, scans: 0 });

      await store.compactPastPeriods(Date.parse('2026-04-02T00:00:00Z'));
      const { answer, fromDocuments, calls } = await compare(site, { from: FROM, to: TO });
      expect(calls).toEqual({ byId: 0, scans: 0 });
      expect(answer).toEqual(fromDocuments);
    });

    it('writes no digest of a day whose page rollup is capped, and reads that day from the pages documents', async () => {
      const site = 'digests-capped';
      await writeHits(store, traffic(site), { siteTotals: true, pageRollup: new PageRollup({ maxPages: 2 }) });
      expect(await buildDigests(site)).toEqual({ days: 0, months: 0 });
      const { answer, scanned, calls } = await compare(site, { from: FROM, to: TO });
      expect(calls).toEqual({ byId: 0, scans: 2 });
      expect(answer).toEqual(scanned);
    });
  });
});
