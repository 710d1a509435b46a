import fc from 'fast-check';
import type { Hit } from '../../src/domain/Hit';
import { loadSeries } from '../../src/query/loadSeries';
import type { Series, SeriesRequest } from '../../src/query/Series';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { planSeries } from '../../src/query/planSeries';
import { DAILY_COLLECTION, dailyDocumentIds } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { Granularity } from '../../src/time/Granularity';
import { naiveBucketStart, naiveSeries } from '../support/naiveCount';
import { naiveGrid } from '../support/naiveZoneCount';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';
import { assertProperty } from '../support/assertProperty';

const ms = (iso: string): number => Date.parse(iso);
const DAY = 86_400_000;
// Crosses 29 February 2024, the February/March month end, and (below) a year end.
const SPAN_FROM = ms('2023-12-30T00:00:00Z');
const SPAN_TO = ms('2024-03-03T00:00:00Z');

let database: TestDatabase;
let store: CounterStore;

async function write(hits: readonly Hit[]): Promise<void> {
  const batch = new CounterBatch();
  hits.forEach((hit) => batch.add(hit));
  await store.write(batch);
}

async function series(request: SeriesRequest): Promise<Series> {
  const [result] = await loadSeries(store, [request]);
  if (!(result instanceof Object) || result instanceof Error) throw result;
  return result;
}

