/**
 * The read side of visitors (issue 19) and dimensions (issue 20) over HTTP and WebSocket, on documents written
 * directly in the CONTRACT format (test/support/seedStats.ts): every new field and argument, and a typed error for
 * each refusal. End-to-end tests through the mutations come with the write path.
 */
import type { BreakdownQuery } from '../generated/graphql';
import {
  BreakdownDocument,
  PageStatsWithVisitorsDocument,
  SiteStatsWithVisitorsDocument,
  TopPagesWithVisitorsDocument,
} from '../generated/graphql';
import type { CommandStartedEvent } from 'mongodb';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { VISITOR_PRECISION } from '../../src/domain/visitors/VisitorPrecision';
import { directEstimate, hitDimensions, hitsIn, seedStats } from '../support/seedStats';
import type { SeedHit } from '../support/seedStats';
import { startTestApp } from '../support/startTestApp';
import type { GraphQLResponse, TestApp } from '../support/startTestApp';
import { wsClient, wsOperation } from '../support/wsOperation';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2026-03-20T12:00:00Z');
const SITE = 'vd.example';
const iso = (t: number): string => new Date(t).toISOString();
const sum = (hits: readonly SeedHit[]): number => hits.reduce((n, hit) => n + (hit.count ?? 1), 0);

/** Three weeks of hits on two pages; the last day also in minute documents. Visitors 0–9 come back daily. */
const HITS: SeedHit[] = [];
for (let i = 0; i < 420; i++) {
  HITS.push({
    site: SITE,
    page: i % 3 === 0 ? '/b' : '/a',
    at: NOW - 21 * DAY + i * 72 * 60_000 + (i % 5) * 1_000,
    count: 1 + (i % 2),
    visitor: i % 11 === 0 ? undefined : (i * 7) % 10,
    dimensions: {
      source: ['Google', 'news.example', '(direct)'][i % 3] as string,
      device: ['mobile', 'desktop'][(i >> 1) % 2] as string,
      country: i % 17 === 0 ? '(other)' : (['DE', 'FR', 'US', 'JP'][i % 4] as string),
    },
  });
}

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('visitors_dimensions', {}, () => NOW);
  await seedStats(app.database.db, HITS, { minuteSketchesFrom: NOW - DAY, dimensionVisitors: ['device'] });
});

afterAll(async () => {
  await app.stop();
});

const WEEK = { from: iso(NOW - 14 * DAY - (NOW % DAY)), to: iso(NOW - 7 * DAY - (NOW % DAY)) };

