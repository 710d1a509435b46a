/**
 * Visitor sketches and dimension counters as the real server stores them (issues 19 and 20, CONTRACT "Stored
 * documents"), in both write-filter modes: `$bit … or` creates missing nested register fields inside upserts on the
 * embedded engine as on MongoDB, the words stay int32, the sketch read back with VisitorSketch.fromStoredFields is
 * the one built from the hashes, and every document carries exactly the fields CONTRACT lists. Also the two small
 * collections: visitors.secret (one key per database, whoever asks) and visitors.salts.
 */
import { Binary } from 'mongodb';
import type { Document } from 'mongodb';
import type { DimensionValues } from '../../src/domain/dimensions/Dimension';
import type { Hit } from '../../src/domain/Hit';
import type { Hash64 } from '../../src/domain/visitors/Hash64';
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { VISITOR_PRECISION } from '../../src/domain/visitors/VisitorPrecision';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { DimensionCounting } from '../../src/store/DimensionCounting';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { SECONDS_COLLECTION } from '../../src/store/secondStats';
import { VisitorSaltStore, VISITOR_SALTS_COLLECTION } from '../../src/store/VisitorSaltStore';
import { ensureVisitorSecret, VISITOR_SECRET_COLLECTION } from '../../src/store/visitorSecret';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const NOW = Date.parse('2026-03-10T12:30:00Z');
const AT = Date.parse('2026-03-10T12:29:05Z');
const VALUES: DimensionValues = {
  source: 'news.example.com',
  utmSource: 'letter',
  utmMedium: '(none)',
  utmCampaign: '(none)',
  browser: 'Firefox',
  os: 'Linux',
  device: 'desktop',
  country: 'DE',
};

function batchOf(hits: readonly Hit[], counting: DimensionCounting): CounterBatch {
  const batch = new CounterBatch({
    siteTotals: true,
    seconds: { now: NOW, retentionMs: 48 * 3_600_000 },
    dimensions: counting,
  });
  for (const hit of hits) batch.add(hit);
  return batch;
}

const sketchOf = (visitors: readonly Hash64[], precision: number) => {
  const sketch = VisitorSketch.empty(precision);
  for (const visitor of visitors) sketch.add(visitor);
  return sketch;
};

