/**
 * Database.writerDb: where the write policy gives each collection a writer (tally's FerretDB build, which needs one
 * writer per document), each counter collection is written through its own single connection, so a flush writes its collections concurrently and two writes to one
 * collection never overlap. Many store writes at once, with preallocation among them, must lose no increment.
 */
import type { Hit } from '../../src/domain/Hit';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { SECONDS_COLLECTION } from '../../src/store/secondStats';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const NOW = Date.parse('2026-11-22T12:00:00Z');
let database: TestDatabase;

beforeAll(async () => {
  database = await connectTestDatabase('collection_writers');
});

afterAll(async () => {
  await database.dropAndClose();
});

describe('writerDb', () => {
  it('gives each collection its own client where the write policy says so, else the shared one', () => {
    const daily = database.writerDb(DAILY_COLLECTION);
    const monthly = database.writerDb(MONTHLY_COLLECTION);
    if (database.policy.writerPerCollection) {
      expect(daily.client).toBe(database.writerDb(DAILY_COLLECTION).client);
      expect(daily.client).not.toBe(monthly.client);
      expect(daily.client).not.toBe(database.client);
      expect(database.writerDb(SECONDS_COLLECTION).client).not.toBe(monthly.client);
    } else {
      expect(daily).toBe(database.db);
      expect(monthly).toBe(database.db);
    }
    expect(daily.databaseName).toBe(database.db.databaseName);
  });

  it("keeps everything on one connection where the policy asks for one (stock FerretDB's layout)", async () => {
    const single = await connectTestDatabase('collection_writers_single', { singleConnection: true });
    try {
      expect(single.writerDb(DAILY_COLLECTION)).toBe(single.db);
      expect(single.writerDb(SECONDS_COLLECTION)).toBe(single.db);
      expect(single.client.options.maxPoolSize).toBe(1);
    } finally {
      await single.dropAndClose();
    }
  });

  it('gives the main client the connections the policy says, and loses no update made over them at once', async () => {
    const expected = database.policy.mainConnections;
    expect(database.client.options.maxPoolSize).toBe(expected ?? 100);
    // Upserts of one new document and updates of it from every connection of the pool at once: on a server whose
    // updates take turns (MongoDB, tally's FerretDB from tally18) none is lost, whatever the pool's size.
    const counters = database.db.collection<{ _id: string; n?: number }>('main_pool_counters');
    await Promise.all(
      Array.from({ length: 200 }, () => counters.updateOne({ _id: 'one' }, { $inc: { n: 1 } }, { upsert: true })),
    );
    expect((await counters.findOne({ _id: 'one' }))?.n).toBe(200);
  });

  it('loses no increment when many store writes and preallocations to the same documents run at once', async () => {
    const store = new CounterStore(database, { secondsRetentionMs: 48 * 3_600_000 });
    await store.ensureIndexes();
    const pages = ['/a', '/b', '/c'];
    const writes: Array<Promise<void>> = [];
    let expected = 0;
    for (let w = 0; w < 40; w++) {
      const batch = new CounterBatch({ seconds: { now: NOW, retentionMs: 48 * 3_600_000 }, siteTotals: true });
      for (let h = 0; h < 5; h++) {
        const hit: Hit = { site: 'writers.example', page: pages[(w + h) % 3] as string, at: NOW - h * 1_000, count: 1 };
        batch.add(hit);
        expected += 1;
      }
      writes.push(store.write(batch));
      if (w % 10 === 0) {
        writes.push(store.preallocate(pages.map((page) => ({ site: 'writers.example', page, day: NOW }))));
      }
    }
    await Promise.all(writes);
    const daily = database.db.collection(DAILY_COLLECTION);
    const site = await daily.findOne({ 'metadata.site': 'writers.example', 'metadata.page': '' });
    expect(site?.daily).toBe(expected);
    const pageDocs = await daily.find({ 'metadata.site': 'writers.example', 'metadata.page': { $ne: '' } }).toArray();
    expect(pageDocs.reduce((sum, doc) => sum + (doc.daily as number), 0)).toBe(expected);
    const monthly = await database.db
      .collection(MONTHLY_COLLECTION)
      .find({ 'metadata.site': 'writers.example', 'metadata.page': { $ne: '' } })
      .toArray();
    expect(monthly.reduce((sum, doc) => sum + (doc.daily as Record<string, number>)['22']!, 0)).toBe(expected);
    // Pages' minute documents and the site's (site totals are on) each hold every hit once.
    for (const page of [{ $ne: '' }, '']) {
      const seconds = await database.db
        .collection(SECONDS_COLLECTION)
        .find({ 'metadata.site': 'writers.example', 'metadata.page': page })
        .toArray();
      const secondsTotal = seconds.reduce(
        (sum, doc) => sum + Object.values(doc.seconds as Record<string, number>).reduce((a, b) => a + b, 0),
        0,
      );
      expect(secondsTotal).toBe(expected);
    }
  });
});
