import fc from 'fast-check';
import type { Impression } from '../../src/domain/Impression';
import { ImpressionIngest } from '../../src/ingest/ImpressionIngest';
import { SerialQueue } from '../../src/ingest/SerialQueue';
import { ImpressionQueries } from '../../src/query/ImpressionQueries';
import type { ImpressionConnection } from '../../src/query/ImpressionQueries';
import { ImpressionBatch } from '../../src/store/ImpressionBatch';
import { IMPRESSION_ITEMS_COLLECTION } from '../../src/store/impressionItems';
import { IMPRESSION_PAIRS_COLLECTION } from '../../src/store/impressionPairs';
import { ImpressionStore } from '../../src/store/ImpressionStore';
import type { ItemCount, PairCount } from '../../src/store/ImpressionStore';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';
import { assertProperty } from '../support/assertProperty';

jest.setTimeout(120_000);

let database: TestDatabase;
let store: ImpressionStore;
let ingest: ImpressionIngest;
let queries: ImpressionQueries;

beforeAll(async () => {
  database = await connectTestDatabase('impressions');
  store = new ImpressionStore(database);
  await store.ensureIndexes();
  ingest = new ImpressionIngest({
    writer: store,
    limits: { maxBatchSize: 10_000, maxCount: 2_000_000_000 },
    queue: database.policy.singleWriter ? new SerialQueue() : undefined,
  });
  queries = new ImpressionQueries(store, { maxPageSize: 100 });
});

afterAll(async () => {
  await database.dropAndClose();
});

beforeEach(async () => {
  await database.db.collection(IMPRESSION_PAIRS_COLLECTION).deleteMany({});
  await database.db.collection(IMPRESSION_ITEMS_COLLECTION).deleteMany({});
});

/** Every stored pair and item total, read back without the indexes under test. */
async function stored(): Promise<{ pairs: Map<string, number>; items: Map<string, number> }> {
  const pairs = new Map<string, number>();
  for (const doc of await database.db.collection(IMPRESSION_PAIRS_COLLECTION).find().toArray()) {
    pairs.set(`${doc.u as string} ${doc.i as string}`, doc.c as number);
  }
  const items = new Map<string, number>();
  for (const doc of await database.db.collection(IMPRESSION_ITEMS_COLLECTION).find().toArray()) {
    items.set(doc._id as unknown as string, doc.c as number);
  }
  return { pairs, items };
}

function recount(impressions: readonly Impression[]): { pairs: Map<string, number>; items: Map<string, number> } {
  const pairs = new Map<string, number>();
  const items = new Map<string, number>();
  for (const { userId, itemId, count } of impressions) {
    pairs.set(`${userId} ${itemId}`, (pairs.get(`${userId} ${itemId}`) ?? 0) + count);
    items.set(itemId, (items.get(itemId) ?? 0) + count);
  }
  return { pairs, items };
}

/** Follows endCursor until the last page. */
async function readAll<T>(page: (after: string | null) => Promise<ImpressionConnection<T>>): Promise<T[]> {
  const nodes: T[] = [];
  let after: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const result: ImpressionConnection<T> = await page(after);
    nodes.push(...result.edges.map((edge) => edge.node));
    if (!result.pageInfo.hasNextPage) return nodes;
    after = result.pageInfo.endCursor;
  }
  throw new Error('pagination did not end');
}

const byCountThen =
  <T extends { count: number }>(...keys: Array<(row: T) => string>) =>
  (a: T, b: T): number => {
    if (a.count !== b.count) return b.count - a.count;
    for (const key of keys) if (key(a) !== key(b)) return key(a) < key(b) ? -1 : 1;
    return 0;
  };

