/**
 * Event documents read by field (issue 28): a breakdown, a series or the event goals of `conversions` read only the
 * event's fields they use, and a request's loads still share one find per event collection, projected to the union
 * of what they read. The answers equal those from whole documents.
 */
import { NONE } from '../../src/domain/dimensions/dimensionMarkers';
import type { Hit } from '../../src/domain/Hit';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { BreakdownQuery } from '../../src/query/BreakdownQuery';
import { EventLoader } from '../../src/query/events/EventLoader';
import type { EventDocumentReader } from '../../src/query/events/EventLoader';
import { EventQueries } from '../../src/query/events/EventQueries';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { eventsDailyId } from '../../src/store/eventsDaily';
import { EventStore } from '../../src/store/EventStore';
import { SitePageScan } from '../../src/store/SitePageScan';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const DAY = 86_400_000;
const FROM = Date.parse('2026-05-18T00:00:00Z');
const TO = FROM + 3 * DAY;
const SITE = 'fields.example';
const COUNTRIES = ['DE', 'FR', 'US', 'JP'];
/** Dimension values every hit shares. */
const ALIKE = {
  utmSource: NONE,
  utmMedium: NONE,
  utmCampaign: NONE,
  browser: 'Firefox',
  os: 'Linux',
  device: 'desktop',
};

let database: TestDatabase;
let events: EventStore;
let queries: EventQueries;

beforeAll(async () => {
  database = await connectTestDatabase('event_fields');
  const store = new CounterStore(database);
  await store.ensureIndexes();
  events = new EventStore(database);
  queries = new EventQueries(
    new BreakdownQuery({ maxPageSize: 100, maxDays: 1_000, dimensionVisitors: new Set() }),
    { maxDays: 1_000 },
    new SitePageScan(database),
  );
  const batch = new CounterBatch({ siteTotals: true });
  for (let i = 0; i < 90; i++) batch.add(hit(i));
  await store.write(batch);
});

afterAll(async () => {
  await database.dropAndClose();
});

function hit(i: number): Hit {
  const country = COUNTRIES[i % COUNTRIES.length] as string;
  const purchase = Math.floor(i / 3) % 3 === 0;
  return {
    site: SITE,
    page: '/checkout',
    at: FROM + (i % 3) * DAY + i * 60_000,
    count: 1,
    visitor: { hi: i, lo: i * 2_654_435_761 },
    dimensions: { ...ALIKE, source: `s${i % 5}.example`, country },
    // Every day has both names: a day is i % 3, a Purchase every third run of three.
    event: purchase
      ? { name: 'Purchase', props: [['plan', 'pro']], revenue: { currency: 'EUR', minor: 1_000 + i } }
      : { name: 'Signup', props: [['plan', i % 2 === 0 ? 'pro' : 'free']] },
  };
}

/** The store, recording each find's level and fields. */
function recording() {
  const finds: Array<{ level: string; fields: readonly string[] | undefined }> = [];
  const reader: EventDocumentReader = {
    find: (level, ids, fields) => {
      finds.push({ level, fields: fields === undefined ? undefined : [...fields].sort() });
      return events.find(level, ids, fields);
    },
  };
  return { reader, finds };
}

describe('event documents read by field', () => {
  it('returns only the named fields, a path inside another named one folded into it', async () => {
    const [doc] = await events.find(
      'day',
      [eventsDailyId(SITE, SITE_TOTAL_PAGE, FROM)],
      ['n.Signup', 'n', 'd.Signup.country', 'r.Purchase'],
    );
    expect(Object.keys(doc ?? {}).sort()).toEqual(['_id', 'd', 'n', 'r']);
    expect(Object.keys(doc?.n ?? {}).sort()).toEqual(['Purchase', 'Signup']);
    expect(doc?.d).toEqual({ Signup: { country: expect.any(Object) } });
    expect(Object.keys(doc?.r ?? {})).toEqual(['Purchase']);
  });

  it('answers a breakdown and event goals from one projected find per collection, as from whole documents', async () => {
    const span = { site: SITE, page: SITE_TOTAL_PAGE, from: FROM, to: TO };
    const { reader, finds } = recording();
    const loader = new EventLoader(reader);
    const goals = queries.parseGoals([{ event: 'Purchase' }]);
    const sources = { events: (s: typeof span) => loader.load(s), siteVisitors: () => Promise.resolve(90) };
    const [byCountry, conversions] = await Promise.all([
      loader.load(queries.breakdownSpan(span, 'Signup', 'country')),
      queries.conversions(span, goals, sources),
    ]);
    expect(finds).toEqual([
      { level: 'day', fields: ['d.Signup.country', 'ev.Purchase', 'evz.Purchase', 'n.Purchase', 'r.Purchase'] },
      { level: 'month', fields: ['d.Signup.country', 'ev.Purchase', 'evz.Purchase', 'n.Purchase', 'r.Purchase'] },
    ]);

    const whole = new EventLoader(events);
    const paging = queries.parsePaging(10, null);
    expect(queries.breakdown(byCountry, 'Signup', 'country', paging)).toEqual(
      queries.breakdown(await whole.load(span), 'Signup', 'country', paging),
    );
    expect(conversions).toEqual(
      await queries.conversions(span, goals, { ...sources, events: (s) => whole.load({ ...s, fields: undefined }) }),
    );
    expect(conversions[0]).toMatchObject({
      goal: 'Purchase',
      events: 30,
      revenue: [{ currency: 'EUR', amount: expect.any(String) }],
    });
  });
});