// Both write-filter modes run on whatever server the tests use (as DOCUMENT_TARGETING sets them): `shardKey` is the
// policy of MongoDB and tally's FerretDB build, `idOnly` stock FerretDB's.
describe.each([['shardKey'], ['idOnly']] as const)('pre-aggregated counters with %s write filters', (targeting) => {
  beforeAll(async () => {
    database = await connectTestDatabase(`counters_${targeting}`, { targeting });
    store = new CounterStore(database);
    await store.ensureIndexes();
  });

  afterAll(async () => {
    await database.dropAndClose();
  });

  it('equal a naive recount at every granularity for random hits and random ranges', async () => {
    let run = 0;
    const pages = ['/', '/a.b', '/$x', '/ü'];
    await assertProperty(
      'counters equal a naive recount',
      fc.asyncProperty(
        fc.array(
          fc.record({
            page: fc.constantFrom(...pages),
            at: fc.integer({ min: SPAN_FROM, max: SPAN_TO - 1 }),
            count: fc.integer({ min: 1, max: 5 }),
          }),
          { minLength: 1, maxLength: 120 },
        ),
        fc.integer({ min: SPAN_FROM, max: SPAN_TO - 1 }),
        fc.integer({ min: 1, max: 3 * DAY }),
        async (raw, rangeStart, rangeLength) => {
          const site = `prop-${run++}`;
          const hits: Hit[] = raw.map((h) => ({ site, ...h }));
          // Two flushes, so documents are both created and updated.
          await write(hits.slice(0, hits.length >> 1));
          await write(hits.slice(hits.length >> 1));
          for (const page of pages) {
            for (const granularity of [Granularity.MINUTE, Granularity.HOUR]) {
              const from = rangeStart;
              const to = Math.min(rangeStart + rangeLength, SPAN_TO + DAY);
              const result = await series({ site, page, granularity, from, to });
              // The grid and span the request means, found without the server's answer.
              const grid = naiveGrid(granularity, 'UTC', from, to);
              expect(result.points.map((p) => p.t)).toEqual(grid.starts);
              expect([result.from, result.to]).toEqual([grid.starts[0], grid.end]);
              expect(grid.starts[0]).toBe(naiveBucketStart(granularity, from));
              expect(result.points.map((p) => p.hits)).toEqual(naiveSeries(hits, site, page, granularity, grid.starts));
            }
            for (const granularity of [Granularity.DAY, Granularity.WEEK, Granularity.MONTH]) {
              const result = await series({ site, page, granularity, from: SPAN_FROM, to: SPAN_TO });
              const grid = naiveGrid(granularity, 'UTC', SPAN_FROM, SPAN_TO);
              expect(result.points.map((p) => p.t)).toEqual(grid.starts);
              expect([result.from, result.to]).toEqual([grid.starts[0], grid.end]);
              expect(result.points.map((p) => p.hits)).toEqual(naiveSeries(hits, site, page, granularity, grid.starts));
              expect(result.total).toBe(hits.filter((h) => h.page === page).reduce((sum, h) => sum + h.count, 0));
            }
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it('stores documents in the seed shape, with the shard key fields set by the upsert', async () => {
    await write([{ site: 'shape', page: '/x', at: ms('2024-02-29T13:45:10Z'), count: 2 }]);
    const daily = await database.db.collection(DAILY_COLLECTION).findOne({ _id: '20240229/shape/x' as never });
    expect(daily).toEqual({
      _id: '20240229/shape/x',
      metadata: { site: 'shape', page: '/x', date: new Date('2024-02-29T00:00:00Z') },
      daily: 2,
      hourly: { '13': 2 },
      minute: { '13': { '45': 2 } },
    });
    const monthly = await database.db.collection(MONTHLY_COLLECTION).findOne({ _id: '202402/shape/x' as never });
    expect(monthly).toEqual({
      _id: '202402/shape/x',
      metadata: { site: 'shape', page: '/x', date: new Date('2024-02-01T00:00:00Z') },
      daily: { '29': 2 },
    });
  });

  it('counts pages that differ only in ".", "$", "%", "?" or Unicode normalisation separately', async () => {
    const pages = ['/a.b', '/a$b', '/$', '/%24', '/a?b=1', '/a?b=2', '/\u00fc', '/u\u0308', '/a/b', '/a%2Fb'];
    const at = ms('2024-01-10T10:00:00Z');
    await write(pages.map((page, i) => ({ site: 'chars', page, at, count: i + 1 })));
    for (const [i, page] of pages.entries()) {
      const result = await series({ site: 'chars', page, granularity: Granularity.DAY, from: at, to: at + 1 });
      expect(result.total).toBe(i + 1);
    }
  });

  it('keeps the seed collision apart: site "a" + page "/b/c" and site "ab" + page "/c"', async () => {
    const at = ms('2024-01-11T10:00:00Z');
    await write([
      { site: 'a', page: '/b/c', at, count: 1 },
      { site: 'ab', page: '/c', at, count: 10 },
    ]);
    const one = await series({ site: 'a', page: '/b/c', granularity: Granularity.DAY, from: at, to: at + 1 });
    const two = await series({ site: 'ab', page: '/c', granularity: Granularity.DAY, from: at, to: at + 1 });
    expect([one.total, two.total]).toEqual([1, 10]);
  });

  it('updates hundreds of existing documents in one flush (FerretDB hangs on 100+ in one command)', async () => {
    const at = ms('2024-01-13T10:00:00Z');
    const hits = Array.from({ length: 150 }, (_, i) => ({ site: 'wide', page: `/p${i}`, at, count: 1 }));
    await write(hits);
    await write(hits);
    const totals = await loadSeries(
      store,
      hits.slice(0, 3).map((hit) => ({ ...hit, granularity: Granularity.DAY, from: at, to: at + 1 })),
    );
    expect(totals.map((series) => (series instanceof Error ? series : series.total))).toEqual([2, 2, 2]);
  });

  it('preallocates zero-filled documents idempotently and never resets a counter', async () => {
    const day = ms('2024-02-29T00:00:00Z');
    await store.preallocate([{ site: 'pre', page: '/p', day }]);
    const fresh = await database.db.collection(DAILY_COLLECTION).findOne({ _id: '20240229/pre/p' as never });
    expect(Object.keys(fresh?.minute ?? {})).toHaveLength(24);
    expect(Object.keys(fresh?.minute?.['23'] ?? {})).toHaveLength(60);
    expect(fresh?.daily).toBe(0);
    const month = await database.db.collection(MONTHLY_COLLECTION).findOne({ _id: '202402/pre/p' as never });
    expect(Object.keys(month?.daily ?? {})).toHaveLength(29);

    await write([{ site: 'pre', page: '/p', at: day + 5 * 3_600_000, count: 3 }]);
    await store.preallocate([{ site: 'pre', page: '/p', day }]);
    const result = await series({ site: 'pre', page: '/p', granularity: Granularity.HOUR, from: day, to: day + DAY });
    expect(result.total).toBe(3);
    expect(result.points[5]?.hits).toBe(3);
  });

  it('reads many series with one find per source, or by exact ids on a stock FerretDB', async () => {
    const at = ms('2024-01-12T10:00:00Z');
    await write([{ site: 'many', page: '/p', at, count: 1 }]);
    database.commands.clear();
    const requests = Array.from({ length: 20 }, (_, i) => ({
      site: 'many',
      page: i % 2 ? '/p' : '/q',
      granularity: Granularity.HOUR,
      from: at - i * 3_600_000,
      to: at + 3_600_000,
    }));
    const results = await loadSeries(store, requests);
    expect(results.every((r) => !(r instanceof Error))).toBe(true);
    if (database.policy.reads !== 'exactIds') {
      expect(database.commands.get('find')).toBe(1);
    } else {
      // FerretDB's way: one find per needed document, by exact _id (two pages × two days here).
      const ids = new Set(
        requests.flatMap((request) =>
          planSeries(request).reads.flatMap((read) => read.ranges.flatMap(dailyDocumentIds)),
        ),
      );
      expect(ids.size).toBe(4);
      expect(database.commands.get('find')).toBe(ids.size);
    }
  });
});
