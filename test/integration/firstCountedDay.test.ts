/**
 * Where a site's "all time" starts (issue 30): the first UTC day with a hit in its site-total monthly documents,
 * past preallocated months of zeros, whatever other sites hold.
 */
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { CounterStore } from '../../src/store/CounterStore';
import { writeHits } from '../support/counterFixtures';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const ms = (iso: string): number => Date.parse(iso);

let database: TestDatabase;
let store: CounterStore;

beforeAll(async () => {
  database = await connectTestDatabase('first_counted_day');
  store = new CounterStore(database);
  await store.ensureIndexes();
});

afterAll(async () => {
  await database.dropAndClose();
});

describe('the first counted day of a site', () => {
  it('is the UTC day of the earliest hit, in a month after preallocated zeros, ignoring other sites', async () => {
    // Months of zeros before the first hit: preallocated site totals and a page's.
    await store.preallocate([
      { site: 'first.example', page: SITE_TOTAL_PAGE, day: ms('2024-12-10T00:00:00Z') },
      { site: 'first.example', page: SITE_TOTAL_PAGE, day: ms('2025-01-05T00:00:00Z') },
      { site: 'first.example', page: '/', day: ms('2024-11-03T00:00:00Z') },
    ]);
    await writeHits(store, [
      { site: 'first.example', page: '/b', at: ms('2025-03-17T23:59:59Z'), count: 1 },
      { site: 'first.example', page: '/a', at: ms('2025-02-28T00:00:00Z'), count: 2 },
      { site: 'first.example', page: '/a', at: ms('2026-01-01T12:00:00Z'), count: 1 },
      { site: 'earlier.example', page: '/', at: ms('2020-02-29T08:00:00Z'), count: 1 },
    ]);
    expect(await store.firstCountedDay('first.example')).toBe(ms('2025-02-28T00:00:00Z'));
    expect(await store.firstCountedDay('earlier.example')).toBe(ms('2020-02-29T00:00:00Z'));
  });

  it('moves to an earlier hit written later, within the same month', async () => {
    await writeHits(store, [{ site: 'late.example', page: '/', at: ms('2025-07-20T10:00:00Z'), count: 1 }]);
    expect(await store.firstCountedDay('late.example')).toBe(ms('2025-07-20T00:00:00Z'));
    await writeHits(store, [{ site: 'late.example', page: '/x', at: ms('2025-07-02T00:00:00Z'), count: 3 }]);
    expect(await store.firstCountedDay('late.example')).toBe(ms('2025-07-02T00:00:00Z'));
  });

  it('is undefined for a site with no hits, preallocated or not', async () => {
    await store.preallocate([{ site: 'empty.example', page: SITE_TOTAL_PAGE, day: ms('2025-05-05T00:00:00Z') }]);
    expect(await store.firstCountedDay('empty.example')).toBeUndefined();
    expect(await store.firstCountedDay('never.example')).toBeUndefined();
  });
});
