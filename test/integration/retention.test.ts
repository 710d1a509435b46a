/**
 * Retention (issue 30) against the real server: the job drops exactly what RETENTION_MINUTES_DAYS and
 * RETENTION_DAYS say (seeded days on both sides of each cutoff, every stored document inspected), and queries for
 * dropped detail answer null points with an `extensions.retention` note, before the job has run and after: never
 * a zero read from a missing counter.
 */
import type { Document } from 'mongodb';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { SECONDS_COLLECTION } from '../../src/store/secondStats';
import { applyRetention } from '../../src/store/applyRetention';
import type { SweepContext } from '../../src/store/ttlOrSweep';
import { unwatched } from '../../src/store/StepWatch';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';

jest.setTimeout(120_000);

const NOW = Date.parse('2026-11-26T12:00:00Z');
const SITE = 'retention.example';
const CONTEXT: SweepContext = { watch: unwatched, stopped: () => false };
// RETENTION_MINUTES_DAYS=1 keeps minutes of 25 and 26 November; RETENTION_DAYS=4 keeps daily documents from 22 November.
const ENV = { RETENTION_MINUTES_DAYS: '1', RETENTION_DAYS: '4', DIMENSIONS_ENABLED: 'false' };
const DAYS = ['18', '19', '20', '21', '22', '23', '24', '25', '26'];

let app: TestApp;

interface SeriesBody {
  data?: {
    pageStats: {
      total: number | null;
      visitors?: number | null;
      points: Array<{ hits: number | null; visitors?: number | null }>;
    };
  };
  errors?: unknown[];
  extensions?: { retention?: { minuteCountersFrom: string; dailyDocumentsFrom: string; nullPoints: number } };
}

async function series(granularity: string, from: string, to: string, visitors = false): Promise<SeriesBody> {
  const response = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `query($site: String!, $from: DateTime!, $to: DateTime!, $g: Granularity!) {
        pageStats(site: $site, page: "/a", range: { from: $from, to: $to }, granularity: $g) {
          total ${visitors ? 'visitors' : ''} points { hits ${visitors ? 'visitors' : ''} }
        }
      }`,
      variables: { site: SITE, from, to, g: granularity },
    }),
  });
  return (await response.json()) as SeriesBody;
}

/** The stored documents of the page, or with `page` '' of the site's totals, in `_id` order. */
async function stored(collection: string, page = '/a'): Promise<Document[]> {
  const documents = await app.database.db.collection(collection).find({ 'metadata.site': SITE }).toArray();
  return documents
    .filter((doc) => (doc.metadata as { page: string }).page === page)
    .sort((a, b) => (String(a._id) < String(b._id) ? -1 : 1));
}

beforeAll(async () => {
  app = await startTestApp('retention', ENV, () => NOW);
  const hits = [
    ...DAYS.map((day) => ({ site: SITE, page: '/a', at: `2026-11-${day}T10:15:00Z`, count: 2, visitor: `v${day}` })),
    // Inside the 48-hour second-level window: one minute before the minutes cutoff, one after.
    { site: SITE, page: '/a', at: '2026-11-24T13:00:00Z', count: 1 },
    { site: SITE, page: '/a', at: '2026-11-25T13:00:00Z', count: 1 },
  ];
  const response = await app.graphql('mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }', {
    hits,
  });
  expect(response.body.errors).toBeUndefined();
});

afterAll(async () => {
  await app?.stop();
});

