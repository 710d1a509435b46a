import { FirstDayDocument, PageStatsInZoneDocument, SiteStatsDocument, TopPagesDocument } from '../generated/graphql';
import type { SeriesFieldsFragment } from '../generated/graphql';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';

let app: TestApp;
const SITE = 'dash.example';
const authorized: string[] = [];

/** Hits around Berlin's 2026 spring change, the week before, and a year earlier. */
const HITS = [
  { page: '/a', at: '2026-03-28T22:30:00Z', count: 1 }, // 23:30 on 28 March in Berlin
  { page: '/a', at: '2026-03-28T23:30:00Z', count: 2 }, // 00:30 on 29 March
  { page: '/a', at: '2026-03-29T01:30:00Z', count: 4 }, // 03:30 CEST (02:00–03:00 does not exist)
  { page: '/b', at: '2026-03-29T21:59:00Z', count: 8 }, // 23:59 CEST on 29 March
  { page: '/b', at: '2026-03-29T22:00:00Z', count: 16 }, // 00:00 on 30 March
  { page: '/a', at: '2026-03-27T12:00:00Z', count: 32 }, // previous period of a 3-day range from 29 March
  { page: '/a', at: '2025-03-29T12:00:00Z', count: 64 }, // a year earlier
  { page: '/a?q=1', at: '2026-03-29T12:00:00Z', count: 2 },
];

beforeAll(async () => {
  app = await startTestApp('dashboards', {}, undefined, {
    authorizeExport: async (_request, site) => {
      authorized.push(site);
      if (site === 'forbidden.example')
        throw Object.assign(new Error('missing scope read for site forbidden.example'), { code: 'FORBIDDEN' });
    },
  });
  const response = await app.graphql('mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }', {
    hits: HITS.map((hit) => ({ site: SITE, ...hit })),
  });
  expect(response.body.errors).toBeUndefined();
});

afterAll(async () => {
  await app.stop();
});

async function pageStats(variables: Record<string, unknown>): Promise<SeriesFieldsFragment> {
  const response = await app.graphql(PageStatsInZoneDocument, {
    site: SITE,
    page: '/a',
    from: '2026-03-29T00:00:00+01:00',
    to: '2026-03-30T00:00:00+02:00',
    granularity: 'HOUR',
    ...variables,
  });
  expect(response.body.errors).toBeUndefined();
  return response.body.data?.pageStats as SeriesFieldsFragment;
}

describe('time zones over GraphQL', () => {
  it('gives Berlin its 23-hour 29 March, with local labels and the skipped hour absent', async () => {
    const series = await pageStats({ timeZone: 'Europe/Berlin' });
    expect(series.timeZone).toBe('Europe/Berlin');
    expect(series.points).toHaveLength(23);
    expect(series.points.slice(0, 4).map((p) => p.local)).toEqual([
      '2026-03-29T00:00:00+01:00',
      '2026-03-29T01:00:00+01:00',
      '2026-03-29T03:00:00+02:00',
      '2026-03-29T04:00:00+02:00',
    ]);
    expect(series.values.slice(0, 4)).toEqual([2, 0, 4, 0]);
    expect(series.total).toBe(6);
  });

  it('buckets days at local midnight, where UTC would split them differently', async () => {
    const berlin = await pageStats({
      page: '/b',
      granularity: 'DAY',
      timeZone: 'Europe/Berlin',
      to: '2026-03-31T00:00:00+02:00',
    });
    expect(berlin.points.map((p) => [p.local, p.hits])).toEqual([
      ['2026-03-29T00:00:00+01:00', 8],
      ['2026-03-30T00:00:00+02:00', 16],
    ]);
    const utc = await pageStats({
      page: '/b',
      granularity: 'DAY',
      from: '2026-03-29T00:00:00Z',
      to: '2026-03-31T00:00:00Z',
    });
    expect(utc.values).toEqual([24, 0]);
  });

  it('refuses an unknown zone with BAD_USER_INPUT naming it', async () => {
    const response = await app.graphql(PageStatsInZoneDocument, {
      site: SITE,
      page: '/a',
      from: '2026-03-29T00:00:00Z',
      to: '2026-03-30T00:00:00Z',
      granularity: 'DAY',
      timeZone: 'Europe/Atlantis',
    });
    expect(response.body.data?.pageStats).toBeNull();
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'timeZone must be an IANA time zone name such as "Europe/Berlin" or "UTC", got "Europe/Atlantis"',
      extensions: { code: 'BAD_USER_INPUT', field: 'timeZone' },
    });
  });
});

