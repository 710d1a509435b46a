import { parse, validate } from 'graphql';
import { buildSchema } from '../../../src/graphql/buildSchema';
import {
  FIRST_DAY_QUERY,
  LIVE_SUBSCRIPTION,
  TOP_PAGES_QUERY,
  siteGranularity,
  viewQuery,
  viewVariables,
} from '../../../web/dashboard/operations';
import { PANELS } from '../../../web/dashboard/panels';
import { exampleQuery, exampleVariables } from '../../../web/playground/example';

describe('the operations the browser pages send', () => {
  const schema = buildSchema();

  it.each([
    ['the dashboard view with three pages', viewQuery({ pageCount: 3, filtered: false, granularity: 'DAY' })],
    ['the dashboard view with a charted value', viewQuery({ pageCount: 1, filtered: true, granularity: 'DAY' })],
    ['the dashboard view by the hour', viewQuery({ pageCount: 2, filtered: false, granularity: 'HOUR' })],
    ['the dashboard view of a site without pages', viewQuery({ pageCount: 0, filtered: false, granularity: 'MINUTE' })],
    [
      'the dashboard view of a charted value without pages',
      viewQuery({ pageCount: 0, filtered: true, granularity: 'WEEK' }),
    ],
    ['the dashboard top pages query', TOP_PAGES_QUERY],
    ['the dashboard live subscription', LIVE_SUBSCRIPTION],
    ['the dashboard first day query', FIRST_DAY_QUERY],
    ["the playground's example", exampleQuery],
  ])('%s is valid against the schema', (_name, source) => {
    expect(validate(schema, parse(source)).map((error) => error.message)).toEqual([]);
  });

  it("prefills the playground with the last hour, ending at the next minute's start", () => {
    expect(JSON.parse(exampleVariables(Date.UTC(2026, 10, 22, 15, 20, 30)))).toEqual({
      from: '2026-11-22T14:21:00.000Z',
      to: '2026-11-22T15:21:00.000Z',
    });
  });
});

describe('the dashboard view query', () => {
  it('reads the site with its previous period, one aliased series per page, and one breakdown per panel', () => {
    const query = viewQuery({ pageCount: 2, filtered: false, granularity: 'DAY' });
    expect(query).toContain(
      'site: siteStats(site: $site, range: { from: $from, to: $to }, granularity: $siteGranularity, compare: PREVIOUS_PERIOD)',
    );
    expect(query).toContain('points { t hits visitors }');
    expect(query).toContain('comparison { from to total change visitors visitorsChange visitorsFrom visitorsTo }');
    expect(query).toContain('$p0: String!, $p1: String!');
    expect(query).toContain('p1: pageStats(site: $site, page: $p1,');
    expect(query).not.toContain('filter');
    for (const panel of PANELS) {
      expect(query).toContain(`${panel.alias}: breakdown(site: $site, dimension: ${panel.dimension},`);
    }
    expect(query.match(/breakdown\(/g)).toHaveLength(6);
    expect(query.match(/first: 10\)/g)).toHaveLength(6);
  });

  it.each(['SECOND', 'MINUTE', 'HOUR'] as const)(
    "reads pages' visitors of a %s chart per UTC day, from the day documents",
    (granularity) => {
      const query = viewQuery({ pageCount: 2, filtered: false, granularity });
      expect(query).toContain(
        'p1: pageStats(site: $site, page: $p1, range: { from: $from, to: $to }, granularity: $granularity) { from to total points { t hits } }',
      );
      expect(query).toContain(
        'v1: pageStats(site: $site, page: $p1, range: { from: $from, to: $to }, granularity: DAY) { visitors visitorsFrom visitorsTo }',
      );
    },
  );

  it.each(['DAY', 'WEEK', 'MONTH'] as const)("reads pages' visitors of a %s chart with their series", (granularity) => {
    const query = viewQuery({ pageCount: 2, filtered: false, granularity });
    expect(query).toContain(
      'granularity: $granularity) { from to total visitors visitorsFrom visitorsTo points { t hits } }',
    );
    expect(query).not.toContain('v0:');
  });

  it('adds the charted value as a filtered site series at the chart granularity', () => {
    expect(viewQuery({ pageCount: 0, filtered: true, granularity: 'WEEK' })).toContain(
      'filtered: siteStats(site: $site, range: { from: $from, to: $to }, granularity: $granularity, filter: $filter)',
    );
    expect(
      viewVariables({
        site: 'a.com',
        pages: ['/', '/x'],
        range: { from: 'f', to: 't' },
        granularity: 'DAY',
        filter: { dimension: 'SOURCE', value: 'Google' },
      }),
    ).toEqual({
      site: 'a.com',
      from: 'f',
      to: 't',
      granularity: 'DAY',
      siteGranularity: 'DAY',
      p0: '/',
      p1: '/x',
      filter: { dimension: 'SOURCE', value: 'Google' },
    });
  });

  it.each([
    ['SECOND', 'MINUTE'],
    ['MINUTE', 'MINUTE'],
    ['HOUR', 'HOUR'],
    ['WEEK', 'WEEK'],
  ] as const)('reads the site of a %s chart by %s (site documents start at minutes)', (chart, site) => {
    expect(siteGranularity(chart)).toBe(site);
    expect(viewVariables({ site: 's', pages: ['/'], range: { from: 'f', to: 't' }, granularity: chart })).toEqual({
      site: 's',
      from: 'f',
      to: 't',
      granularity: chart,
      siteGranularity: site,
      p0: '/',
    });
  });

  it('declares $granularity only when a field uses it', () => {
    expect(viewQuery({ pageCount: 0, filtered: false, granularity: 'MINUTE' })).not.toContain('$granularity');
    expect(viewVariables({ site: 's', pages: [], range: { from: 'f', to: 't' }, granularity: 'HOUR' })).toEqual({
      site: 's',
      from: 'f',
      to: 't',
      siteGranularity: 'HOUR',
    });
  });
});