describe('retention', () => {
  const checkQueries = async (): Promise<void> => {
    // MINUTE over 24 November: minute counters dropped (null, not zero), with the note.
    const minutes = await series('MINUTE', '2026-11-24T10:00:00Z', '2026-11-24T10:30:00Z');
    expect(minutes.errors).toBeUndefined();
    expect(minutes.data?.pageStats.points.map((p) => p.hits)).toEqual(Array(30).fill(null));
    expect(minutes.data?.pageStats.total).toBeNull();
    expect(minutes.extensions?.retention).toMatchObject({
      minuteCountersFrom: '2026-11-25T00:00:00.000Z',
      dailyDocumentsFrom: '2026-11-22T00:00:00.000Z',
      nullPoints: 30,
    });
    // MINUTE over 25 November is kept.
    const kept = await series('MINUTE', '2026-11-25T10:14:00Z', '2026-11-25T10:17:00Z');
    expect(kept.data?.pageStats.points.map((p) => p.hits)).toEqual([0, 2, 0]);
    expect(kept.extensions).toBeUndefined();
    // HOUR: 21 November's daily document is dropped, 22 November's hours are kept.
    const hours = await series('HOUR', '2026-11-21T09:00:00Z', '2026-11-22T11:00:00Z');
    const hourly = hours.data?.pageStats.points.map((p) => p.hits) ?? [];
    expect(hourly.slice(0, 15)).toEqual(Array(15).fill(null));
    expect(hourly.slice(15)).toEqual([...Array(10).fill(0), 2]);
    expect(hours.extensions?.retention?.nullPoints).toBe(15);
    // DAY (UTC) reads months, which are kept: every day answers, dropped or not.
    const days = await series('DAY', '2026-11-18T00:00:00Z', '2026-11-27T00:00:00Z');
    expect(days.data?.pageStats.points.map((p) => p.hits)).toEqual([2, 2, 2, 2, 2, 2, 3, 3, 2]);
    expect(days.data?.pageStats.total).toBe(20);
    expect(days.extensions).toBeUndefined();
    // Visitors of dropped days: their day sketches are gone (null); kept days answer.
    const visitors = await series('DAY', '2026-11-20T00:00:00Z', '2026-11-24T00:00:00Z', true);
    expect(visitors.data?.pageStats.points).toEqual([
      { hits: 2, visitors: null },
      { hits: 2, visitors: null },
      { hits: 2, visitors: 1 },
      { hits: 2, visitors: 1 },
    ]);
    expect(visitors.extensions?.retention?.nullPoints).toBe(2);
    // The range's visitors would be the union of those day sketches too: null, never the kept days' alone.
    expect(visitors.data?.pageStats.visitors).toBeNull();
    const keptVisitors = await series('DAY', '2026-11-22T00:00:00Z', '2026-11-24T00:00:00Z', true);
    expect(keptVisitors.data?.pageStats.visitors).toBe(2);
  };

  it('answers null with a note for dropped detail before the job has run', async () => {
    await checkQueries();
  });

  it('drops exactly the daily documents, minute counters and minute documents past the cutoffs', async () => {
    const monthlyBefore = [await stored(MONTHLY_COLLECTION), await stored(MONTHLY_COLLECTION, '')];
    const changed = await app.services.counters.applyRetention(NOW, CONTEXT);
    // Four days deleted (18–21), three trimmed (22–24), one minute document deleted (24 November 13:00): for the
    // page and for the site's totals.
    expect(changed).toBe(2 * (4 + 3 + 1));
    const siteDays = await stored(DAILY_COLLECTION, '');
    expect(siteDays.map((doc) => doc._id)).toEqual(DAYS.slice(4).map((day) => `202611${day}/${SITE}`));
    expect(siteDays.map((doc) => doc.minute === undefined)).toEqual([true, true, true, false, false]);

    const daily = await stored(DAILY_COLLECTION);
    expect(daily.map((doc) => doc._id)).toEqual(DAYS.slice(4).map((day) => `202611${day}/${SITE}/a`));
    for (const doc of daily) {
      const day = String(doc._id).slice(6, 8);
      expect(doc.daily).toBe(day === '24' || day === '25' ? 3 : 2);
      expect((doc.hourly as Record<string, number>)['10']).toBe(2);
      expect(doc.v).toBeDefined();
      if (day < '25') expect(doc.minute).toBeUndefined();
      else expect((doc.minute as Record<string, Record<string, number>>)['10']?.['15']).toBe(2);
    }
    expect([await stored(MONTHLY_COLLECTION), await stored(MONTHLY_COLLECTION, '')]).toEqual(monthlyBefore);
    const minutes = await stored(SECONDS_COLLECTION);
    expect(minutes.map((doc) => String(doc._id).slice(0, 12)).sort()).toEqual([
      '202611251015',
      '202611251300',
      '202611261015',
    ]);
  });

  it('does nothing more while the cutoffs stay where they are', async () => {
    expect(await app.services.counters.applyRetention(NOW + 3_600_000, CONTEXT)).toBe(0);
  });

  it('answers the same null points and note after the job has run', async () => {
    await checkQueries();
  });

  it('refuses topPages that would read dropped hours, and answers it from months in UTC', async () => {
    const topPages = (timeZone: string, from = '2026-11-18T00:00:00Z') =>
      app.graphql<{
        topPages: { edges: Array<{ node: { page: string; hits: number; visitors: number | null } }> } | null;
      }>(
        `query($tz: String!, $from: DateTime!) {
          topPages(site: "${SITE}", range: { from: $from, to: "2026-11-27T00:00:00Z" }, timeZone: $tz) {
            edges { node { page hits visitors } }
          }
        }`,
        { tz: timeZone, from },
      );
    const utc = await topPages('UTC');
    // Hits from months; visitors would need the dropped days' sketches (18–21 November).
    expect(utc.body.data?.topPages?.edges).toEqual([{ node: { page: '/a', hits: 20, visitors: null } }]);
    const kept = await topPages('UTC', '2026-11-22T00:00:00Z');
    expect(kept.body.data?.topPages?.edges).toEqual([{ node: { page: '/a', hits: 12, visitors: 5 } }]);
    const berlin = await topPages('Europe/Berlin');
    expect(berlin.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(berlin.body.errors?.[0]?.message).toContain('topPages in Europe/Berlin reads hours or minutes of days');
  });

  it('refuses a breakdown over dropped days instead of counting them as nothing', async () => {
    const breakdown = (from: string, to = '2026-11-27T00:00:00Z') =>
      app.graphql<{ breakdown: { totalCount: number } | null }>(
        `query($from: DateTime!, $to: DateTime!) {
          breakdown(site: "${SITE}", dimension: SOURCE, range: { from: $from, to: $to }) { totalCount }
        }`,
        { from, to },
      );
    const refused = await breakdown('2026-11-21T00:00:00Z');
    expect(refused.body.data?.breakdown).toBeNull();
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(refused.body.errors?.[0]?.message).toBe(
      'breakdown counts days before 2026-11-22T00:00:00.000Z whose daily documents RETENTION_DAYS dropped, got a ' +
        'span from 2026-11-21T00:00:00.000Z; start the range at 2026-11-22T00:00:00.000Z, or count only whole UTC months before it',
    );
    expect((await breakdown('2026-11-22T00:00:00Z')).body.errors).toBeUndefined();
    // Whole months before the cutoff are read from their monthly documents; part of the cutoff's month is not.
    expect((await breakdown('2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z')).body.errors).toBeUndefined();
    expect((await breakdown('2026-11-01T00:00:00Z')).body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('applyRetention, whatever the engine reads by', () => {
  const cutoffs = { minutesFrom: Date.parse('2026-03-01T00:00:00Z'), daysFrom: Date.parse('2026-02-27T00:00:00Z') };
  // Days around both cutoffs, over a month end; site totals (no page) and a page whose path sorts after the site.
  const days = ['20260226', '20260227', '20260228', '20260301', '20260302'];
  const owners = [`${SITE}`, `${SITE}/a`, `${SITE}/z/deep`];

  it.each(['shardKeyRanges', 'idList', 'exactIds'] as const)(
    'drops the same documents when reading by %s',
    async (reads) => {
      const db = app.database.db;
      const daily = db.collection(`retention_${reads}_daily`);
      const seconds = db.collection(`retention_${reads}_seconds`);
      await daily.insertMany(
        days.flatMap((day) =>
          owners.map((owner) => ({ _id: `${day}/${owner}`, daily: 1, hourly: { 3: 1 }, minute: { 3: { 4: 1 } } })),
        ) as never,
      );
      await seconds.insertMany(
        ['202602282359', '202603010000', '202603021200'].map((minute) => ({
          _id: `${minute}/${SITE}/a`,
          minute: 1,
        })) as never,
      );
      const target = { finder: daily, writer: daily };
      const run = await applyRetention({ daily: target, seconds: { finder: seconds, writer: seconds } }, cutoffs, {
        reads,
        context: CONTEXT,
      });
      expect(run).toEqual({ days: 3, minutes: 6, seconds: 1 });
      const left = await daily.find({}).sort({ _id: 1 }).toArray();
      expect(left.map((doc) => [doc._id, doc.minute !== undefined])).toEqual(
        days.slice(1).flatMap((day) => owners.map((owner) => [`${day}/${owner}`, day >= '20260301'])),
      );
      expect(left.every((doc) => doc.daily === 1 && (doc.hourly as Record<string, number>)['3'] === 1)).toBe(true);
      expect((await seconds.find({}).toArray()).map((doc) => doc._id).sort()).toEqual([
        `202603010000/${SITE}/a`,
        `202603021200/${SITE}/a`,
      ]);
      // Already applied: a second run over the same documents changes nothing.
      expect(
        await applyRetention({ daily: target, seconds: { finder: seconds, writer: seconds } }, cutoffs, {
          reads,
          context: CONTEXT,
        }),
      ).toEqual({ days: 0, minutes: 0, seconds: 0 });
    },
  );
});

describe('applyRetention after an earlier run', () => {
  it.each(['shardKeyRanges', 'idList'] as const)(
    'unsets only the minutes of days that crossed since, and deletes every dropped day (reading by %s)',
    async (reads) => {
      const db = app.database.db;
      const daily = db.collection(`retention_since_${reads}_daily`);
      const seconds = db.collection(`retention_since_${reads}_seconds`);
      const days = ['20260301', '20260302', '20260303', '20260304', '20260305'];
      await daily.insertMany(
        days.map((day) => ({ _id: `${day}/${SITE}/a`, daily: 1, minute: { 1: { 2: 1 } } })) as never,
      );
      const at = (day: string): number => Date.parse(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T00:00:00Z`);
      const since = { minutesFrom: at('20260303'), daysFrom: at('20260301') };
      const cutoffs = { minutesFrom: at('20260305'), daysFrom: at('20260302') };
      const targets = { daily: { finder: daily, writer: daily }, seconds: { finder: seconds, writer: seconds } };
      const run = await applyRetention(targets, cutoffs, { reads, context: CONTEXT, since });
      // 1 March is dropped; 3 and 4 March crossed the minutes cutoff since; 2 March was trimmed before (left alone:
      // its minutes here stand for what a late hit wrote again, which queries read as dropped all the same).
      expect(run).toEqual({ days: 1, minutes: 2, seconds: 0 });
      const left = await daily.find({}).sort({ _id: 1 }).toArray();
      expect(left.map((doc) => [String(doc._id).slice(0, 8), doc.minute !== undefined])).toEqual([
        ['20260302', true],
        ['20260303', false],
        ['20260304', false],
        ['20260305', true],
      ]);
    },
  );
});
