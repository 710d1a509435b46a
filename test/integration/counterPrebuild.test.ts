/**
 * CounterStore.prebuild against the real server: operations built ahead of a write (a window's next part, built while
 * the database applies the current one) write what the write would have built, and a write under another mark than
 * the one they were built for builds its own (the stored marks say which attempt a document absorbed).
 */
import type { Hit } from '../../src/domain/Hit';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { dailyCollection, dailyDocumentId } from '../../src/store/dailyStats';
import { flushMark } from '../../src/store/FlushMark';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const DAY = Date.parse('2026-05-20T00:00:00Z');

function batchOf(site: string): CounterBatch {
  const batch = new CounterBatch({ siteTotals: true });
  for (let i = 0; i < 20; i++) {
    const hit: Hit = { site, page: `/p${i % 4}`, at: DAY + i * 600_000, count: 1 + (i % 3) };
    batch.add(hit);
  }
  return batch;
}

describe('CounterStore.prebuild', () => {
  let database: TestDatabase;
  let store: CounterStore;

  beforeAll(async () => {
    database = await connectTestDatabase('counter_prebuild');
    store = new CounterStore(database);
    await store.ensureIndexes();
  });

  afterAll(async () => {
    await database.dropAndClose();
  });

  const dailyOf = async (site: string, page: string) =>
    (await dailyCollection(database.db).findOne({ _id: dailyDocumentId(site, page, DAY) }))?.daily;

  it('writes the operations built ahead under their mark, once however often the batch is re-sent', async () => {
    const site = 'ahead.example';
    const mark = flushMark({ lane: 'ahead', seq: 1 });
    for (let attempt = 0; attempt < 2; attempt++) {
      const batch = batchOf(site);
      store.prebuild(batch, mark);
      await store.write(batch, mark);
    }
    expect(await store.absorbed(batchOf(site), mark)).toBe(true);
    // /p0 takes hits 0, 4, 8, 12, 16 with counts 1, 2, 3, 1, 2.
    expect(await dailyOf(site, '/p0')).toBe(9);
  });

  it('builds again for a write under another mark than the one the operations were built for', async () => {
    const site = 'other.example';
    const built = flushMark({ lane: 'built', seq: 1 });
    const sent = flushMark({ lane: 'sent', seq: 1 });
    const batch = batchOf(site);
    store.prebuild(batch, built);
    await store.write(batch, sent);
    expect(await store.absorbed(batchOf(site), sent)).toBe(true);
    expect(await store.absorbed(batchOf(site), built)).toBe(false);
    expect(await dailyOf(site, '/p0')).toBe(9);
  });
});
