import { exportSeries } from '../../src/query/exportSeries';
import { loadSeries } from '../../src/query/loadSeries';
import type { Series, SeriesRequest } from '../../src/query/Series';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { Granularity } from '../../src/time/Granularity';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

let database: TestDatabase;
let store: CounterStore;

beforeAll(async () => {
  database = await connectTestDatabase('export_series');
  store = new CounterStore(database);
  await store.ensureIndexes();
  const batch = new CounterBatch({ siteTotals: true });
  const start = Date.parse('2026-10-03T00:00:00Z');
  for (let i = 0; i < 200; i++) batch.add({ site: 'exp', page: '/p', at: start + i * 731_000, count: 1 + (i % 3) });
  await store.write(batch);
});

afterAll(async () => {
  await database.dropAndClose();
});

describe('exportSeries', () => {
  it.each([
    ['HOUR across Lord Howe’s half-hour change', Granularity.HOUR, 'Australia/Lord_Howe'],
    ['MINUTE in Kathmandu', Granularity.MINUTE, 'Asia/Kathmandu'],
    ['DAY in UTC', Granularity.DAY, 'UTC'],
  ])('streams %s in chunks that add up to the whole series', async (_name, granularity, timeZone) => {
    const request: SeriesRequest = {
      site: 'exp',
      page: '',
      granularity,
      from: Date.parse('2026-10-03T00:00:00Z'),
      to: Date.parse(granularity === Granularity.MINUTE ? '2026-10-03T02:00:00Z' : '2026-10-05T00:00:00Z'),
      timeZone,
    };
    const chunks: Series[] = [];
    for await (const chunk of exportSeries(store, request, 7)) chunks.push(chunk);
    const [whole] = await loadSeries(store, [request]);
    if (!whole || whole instanceof Error) throw whole;
    expect(chunks.length).toBe(Math.ceil(whole.points.length / 7));
    expect(chunks.flatMap((c) => c.points)).toEqual(whole.points);
    expect(chunks.at(-1)?.to).toBe(whole.to);
    expect(whole.total).toBeGreaterThan(0);
  });
});