describe('comparisons', () => {
  it('returns the previous period and the same days a year earlier alongside the series', async () => {
    const range = {
      granularity: 'DAY',
      timeZone: 'Europe/Berlin',
      from: '2026-03-29T00:00:00+01:00',
      to: '2026-04-01T00:00:00+02:00',
    };
    const previous = await pageStats({ ...range, compare: 'PREVIOUS_PERIOD' });
    expect(previous.values).toEqual([6, 0, 0]);
    expect(previous.comparison).toMatchObject({
      kind: 'PREVIOUS_PERIOD',
      from: '2026-03-25T23:00:00.000Z',
      to: '2026-03-28T23:00:00.000Z',
      values: [0, 32, 1],
      total: 33,
    });
    expect(previous.comparison?.change).toBeCloseTo((6 - 33) / 33, 10);
    const lastYear = await pageStats({ ...range, compare: 'PREVIOUS_YEAR' });
    expect(lastYear.comparison).toMatchObject({
      kind: 'PREVIOUS_YEAR',
      from: '2025-03-28T23:00:00.000Z',
      values: [64, 0, 0],
      total: 64,
    });
    const none = await pageStats({ ...range });
    expect(none.comparison).toBeNull();
  });
});

describe('firstDay', () => {
  it("answers the UTC midnight of the site's earliest hit, where all time starts", async () => {
    const response = await app.graphql(FirstDayDocument, { site: SITE });
    expect(response.body).toEqual({ data: { firstDay: '2025-03-29T00:00:00.000Z' } });
  });

  it('answers null for a site without hits', async () => {
    const response = await app.graphql(FirstDayDocument, { site: 'nothing.example' });
    expect(response.body).toEqual({ data: { firstDay: null } });
  });

  it('refuses a malformed site with BAD_USER_INPUT', async () => {
    const response = await app.graphql(FirstDayDocument, { site: 'a/b' });
    expect(response.body.data?.firstDay).toBeNull();
    expect(response.body.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'site' } });
  });
});

describe('siteStats and topPages', () => {
  it('sums every page of the site', async () => {
    const response = await app.graphql(SiteStatsDocument, {
      site: SITE,
      from: '2026-03-27T00:00:00Z',
      to: '2026-03-31T00:00:00Z',
      granularity: 'DAY',
      timeZone: 'Europe/Berlin',
      compare: 'PREVIOUS_YEAR',
    });
    expect(response.body.errors).toBeUndefined();
    const site = response.body.data?.siteStats;
    expect(site?.page).toBe('');
    // Local days 27 to 31 March (`to` is 02:00 on the 31st in Berlin).
    expect(site?.values).toEqual([32, 1, 2 + 4 + 8 + 2, 16, 0]);
    expect(site?.comparison?.values).toEqual([0, 0, 64, 0, 0]);
  });

  it('ranks pages by hits in the local days, with cursors', async () => {
    const variables = {
      site: SITE,
      from: '2026-03-29T00:00:00+01:00',
      to: '2026-03-30T00:00:00+02:00',
      timeZone: 'Europe/Berlin',
      first: 2,
    };
    const first = await app.graphql(TopPagesDocument, variables);
    expect(first.body.errors).toBeUndefined();
    const page1 = first.body.data?.topPages;
    expect(page1?.totalCount).toBe(3);
    expect(page1?.edges.map((e) => [e.node.page, e.node.hits])).toEqual([
      ['/b', 8],
      ['/a', 6],
    ]);
    const second = await app.graphql(TopPagesDocument, { ...variables, after: page1?.pageInfo.endCursor });
    expect(second.body.data?.topPages.edges.map((e) => [e.node.page, e.node.hits])).toEqual([['/a?q=1', 2]]);
    expect(second.body.data?.topPages.pageInfo.hasNextPage).toBe(false);
  });
});

