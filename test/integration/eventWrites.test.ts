/**
 * Event documents (issue 28) against the real server, in both targeting modes: a flush writes `events.daily` and
 * `events.monthly` beside the hit counters, under the same flush mark, so a re-sent flush (a retry, a replayed log
 * window) counts once; what is stored reads back through EventTotals as an independent recount of the events; an
 * event's visitor joins the site's sketch without adding a hit.
 */
import type { Hit } from '../../src/domain/Hit';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { EventTotals } from '../../src/query/events/EventTotals';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { dailyCollection, dailyDocumentId } from '../../src/store/dailyStats';
import { eventsDailyId } from '../../src/store/eventsDaily';
import { eventsMonthlyId } from '../../src/store/eventsMonthly';
import { EventStore } from '../../src/store/EventStore';
import { flushMark } from '../../src/store/FlushMark';
import type { Targeting } from '../../src/store/counterUpsert';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const DAY = Date.parse('2026-05-20T00:00:00Z');
const MONTH = Date.parse('2026-05-01T00:00:00Z');

function traffic(site: string): Hit[] {
  const hits: Hit[] = [];
  for (let i = 0; i < 50; i++) {
    hits.push({
      site,
      page: i % 2 === 0 ? '/buy' : '/',
      at: DAY + i * 60_000,
      count: 1 + (i % 3),
      visitor: { hi: i, lo: i * 2654435761 },
      event: {
        name: i % 5 === 0 ? 'Purchase' : 'Signup',
        props: [['plan', i % 4 === 0 ? 'pro' : 'free']],
        revenue: i % 5 === 0 ? { currency: 'EUR', minor: 100 + i } : undefined,
      },
    });
  }
  return hits;
}

function recount(hits: readonly Hit[]) {
  const counts = new Map<string, number>();
  const eur = new Map<string, number>();
  for (const hit of hits) {
    const event = hit.event as NonNullable<Hit['event']>;
    counts.set(event.name, (counts.get(event.name) ?? 0) + hit.count);
    if (event.revenue) eur.set(event.name, (eur.get(event.name) ?? 0) + event.revenue.minor * hit.count);
  }
  return { counts, eur };
}

describe.each<Targeting>(['shardKey', 'idOnly'])('event writes with %s targeting', (targeting) => {
  let database: TestDatabase;
  let store: CounterStore;
  let events: EventStore;

  beforeAll(async () => {
    database = await connectTestDatabase(`event_writes_${targeting}`, { targeting });
    store = new CounterStore(database);
    await store.ensureIndexes();
    events = new EventStore(database);
  });

  afterAll(async () => {
    await database.dropAndClose();
  });

  it('counts a flush re-sent under its mark once, and reads back the recount', async () => {
    const site = 'once.example';
    const hits = traffic(site);
    const mark = flushMark({ lane: 'lane1', seq: 1 });
    for (let attempt = 0; attempt < 3; attempt++) {
      const batch = new CounterBatch({ siteTotals: true });
      for (const hit of hits) batch.add(hit);
      await store.write(batch, mark);
    }
    const expected = recount(hits);
    const [day] = await events.find('day', [eventsDailyId(site, SITE_TOTAL_PAGE, DAY)]);
    const [month] = await events.find('month', [eventsMonthlyId(site, SITE_TOTAL_PAGE, MONTH)]);
    for (const doc of [day, month]) {
      const totals = new EventTotals(DAY, DAY + 86_400_000, doc ? [doc] : []);
      expect(totals.counts()).toEqual(expected.counts);
      expect(totals.revenue('Purchase')).toEqual(new Map([['EUR', expected.eur.get('Purchase')]]));
      expect(totals.visitors('Purchase')).toBe(10);
      expect(Math.abs(totals.visitors('Signup') - 40)).toBeLessThanOrEqual(1);
    }
    const [buy] = await events.find('day', [eventsDailyId(site, '/buy', DAY)]);
    expect(buy?.n?.Purchase).toBe(
      hits.filter((h) => h.page === '/buy' && h.event?.name === 'Purchase').reduce((n, h) => n + h.count, 0),
    );
  });

  it("adds an event's visitor to the site's sketch, not to its hits or the page's documents", async () => {
    const site = 'visitor.example';
    const batch = new CounterBatch({ siteTotals: true });
    batch.add({ site, page: '/', at: DAY, count: 1, visitor: { hi: 1, lo: 5 }, event: { name: 'A', props: [] } });
    await store.write(batch);
    const daily = dailyCollection(database.db);
    const siteDay = await daily.findOne({ _id: dailyDocumentId(site, SITE_TOTAL_PAGE, DAY) });
    expect(siteDay?.daily).toBeUndefined();
    expect(Object.keys((siteDay as unknown as { v: object }).v)).toHaveLength(1);
    expect(await daily.findOne({ _id: dailyDocumentId(site, '/', DAY) })).toBeNull();
  });
});
