import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { PageStatsDocument, RecordHitDocument, RecordHitsDocument } from '../generated/graphql';
import type { Granularity, PageStatsQuery } from '../generated/graphql';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';

const NOW = Date.parse('2026-03-10T12:30:00Z');
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp(
    'hits',
    { INGEST_MAX_BATCH: '50', QUERY_MAX_BUCKETS: '2000', INGEST_MAX_COUNT: '1000' },
    () => NOW,
  );
});

afterAll(async () => {
  await app.stop();
});

type PageStats = NonNullable<PageStatsQuery['pageStats']>;

async function stats(
  site: string,
  page: string,
  granularity: Granularity,
  from: string,
  to: string,
): Promise<PageStats> {
  const { body } = await app.graphql(PageStatsDocument, { site, page, granularity, from, to });
  if (!body.data?.pageStats) throw new Error(JSON.stringify(body.errors));
  return body.data.pageStats;
}

async function documentsOf(site: string): Promise<number> {
  const filter = { 'metadata.site': site };
  return (
    (await app.database.db.collection(DAILY_COLLECTION).countDocuments(filter)) +
    (await app.database.db.collection(MONTHLY_COLLECTION).countDocuments(filter))
  );
}

describe('recordHit and pageStats over HTTP', () => {
  it('records a hit at the server clock by default and reads it back at every granularity', async () => {
    const { body } = await app.graphql(RecordHitDocument, { site: 'e2e.example', page: '/home' });
    expect(body).toEqual({
      data: { recordHit: { site: 'e2e.example', page: '/home', at: '2026-03-10T12:30:00.000Z', count: 1 } },
    });
    for (const g of ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH'] as const) {
      const series = await stats('e2e.example', '/home', g, '2026-03-10T12:00:00Z', '2026-03-10T13:00:00Z');
      expect(series.total).toBe(1);
    }
  });

  it('returns dense points and the same counts as values', async () => {
    await app.graphql(RecordHitsDocument, {
      hits: [
        { site: 'dense', page: '/p', at: '2026-03-10T10:15:00Z', count: 2 },
        { site: 'dense', page: '/p', at: '2026-03-10T12:29:59Z' },
      ],
    });
    const series = await stats('dense', '/p', 'HOUR', '2026-03-10T09:30:00Z', '2026-03-10T13:00:00Z');
    expect(series).toMatchObject({ from: '2026-03-10T09:00:00.000Z', to: '2026-03-10T13:00:00.000Z', total: 3 });
    expect(series.values).toEqual([0, 2, 0, 1]);
    expect(series.points.map((p) => p.t)).toEqual([
      '2026-03-10T09:00:00.000Z',
      '2026-03-10T10:00:00.000Z',
      '2026-03-10T11:00:00.000Z',
      '2026-03-10T12:00:00.000Z',
    ]);
  });

  it('counts beyond 2^31 exactly', async () => {
    const hits = Array.from({ length: 5 }, () => ({
      site: 'big',
      page: '/p',
      at: '2026-03-01T00:00:00Z',
      count: 1000,
    }));
    for (let i = 0; i < 3; i++) await app.graphql(RecordHitsDocument, { hits });
    await app.database.db
      .collection(MONTHLY_COLLECTION)
      .updateOne({ 'metadata.site': 'big', 'metadata.page': '/p' }, { $inc: { 'daily.1': 2 ** 31 } });
    const series = await stats('big', '/p', 'MONTH', '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z');
    expect(series.total).toBe(2 ** 31 + 15_000);
  });

  it('keeps every hit of many concurrent recordHit and recordHits calls', async () => {
    const singles = Array.from({ length: 60 }, (_, i) =>
      app.graphql(RecordHitDocument, {
        site: 'busy',
        page: `/p${i % 3}`,
        at: `2026-03-09T23:59:${String(i % 60).padStart(2, '0')}Z`,
      }),
    );
    const batches = Array.from({ length: 10 }, (_, i) =>
      app.graphql(RecordHitsDocument, {
        hits: Array.from({ length: 20 }, (_, j) => ({
          site: 'busy',
          page: `/p${(i + j) % 3}`,
          at: '2026-03-10T00:00:30Z',
        })),
      }),
    );
    const batched = new Map<string, number>();
    for (let i = 0; i < 10; i++)
      for (let j = 0; j < 20; j++) batched.set(`/p${(i + j) % 3}`, (batched.get(`/p${(i + j) % 3}`) ?? 0) + 1);
    const responses = await Promise.all([...singles, ...batches]);
    expect(responses.every((r) => r.status === 200 && !r.body.errors)).toBe(true);
    let total = 0;
    for (const page of ['/p0', '/p1', '/p2']) {
      const minute = await stats('busy', page, 'MINUTE', '2026-03-09T23:59:00Z', '2026-03-10T00:01:00Z');
      const hour = await stats('busy', page, 'HOUR', '2026-03-09T23:00:00Z', '2026-03-10T01:00:00Z');
      const day = await stats('busy', page, 'DAY', '2026-03-09T00:00:00Z', '2026-03-11T00:00:00Z');
      const week = await stats('busy', page, 'WEEK', '2026-03-09T00:00:00Z', '2026-03-11T00:00:00Z');
      expect(minute.values).toEqual([20, batched.get(page)]);
      expect(hour.total).toBe(minute.total);
      expect(day.total).toBe(minute.total);
      expect(week.total).toBe(minute.total);
      total += minute.total ?? Number.NaN;
    }
    expect(total).toBe(60 + 200);
  });

  it('answers a 20-series dashboard with one find per collection', async () => {
    // Shard-key targeting is MongoDB's read path (one batched find per collection); forced here so the test
    // checks it whatever engine runs the tests.
    const batched = await startTestApp('dashboard', { DOCUMENT_TARGETING: 'shardKey' }, () => NOW);
    try {
      await batched.graphql(RecordHitDocument, { site: 'dash', page: '/p0', at: '2026-03-10T08:00:00Z' });
      const aliases = Array.from({ length: 20 }, (_, i) => {
        const g = i < 10 ? 'HOUR' : 'DAY';
        return `s${i}: pageStats(site: "dash", page: "/p${i % 4}", range: { from: "2026-03-0${(i % 9) + 1}T00:00:00Z", to: "2026-03-10T12:00:00Z" }, granularity: ${g}) { total }`;
      });
      const before = await batched.metric('tally_mongodb_commands_total', { command: 'find' });
      const { body } = await batched.graphql<Record<string, { total: number }>>(
        `query Dashboard { ${aliases.join('\n')} }`,
      );
      const after = await batched.metric('tally_mongodb_commands_total', { command: 'find' });
      expect(body.errors).toBeUndefined();
      expect(body.data?.s0?.total).toBe(1);
      expect(body.data?.s12?.total).toBe(1);
      // HOUR series read stats.daily, DAY series read stats.monthly: one find each.
      expect(after - before).toBe(2);
    } finally {
      await batched.stop();
    }
  });
});

