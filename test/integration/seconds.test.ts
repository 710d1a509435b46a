import fc from 'fast-check';
import type { Hit } from '../../src/domain/Hit';
import { createLogger } from '../../src/logging/createLogger';
import { loadSeries } from '../../src/query/loadSeries';
import type { Series, SeriesRequest } from '../../src/query/Series';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { SECONDS_COLLECTION, SECONDS_TTL_INDEX_NAME, secondsCollection } from '../../src/store/secondStats';
import { Granularity } from '../../src/time/Granularity';
import { naiveBucketStart, naiveSeries } from '../support/naiveCount';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';
import { assertProperty } from '../support/assertProperty';

// FerretDB rewrites whole documents and shares two cores with other suites: allow slow runs (no timing asserted).
jest.setTimeout(60_000);

const ms = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;
const RETENTION = 48 * HOUR;
const NOW = ms('2026-11-21T12:00:00.250Z');
const ON_FERRETDB = process.env.TALLY_TEST_ENGINE === 'ferretdb';

let database: TestDatabase;
let store: CounterStore;

beforeAll(async () => {
  database = await connectTestDatabase('seconds');
  store = new CounterStore(database, { secondsRetentionMs: RETENTION });
  await store.ensureIndexes();
  await store.ensureSecondsIndexes();
});

afterAll(async () => {
  await database.dropAndClose();
});

function batchOf(hits: readonly Hit[], now = NOW): CounterBatch {
  const batch = new CounterBatch({ seconds: { now, retentionMs: RETENTION } });
  hits.forEach((hit) => batch.add(hit));
  return batch;
}

async function series(request: SeriesRequest): Promise<Series> {
  const [result] = await loadSeries(store, [request]);
  if (result === undefined || result instanceof Error) throw result;
  return result;
}