describe('visitors over GraphQL', () => {
  it("answers a page's visitors per UTC day and over the range, and against the previous period", async () => {
    const { body } = await app.graphql(PageStatsWithVisitorsDocument, {
      site: SITE,
      page: '/a',
      ...WEEK,
      granularity: 'DAY',
      compare: 'PREVIOUS_PERIOD',
    });
    expect(body.errors).toBeUndefined();
    const stats = body.data?.pageStats;
    const from = Date.parse(WEEK.from);
    const to = Date.parse(WEEK.to);
    expect(stats?.points.map((p) => p.visitors)).toEqual(
      stats?.points.map((p) =>
        directEstimate(
          hitsIn(HITS, { site: SITE, page: '/a', from: Date.parse(p.t), to: Date.parse(p.t) + DAY }),
          VISITOR_PRECISION.pageDay,
        ),
      ),
    );
    const current = directEstimate(hitsIn(HITS, { site: SITE, page: '/a', from, to }), VISITOR_PRECISION.pageDay);
    const earlier = directEstimate(
      hitsIn(HITS, { site: SITE, page: '/a', from: from - 7 * DAY, to: from }),
      VISITOR_PRECISION.pageDay,
    );
    expect(stats).toMatchObject({ visitors: current, visitorsFrom: iso(from), visitorsTo: iso(to) });
    expect(stats?.comparison).toMatchObject({
      visitors: earlier,
      visitorsFrom: iso(from - 7 * DAY),
      visitorsTo: iso(from),
      visitorsChange: (current - earlier) / earlier,
    });
  });

  it('gives null for local days older than the minute sketches, and says which UTC days the range counts', async () => {
    const { body } = await app.graphql(SiteStatsWithVisitorsDocument, {
      site: SITE,
      from: '2026-03-10T00:00:00+05:45',
      to: '2026-03-13T00:00:00+05:45',
      granularity: 'DAY',
      timeZone: 'Asia/Kathmandu',
    });
    expect(body.errors).toBeUndefined();
    const stats = body.data?.siteStats;
    expect(stats?.points.map((p) => p.visitors)).toEqual([null, null, null]);
    expect(stats).toMatchObject({ visitorsFrom: '2026-03-09T00:00:00.000Z', visitorsTo: '2026-03-13T00:00:00.000Z' });
    const covered = hitsIn(HITS, {
      site: SITE,
      page: SITE_TOTAL_PAGE,
      from: Date.parse('2026-03-09T00:00:00Z'),
      to: Date.parse('2026-03-13T00:00:00Z'),
    });
    expect(stats?.visitors).toBe(directEstimate(covered, VISITOR_PRECISION.siteDay));
  });

  it('answers recent hours from minute sketches', async () => {
    const from = NOW - 6 * HOUR - (NOW % HOUR);
    const { body } = await app.graphql(PageStatsWithVisitorsDocument, {
      site: SITE,
      page: '/a',
      from: iso(from),
      to: iso(from + 6 * HOUR),
      granularity: 'HOUR',
      timeZone: 'Asia/Kolkata',
    });
    expect(body.errors).toBeUndefined();
    const points = body.data?.pageStats?.points ?? [];
    expect(points.length).toBeGreaterThan(0);
    for (const [i, point] of points.entries()) {
      const end = points[i + 1]
        ? Date.parse(points[i + 1]?.t as string)
        : Date.parse(body.data?.pageStats?.to as string);
      const inHour = hitsIn(HITS, { site: SITE, page: '/a', from: Date.parse(point.t), to: end });
      expect(point.visitors).toBe(directEstimate(inHour, VISITOR_PRECISION.minute));
    }
  });

  it("answers the returned pages' visitors in topPages over the UTC days covering the local days", async () => {
    const { body } = await app.graphql(TopPagesWithVisitorsDocument, {
      site: SITE,
      from: '2026-03-06T00:00:00+01:00',
      to: '2026-03-13T00:00:00+01:00',
      timeZone: 'Europe/Berlin',
      first: 1,
    });
    expect(body.errors).toBeUndefined();
    const top = body.data?.topPages;
    expect(top).toMatchObject({ visitorsFrom: '2026-03-05T00:00:00.000Z', visitorsTo: '2026-03-13T00:00:00.000Z' });
    expect(top?.edges).toHaveLength(1);
    const node = top?.edges[0]?.node;
    const span = { from: Date.parse('2026-03-05T00:00:00Z'), to: Date.parse('2026-03-13T00:00:00Z') };
    expect(node?.visitors).toBe(
      directEstimate(hitsIn(HITS, { site: SITE, page: node?.page as string, ...span }), VISITOR_PRECISION.pageDay),
    );
  });

  it("carries the live window visitors and each minute point's over WebSocket", async () => {
    const client = wsClient(app.url);
    try {
      const outcome = await wsOperation(
        client,
        `subscription { pageStatsLive(site: "${SITE}", page: "/a", granularity: MINUTE, window: 7200) { total visitors visitorsFrom visitorsTo points { t hits visitors } } }`,
      );
      expect(outcome.errors).toBeUndefined();
      const update = (
        outcome.data as {
          pageStatsLive: {
            visitors: number;
            visitorsFrom: string;
            visitorsTo: string;
            points: Array<{ t: string; visitors: number }>;
          };
        }
      ).pageStatsLive;
      const window = hitsIn(HITS, {
        site: SITE,
        page: '/a',
        from: Date.parse(update.visitorsFrom),
        to: Date.parse(update.visitorsTo),
      });
      expect(update.visitors).toBe(directEstimate(window, VISITOR_PRECISION.minute));
      for (const point of update.points) {
        const t = Date.parse(point.t);
        expect(point.visitors).toBe(
          directEstimate(hitsIn(HITS, { site: SITE, page: '/a', from: t, to: t + 60_000 }), VISITOR_PRECISION.minute),
        );
      }
    } finally {
      await client.dispose();
    }
  });
});