describe('GET /export', () => {
  async function exported(params: Record<string, string>): Promise<Response> {
    return fetch(`${app.url}/export?${new URLSearchParams(params).toString()}`);
  }

  it.each([
    ['a page by HOUR in Berlin', { page: '/a', granularity: 'HOUR', timeZone: 'Europe/Berlin' }],
    ['the site by DAY in Kathmandu', { granularity: 'DAY', timeZone: 'Asia/Kathmandu' }],
    ['the site by WEEK in UTC', { granularity: 'WEEK' }],
  ] as Array<[string, { page?: string; granularity: string; timeZone?: string }]>)(
    'streams %s as CSV and NDJSON equal to the GraphQL series',
    async (_name, params) => {
      const from = '2026-03-27T00:00:00Z';
      const to = '2026-03-31T00:00:00Z';
      const query = params.page
        ? await pageStats({ ...params, from, to })
        : ((
            await app.graphql(SiteStatsDocument, {
              site: SITE,
              from,
              to,
              granularity: params.granularity as 'DAY',
              timeZone: params.timeZone,
            })
          ).body.data?.siteStats as SeriesFieldsFragment);
      const expected = query.points.map((p, i) => ({
        start: p.local,
        end: query.points[i + 1]?.local ?? expect.any(String),
        hits: p.hits,
        site: SITE,
        page: params.page ?? '',
      }));

      const csv = await exported({ site: SITE, from, to, ...params });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="tally-dash\.example-\w+\.csv"$/);
      // fetch's text() drops a byte order mark: decode the bytes ourselves to see it.
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await csv.arrayBuffer());
      expect(
        text.startsWith('\uFEFFstart,end,hits,site,page,visitors,visits,bounceRate,visitDuration,viewsPerVisit\r\n'),
      ).toBe(true);
      const lines = text.slice(1).split('\r\n');
      expect(lines.pop()).toBe('');
      const rows = lines.slice(1).map((line) => {
        const [start, end, hits, site, page] = line.split(',');
        return { start, end, hits: Number(hits), site, page };
      });
      expect(rows).toEqual(expected);
      expect(Date.parse(rows.at(-1)?.end as string)).toBe(Date.parse(query.to));

      const ndjson = await exported({ site: SITE, from, to, ...params, format: 'ndjson' });
      expect(ndjson.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      const objects = (await ndjson.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const figures = ['visitors', 'visits', 'bounceRate', 'visitDuration', 'viewsPerVisit'];
      expect(
        objects.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !figures.includes(k)))),
      ).toEqual(expected);
      // These hits came without visitors: 0 where a bucket has sketches (or visit counters), null (no answer) where
      // it has none, and no visit has a rate.
      expect(
        objects.every(
          ({ visitors, visits }) => (visitors === 0 || visitors === null) && (visits === 0 || visits === null),
        ),
      ).toBe(true);
      expect(objects.every((row) => row.bounceRate === null && row.visitDuration === null)).toBe(true);
    },
  );

  it.each([
    [
      { site: SITE, from: '2026-03-27T00:00:00Z', to: '2026-03-31T00:00:00Z', timeZone: 'Nowhere/Land' },
      400,
      'BAD_USER_INPUT',
      'timeZone must be an IANA time zone name such as "Europe/Berlin" or "UTC", got "Nowhere/Land"',
    ],
    [
      { site: SITE, from: '2026-03-27', to: '2026-03-31T00:00:00Z' },
      400,
      'BAD_USER_INPUT',
      'from: expected an ISO-8601 date-time with an offset such as "2026-11-21T12:00:00Z", got "2026-03-27"',
    ],
    [
      { site: SITE, from: '2026-03-27T00:00:00Z', to: '2026-03-31T00:00:00Z', format: 'xlsx' },
      400,
      'BAD_USER_INPUT',
      'format must be csv or ndjson, got "xlsx"',
    ],
    [{ from: '2026-03-27T00:00:00Z', to: '2026-03-31T00:00:00Z' }, 400, 'BAD_USER_INPUT', 'site is required'],
    [
      { site: 'forbidden.example', from: '2026-03-27T00:00:00Z', to: '2026-03-31T00:00:00Z' },
      403,
      'FORBIDDEN',
      'missing scope read for site forbidden.example',
    ],
  ])('answers %j with %d %s', async (params, status, code, message) => {
    const response = await exported(params);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ errors: [{ message, extensions: expect.objectContaining({ code }) }] });
  });

  it('asks the authorize hook about the site before reading', () => {
    expect(authorized).toContain(SITE);
    expect(authorized).toContain('forbidden.example');
  });
});