describe('impression counters against a real server', () => {
  it('creates the indexes each query pages through', async () => {
    const keys = async (name: string): Promise<Record<string, unknown>> =>
      Object.fromEntries(
        (await database.db.collection(name).listIndexes().toArray()).map((index) => [index.name, index.key]),
      );
    expect(await keys(IMPRESSION_PAIRS_COLLECTION)).toEqual({
      _id_: { _id: 1 },
      user_count_item: { u: 1, c: -1, i: 1 },
      item_count_user: { i: 1, c: -1, u: 1 },
      count_user_item: { c: -1, u: 1, i: 1 },
    });
    expect(await keys(IMPRESSION_ITEMS_COLLECTION)).toEqual({ _id_: { _id: 1 }, count_item: { c: -1, _id: 1 } });
  });

  it('starts new pairs at the batch count and adds repeated pairs within a batch', async () => {
    const result = await ingest.recordImpressions([
      { userId: 'u1', itemId: 'i1' },
      { userId: 'u1', itemId: 'i1', count: 4 },
      { userId: 'u2', itemId: 'i1' },
    ]);
    expect(result).toEqual({ accepted: 3, total: 6, pairs: 2, items: 1 });
    expect(await stored()).toEqual({
      pairs: new Map([
        ['u1 i1', 5],
        ['u2 i1', 1],
      ]),
      items: new Map([['i1', 6]]),
    });
  });

  it('counts exactly under concurrent batches with overlapping pairs', async () => {
    const batches = Array.from({ length: 24 }, (_, b) =>
      Array.from({ length: 150 }, (_, n) => ({
        userId: `u${(b + n) % 7}`,
        itemId: `i${(b * 3 + n) % 11}`,
        count: 1 + ((b + n) % 3),
      })),
    );
    await Promise.all(batches.map((batch) => ingest.recordImpressions(batch)));
    expect(await stored()).toEqual(recount(batches.flat()));
  });

  it('costs one write command per collection on MongoDB, whether a batch holds 1,000 or 10,000 impressions', async () => {
    // Stock FerretDB hangs on update commands modifying 100+ existing documents, so its policy chunks upserts.
    const commandsFor = (documents: number): number =>
      Math.max(1, Math.ceil(documents / (database.policy.maxUpdatesPerCommand ?? Infinity)));
    // 1,000 distinct pairs, then 10,000 impressions over 485 pairs (kept small: FerretDB upserts are slow).
    const batches = [
      Array.from({ length: 1_000 }, (_, n) => ({ userId: `u${n % 97}`, itemId: `i${n}`, count: 1 })),
      Array.from({ length: 10_000 }, (_, n) => ({ userId: `u${n % 97}`, itemId: `i${n % 5}`, count: 1 })),
    ];
    for (const batch of batches) {
      const { pairs, items } = recount(batch);
      database.commands.clear();
      await ingest.recordImpressions(batch);
      expect(Object.fromEntries(database.commands)).toEqual({
        update: commandsFor(pairs.size) + commandsFor(items.size),
      });
    }
  });

  it('sends nothing for an empty batch', async () => {
    database.commands.clear();
    expect(await ingest.recordImpressions([])).toEqual({ accepted: 0, total: 0, pairs: 0, items: 0 });
    expect(database.commands.size).toBe(0);
  });

  it('writes nothing when one impression of the batch is invalid', async () => {
    database.commands.clear();
    await expect(
      ingest.recordImpressions([
        { userId: 'u1', itemId: 'i1' },
        { userId: 'u1', itemId: 'i1', count: 0 },
      ]),
    ).rejects.toThrow('impressions[1].count must be a positive integer, got 0');
    expect(database.commands.size).toBe(0);
    expect((await stored()).pairs.size).toBe(0);
  });

  it('keeps counts beyond 2^31 exact', async () => {
    const big = Array.from({ length: 3 }, () => ({ userId: 'heavy', itemId: 'viral', count: 1_000_000_000 }));
    await ingest.recordImpressions(big);
    await ingest.recordImpressions(big);
    const page = await queries.userImpressions('heavy', { first: 5 });
    expect(page.edges.map((edge) => edge.node)).toEqual([{ userId: 'heavy', itemId: 'viral', count: 6_000_000_000 }]);
    expect((await queries.topItems({ first: 1 })).edges[0]?.node).toEqual({ itemId: 'viral', count: 6_000_000_000 });
  });

  it('pages through every connection without gaps or repeats when counts tie', async () => {
    await assertProperty(
      'impression connections page without gaps',
      fc.asyncProperty(
        fc.array(
          fc.record({
            userId: fc.constantFrom('a', 'b', 'c', 'ab', 'B'),
            itemId: fc.constantFrom('x', 'y', 'z', 'xy', 'Z', 'ü'),
            count: fc.integer({ min: 1, max: 3 }),
          }),
          { minLength: 0, maxLength: 40 },
        ),
        fc.integer({ min: 2, max: 4 }),
        async (impressions, first) => {
          await database.db.collection(IMPRESSION_PAIRS_COLLECTION).deleteMany({});
          await database.db.collection(IMPRESSION_ITEMS_COLLECTION).deleteMany({});
          await store.write(ImpressionBatch.of(impressions));
          const { pairs, items } = recount(impressions);
          const allPairs: PairCount[] = [...pairs].map(([key, count]) => {
            const [userId = '', itemId = ''] = key.split(' ');
            return { userId, itemId, count };
          });
          const allItems: ItemCount[] = [...items].map(([itemId, count]) => ({ itemId, count }));

          expect(await readAll((after) => queries.topPairs({ first, after }))).toEqual(
            [...allPairs].sort(
              byCountThen<PairCount>(
                (p) => p.userId,
                (p) => p.itemId,
              ),
            ),
          );
          expect(await readAll((after) => queries.topItems({ first, after }))).toEqual(
            [...allItems].sort(byCountThen<ItemCount>((i) => i.itemId)),
          );
          expect(await readAll((after) => queries.userImpressions('a', { first, after }))).toEqual(
            allPairs.filter((p) => p.userId === 'a').sort(byCountThen<PairCount>((p) => p.itemId)),
          );
          expect(await readAll((after) => queries.itemImpressions('x', { first, after }))).toEqual(
            allPairs.filter((p) => p.itemId === 'x').sort(byCountThen<PairCount>((p) => p.userId)),
          );
        },
      ),
      { numRuns: 5 },
    );
  });
});