describe('projections', () => {
  /** The projections of the finds the server sends while `run` runs. */
  async function projections(run: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const listener = (event: CommandStartedEvent): void => {
      if (event.commandName === 'find') seen.push(...Object.keys((event.command.projection ?? {}) as object));
    };
    app.database.client.on('commandStarted', listener);
    try {
      await run();
    } finally {
      app.database.client.off('commandStarted', listener);
    }
    return seen;
  }
  const series = (fields: string): string =>
    `{ a: pageStats(site: "${SITE}", page: "/a", range: { from: "${WEEK.from}", to: "${WEEK.to}" }, granularity: DAY, compare: PREVIOUS_YEAR) { ${fields} } b: siteStats(site: "${SITE}", range: { from: "${WEEK.from}", to: "${WEEK.to}" }, granularity: HOUR) { total } }`;

  it('read no sketch unless the query selects visitors', async () => {
    const plain = await projections(() => app.graphql(series('total points { hits } comparison { total }')));
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.filter((path) => /^(v|d|dv)(\.|$)/.test(path))).toEqual([]);
    const withVisitors = await projections(() => app.graphql(series('total comparison { visitorsChange }')));
    expect(withVisitors).toContain('v');
  });

  it("read a breakdown's dimension alone, and its per-value sketches only when visitors are selected", async () => {
    const query = (node: string): string =>
      `{ breakdown(site: "${SITE}", dimension: DEVICE, range: { from: "${WEEK.from}", to: "${WEEK.to}" }) { edges { node { ${node} } } } }`;
    expect(
      (await projections(() => app.graphql(query('value hits')))).filter((p) => /^(v|d|dv)(\.|$)/.test(p)),
    ).toEqual(['d.device']);
    expect(await projections(() => app.graphql(query('value visitors')))).toEqual(
      expect.arrayContaining(['d.device', 'dv.device']),
    );
  });
});

