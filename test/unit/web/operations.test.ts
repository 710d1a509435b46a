import fs from 'node:fs';
import path from 'node:path';
import { Kind, parse, validate, visit } from 'graphql';
import { buildSchema } from '../../../src/graphql/buildSchema';
import {
  FIRST_DAY_QUERY,
  LIVE_SUBSCRIPTION,
  TOP_PAGES_QUERY,
  VIEW_QUERY,
  VISIT_PAGES_QUERY,
  siteGranularity,
  viewVariables,
} from '../../../web/dashboard/operations';
import { PANELS } from '../../../web/dashboard/panels';
import { exampleQuery, exampleVariables } from '../../../web/playground/example';

const OPERATIONS = path.join(__dirname, '../../../web/dashboard/operations');

describe('the operations the browser pages send', () => {
  const schema = buildSchema();

  it.each([
    ['the dashboard view', VIEW_QUERY.toString()],
    ['the dashboard top pages query', TOP_PAGES_QUERY.toString()],
    ['the dashboard live subscription', LIVE_SUBSCRIPTION.toString()],
    ['the dashboard first day query', FIRST_DAY_QUERY.toString()],
    ['the dashboard entry and exit pages query', VISIT_PAGES_QUERY.toString()],
    ["the playground's example", exampleQuery],
  ])('%s is valid against the schema', (_name, source) => {
    expect(validate(schema, parse(source)).map((error) => error.message)).toEqual([]);
  });

  it.each(fs.readdirSync(OPERATIONS))('sends web/dashboard/operations/%s as written', (file) => {
    const name = /operation \w+ (\w+)|(query|subscription) (\w+)/.exec(
      fs.readFileSync(path.join(OPERATIONS, file), 'utf8'),
    );
    const operation = name?.[3] ?? '';
    const sent = [VIEW_QUERY, TOP_PAGES_QUERY, LIVE_SUBSCRIPTION, FIRST_DAY_QUERY, VISIT_PAGES_QUERY].map(String);
    expect(file).toBe(`${operation}.graphql`);
    expect(sent.some((source) => source.includes(`${name?.[2]} ${operation}(`))).toBe(true);
  });

  it("prefills the playground with the last hour, ending at the next minute's start", () => {
    expect(JSON.parse(exampleVariables(Date.UTC(2026, 10, 22, 15, 20, 30)))).toEqual({
      from: '2026-11-22T14:21:00.000Z',
      to: '2026-11-22T15:21:00.000Z',
    });
  });
});

