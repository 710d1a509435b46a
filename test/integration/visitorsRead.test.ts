import type { Dimension } from '../../src/domain/dimensions/Dimension';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { VISITOR_PRECISION } from '../../src/domain/visitors/VisitorPrecision';
import { BreakdownQuery } from '../../src/query/BreakdownQuery';
import { comparisonRequest } from '../../src/query/comparisonRequest';
import { loadSeries } from '../../src/query/loadSeries';
import { parseSeriesRequest } from '../../src/query/parseSeriesRequest';
import type { Series, SeriesRequest } from '../../src/query/Series';
import type { SeriesReader } from '../../src/query/SeriesReader';
import { StatsLoader } from '../../src/query/StatsLoader';
import { CounterStore } from '../../src/store/CounterStore';
import type { ExtraFields } from '../../src/store/statsExtras';
import { Granularity } from '../../src/time/Granularity';
import { directEstimate, distinctVisitors, hitDimensions, hitsIn, seedStats } from '../support/seedStats';
import type { SeedHit } from '../support/seedStats';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';
import { ok } from '../support/ok';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-31T12:00:00Z');
const FROM = NOW - 90 * DAY - (NOW % DAY);
const TO = NOW - (NOW % DAY) + DAY;
const PAGES = Array.from({ length: 20 }, (_, i) => `/p${i}`);
const SOURCES = ['Google', 'news.example', '(direct)', 'a.b$c'];
const DEVICES = ['mobile', 'desktop', 'tablet'];
const limits = {
  maxBuckets: 10_000,
  secondsRetentionMs: 48 * HOUR,
  dimensionVisitors: new Set<Dimension>(['device']),
};

let database: TestDatabase;
let store: CounterStore;
const hits: SeedHit[] = [];

beforeAll(async () => {
  database = await connectTestDatabase('visitors_read');
  store = new CounterStore(database);
  await store.ensureIndexes();
  // 90 days of hits on 20 pages from 60 visitors who return, each with a source and a device; the last two days
  // also have minute documents with their sketches.
  let n = 0;
  for (let t = FROM + 7 * 60_000; t < NOW; t += 47 * 60_000 + (n % 13) * 60_000) {
    hits.push({
      site: 'vis',
      page: PAGES[n % PAGES.length] as string,
      at: t,
      count: 1 + (n % 3),
      visitor: n % 7 === 0 ? undefined : (n * 31) % 60,
      dimensions: {
        source: SOURCES[Math.floor(n / PAGES.length) % SOURCES.length],
        device: DEVICES[(n >> 2) % DEVICES.length],
      },
    });
    n++;
  }
  await seedStats(database.db, hits, { minuteSketchesFrom: NOW - 48 * HOUR, dimensionVisitors: ['device'] });
});

afterAll(async () => {
  await database.dropAndClose();
});

/** A reader that records every call: its source and the extra fields asked for, and the documents it returned. */
function recordingReader(): {
  reader: SeriesReader;
  calls: Array<{ source: string; extra?: ExtraFields }>;
  docs: object[];
} {
  const calls: Array<{ source: string; extra?: ExtraFields }> = [];
  const docs: object[] = [];
  const keep = <T extends object>(found: T[]): T[] => (docs.push(...found), found);
  return {
    calls,
    docs,
    reader: {
      findDaily: async (ranges, fields, extra) => (
        calls.push({ source: `daily:${fields.kind}`, extra }),
        keep(await store.findDaily(ranges, fields, extra))
      ),
      findMonthly: async (ranges, extra) => (
        calls.push({ source: 'monthly', extra }),
        keep(await store.findMonthly(ranges, extra))
      ),
      findSeconds: async (ranges, extra) => (
        calls.push({ source: 'seconds', extra }),
        keep(await store.findSeconds(ranges, extra))
      ),
    },
  };
}

function request(page: string | undefined, granularity: Granularity, from: number, to: number, timeZone?: string) {
  return parseSeriesRequest(
    { site: 'vis', page, granularity, from: new Date(from), to: new Date(to), timeZone, visitors: true },
    limits,
    NOW,
  );
}