describe('dimension series over GraphQL', () => {
  it('answers the hits of one value per day, compared with the previous period', async () => {
    const { body } = await app.graphql(SiteStatsWithVisitorsDocument, {
      site: SITE,
      ...WEEK,
      granularity: 'DAY',
      compare: 'PREVIOUS_PERIOD',
      filter: { dimension: 'DEVICE', value: 'mobile' },
    });
    expect(body.errors).toBeUndefined();
    const mobile = HITS.filter((hit) => hitDimensions(hit).device === 'mobile');
    const stats = body.data?.siteStats;
    expect(stats?.points.map((p) => p.hits)).toEqual(
      stats?.points.map((p) =>
        sum(hitsIn(mobile, { site: SITE, page: SITE_TOTAL_PAGE, from: Date.parse(p.t), to: Date.parse(p.t) + DAY })),
      ),
    );
    expect(stats?.points.map((p) => p.visitors)).toEqual(
      stats?.points.map((p) =>
        directEstimate(
          hitsIn(mobile, { site: SITE, page: SITE_TOTAL_PAGE, from: Date.parse(p.t), to: Date.parse(p.t) + DAY }),
          VISITOR_PRECISION.minute,
        ),
      ),
    );
    const from = Date.parse(WEEK.from);
    expect(stats?.comparison?.total).toBe(
      sum(hitsIn(mobile, { site: SITE, page: SITE_TOTAL_PAGE, from: from - 7 * DAY, to: from })),
    );
  });

  it("gives a filtered page series its hits and null visitors (per-value sketches are the site's only)", async () => {
    const { body } = await app.graphql(PageStatsWithVisitorsDocument, {
      site: SITE,
      page: '/a',
      ...WEEK,
      granularity: 'WEEK',
      filter: { dimension: 'SOURCE', value: 'news.example' },
    });
    expect(body.errors).toBeUndefined();
    const news = HITS.filter((hit) => hitDimensions(hit).source === 'news.example');
    const stats = body.data?.pageStats;
    expect(stats?.total).toBe(
      sum(
        hitsIn(news, {
          site: SITE,
          page: '/a',
          from: Date.parse(stats?.from ?? ''),
          to: Date.parse(stats?.to ?? ''),
        }),
      ),
    );
    expect(stats?.total).toBeGreaterThan(0);
    expect(stats?.visitors).toBeNull();
    expect(stats?.points.every((p) => p.visitors === null)).toBe(true);
  });

  it.each([
    [
      { granularity: 'HOUR', filter: { dimension: 'SOURCE', value: 'Google' } },
      'granularity',
      'filter counts hits per UTC day and month, so granularity must be DAY, WEEK or MONTH, got HOUR',
    ],
    [
      { granularity: 'DAY', timeZone: 'Europe/Berlin', filter: { dimension: 'SOURCE', value: 'Google' } },
      'timeZone',
      `filter counts hits per UTC day, so buckets must start at UTC midnight; in Europe/Berlin a bucket boundary of the series falls at 2026-03-06T00:00:00+01:00; use timeZone "UTC"`,
    ],
    [
      // London is back at UTC+0 from 25 October 2026: the series is fine, the two days before it are not.
      {
        granularity: 'DAY',
        timeZone: 'Europe/London',
        compare: 'PREVIOUS_PERIOD',
        filter: { dimension: 'SOURCE', value: 'Google' },
        from: '2026-10-27T00:00:00Z',
        to: '2026-10-29T00:00:00Z',
      },
      'timeZone',
      'filter counts hits per UTC day, so buckets must start at UTC midnight; in Europe/London a bucket boundary of the comparison falls at 2026-10-25T00:00:00+01:00; use timeZone "UTC"',
    ],
    [
      { granularity: 'DAY', filter: { dimension: 'SOURCE', value: '' } },
      'filter.value',
      'filter.value must not be empty',
    ],
    [
      { granularity: 'DAY', filter: { dimension: 'COUNTRY', value: 'DEU' } },
      'filter.value',
      'filter.value must be at most 2 characters for dimension COUNTRY, got 3',
    ],
  ])('refuses %j as BAD_USER_INPUT naming %s', async (variables, field, message) => {
    const { body } = await app.graphql(PageStatsWithVisitorsDocument, {
      site: SITE,
      page: '/a',
      ...WEEK,
      ...(variables as Record<string, unknown>),
      granularity: variables.granularity as 'DAY',
    });
    expect(body.data?.pageStats).toBeNull();
    expect(body.errors).toEqual([
      expect.objectContaining({ message, extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field }) }),
    ]);
  });

  it('accepts a comparison in a zone at UTC+0 all year', async () => {
    const { body } = await app.graphql(PageStatsWithVisitorsDocument, {
      site: SITE,
      page: '/a',
      from: '2026-03-30T00:00:00Z',
      to: '2026-04-01T00:00:00Z',
      granularity: 'DAY',
      timeZone: 'Atlantic/Reykjavik',
      compare: 'PREVIOUS_YEAR',
      filter: { dimension: 'SOURCE', value: 'Google' },
    });
    // Reykjavik is at UTC+0 all year: series and comparison alike are UTC days.
    expect(body.errors).toBeUndefined();
  });
});

