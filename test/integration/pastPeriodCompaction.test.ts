import type { Document } from 'mongodb';
import type { Dimension } from '../../src/domain/dimensions/Dimension';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { VISITOR_PRECISION } from '../../src/domain/visitors/VisitorPrecision';
import { BreakdownQuery } from '../../src/query/BreakdownQuery';
import { loadSeries } from '../../src/query/loadSeries';
import { StatsLoader } from '../../src/query/StatsLoader';
import { parseSeriesRequest } from '../../src/query/parseSeriesRequest';
import type { Series } from '../../src/query/Series';
import { packedCount } from '../../src/domain/dimensions/packedCounters';
import { COMPACTION_PROJECTION, periodCompaction } from '../../src/store/compactPastPeriods';
import type { CompactableDocument } from '../../src/store/compactPastPeriods';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { DAILY_COLLECTION, dailyDocumentId } from '../../src/store/dailyStats';
import { DimensionCounting } from '../../src/store/DimensionCounting';
import { MONTHLY_COLLECTION, monthlyDocumentId } from '../../src/store/monthlyStats';
import { COMPACTION_DELAY_MS } from '../../src/store/CompactionNominations';
import { Granularity } from '../../src/time/Granularity';
import { directEstimate, hitDimensions, hitsIn, VISITOR_SEED } from '../support/seedStats';
import type { SeedHit } from '../support/seedStats';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';
import { ok } from '../support/ok';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-31T12:00:00Z');
const TODAY = NOW - (NOW % DAY);
const FROM = TODAY - 40 * DAY;
const TO = TODAY + DAY;
const PAGES = ['/a', '/b', '/c'];
const DEVICES = ['mobile', 'desktop', 'tablet'];
// Referrer sources, one whose key is escaped (`news%2Eexample`).
const SOURCES = ['google', 'bing', 'news.example', 'duckduckgo', 'ecosia'];
const limits = { maxBuckets: 10_000, secondsRetentionMs: 48 * HOUR, dimensionVisitors: new Set<Dimension>(['device']) };

let database: TestDatabase;
let store: CounterStore;
const sent: SeedHit[] = [];
const dimensions = new DimensionCounting({ maxValues: 1_000, visitorDimensions: ['device'] });

beforeAll(async () => {
  database = await connectTestDatabase('sketch_compaction');
  store = new CounterStore(database);
  await store.ensureIndexes();
});

afterAll(async () => {
  await database.dropAndClose();
});

/** Writes hits through the ingest path's own batch and store write (as a flush does). */
async function write(hits: readonly SeedHit[]): Promise<void> {
  const batch = new CounterBatch({ siteTotals: true, dimensions });
  for (const hit of hits) {
    batch.add({
      site: hit.site,
      page: hit.page,
      at: hit.at,
      count: hit.count ?? 1,
      visitor: hit.visitor === undefined ? undefined : splitmix64(VISITOR_SEED, hit.visitor),
      dimensions: hitDimensions(hit),
    });
  }
  await store.write(batch);
  sent.push(...hits);
}

function hitsBetween(from: number, to: number, visitors: (n: number) => number): SeedHit[] {
  const hits: SeedHit[] = [];
  let n = 0;
  for (let t = from + 5 * 60_000; t < to; t += 53 * 60_000 + (n % 7) * 60_000) {
    hits.push({
      site: 'cmp',
      page: PAGES[n % PAGES.length] as string,
      at: t,
      count: 1 + (n % 2),
      visitor: n % 9 === 0 ? undefined : visitors(n),
      dimensions: { device: DEVICES[(n >> 1) % DEVICES.length], source: SOURCES[n % SOURCES.length] },
    });
    n++;
  }
  return hits;
}

