import fc from 'fast-check';
import type { Hit } from '../../src/domain/Hit';
import { loadSeries } from '../../src/query/loadSeries';
import type { Series, SeriesRequest } from '../../src/query/Series';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { Granularity } from '../../src/time/Granularity';
import { localParts, naiveCounts, naiveGrid } from '../support/naiveZoneCount';
import { pageHits, writeHits } from '../support/counterFixtures';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';
import { assertProperty } from '../support/assertProperty';

const ms = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;
// Crosses Los Angeles' (8 March), Berlin's (29 March) and Lord Howe's (5 April) 2026 DST changes and a month end.
const SPAN_FROM = ms('2026-03-06T00:00:00Z');
const SPAN_TO = ms('2026-04-07T00:00:00Z');
const ZONES = ['UTC', 'Europe/Berlin', 'America/Los_Angeles', 'Asia/Kathmandu', 'Australia/Lord_Howe'];
const PAGES = ['/', '/a', '/b/c'];

let database: TestDatabase;
let store: CounterStore;

beforeAll(async () => {
  database = await connectTestDatabase('site_totals');
  store = new CounterStore(database);
  await store.ensureIndexes();
});

afterAll(async () => {
  await database.dropAndClose();
});

function ok(result: Series | Error | undefined): Series {
  if (result === undefined || result instanceof Error) throw result ?? new Error('no series');
  return result;
}

describe('site totals', () => {
  it('equal the sum of their pages and a naive recount, at every granularity, in UTC and four zones', async () => {
    let run = 0;
    await assertProperty(
      'site totals equal their pages and a recount',
      fc.asyncProperty(
        pageHits(PAGES, { from: SPAN_FROM, to: SPAN_TO }, { maxCount: 4, minLength: 1, maxLength: 80 }),
        fc.integer({ min: SPAN_FROM, max: SPAN_TO - 1 }),
        fc.integer({ min: 1, max: 3 * 24 * HOUR }),
        async (raw, rangeStart, rangeLength) => {
          const site = `site-${run++}`;
          const hits: Hit[] = raw.map((h) => ({ site, ...h }));
          await writeHits(store, hits.slice(0, hits.length >> 1));
          await writeHits(store, hits.slice(hits.length >> 1));
          const requests: SeriesRequest[] = [];
          for (const timeZone of ZONES) {
            for (const page of [SITE_TOTAL_PAGE, ...PAGES]) {
              const short = { site, page, timeZone, from: rangeStart, to: Math.min(rangeStart + rangeLength, SPAN_TO) };
              requests.push({ ...short, granularity: Granularity.HOUR });
              requests.push({
                ...short,
                granularity: Granularity.MINUTE,
                to: Math.min(short.to, rangeStart + 3 * HOUR),
              });
              for (const granularity of [Granularity.DAY, Granularity.WEEK, Granularity.MONTH]) {
                requests.push({ site, page, timeZone, granularity, from: SPAN_FROM, to: SPAN_TO });
              }
            }
          }
          const results = (await loadSeries(store, requests)).map(ok);
          results.forEach((series, i) => {
            const request = requests[i] as SeriesRequest;
            const starts = series.points.map((p) => p.t);
            // The grid and span the request means, found without the server's answer.
            const grid = naiveGrid(request.granularity, request.timeZone as string, request.from, request.to);
            expect(starts).toEqual(grid.starts);
            expect([series.from, series.to]).toEqual([grid.starts[0], grid.end]);
            const counted = request.page === SITE_TOTAL_PAGE ? hits : hits.filter((hit) => hit.page === request.page);
            expect(series.points.map((p) => p.hits)).toEqual(naiveCounts(counted, grid.starts, grid.end));
            if (request.page === SITE_TOTAL_PAGE) {
              // The site series is the pointwise sum of its pages' series.
              const pages = results.filter(
                (other) =>
                  other.request.page !== SITE_TOTAL_PAGE &&
                  other.request.timeZone === request.timeZone &&
                  other.request.granularity === request.granularity &&
                  other.request.from === request.from &&
                  other.request.to === request.to,
              );
              expect(pages).toHaveLength(PAGES.length);
              expect(series.points.map((p) => p.hits)).toEqual(
                series.points.map((_, j) => pages.reduce((sum, p) => sum + (p.points[j]?.hits ?? 0), 0)),
              );
            }
            // Calendar buckets start at local midnight (Mondays for weeks, the 1st for months).
            if (request.granularity !== Granularity.MINUTE && request.granularity !== Granularity.HOUR) {
              for (const t of starts.slice(1)) {
                const local = localParts(request.timeZone as string, t);
                expect([local.hour, local.minute]).toEqual([0, 0]);
                if (request.granularity === Granularity.WEEK) expect(local.weekday).toBe('Mon');
                if (request.granularity === Granularity.MONTH) expect(local.day).toBe(1);
              }
            }
          });
        },
      ),
      { numRuns: 6 },
    );
  });

  it('are stored as seed-shaped documents whose ids cannot collide with a page', async () => {
    await writeHits(store, [
      { site: 'shape', page: '/x', at: ms('2026-02-28T13:45:10Z'), count: 2 },
      { site: 'shape', page: '/y', at: ms('2026-02-28T13:50:00Z'), count: 3 },
    ]);
    const daily = await database.db.collection(DAILY_COLLECTION).findOne({ _id: '20260228/shape' as never });
    expect(daily).toEqual({
      _id: '20260228/shape',
      metadata: { site: 'shape', page: '', date: new Date('2026-02-28T00:00:00Z') },
      daily: 5,
      hourly: { '13': 5 },
      minute: { '13': { '45': 2, '50': 3 } },
    });
    const monthly = await database.db.collection(MONTHLY_COLLECTION).findOne({ _id: '202602/shape' as never });
    expect(monthly).toEqual({
      _id: '202602/shape',
      metadata: { site: 'shape', page: '', date: new Date('2026-02-01T00:00:00Z') },
      daily: { '28': 5 },
    });
  });

  it('cost one more daily and one more monthly upsert per site per flush, however many pages', () => {
    const hits: Hit[] = Array.from({ length: 500 }, (_, i) => ({
      site: `s${i % 2}`,
      page: `/p${i % 50}`,
      at: ms('2026-03-10T10:00:00Z') + i * 1000,
      count: 1,
    }));
    const withTotals = new CounterBatch({ siteTotals: true });
    const without = new CounterBatch();
    hits.forEach((hit) => {
      withTotals.add(hit);
      without.add(hit);
    });
    expect(without.daily.size + without.monthly.size).toBe(100);
    expect(withTotals.daily.size - without.daily.size).toBe(2);
    expect(withTotals.monthly.size - without.monthly.size).toBe(2);
  });
});