describe('visitors read from stored sketches', () => {
  it('per UTC day and over 90 days equal the sketches of the same visitors built directly, page and site', async () => {
    for (const page of ['/p3', undefined]) {
      const r = request(page, Granularity.DAY, FROM, TO);
      const series = ok((await loadSeries(store, [r]))[0]);
      const precision = page === undefined ? VISITOR_PRECISION.siteDay : VISITOR_PRECISION.pageDay;
      const pageOf = page ?? SITE_TOTAL_PAGE;
      series.points.forEach((point) => {
        const inDay = hitsIn(hits, { site: 'vis', page: pageOf, from: point.t, to: point.t + DAY });
        expect(point.visitors).toBe(directEstimate(inDay, precision));
      });
      expect(series.visitors).toEqual({
        visitors: directEstimate(hitsIn(hits, { site: 'vis', page: pageOf, from: FROM, to: TO }), precision),
        from: FROM,
        to: TO,
      });
      // Sixty people returning all quarter are sixty, not sixty a day.
      expect(series.visitors?.visitors).toBe(
        distinctVisitors(hitsIn(hits, { site: 'vis', page: pageOf, from: FROM, to: TO })),
      );
    }
  });

  it('per recent hour come from minute sketches; older hours are null and the range says what it covers', async () => {
    const r = request('/p0', Granularity.HOUR, NOW - 60 * HOUR, NOW - 10 * HOUR, 'Asia/Kolkata');
    const series = ok((await loadSeries(store, [r]))[0]);
    const minutesFrom = NOW - 48 * HOUR;
    for (const [i, point] of series.points.entries()) {
      const end = series.points[i + 1]?.t ?? series.to;
      if (point.t < minutesFrom) {
        expect(point.visitors).toBeNull();
      } else {
        const inHour = hitsIn(hits, { site: 'vis', page: '/p0', from: point.t, to: end });
        expect(point.visitors).toBe(directEstimate(inHour, VISITOR_PRECISION.minute));
      }
    }
    const range = ok(series.visitors ?? undefined);
    // Starts in an old hour: the whole UTC day holding it, then minutes up to the end.
    expect(range.from).toBe(series.from - (series.from % DAY));
    expect(range.to).toBe(series.to);
    const inRange = hitsIn(hits, { site: 'vis', page: '/p0', from: range.from, to: range.to });
    expect(range.visitors).toBe(directEstimate(inRange, VISITOR_PRECISION.minute));
  });

  it('of a filtered site series come from the per-value sketches', async () => {
    const r = parseSeriesRequest(
      {
        site: 'vis',
        granularity: Granularity.WEEK,
        from: new Date(FROM),
        to: new Date(TO),
        visitors: true,
        filter: { dimension: 'device', value: 'mobile' },
      },
      limits,
      NOW,
    );
    const series = ok((await loadSeries(store, [r]))[0]);
    const mobile = hits.filter((hit) => hitDimensions(hit).device === 'mobile');
    series.points.forEach((point, i) => {
      const end = series.points[i + 1]?.t ?? series.to;
      const inWeek = hitsIn(mobile, { site: 'vis', page: SITE_TOTAL_PAGE, from: point.t, to: end });
      expect(point.hits).toBe(inWeek.reduce((sum, hit) => sum + (hit.count ?? 1), 0));
      expect(point.visitors).toBe(directEstimate(inWeek, VISITOR_PRECISION.minute));
    });
  });
});