/** The site's devices over the whole span, each with its visitors (per-value sketches). */
async function deviceBreakdown(): Promise<unknown> {
  const breakdowns = new BreakdownQuery({
    maxPageSize: 100,
    maxDays: 10_000,
    dimensionVisitors: limits.dimensionVisitors,
  });
  const parsed = breakdowns.parse({
    site: 'cmp',
    dimension: 'device',
    from: new Date(FROM),
    to: new Date(TO),
    first: 10,
    visitors: true,
  });
  const result = breakdowns.rank(await new StatsLoader(store).breakdown(parsed.request), parsed);
  return result.edges.map(({ node }) => [node.value, node.hits, node.visitors]);
}

/** Hits per source over the whole span, of a page or the site, sorted by value. */
async function sourceBreakdown(page?: string): Promise<Array<[string, number]>> {
  const breakdowns = new BreakdownQuery({ maxPageSize: 100, maxDays: 10_000, dimensionVisitors: new Set() });
  const parsed = breakdowns.parse({
    site: 'cmp',
    page,
    dimension: 'source',
    from: new Date(FROM),
    to: new Date(TO),
    first: 100,
    visitors: false,
  });
  const result = breakdowns.rank(await new StatsLoader(store).breakdown(parsed.request), parsed);
  return result.edges.map(({ node }): [string, number] => [node.value, node.hits]).sort(([a], [b]) => (a < b ? -1 : 1));
}

/** The same, recounted from the hits sent. */
function recountSources(page?: string): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const hit of hitsIn(sent, { site: 'cmp', page: page ?? SITE_TOTAL_PAGE, from: FROM, to: TO })) {
    const { source } = hitDimensions(hit);
    counts.set(source, (counts.get(source) ?? 0) + (hit.count ?? 1));
  }
  return [...counts].sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Every series the test compares: each page and the site by DAY and MONTH, and the site filtered by a device. */
async function readAll(): Promise<Series[]> {
  const requests = [...PAGES, undefined].flatMap((page) =>
    [Granularity.DAY, Granularity.MONTH].map((granularity) =>
      parseSeriesRequest(
        { site: 'cmp', page, granularity, from: new Date(FROM), to: new Date(TO), visitors: true },
        limits,
        NOW,
      ),
    ),
  );
  requests.push(
    parseSeriesRequest(
      {
        site: 'cmp',
        granularity: Granularity.DAY,
        from: new Date(FROM),
        to: new Date(TO),
        visitors: true,
        filter: { dimension: 'device', value: 'mobile' },
      },
      limits,
      NOW,
    ),
    parseSeriesRequest(
      {
        site: 'cmp',
        page: '/a',
        granularity: Granularity.WEEK,
        from: new Date(FROM),
        to: new Date(TO),
        filter: { dimension: 'source', value: 'news.example' },
      },
      limits,
      NOW,
    ),
  );
  return (await loadSeries(store, requests)).map(ok);
}

/** The series readAll read for `page` (undefined: the site) by DAY. */
function dayOf(all: readonly Series[], page: string | undefined): Series {
  return ok(all[2 * [...PAGES, undefined].indexOf(page)]);
}

async function stored(collection: string, id: string): Promise<Document | null> {
  return database.db.collection(collection).findOne({ _id: id } as Document);
}

const pastDay = TODAY - 3 * DAY;