describe('breakdown over GraphQL', () => {
  it('ranks values by hits with exact counts, "(other)" beside them, and pages by cursor', async () => {
    const from = Date.parse('2026-03-01T00:00:00Z');
    const to = Date.parse('2026-03-15T00:00:00Z');
    const inSpan = hitsIn(HITS, { site: SITE, page: SITE_TOTAL_PAGE, from, to });
    const byCountry = new Map<string, number>();
    for (const hit of inSpan) {
      const value = hitDimensions(hit).country;
      byCountry.set(value, (byCountry.get(value) ?? 0) + (hit.count ?? 1));
    }
    const other = byCountry.get('(other)') ?? 0;
    byCountry.delete('(other)');
    const expected = [...byCountry].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const rows: Array<[string, number]> = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const response: GraphQLResponse<BreakdownQuery> = await app.graphql(BreakdownDocument, {
        site: SITE,
        dimension: 'COUNTRY',
        from: iso(from),
        to: iso(to),
        first: 3,
        after,
      });
      expect(response.body.errors).toBeUndefined();
      const breakdown: BreakdownQuery['breakdown'] | undefined = response.body.data?.breakdown;
      expect(breakdown).toMatchObject({
        dimension: 'COUNTRY',
        totalCount: expected.length,
        other,
        from: iso(from),
        to: iso(to),
      });
      rows.push(...(breakdown?.edges ?? []).map(({ node }): [string, number] => [node.value, node.hits]));
      // COUNTRY keeps no per-value sketches (DIMENSION_VISITORS): null, not a guess.
      expect(breakdown?.edges.every(({ node }) => node.visitors === null)).toBe(true);
      if (!breakdown?.pageInfo.hasNextPage) break;
      after = breakdown.pageInfo.endCursor;
    }
    expect(rows).toEqual(expected);
    expect(other).toBeGreaterThan(0);
    expect(rows.reduce((n, [, hits]) => n + hits, other)).toBe(sum(inSpan));
  });

  it("answers the site's visitors per device, and widens a zone's days to UTC days", async () => {
    const { body } = await app.graphql(BreakdownDocument, {
      site: SITE,
      dimension: 'DEVICE',
      from: '2026-03-02T00:00:00-05:00',
      to: '2026-03-04T00:00:00-05:00',
      timeZone: 'America/New_York',
    });
    expect(body.errors).toBeUndefined();
    const breakdown = body.data?.breakdown;
    expect(breakdown).toMatchObject({ from: '2026-03-02T00:00:00.000Z', to: '2026-03-05T00:00:00.000Z' });
    const span = { from: Date.parse('2026-03-02T00:00:00Z'), to: Date.parse('2026-03-05T00:00:00Z') };
    for (const { node } of breakdown?.edges ?? []) {
      const withValue = HITS.filter((hit) => hitDimensions(hit).device === node.value);
      const inSpan = hitsIn(withValue, { site: SITE, page: SITE_TOTAL_PAGE, ...span });
      expect(node).toEqual({
        value: node.value,
        hits: sum(inSpan),
        visitors: directEstimate(inSpan, VISITOR_PRECISION.minute),
      });
    }
  });

  it('reads one page and gives null visitors there', async () => {
    const { body } = await app.graphql(BreakdownDocument, { site: SITE, page: '/b', dimension: 'SOURCE', ...WEEK });
    expect(body.errors).toBeUndefined();
    // Every hit on /b came from one source.
    expect(body.data?.breakdown?.edges.map(({ node }) => [node.value, node.visitors])).toEqual([['Google', null]]);
  });

  it.each([
    [{ first: 0 }, 'first', 'first must be an integer from 1 to 100 (TOP_PAGES_MAX_PAGE), got 0'],
    [{ after: 'bm9wZQ' }, 'after', 'after must be a cursor returned by breakdown, got "bm9wZQ"'],
    [
      { timeZone: 'Nowhere/Else' },
      'timeZone',
      'timeZone must be an IANA time zone name such as "Europe/Berlin" or "UTC", got "Nowhere/Else"',
    ],
    [{ page: 'b' }, 'page', 'page must start with "/", got "b"'],
    [
      { from: WEEK.to, to: WEEK.from },
      'range',
      `range.from must be before range.to, got from ${WEEK.to} and to ${WEEK.from}`,
    ],
  ])('refuses %j as BAD_USER_INPUT naming %s', async (variables, field, message) => {
    const { body } = await app.graphql(BreakdownDocument, { site: SITE, dimension: 'SOURCE', ...WEEK, ...variables });
    expect(body.data?.breakdown).toBeNull();
    expect(body.errors).toEqual([
      expect.objectContaining({ message, extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field }) }),
    ]);
  });

  it('refuses an unknown dimension before execution', async () => {
    const { status, body } = await app.graphql(BreakdownDocument, {
      site: SITE,
      dimension: 'LANGUAGE' as 'SOURCE',
      ...WEEK,
    });
    expect(status).toBe(400);
    expect(body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('Value "LANGUAGE" does not exist in "Dimension" enum.'),
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});

describe('export', () => {
  const get = (params: Record<string, string>): Promise<Response> =>
    fetch(`${app.url}/export?${new URLSearchParams({ site: SITE, ...params }).toString()}`);

  it('adds a visitors column to series, empty where a bucket has no sketch', async () => {
    const response = await get({
      page: '/a',
      from: '2026-03-10T00:00:00+01:00',
      to: '2026-03-12T00:00:00+01:00',
      granularity: 'DAY',
      timeZone: 'Europe/Berlin',
    });
    expect(response.status).toBe(200);
    // fetch's text() drops the byte order mark.
    const [header, ...rows] = (await response.text()).split('\r\n').filter((line) => line !== '');
    expect(header).toBe('start,end,hits,site,page,visitors,visits,bounceRate,visitDuration,viewsPerVisit');
    expect(rows.map((row) => row.split(',')[5])).toEqual(['', '']);
    const utc = await get({ page: '/a', from: WEEK.from, to: WEEK.to, granularity: 'DAY', format: 'ndjson' });
    const lines = (await utc.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { start: string; visitors: number });
    expect(lines.map((line) => line.visitors)).toEqual(
      lines.map((line) =>
        directEstimate(
          hitsIn(HITS, { site: SITE, page: '/a', from: Date.parse(line.start), to: Date.parse(line.start) + DAY }),
          VISITOR_PRECISION.pageDay,
        ),
      ),
    );
  });

  it('exports a breakdown as value, hits and visitors, with the "(other)" row last', async () => {
    const response = await get({ dimension: 'DEVICE', from: '2026-03-01T00:00:00Z', to: '2026-03-15T00:00:00Z' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="tally-${SITE}-device.csv"`);
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).toBe('value,hits,visitors,visits,bounceRate,visitDuration,viewsPerVisit');
    expect(
      lines
        .slice(1, -1)
        .map((line) => line.split(',')[0])
        .sort(),
    ).toEqual(['desktop', 'mobile']);
    const countries = await get({
      dimension: 'country',
      from: '2026-03-01T00:00:00Z',
      to: '2026-03-15T00:00:00Z',
      format: 'ndjson',
    });
    const rows = (await countries.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { value: string; visitors: null });
    expect(rows.at(-1)?.value).toBe('(other)');
    expect(rows.every((row) => row.visitors === null)).toBe(true);
  });

  it.each([
    [
      { dimension: 'LANGUAGE' },
      'dimension',
      'dimension must be one of SOURCE, UTM_SOURCE, UTM_MEDIUM, UTM_CAMPAIGN, BROWSER, OS, DEVICE, COUNTRY, got "LANGUAGE"',
    ],
    [
      { dimension: 'SOURCE', granularity: 'DAY' },
      'granularity',
      'granularity does not apply to a breakdown (dimension=SOURCE): it counts whole days; leave it out',
    ],
    [
      { dimension: 'SOURCE', first: '3' },
      'first',
      'unknown parameter "first"; expected some of site, page, from, to, granularity, timeZone, format, dimension, event, goals',
    ],
  ])('refuses %j as BAD_USER_INPUT naming %s', async (params, field, message) => {
    const response = await get({ from: WEEK.from, to: WEEK.to, ...params });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      errors: Array<{ message: string; extensions: { code: string; field?: string } }>;
    };
    expect(body.errors).toEqual([
      expect.objectContaining({ message, extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field }) }),
    ]);
  });
});