describe('second-level counters against a real server', () => {
  it('writes the seconds buckets in the same flush: one more update command, none when switched off', async () => {
    const hits: Hit[] = [
      { site: 'flush', page: '/a', at: NOW - 2_000, count: 2 },
      { site: 'flush', page: '/a', at: NOW - 1_000, count: 1 },
      { site: 'flush', page: '/b', at: NOW - 61_000, count: 1 },
    ];
    database.commands.clear();
    await store.write(batchOf(hits));
    expect(database.commands.get('update')).toBe(3);

    database.commands.clear();
    const off = new CounterBatch();
    hits.forEach((hit) => off.add(hit));
    await store.write(off);
    expect(database.commands.get('update')).toBe(2);

    const doc = await database.db.collection(SECONDS_COLLECTION).findOne({ _id: '202611211159/flush/a' as never });
    expect(doc).toEqual({
      _id: '202611211159/flush/a',
      metadata: { site: 'flush', page: '/a', date: new Date('2026-11-21T11:59:00Z') },
      minute: 3,
      seconds: { '58': 2, '59': 1 },
    });
  });

  it('equals a naive recount for random hits in the last hour and random ranges', async () => {
    let run = 0;
    const pages = ['/', '/x.y', '/ü'];
    await assertProperty(
      'seconds equal a naive recount',
      fc.asyncProperty(
        fc.array(
          fc.record({
            page: fc.constantFrom(...pages),
            at: fc.integer({ min: NOW - HOUR, max: NOW }),
            count: fc.integer({ min: 1, max: 4 }),
          }),
          { minLength: 1, maxLength: 150 },
        ),
        fc.integer({ min: NOW - HOUR, max: NOW }),
        fc.integer({ min: 1, max: 15 * 60_000 }),
        async (raw, from, length) => {
          const site = `prop-${run++}`;
          const hits: Hit[] = raw.map((h) => ({ site, ...h }));
          // Two flushes, so minute documents are both created and updated.
          await store.write(batchOf(hits.slice(0, hits.length >> 1)));
          await store.write(batchOf(hits.slice(hits.length >> 1)));
          for (const page of pages) {
            const result = await series({ site, page, granularity: Granularity.SECOND, from, to: from + length });
            const starts = result.points.map((p) => p.t);
            expect(starts[0]).toBe(naiveBucketStart(Granularity.SECOND, from));
            expect(result.points.map((p) => p.hits)).toEqual(naiveSeries(hits, site, page, Granularity.SECOND, starts));
            const whole = await series({ site, page, granularity: Granularity.SECOND, from: NOW - HOUR, to: NOW + 1 });
            expect(whole.total).toBe(hits.filter((h) => h.page === page).reduce((sum, h) => sum + h.count, 0));
          }
        },
      ),
      { numRuns: 10 },
    );
  });

  it('preallocates the 60 minute documents of an hour idempotently, never resetting a counter', async () => {
    const hour = ms('2026-11-21T13:00:00Z');
    await store.preallocateSeconds([{ site: 'pre', page: '/p', hour }]);
    expect(await database.db.collection(SECONDS_COLLECTION).countDocuments({ 'metadata.site': 'pre' })).toBe(60);
    await store.write(batchOf([{ site: 'pre', page: '/p', at: hour + 61_500, count: 4 }], hour + 62_000));
    await store.preallocateSeconds([{ site: 'pre', page: '/p', hour }]);
    const doc = await database.db.collection(SECONDS_COLLECTION).findOne({ _id: '202611211301/pre/p' as never });
    expect(doc?.minute).toBe(4);
    expect(doc?.seconds?.['1']).toBe(4);
    expect(Object.keys(doc?.seconds ?? {})).toHaveLength(60);
    expect(await database.db.collection(SECONDS_COLLECTION).countDocuments({ 'metadata.site': 'pre' })).toBe(60);
  });

  it('sweeps minute documents wholly outside the window and leaves daily and monthly documents intact', async () => {
    const site = 'sweep';
    const old = NOW - RETENTION - 5 * 60_000;
    const edge = NOW - RETENTION + 1_000;
    // Each batch opened when its hit was recent, as it would have been.
    await store.write(batchOf([{ site, page: '/p', at: old, count: 1 }], old));
    await store.write(batchOf([{ site, page: '/p', at: edge, count: 2 }], edge));
    await store.write(batchOf([{ site, page: '/p', at: NOW - 1_000, count: 3 }]));
    const seconds = () => database.db.collection(SECONDS_COLLECTION).countDocuments({ 'metadata.site': site });
    expect(await seconds()).toBe(3);

    const deleted = await store.sweepSeconds(NOW);
    expect(deleted).toBe(1);
    expect(await seconds()).toBe(2);
    // The minute holding the window's first second is kept: a range starting inside the window reads no gap.
    const first = await series({ site, page: '/p', granularity: Granularity.SECOND, from: edge, to: edge + 1_000 });
    expect(first.total).toBe(2);
    // Every hit is still in the other granularities.
    const daily = await database.db.collection(DAILY_COLLECTION).find({ 'metadata.site': site }).toArray();
    const monthly = await database.db.collection(MONTHLY_COLLECTION).find({ 'metadata.site': site }).toArray();
    expect(daily.reduce((sum, d) => sum + (d.daily as number), 0)).toBe(6);
    expect(monthly).toHaveLength(1);
    const days = await series({ site, page: '/p', granularity: Granularity.DAY, from: old, to: NOW + 1 });
    expect(days.total).toBe(6);
  });

  it('creates no second-level document for a hit older than the window', async () => {
    await store.write(batchOf([{ site: 'late', page: '/p', at: NOW - RETENTION - 1, count: 1 }]));
    expect(await database.db.collection(SECONDS_COLLECTION).countDocuments({ 'metadata.site': 'late' })).toBe(0);
    expect(await database.db.collection(DAILY_COLLECTION).countDocuments({ 'metadata.site': 'late' })).toBe(1);
  });

  (ON_FERRETDB ? it : it.skip)(
    'degrades to the sweep when the server refuses the TTL index with code 238 (FerretDB only)',
    async () => {
      // A policy that believes the server has TTL indexes: the server's refusal still decides.
      const claimsTtl = new CounterStore(
        { ...database, policy: { ...database.policy, expiry: 'ttl' } },
        { secondsRetentionMs: RETENTION },
      );
      expect(await claimsTtl.ensureSecondsIndexes()).toBe('sweep');
      expect(await store.ensureSecondsIndexes()).toBe('sweep');
    },
  );

  // Skipped on FerretDB: it refuses TTL indexes (code 238), so the sweep tests above are its expiry path.
  (ON_FERRETDB ? it.skip : it)(
    'expires through a TTL index on metadata.date of the window plus a minute, adjusted when the window changes',
    async () => {
      expect(await store.ensureSecondsIndexes()).toBe('ttl');
      const ttl = async () =>
        (await secondsCollection(database.db).listIndexes().toArray()).find((i) => i.name === SECONDS_TTL_INDEX_NAME);
      expect(await ttl()).toMatchObject({ key: { 'metadata.date': 1 }, expireAfterSeconds: 48 * 3600 + 60 });
      const shorter = new CounterStore(database, {
        secondsRetentionMs: 2 * HOUR,
        logger: createLogger({ level: 'silent', nodeEnv: 'test' }),
      });
      expect(await shorter.ensureSecondsIndexes()).toBe('ttl');
      expect(await ttl()).toMatchObject({ expireAfterSeconds: 2 * 3600 + 60 });
    },
  );
});