describe('compacting visitor sketches and dimension counters of past periods', () => {
  let before: Series[];

  it('folds `v`, `dv` and `d` of every past document into binaries and reads the same series after', async () => {
    // 40 days of 150 returning visitors; then today's hits.
    await write(hitsBetween(FROM, TODAY, (n) => (n * 37) % 150));
    await write(hitsBetween(TODAY, NOW, (n) => (n * 37) % 150));
    before = await readAll();
    const devicesBefore = await deviceBreakdown();
    const sourcesBefore = await sourceBreakdown();
    expect(sourcesBefore).toEqual(recountSources());
    expect(sourcesBefore.map(([source]) => source)).toEqual([...SOURCES].sort());
    expect(await sourceBreakdown('/a')).toEqual(recountSources('/a'));
    const mobile = hitsIn(sent, { site: 'cmp', page: SITE_TOTAL_PAGE, from: FROM, to: TO }).filter(
      (hit) => hit.dimensions?.device === 'mobile',
    );
    expect(devicesBefore).toContainEqual([
      'mobile',
      mobile.reduce((sum, hit) => sum + (hit.count ?? 1), 0),
      directEstimate(mobile, VISITOR_PRECISION.minute),
    ]);
    expect(dayOf(before, undefined).visitors?.visitors).toBe(
      directEstimate(
        hitsIn(sent, { site: 'cmp', page: SITE_TOTAL_PAGE, from: FROM, to: TO }),
        VISITOR_PRECISION.siteDay,
      ),
    );

    // Nothing is due until its period is over and the delay has passed.
    // Days before yesterday and last month (× 3 pages and the site), then yesterday once its delay is over.
    expect(await store.compactPastPeriods(TODAY + COMPACTION_DELAY_MS - 1)).toBe(39 * 4 + 4);
    expect(await store.compactPastPeriods(TODAY + COMPACTION_DELAY_MS)).toBe(4);

    const past = await stored(DAILY_COLLECTION, dailyDocumentId('cmp', SITE_TOTAL_PAGE, pastDay));
    expect(past?.v).toBeUndefined();
    expect(past?.dv).toBeUndefined();
    expect(Buffer.isBuffer(past?.vz?.buffer) || past?.vz?._bsontype === 'Binary').toBe(true);
    expect(Object.keys(past?.dvz?.device ?? {}).sort()).toEqual(['desktop', 'mobile', 'tablet']);
    // Counters and dimension counts are untouched.
    expect(past?.daily).toBe(
      hitsIn(sent, { site: 'cmp', page: SITE_TOTAL_PAGE, from: pastDay, to: pastDay + DAY }).reduce(
        (sum, hit) => sum + (hit.count ?? 1),
        0,
      ),
    );
    expect(past?.d).toBeUndefined();
    const recount = (dimension: 'device' | 'source', value: string): number =>
      hitsIn(sent, { site: 'cmp', page: SITE_TOTAL_PAGE, from: pastDay, to: pastDay + DAY })
        .filter((hit) => hit.dimensions?.[dimension] === value)
        .reduce((sum, hit) => sum + (hit.count ?? 1), 0);
    expect(packedCount(past?.dz?.device?.buffer, 'mobile')).toBe(recount('device', 'mobile'));
    expect(packedCount(past?.dz?.source?.buffer, 'news%2Eexample')).toBe(recount('source', 'news.example'));
    expect(recount('source', 'news.example')).toBeGreaterThan(0);
    // Today's document and this month's are not over: left as written.
    const today = await stored(DAILY_COLLECTION, dailyDocumentId('cmp', '/a', TODAY));
    expect(today?.v).toBeDefined();
    expect(today?.vz).toBeUndefined();
    const month = await stored(MONTHLY_COLLECTION, monthlyDocumentId('cmp', '/a', Date.UTC(2026, 2, 1)));
    expect(month?.v).toBeDefined();

    expect(await readAll()).toEqual(before);
    expect(await deviceBreakdown()).toEqual(devicesBefore);
    expect(await sourceBreakdown()).toEqual(sourcesBefore);
    expect(await sourceBreakdown('/a')).toEqual(recountSources('/a'));
  });

  it('reads a late hit written beside the binary, and folds it in at the next run', async () => {
    // New visitors and returning ones, three days ago (already compacted).
    const late = hitsBetween(pastDay, pastDay + 6 * HOUR, (n) => (n % 2 === 0 ? 1_000 + n : (n * 37) % 150));
    await write(late);
    const doc = await stored(DAILY_COLLECTION, dailyDocumentId('cmp', '/a', pastDay));
    expect(doc?.v).toBeDefined();
    expect(doc?.vz).toBeDefined();
    const afterLate = await readAll();
    const point = dayOf(afterLate, '/a').points.find((p) => p.t === pastDay);
    expect(point?.visitors).toBe(
      directEstimate(
        hitsIn(sent, { site: 'cmp', page: '/a', from: pastDay, to: pastDay + DAY }),
        VISITOR_PRECISION.pageDay,
      ),
    );
    expect(afterLate).not.toEqual(before);
    // The late hits' counters sit in `d` beside `dz`; a breakdown adds the two.
    expect(doc?.d?.source).toBeDefined();
    expect(doc?.dz?.source).toBeDefined();
    expect(await sourceBreakdown('/a')).toEqual(recountSources('/a'));
    expect(await sourceBreakdown()).toEqual(recountSources());

    expect(await store.compactPastPeriods(TODAY + COMPACTION_DELAY_MS)).toBe(4);
    expect((await stored(DAILY_COLLECTION, dailyDocumentId('cmp', '/a', pastDay)))?.v).toBeUndefined();
    expect((await stored(DAILY_COLLECTION, dailyDocumentId('cmp', '/a', pastDay)))?.d).toBeUndefined();
    expect(await readAll()).toEqual(afterLate);
    expect(await sourceBreakdown('/a')).toEqual(recountSources('/a'));
  });

  it('leaves a document that a write changed after the read to a later run, losing nothing', async () => {
    const id = dailyDocumentId('cmp', '/b', pastDay);
    await write([{ site: 'cmp', page: '/b', at: pastDay + HOUR, visitor: 5_001, dimensions: { device: 'mobile' } }]);
    const read = (await database.db.collection(DAILY_COLLECTION).findOne({ _id: id } as Document, {
      projection: COMPACTION_PROJECTION,
      promoteBuffers: true,
    })) as unknown as CompactableDocument;
    const operation = ok(periodCompaction(read, 'daily', database.policy.targeting));
    // A flush lands between the compaction's read and its rewrite.
    await write([{ site: 'cmp', page: '/b', at: pastDay + HOUR, visitor: 5_002, dimensions: { device: 'mobile' } }]);
    const result = await database.db.collection(DAILY_COLLECTION).bulkWrite([operation]);
    expect(result.modifiedCount).toBe(0);
    const expected = directEstimate(
      hitsIn(sent, { site: 'cmp', page: '/b', from: pastDay, to: pastDay + DAY }),
      VISITOR_PRECISION.pageDay,
    );
    const visitorsOf = async (): Promise<number | null | undefined> =>
      dayOf(await readAll(), '/b').points.find((p) => p.t === pastDay)?.visitors;
    expect(await visitorsOf()).toBe(expected);
    // The write nominated the document again.
    expect(await store.compactPastPeriods(TODAY + COMPACTION_DELAY_MS)).toBeGreaterThanOrEqual(1);
    expect((await stored(DAILY_COLLECTION, id))?.v).toBeUndefined();
    expect(await visitorsOf()).toBe(expected);
  });

  it("leaves a site document alone when an event's visitor joined its sketch after the read (an event is no hit)", async () => {
    const id = dailyDocumentId('cmp', SITE_TOTAL_PAGE, pastDay);
    await write([{ site: 'cmp', page: '/e', at: pastDay + HOUR, visitor: 6_001 }]);
    const read = (await database.db.collection(DAILY_COLLECTION).findOne({ _id: id } as Document, {
      projection: COMPACTION_PROJECTION,
      promoteBuffers: true,
    })) as unknown as CompactableDocument;
    const operation = ok(periodCompaction(read, 'daily', database.policy.targeting));
    // A late event from a new visitor: it ORs a register into the site's sketch and counts no hit.
    const batch = new CounterBatch({ siteTotals: true, dimensions });
    batch.add({
      site: 'cmp',
      page: '/e',
      at: pastDay + 2 * HOUR,
      count: 1,
      visitor: splitmix64(VISITOR_SEED, 6_002),
      event: { name: 'Signup', props: [] },
    });
    await store.write(batch);
    const before = (await stored(DAILY_COLLECTION, id))?.daily;
    const result = await database.db.collection(DAILY_COLLECTION).bulkWrite([operation]);
    expect(result.modifiedCount).toBe(0);
    expect((await stored(DAILY_COLLECTION, id))?.daily).toBe(before);
    // The register is still there, and the next run (nominated by the event's write) folds it in.
    expect((await stored(DAILY_COLLECTION, id))?.v).toBeDefined();
    expect(await store.compactPastPeriods(TODAY + COMPACTION_DELAY_MS)).toBeGreaterThanOrEqual(1);
    expect((await stored(DAILY_COLLECTION, id))?.v).toBeUndefined();
    expect((await stored(DAILY_COLLECTION, id))?.vz).toBeDefined();
  });

  it('nominates, on read, documents written before this process started', async () => {
    const fresh = new CounterStore(database);
    const id = dailyDocumentId('cmp', '/c', pastDay);
    await write([{ site: 'cmp', page: '/c', at: pastDay + 2 * HOUR, visitor: 7_001 }]);
    expect((await stored(DAILY_COLLECTION, id))?.v).toBeDefined();
    // A new store has seen no write: nothing to compact until a read finds register fields.
    expect(await fresh.compactPastPeriods(TODAY + COMPACTION_DELAY_MS)).toBe(0);
    await loadSeries(fresh, [
      parseSeriesRequest(
        {
          site: 'cmp',
          page: '/c',
          granularity: Granularity.DAY,
          from: new Date(FROM),
          to: new Date(TO),
          visitors: true,
        },
        limits,
        NOW,
      ),
    ]);
    expect(await fresh.compactPastPeriods(TODAY + COMPACTION_DELAY_MS)).toBe(1);
    expect((await stored(DAILY_COLLECTION, id))?.v).toBeUndefined();
  });

  it('compacts the counters of hits without visitors, nominated by their write or by a breakdown that reads them', async () => {
    const day = TODAY - 5 * DAY;
    const siteDay = dailyDocumentId('cmp', SITE_TOTAL_PAGE, day);
    // No visitor: nothing is sketched, but the source is counted.
    await write([{ site: 'cmp', page: '/c', at: day + HOUR, dimensions: { source: 'qwant' } }]);
    expect((await stored(DAILY_COLLECTION, siteDay))?.d?.source?.qwant).toBe(1);
    const fresh = new CounterStore(database);
    const breakdowns = new BreakdownQuery({ maxPageSize: 100, maxDays: 10_000, dimensionVisitors: new Set() });
    const parsed = breakdowns.parse({
      site: 'cmp',
      dimension: 'source',
      from: new Date(day),
      to: new Date(day + DAY),
      first: 100,
      visitors: false,
    });
    await new StatsLoader(fresh).breakdown(parsed.request);
    expect(await fresh.compactPastPeriods(TODAY + COMPACTION_DELAY_MS)).toBe(1);
    const compacted = await stored(DAILY_COLLECTION, siteDay);
    expect(compacted?.d).toBeUndefined();
    expect(packedCount(compacted?.dz?.source?.buffer, 'qwant')).toBe(1);
    // The writing store nominated the page's and the site's day. The site's, compacted by the other store, has
    // nothing left to fold; the page's is rewritten, and so is the site's day of the test before (also nominated).
    expect(await store.compactPastPeriods(TODAY + COMPACTION_DELAY_MS)).toBe(2);
    expect((await stored(DAILY_COLLECTION, dailyDocumentId('cmp', '/c', day)))?.d).toBeUndefined();
    expect(await sourceBreakdown()).toEqual(recountSources());
  });
});
