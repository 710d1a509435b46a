import { comparisonRequest } from '../../src/query/comparisonRequest';
import type { SeriesRequest } from '../../src/query/Series';
import type { SeriesReader } from '../../src/query/SeriesReader';
import { StatsLoader } from '../../src/query/StatsLoader';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { Granularity } from '../../src/time/Granularity';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

let database: TestDatabase;
let store: CounterStore;

beforeAll(async () => {
  database = await connectTestDatabase('comparison_batch');
  store = new CounterStore(database);
  await store.ensureIndexes();
  const batch = new CounterBatch({ siteTotals: true });
  for (const [at, count] of [
    ['2026-03-12T10:00:00Z', 3],
    ['2026-03-05T10:00:00Z', 5],
    ['2025-03-12T10:00:00Z', 7],
  ] as const) {
    batch.add({ site: 'cmp', page: '/p', at: Date.parse(at), count });
  }
  await store.write(batch);
});

afterAll(async () => {
  await database.dropAndClose();
});

/** Counts the reader's calls: one per source per DataLoader batch. */
function countingReader(): { reader: SeriesReader; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    reader: {
      findDaily: (ranges, fields, extra) => (
        calls.push(`daily:${fields.kind}`),
        store.findDaily(ranges, fields, extra)
      ),
      findMonthly: (ranges, extra) => (calls.push('monthly'), store.findMonthly(ranges, extra)),
      findSeconds: (ranges, extra) => (calls.push('seconds'), store.findSeconds(ranges, extra)),
    },
  };
}

describe('comparisons', () => {
  it('are read in the same batch as the series: one find per source for both', async () => {
    const { reader, calls } = countingReader();
    const loader = new StatsLoader(reader);
    const request: SeriesRequest = {
      site: 'cmp',
      page: '/p',
      granularity: Granularity.WEEK,
      from: Date.parse('2026-03-09T00:00:00Z'),
      to: Date.parse('2026-03-16T00:00:00Z'),
      timeZone: 'UTC',
    };
    const [current, previous, lastYear] = await loader.series([
      request,
      comparisonRequest(request, 'PREVIOUS_PERIOD'),
      comparisonRequest(request, 'PREVIOUS_YEAR'),
    ]);
    expect(calls).toEqual(['monthly']);
    expect([current, previous, lastYear].map((s) => (s instanceof Error ? s : s?.total))).toEqual([3, 5, 7]);
  });
});
