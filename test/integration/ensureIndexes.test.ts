import { ensureIndexes } from '../../src/store/ensureIndexes';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

let database: TestDatabase;

beforeAll(async () => {
  database = await connectTestDatabase('indexes');
});

afterAll(async () => {
  await database.dropAndClose();
});

describe('ensureIndexes', () => {
  it('can run again on every restart with several indexes already in place', async () => {
    const collection = database.db.collection('restarts');
    const indexes = [
      { key: { a: 1, c: -1 }, name: 'a_c' },
      { key: { b: 1, c: -1 }, name: 'b_c' },
      { key: { c: -1, a: 1 }, name: 'c_a' },
    ] as const;
    await ensureIndexes(collection, indexes);
    await ensureIndexes(collection, indexes);
    const names = (await collection.indexes()).map((index) => index.name).sort();
    expect(names).toEqual(['_id_', 'a_c', 'b_c', 'c_a']);
  });
});