describe('bad input over HTTP', () => {
  it.each([
    [{ site: '', page: '/' }, 'site must not be empty', 'SITE_EMPTY'],
    [{ site: 'x'.repeat(254), page: '/' }, 'site must be at most 253 characters, got 254', 'SITE_TOO_LONG'],
    [{ site: 'a/b', page: '/c' }, 'site must not contain "/", got "a/b"', 'SITE_HAS_SLASH'],
    [
      { site: 'a b', page: '/' },
      'site must not contain whitespace or control characters, got "a b"',
      'SITE_HAS_WHITESPACE_OR_CONTROL',
    ],
    [{ site: 's', page: 'index.html' }, 'page must start with "/", got "index.html"', 'PAGE_NOT_ABSOLUTE'],
    [{ site: 's', page: `/${'p'.repeat(2048)}` }, 'page must be at most 2048 characters, got 2049', 'PAGE_TOO_LONG'],
    [{ site: 's', page: '/a\u0007' }, 'page must not contain control characters, got "/a\\u0007"', 'PAGE_HAS_CONTROL'],
    [
      { site: 's', page: '/', at: '1969-12-31T23:00:00Z' },
      'at must be on or after 1970-01-01T00:00:00.000Z, got 1969-12-31T23:00:00.000Z',
      'AT_BEFORE_EPOCH',
    ],
    [
      { site: 's', page: '/', at: '2026-03-10T13:00:00Z' },
      'at must be no later than 2026-03-10T12:35:00.000Z (server clock plus 300000 ms), got 2026-03-10T13:00:00.000Z',
      'AT_IN_FUTURE',
    ],
    [{ site: 's', page: '/', count: 0 }, 'count must be a positive integer, got 0', 'COUNT_NOT_POSITIVE_INTEGER'],
    [{ site: 's', page: '/', count: 1001 }, 'count must be at most 1000, got 1001', 'COUNT_TOO_LARGE'],
  ])('recordHit(%o) fails with BAD_USER_INPUT: %s', async (variables, message, reason) => {
    const site = variables.site;
    const { status, body } = await app.graphql(RecordHitDocument, variables);
    expect(status).toBeLessThan(500);
    expect(body.errors?.[0]?.message).toBe(message);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason });
    if (site.length > 0 && site.length < 100) expect(await documentsOf(site)).toBe(0);
  });

  it('rejects a date that is not a date with BAD_USER_INPUT', async () => {
    const { status, body } = await app.graphql(RecordHitDocument, { site: 's', page: '/', at: 'yesterday' });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(body.errors?.[0]?.message).toBe(
      'Variable "$at" got invalid value "yesterday"; Expected type "DateTime". expected an ISO-8601 date-time with an offset such as "2026-11-21T12:00:00Z", got "yesterday"',
    );
  });

  it('writes nothing of a batch with one bad hit', async () => {
    const { status, body } = await app.graphql(RecordHitsDocument, {
      hits: [
        { site: 'atomic', page: '/ok' },
        { site: 'atomic', page: 'bad' },
      ],
    });
    expect(status).toBeLessThan(500);
    expect(body.errors?.[0]?.message).toBe('hits[1].page must start with "/", got "bad"');
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'hits[1].page' });
    expect(await documentsOf('atomic')).toBe(0);
  });

  it('rejects a batch above the configured maximum as LIMIT_EXCEEDED naming INGEST_MAX_BATCH', async () => {
    const hits = Array.from({ length: 51 }, () => ({ site: 'toolarge', page: '/' }));
    const { body } = await app.graphql(RecordHitsDocument, { hits });
    expect(body.errors?.[0]?.message).toBe(
      'the number of hits in hits is 51, more than the limit of 50 (INGEST_MAX_BATCH)',
    );
    expect(body.errors?.[0]?.extensions).toEqual({
      code: 'LIMIT_EXCEEDED',
      limit: 'INGEST_MAX_BATCH',
      max: 50,
      value: 51,
      field: 'hits',
      reason: 'BATCH_TOO_LARGE',
    });
    expect(await documentsOf('toolarge')).toBe(0);
  });

  it('rejects an empty range and names the bucket limit when a range is too long', async () => {
    const empty = await app.graphql(PageStatsDocument, {
      site: 's',
      page: '/',
      granularity: 'HOUR',
      from: '2026-03-10T00:00:00Z',
      to: '2026-03-10T00:00:00Z',
    });
    expect(empty.body.errors?.[0]?.message).toBe(
      'range.from must be before range.to, got from 2026-03-10T00:00:00.000Z and to 2026-03-10T00:00:00.000Z',
    );
    const long = await app.graphql(PageStatsDocument, {
      site: 's',
      page: '/',
      granularity: 'MINUTE',
      from: '2026-03-01T00:00:00Z',
      to: '2026-03-10T00:00:00Z',
    });
    expect(long.body.errors?.[0]?.message).toBe(
      'the number of MINUTE buckets in range is 12960, more than the limit of 2000 (QUERY_MAX_BUCKETS); use a coarser granularity or a shorter range',
    );
    expect(long.body.errors?.[0]?.extensions).toEqual({
      code: 'LIMIT_EXCEEDED',
      limit: 'QUERY_MAX_BUCKETS',
      max: 2000,
      value: 12960,
      field: 'range',
    });
  });

  it('keeps the other series of a dashboard when one fails', async () => {
    await app.graphql(RecordHitDocument, { site: 'dash', page: '/p0', at: '2026-03-10T08:00:00Z' });
    const { body } = await app.graphql<{ good: { total: number } | null; bad: unknown }>(`query {
      good: pageStats(site: "dash", page: "/p0", range: { from: "2026-03-10T00:00:00Z", to: "2026-03-11T00:00:00Z" }, granularity: DAY) { total }
      bad: pageStats(site: "dash", page: "nope", range: { from: "2026-03-10T00:00:00Z", to: "2026-03-11T00:00:00Z" }, granularity: DAY) { total }
    }`);
    expect(body.data?.good?.total).toBe(1);
    expect(body.data?.bad).toBeNull();
    expect(body.errors?.[0]?.path).toEqual(['bad']);
  });
});