describe('one batch per request', () => {
  it('reads a dashboard of 20 series with visitors, comparisons and six breakdowns with one find per collection', async () => {
    const { reader, calls } = recordingReader();
    const loader = new StatsLoader(reader);
    const breakdowns = new BreakdownQuery({
      maxPageSize: 100,
      maxDays: 10_000,
      dimensionVisitors: limits.dimensionVisitors,
    });
    const series: SeriesRequest[] = PAGES.map((page) => request(page, Granularity.DAY, FROM, TO));
    const dimensions: Dimension[] = ['source', 'device', 'browser', 'os', 'country', 'utmCampaign'];
    database.commands.clear();
    // As resolvers do: every field's load in the same tick, a comparison in the same call as its series.
    const [loaded, ...totals] = await Promise.all([
      Promise.all(series.map((r) => loader.series([r, comparisonRequest(r, 'PREVIOUS_PERIOD')]))),
      ...dimensions.map((dimension) =>
        loader.breakdown(
          breakdowns.parse({
            site: 'vis',
            dimension,
            from: new Date(FROM),
            to: new Date(TO),
            first: 10,
            visitors: true,
          }).request,
        ),
      ),
    ]);
    expect(calls.map((call) => call.source).sort()).toEqual(['daily:hourly', 'monthly']);
    expect(database.commands.get('find')).toBe(2);
    expect(loaded.flat().every((s) => !(s instanceof Error) && s.visitors !== undefined)).toBe(true);
    // The six breakdowns' values add up to the site's hits over the same days.
    const siteHits = hitsIn(hits, { site: 'vis', page: SITE_TOTAL_PAGE, from: FROM, to: TO }).reduce(
      (sum, hit) => sum + (hit.count ?? 1),
      0,
    );
    for (const t of totals) expect([...t.hits.values()].reduce((a, b) => a + b, 0)).toBe(siteHits);
  });

  it('never reads `v`, `d` or `dv` for series that do not show visitors', async () => {
    const { reader, calls, docs } = recordingReader();
    const loader = new StatsLoader(reader);
    const plain = (page: string): SeriesRequest => ({
      site: 'vis',
      page,
      granularity: Granularity.HOUR,
      from: NOW - 30 * HOUR,
      to: NOW,
      timeZone: 'Asia/Kathmandu',
    });
    const results = await loader.series([plain('/p1'), plain('/p2'), comparisonRequest(plain('/p1'), 'PREVIOUS_YEAR')]);
    expect(results.every((s) => !(s instanceof Error) && (s as Series).visitors === undefined)).toBe(true);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.extra === undefined)).toBe(true);
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.some((doc) => 'v' in doc || 'd' in doc || 'dv' in doc)).toBe(false);
  });

  it('reads a breakdown of one page with `d` of that dimension only', async () => {
    const { reader, docs } = recordingReader();
    const breakdowns = new BreakdownQuery({
      maxPageSize: 100,
      maxDays: 10_000,
      dimensionVisitors: limits.dimensionVisitors,
    });
    const parsed = breakdowns.parse({
      site: 'vis',
      page: '/p5',
      dimension: 'source',
      from: new Date(FROM),
      to: new Date(TO),
      timeZone: 'Europe/Berlin',
      first: 2,
      visitors: true,
    });
    const result = breakdowns.rank(await new StatsLoader(reader).breakdown(parsed.request), parsed);
    for (const doc of docs as Array<{ d?: Record<string, unknown>; dv?: unknown; v?: unknown }>) {
      expect(Object.keys(doc.d ?? {})).toEqual(['source']);
      expect(doc.dv).toBeUndefined();
      expect(doc.v).toBeUndefined();
    }
    const inSpan = hitsIn(hits, { site: 'vis', page: '/p5', from: parsed.request.from, to: parsed.request.to });
    const bySource = new Map<string, number>();
    for (const hit of inSpan) {
      const value = hitDimensions(hit).source;
      bySource.set(value, (bySource.get(value) ?? 0) + (hit.count ?? 1));
    }
    expect(result.totalCount).toBe(bySource.size);
    expect(result.edges.map(({ node }) => node.visitors)).toEqual([null, null]);
    expect(result.edges.map(({ node }) => [node.value, node.hits])).toEqual(
      [...bySource].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 2),
    );
  });

  it("reads the visitors of a ranking's page of results in one find per collection", async () => {
    const { reader, calls } = recordingReader();
    const visitors = await new StatsLoader(reader).spanVisitors(
      ['/p1', '/p2', '/p3'].map((page) => ({ site: 'vis', page, from: FROM, to: TO })),
    );
    expect(calls.map((call) => call.source).sort()).toEqual(['daily:hourly', 'monthly']);
    ['/p1', '/p2', '/p3'].forEach((page, i) => {
      const inSpan = hitsIn(hits, { site: 'vis', page, from: FROM, to: TO });
      expect(ok(visitors[i]).visitors).toBe(directEstimate(inSpan, VISITOR_PRECISION.pageDay));
    });
  });
});