describe('the dashboard view query', () => {
  const source = VIEW_QUERY.toString();

  it('reads the site with its previous period, page slots p0…p7, and one breakdown per panel', () => {
    expect(source).toMatch(
      /site: siteStats\(\s*site: \$site\s*range: \$range\s*granularity: \$siteGranularity\s*compare: PREVIOUS_PERIOD/,
    );
    for (let i = 0; i < 8; i++) {
      expect(source).toMatch(
        new RegExp(`p${i}: pageStats\\([^)]*page: \\$p${i}[^)]*\\) @include\\(if: \\$withP${i}\\)`),
      );
      expect(source).toMatch(
        new RegExp(
          `v${i}: pageStats\\([^)]*granularity: DAY\\s*\\) @include\\(if: \\$withP${i}\\) @skip\\(if: \\$seriesVisitors\\)`,
        ),
      );
    }
    for (const panel of PANELS) {
      expect(source).toMatch(
        new RegExp(
          `${panel.alias}: breakdown\\(\\s*site: \\$site\\s*dimension: ${panel.dimension}\\s*page: \\$panelPage\\s*event: \\$panelEvent`,
        ),
      );
    }
    expect(source.match(/breakdown\(/g)).toHaveLength(6);
    expect(source.match(/first: 10\s*\)/g)).toHaveLength(7);
  });

  it('stays within the default GRAPHQL_MAX_ALIASES (30), which counts skipped fields too', () => {
    let aliases = 0;
    visit(parse(source), {
      [Kind.FIELD]: (node) => {
        if (node.alias) aliases += 1;
      },
    });
    expect(aliases).toBe(26);
  });

  it("asks each panel's values for their visits and bounce rate", () => {
    expect(source).toMatch(/fragment PanelRows on BreakdownConnection \{[^}]*visits\s*bounceRate/);
  });

  it('reads the entry and exit pages beside the view, ranked by ENTRIES and EXITS', () => {
    const visits = VISIT_PAGES_QUERY.toString();
    expect(visits).toMatch(/entries: topPages\([^)]*by: ENTRIES/);
    expect(visits).toMatch(/exits: topPages\([^)]*by: EXITS/);
  });

  it('fills one slot per page, and switches off everything not asked for', () => {
    expect(
      viewVariables({ site: 'a.com', pages: ['/', '/x'], range: { from: 'f', to: 't' }, granularity: 'DAY' }),
    ).toEqual({
      site: 'a.com',
      range: { from: 'f', to: 't' },
      granularity: 'DAY',
      siteGranularity: 'DAY',
      seriesVisitors: true,
      p0: '/',
      withP0: true,
      p1: '/x',
      withP1: true,
    });
  });

  it('refuses more pages than the query has slots', () => {
    const pages = Array.from({ length: 9 }, (_, i) => `/${i}`);
    expect(() => viewVariables({ site: 's', pages, range: { from: 'f', to: 't' }, granularity: 'DAY' })).toThrow(
      'at most 8 pages, got 9',
    );
  });

  it.each([
    ['SECOND', 'MINUTE', false],
    ['MINUTE', 'MINUTE', false],
    ['HOUR', 'HOUR', false],
    ['DAY', 'DAY', true],
    ['WEEK', 'WEEK', true],
    ['MONTH', 'MONTH', true],
  ] as const)(
    'reads the site of a %s chart by %s, and pages’ visitors with their series: %s (else per UTC day)',
    (chart, site, withSeries) => {
      expect(siteGranularity(chart)).toBe(site);
      expect(
        viewVariables({ site: 's', pages: ['/'], range: { from: 'f', to: 't' }, granularity: chart }),
      ).toMatchObject({
        granularity: chart,
        siteGranularity: site,
        seriesVisitors: withSeries,
      });
    },
  );

  it('adds the charted value as a filtered site series', () => {
    expect(
      viewVariables({
        site: 'a.com',
        pages: [],
        range: { from: 'f', to: 't' },
        granularity: 'WEEK',
        filter: { dimension: 'SOURCE', value: 'Google' },
      }),
    ).toMatchObject({ filter: { dimension: 'SOURCE', value: 'Google' }, filtered: true });
  });

  it.each([
    [
      'an event goal: its series, its conversions in the panels and its property values',
      { goal: { event: 'Signup', panelEvent: 'Signup' }, chart: true },
      { goalEvent: 'Signup', panelEvent: 'Signup', chartEvent: true, propertyKey: 'plan', withProperties: true },
    ],
    [
      'an event goal over a range too short for its day buckets: panels and properties only',
      { goal: { event: 'Signup', panelEvent: 'Signup' }, chart: false },
      { goalEvent: 'Signup', panelEvent: 'Signup', chartEvent: false, propertyKey: 'plan', withProperties: true },
    ],
    [
      "an exact page goal: that page's hits, and the panels of that page",
      { goal: { page: '/pricing', panelPage: '/pricing' }, chart: true },
      { goalPage: '/pricing', panelPage: '/pricing', chartPage: true },
    ],
  ] as const)('asks for the goals’ conversions and, for %s', (_name, focus, expected) => {
    const variables = viewVariables({
      site: 's',
      pages: [],
      range: { from: 'f', to: 't' },
      granularity: 'DAY',
      goals: [
        { kind: 'event', event: 'Signup' },
        { kind: 'page', page: '/blog/**' },
      ],
      focus,
      propertyKey: 'plan',
    });
    expect(variables).toEqual({
      site: 's',
      range: { from: 'f', to: 't' },
      granularity: 'DAY',
      siteGranularity: 'DAY',
      seriesVisitors: true,
      goals: [{ event: 'Signup' }, { page: '/blog/**' }],
      withGoals: true,
      ...expected,
    });
  });
});