describe.each([['shardKey'], ['idOnly']] as const)(
  'visitor and dimension fields with %s write filters',
  (targeting) => {
    let database: TestDatabase;
    let store: CounterStore;

    beforeAll(async () => {
      database = await connectTestDatabase(`visitorWrites_${targeting}`, { targeting });
      store = new CounterStore(database);
      await store.ensureIndexes();
    });

    afterAll(async () => {
      await database.dropAndClose();
    });

    const find = (collection: string, id: string): Promise<Document | null> =>
      database.db.collection<Document>(collection).findOne({ _id: id } as Document);

    it('stores the sketch the hashes make, at every level, over two flushes (missing fields created by $bit)', async () => {
      const counting = new DimensionCounting({ maxValues: 1000, visitorDimensions: ['device', 'browser', 'os'] });
      const first = Array.from({ length: 300 }, (_, i) => splitmix64(11, i));
      const second = Array.from({ length: 300 }, (_, i) => splitmix64(11, i + 200));
      const hit = (visitor: Hash64): Hit => ({ site: 'v', page: '/p', at: AT, count: 1, visitor, dimensions: VALUES });
      await store.write(batchOf(first.map(hit), counting));
      await store.write(batchOf(second.map(hit), counting));
      const all = [...first, ...second];
      const levels: Array<[string, string, number]> = [
        [DAILY_COLLECTION, '20260310/v/p', VISITOR_PRECISION.pageDay],
        [DAILY_COLLECTION, '20260310/v', VISITOR_PRECISION.siteDay],
        [MONTHLY_COLLECTION, '202603/v/p', VISITOR_PRECISION.pageMonth],
        [MONTHLY_COLLECTION, '202603/v', VISITOR_PRECISION.siteMonth],
        [SECONDS_COLLECTION, '202603101229/v/p', VISITOR_PRECISION.minute],
        [SECONDS_COLLECTION, '202603101229/v', VISITOR_PRECISION.minute],
      ];
      for (const [collection, id, precision] of levels) {
        const stored = await find(collection, id);
        const read = VisitorSketch.fromStoredFields(stored?.v as Record<string, unknown>, precision);
        expect({ id, words: [...read.words] }).toEqual({ id, words: [...sketchOf(all, precision).words] });
      }
      const site = await find(DAILY_COLLECTION, '20260310/v');
      const dv = (site?.dv as Record<string, Record<string, Record<string, unknown>>>).browser?.Firefox;
      expect([...VisitorSketch.fromStoredFields(dv, 8).words]).toEqual([...sketchOf(all, 8).words]);
      expect(Math.round(VisitorSketch.fromStoredFields(site?.v as Record<string, unknown>, 13).estimate())).toBe(500);
    });

    it('keeps every register word a BSON int32', async () => {
      const raw = await database.db
        .collection<Document>(DAILY_COLLECTION)
        .findOne({ _id: '20260310/v/p' } as Document, { promoteValues: false });
      const words = Object.values(raw?.v as Record<string, { _bsontype?: string }>);
      expect(words.length).toBeGreaterThan(0);
      expect(new Set(words.map((word) => word._bsontype))).toEqual(new Set(['Int32']));
    });

    it('gives each document exactly the fields CONTRACT lists: v and d, dv on site documents, v on minutes', async () => {
      const counting = new DimensionCounting({ maxValues: 1000, visitorDimensions: ['device'] });
      await store.write(
        batchOf([{ site: 'f', page: '/p', at: AT, count: 2, visitor: splitmix64(1, 1), dimensions: VALUES }], counting),
      );
      const fields = async (collection: string, id: string) => Object.keys((await find(collection, id)) ?? {}).sort();
      expect(await fields(DAILY_COLLECTION, '20260310/f/p')).toEqual([
        '_id',
        'd',
        'daily',
        'hourly',
        'metadata',
        'minute',
        'v',
      ]);
      expect(await fields(DAILY_COLLECTION, '20260310/f')).toEqual([
        '_id',
        'd',
        'daily',
        'dv',
        'hourly',
        'metadata',
        'minute',
        'v',
      ]);
      expect(await fields(MONTHLY_COLLECTION, '202603/f/p')).toEqual(['_id', 'd', 'daily', 'metadata', 'v']);
      expect(await fields(MONTHLY_COLLECTION, '202603/f')).toEqual(['_id', 'd', 'daily', 'dv', 'metadata', 'v']);
      expect(await fields(SECONDS_COLLECTION, '202603101229/f/p')).toEqual([
        '_id',
        'metadata',
        'minute',
        'seconds',
        'v',
      ]);
      expect(await fields(SECONDS_COLLECTION, '202603101229/f')).toEqual(['_id', 'metadata', 'minute', 'seconds', 'v']);
      expect((await find(MONTHLY_COLLECTION, '202603/f'))?.d).toEqual({
        source: { 'news%2Eexample%2Ecom': 2 },
        utmSource: { letter: 2 },
        utmMedium: { '(none)': 2 },
        utmCampaign: { '(none)': 2 },
        browser: { Firefox: 2 },
        os: { Linux: 2 },
        device: { desktop: 2 },
        country: { DE: 2 },
      });
      expect(Object.keys((await find(DAILY_COLLECTION, '20260310/f'))?.dv as Document)).toEqual(['device']);
      expect((await find(SECONDS_COLLECTION, '202603101229/f'))?.metadata).toEqual({
        date: new Date('2026-03-10T12:29:00Z'),
        site: 'f',
        page: '',
      });
    });

    it('adds values to a preallocated document, whose fields it creates', async () => {
      await store.preallocate([{ site: 'pre', page: '/p', day: Date.parse('2026-03-10T00:00:00Z') }]);
      const counting = new DimensionCounting({ maxValues: 1000, visitorDimensions: [] });
      const visitor = splitmix64(5, 5);
      await store.write(
        batchOf([{ site: 'pre', page: '/p', at: AT, count: 1, visitor, dimensions: VALUES }], counting),
      );
      const stored = await find(DAILY_COLLECTION, '20260310/pre/p');
      expect(stored?.daily).toBe(1);
      expect(stored?.v).toEqual(sketchOf([visitor], 11).toStoredFields());
      expect((stored?.d as Document).browser).toEqual({ Firefox: 1 });
    });
  },
);

describe('visitors.secret and visitors.salts', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await connectTestDatabase('visitorCollections');
  });

  afterAll(async () => {
    await database.dropAndClose();
  });

  it('creates one secret per database, which every instance reads back, however many race to create it', async () => {
    const keys = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        ensureVisitorSecret(database, { now: NOW, newKey: () => new Uint8Array(32).fill(i + 1) }),
      ),
    );
    expect(new Set(keys.map((key) => Buffer.from(key).toString('hex'))).size).toBe(1);
    const again = await ensureVisitorSecret(database, { now: NOW + 1000, newKey: () => new Uint8Array(32).fill(99) });
    expect(Buffer.from(again)).toEqual(Buffer.from(keys[0] as Uint8Array));
    const stored = await database.db.collection<Document>(VISITOR_SECRET_COLLECTION).find().toArray();
    expect(stored).toEqual([{ _id: 'visitor-id', key: expect.any(Binary), createdAt: new Date(NOW) }]);
  });

  it('keeps one salt per period, the same for every caller, and deletes those of other periods', async () => {
    const salts = new VisitorSaltStore(database);
    const [a, b] = await Promise.all([
      salts.salt('day:2026-03-09', NOW, () => new Uint8Array([1])),
      salts.salt('day:2026-03-09', NOW, () => new Uint8Array([2])),
    ]);
    expect(Buffer.from(a)).toEqual(Buffer.from(b));
    await salts.salt('day:2026-03-10', NOW);
    await salts.salt('month:2026-03', NOW);
    expect(await salts.deleteAllBut('day:2026-03-10')).toBe(2);
    const left = await database.db.collection<Document>(VISITOR_SALTS_COLLECTION).find().toArray();
    expect(left.map((salt) => salt._id)).toEqual(['day:2026-03-10']);
  });
});
