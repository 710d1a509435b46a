/**
 * Spans through today read this month's documents, not its days' (spanPieces), against the real server: the site's
 * visitors (a conversion rate's denominator) and the events of a span through today are the same as from the
 * span's days, since nothing is stored after the span's end; and the read takes one document where it took the
 * month's days.
 */
import type { Hit } from '../../src/domain/Hit';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { EventLoader } from '../../src/query/events/EventLoader';
import type { EventDocumentReader } from '../../src/query/events/EventLoader';
import { loadStats } from '../../src/query/loadStats';
import type { SpanVisitors } from '../../src/query/Series';
import type { HitHorizon } from '../../src/query/spanPieces';
import type { SeriesReader } from '../../src/query/SeriesReader';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { eventNamePaths } from '../../src/store/eventDocument';
import { EventStore } from '../../src/store/EventStore';
import { addMonths } from '../../src/time/buckets';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T10:30:00Z');
const TODAY = NOW - (NOW % DAY);
const SITE = 'through-today.example';
const HORIZON: HitHorizon = { now: NOW, maxClockSkewMs: 300_000 };

let database: TestDatabase;
let store: CounterStore;
let events: EventStore;

beforeAll(async () => {
  database = await connectTestDatabase('span_through_today');
  store = new CounterStore(database);
  await store.ensureIndexes();
  events = new EventStore(database);
  // 40 days up to now: pageviews, and every fifth hit an event, from a pool of visitors that return.
  const batch = new CounterBatch({ siteTotals: true });
  for (let i = 0; i < 4_000; i++) {
    const at = NOW - 40 * DAY + Math.floor((i * 40 * DAY) / 4_000);
    const visitor = (i * 7919) % 1_500;
    const hit: Hit = { site: SITE, page: `/p${i % 7}`, at, count: 1, visitor: { hi: visitor, lo: visitor * 40_503 } };
    batch.add(i % 5 === 0 ? { ...hit, event: { name: i % 2 === 0 ? 'Signup' : 'Purchase', props: [] } } : hit);
  }
  await store.write(batch);
});

afterAll(async () => {
  await database.dropAndClose();
});

describe('a span through today', () => {
  it.each([
    ['the last 30 days', TODAY - 29 * DAY, TODAY + DAY],
    ['this month', Date.parse('2026-11-01T00:00:00Z'), TODAY + DAY],
    ['the last 90 days', TODAY - 89 * DAY, TODAY + DAY],
  ])('gives the site visitors and events of %s as its days give them', async (_, from, to) => {
    const read = { days: 0, months: [] as string[] };
    const reader: SeriesReader = {
      findDaily: (r, fields, extra) => {
        for (const range of r) read.days += (range.last - range.first) / DAY + 1;
        return store.findDaily(r, fields, extra);
      },
      findMonthly: (r, extra) => {
        for (const range of r) {
          for (let month = range.first; month <= range.last; month = addMonths(month, 1)) {
            read.months.push(new Date(month).toISOString().slice(0, 7));
          }
        }
        return store.findMonthly(r, extra);
      },
      findSeconds: (r, extra) => store.findSeconds(r, extra),
    };
    const visitors = async (horizon?: HitHorizon): Promise<number> => {
      const [answer] = await loadStats(reader, [
        { kind: 'visitors', request: { site: SITE, page: SITE_TOTAL_PAGE, from, to, horizon } },
      ]);
      return (answer as SpanVisitors).visitors;
    };
    const byDays = await visitors();
    expect(read.months).not.toContain('2026-11');
    const daysRead = read.days;
    Object.assign(read, { days: 0, months: [] });
    expect(await visitors(HORIZON)).toBe(byDays);
    expect(read.months).toContain('2026-11');
    // November's days (up to today) are one document now.
    expect(read.days).toBe(daysRead - (TODAY + DAY - Math.max(from, Date.parse('2026-11-01T00:00:00Z'))) / DAY);
    expect(byDays).toBeGreaterThan(100);

    const levels: string[] = [];
    const recording: EventDocumentReader = {
      find: (level, ids, fields) => {
        levels.push(...ids.map(() => level));
        return events.find(level, ids, fields);
      },
    };
    const fields = ['Signup', 'Purchase'].flatMap((name) => eventNamePaths(name, ['n', 'ev', 'r']));
    const load = (horizon?: HitHorizon) =>
      new EventLoader(recording).load({ site: SITE, page: SITE_TOTAL_PAGE, from, to, fields, horizon });
    const days = await load();
    const monthLevels = levels.splice(0).filter((level) => level === 'month').length;
    const month = await load(HORIZON);
    expect(levels.filter((level) => level === 'month').length).toBe(monthLevels + 1);
    expect(month.counts()).toEqual(days.counts());
    expect(month.counts().get('Signup')).toBeGreaterThan(0);
    for (const name of ['Signup', 'Purchase']) expect(month.visitors(name)).toBe(days.visitors(name));
  });

  it('reads the days where a hit may still lie after the span (within the clock skew of its end)', async () => {
    const from = Date.parse('2026-11-01T00:00:00Z');
    const late: HitHorizon = { now: TODAY + DAY - 60_000, maxClockSkewMs: 300_000 };
    const levels: string[] = [];
    const recording: EventDocumentReader = {
      find: (level, ids, fields) => {
        levels.push(...ids.map(() => level));
        return events.find(level, ids, fields);
      },
    };
    await new EventLoader(recording).load({ site: SITE, page: SITE_TOTAL_PAGE, from, to: TODAY + DAY, horizon: late });
    expect(levels.filter((level) => level === 'month')).toEqual([]);
  });
});
