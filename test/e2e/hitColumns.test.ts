/** recordHitColumns over HTTP: the same counts as recordHits, typed errors naming the column, all or nothing. */
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { storedCounters } from '../support/storedCounters';

const NOW = Date.parse('2026-03-10T12:30:00Z');
const HOUR = 3_600_000;
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('hitcolumns', { INGEST_MAX_BATCH: '50', INGEST_MAX_COUNT: '1000' }, () => NOW);
});

afterAll(async () => {
  await app.stop();
});

const RECORD_COLUMNS = `mutation($columns: HitColumnsInput!, $key: String) {
  recordHitColumns(columns: $columns, idempotencyKey: $key) { accepted total }
}`;
const RECORD_HITS = `mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted total } }`;
const HOURS = `query($site: String!, $page: String!) {
  pageStats(site: $site, page: $page, range: { from: "2026-03-09T00:00:00Z", to: "2026-03-11T00:00:00Z" }, granularity: HOUR) { values total }
}`;

async function hourly(site: string, page: string): Promise<{ values: number[]; total: number }> {
  const { body } = await app.graphql<{ pageStats: { values: number[]; total: number } }>(HOURS, { site, page });
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data.pageStats;
}

describe('recordHitColumns over HTTP', () => {
  it('stores exactly what recordHits stores for the same hits', async () => {
    const pages = ['/', '/a', '/b/c'];
    const rows = Array.from({ length: 40 }, (_, i) => ({
      page: i % 3,
      at: NOW - ((i * 7919) % 30) * HOUR - i * 1000,
      count: (i % 4) + 1,
    }));
    const columns = {
      sites: ['columns.example'],
      pages,
      pageIndex: rows.map((r) => r.page),
      atMs: rows.map((r) => r.at),
      count: rows.map((r) => r.count),
    };
    const total = rows.reduce((sum, r) => sum + r.count, 0);
    const viaColumns = await app.graphql(RECORD_COLUMNS, { columns });
    expect(viaColumns.body).toEqual({ data: { recordHitColumns: { accepted: 40, total } } });
    const hits = rows.map((r) => ({
      site: 'objects.example',
      page: pages[r.page],
      at: new Date(r.at).toISOString(),
      count: r.count,
    }));
    expect((await app.graphql(RECORD_HITS, { hits })).body).toEqual({ data: { recordHits: { accepted: 40, total } } });
    for (const page of pages) {
      const stored = await hourly('columns.example', page);
      expect(stored.total).toBeGreaterThan(0);
      expect(stored).toEqual(await hourly('objects.example', page));
    }
  });

  it('indexes several sites, and counts hits without atMs at the server clock', async () => {
    const columns = { sites: ['s1.example', 's2.example'], pages: ['/x'], siteIndex: [1, 0, 1], pageIndex: [0, 0, 0] };
    expect((await app.graphql(RECORD_COLUMNS, { columns })).body).toEqual({
      data: { recordHitColumns: { accepted: 3, total: 3 } },
    });
    const s2 = await hourly('s2.example', '/x');
    expect(s2.total).toBe(2);
    expect(s2.values[36]).toBe(2); // 2026-03-10T12:00Z, the hour of NOW
    expect((await hourly('s1.example', '/x')).total).toBe(1);
  });

  it.each([
    [
      'an index past its dictionary',
      { sites: ['bad1.example'], pages: ['/'], pageIndex: [0, 1] },
      'columns.pageIndex[1] must be an index from 0 to 0, got 1',
      'INDEX_OUT_OF_RANGE',
    ],
    [
      'columns of different lengths',
      { sites: ['bad2.example'], pages: ['/'], pageIndex: [0, 0], count: [1] },
      'columns.count must hold one value per hit (2, the length of pageIndex), got 1',
      'COLUMNS_MISMATCH',
    ],
    [
      'a bad page in the dictionary',
      { sites: ['bad3.example'], pages: ['/', 'nope'], pageIndex: [0, 1] },
      'columns.pages[1] must start with "/", got "nope"',
      'PAGE_NOT_ABSOLUTE',
    ],
    [
      'an instant in the future, after good hits',
      { sites: ['bad4.example'], pages: ['/'], pageIndex: [0, 0], atMs: [NOW, NOW + 3_600_000] },
      'columns.atMs[1] must be no later than 2026-03-10T12:35:00.000Z (server clock plus 300000 ms), got 2026-03-10T13:30:00.000Z',
      'AT_IN_FUTURE',
    ],
  ])('refuses %s with BAD_USER_INPUT naming the value, writing nothing', async (_name, columns, message, reason) => {
    const { status, body } = await app.graphql(RECORD_COLUMNS, { columns });
    expect(status).toBeLessThan(500);
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.message).toBe(message);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason });
    expect((await storedCounters(app.database.db, columns.sites[0] as string)).size).toBe(0);
  });

  it('refuses more hits than INGEST_MAX_BATCH as LIMIT_EXCEEDED naming it, writing nothing', async () => {
    const columns = { sites: ['bad5.example'], pages: ['/'], pageIndex: new Array<number>(51).fill(0) };
    const { body } = await app.graphql(RECORD_COLUMNS, { columns });
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]?.message).toBe(
      'the number of hits in columns.pageIndex is 51, more than the limit of 50 (INGEST_MAX_BATCH)',
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      limit: 'INGEST_MAX_BATCH',
      field: 'columns.pageIndex',
      reason: 'BATCH_TOO_LARGE',
    });
    expect((await storedCounters(app.database.db, 'bad5.example')).size).toBe(0);
  });

  it('refuses an atMs that is not a number as a GraphQL input error', async () => {
    const columns = { sites: ['bad6.example'], pages: ['/'], pageIndex: [0], atMs: ['2026-03-10T12:00:00Z'] };
    const { body } = await app.graphql(RECORD_COLUMNS, { columns });
    expect(body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(body.errors?.[0]?.message).toContain('atMs');
    expect((await storedCounters(app.database.db, 'bad6.example')).size).toBe(0);
  });

  it('counts a retried keyed batch once, and refuses the key with other columns', async () => {
    const columns = { sites: ['keyed.example'], pages: ['/'], pageIndex: [0, 0], count: [2, 3] };
    for (let i = 0; i < 3; i++) {
      expect((await app.graphql(RECORD_COLUMNS, { columns, key: 'columns-1' })).body).toEqual({
        data: { recordHitColumns: { accepted: 2, total: 5 } },
      });
    }
    expect((await hourly('keyed.example', '/')).total).toBe(5);
    const other = await app.graphql(RECORD_COLUMNS, { columns: { ...columns, count: [2, 4] }, key: 'columns-1' });
    expect(other.body.errors?.[0]?.extensions?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await hourly('keyed.example', '/')).total).toBe(5);
  });
});
