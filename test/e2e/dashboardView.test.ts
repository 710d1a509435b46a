/**
 * The dashboard's one view query (web/dashboard/operations/DashboardView.graphql) against the real server, with
 * everything switched on: two page slots, a charted value, three goals, the selected event goal's series, panels and
 * property values. It is answered whole, with figures equal to what was recorded, from one batched find per
 * collection — plus, with page goals, the one find that reads the site's page-day documents to match their pages.
 */
import type { CommandStartedEvent } from 'mongodb';
import type { DashboardViewQuery } from '../../web/dashboard/generated/graphql';
import { goalFocus } from '../../web/dashboard/goals';
import type { Goal } from '../../web/dashboard/goals';
import { VIEW_QUERY, viewVariables } from '../../web/dashboard/operations';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';

const SITE = 'view.test';
const DAY = 86_400_000;
const NOW = Date.now();
const at = (daysAgo: number): string => new Date(NOW - daysAgo * DAY - 60_000).toISOString();

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('dashboard_view');
  const hits = [
    { site: SITE, page: '/', visitor: 'a', referrer: 'https://www.google.com/', at: at(0) },
    { site: SITE, page: '/pricing', visitor: 'b', at: at(1) },
    { site: SITE, page: '/blog/x', visitor: 'c', at: at(2) },
    { site: SITE, page: '/', visitor: 'd', at: at(3) },
    {
      site: SITE,
      page: '/pricing',
      visitor: 'b',
      at: at(1),
      event: 'Signup',
      props: [{ key: 'plan', value: 'pro' }],
      revenue: { amount: '9.99', currency: 'USD' },
    },
    {
      site: SITE,
      page: '/',
      visitor: 'a',
      referrer: 'https://www.google.com/',
      at: at(0),
      event: 'Signup',
      props: [{ key: 'plan', value: 'free' }],
    },
  ];
  const { body } = await app.graphql('mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { total } }', { hits });
  expect(body.errors).toBeUndefined();
});

afterAll(async () => {
  await app.stop();
});

const RANGE = { from: new Date(NOW - 7 * DAY).toISOString(), to: new Date(NOW).toISOString() };

/** Sends the view query and counts the finds per collection it costs. */
async function view(
  goals: readonly Goal[],
): Promise<{ data: DashboardViewQuery | null | undefined; finds: Record<string, number> }> {
  const variables = viewVariables({
    site: SITE,
    pages: ['/', '/pricing'],
    range: RANGE,
    granularity: 'DAY',
    filter: { dimension: 'SOURCE', value: 'Google' },
    goals,
    focus: { goal: goalFocus({ kind: 'event', event: 'Signup' }), chart: true },
    propertyKey: 'plan',
  });
  const finds: Record<string, number> = {};
  const listener = (event: CommandStartedEvent): void => {
    if (event.commandName === 'find') finds[String(event.command.find)] = (finds[String(event.command.find)] ?? 0) + 1;
  };
  app.database.client.on('commandStarted', listener);
  try {
    const { body } = await app.graphql<DashboardViewQuery>(String(VIEW_QUERY), variables);
    expect(body.errors).toBeUndefined();
    return { data: body.data, finds };
  } finally {
    app.database.client.off('commandStarted', listener);
  }
}

describe('the dashboard view query', () => {
  it('answers pages, a charted value, goals, the selected goal, its panels and properties', async () => {
    const { data } = await view([
      { kind: 'event', event: 'Signup' },
      { kind: 'page', page: '/pricing' },
      { kind: 'page', page: '/blog/*' },
    ]);
    expect(data?.site?.total).toBe(4);
    expect(data?.p0?.total).toBe(2);
    expect(data?.p1?.total).toBe(1);
    expect(data?.v0).toBeUndefined();
    expect(data?.filtered?.total).toBe(1);
    expect(data?.conversions).toEqual([
      { goal: 'Signup', events: 2, visitors: 2, conversionRate: 0.5, revenue: [{ currency: 'USD', amount: '9.99' }] },
      { goal: 'Visit /pricing', events: 1, visitors: 1, conversionRate: 0.25, revenue: [] },
      { goal: 'Visit /blog/*', events: 1, visitors: 1, conversionRate: 0.25, revenue: [] },
    ]);
    expect(data?.goalEvent?.total).toBe(2);
    expect(data?.goalPage).toBeUndefined();
    expect(data?.properties?.edges.map((e) => [e.node.value, e.node.hits])).toEqual([
      ['free', 1],
      ['pro', 1],
    ]);
    expect(data?.sources?.edges.map((e) => [e.node.value, e.node.hits])).toEqual([
      ['(direct)', 1],
      ['Google', 1],
    ]);
  });

  it.each([
    [
      'an event goal',
      [{ kind: 'event', event: 'Signup' }],
      { 'events.daily': 1, 'stats.daily': 1, 'stats.monthly': 1 },
    ],
    // Page goals: the closed periods' page digests (one find) with the site-month documents that say whether each is
    // current (one), then, for the periods without one (today here), the page rollups name the matching pages (three
    // finds in parallel: their marker, the months, the days) and those pages' documents are read by id (one find per
    // collection).
    [
      'page goals too',
      [
        { kind: 'event', event: 'Signup' },
        { kind: 'page', page: '/pricing' },
        { kind: 'page', page: '/blog/*' },
      ],
      { 'events.daily': 1, 'stats.daily': 2, 'stats.monthly': 2, 'stats.pageDigests': 1, 'stats.rollups': 3 },
    ],
  ] as const)(
    'costs one batched find per collection (more, and the digests and rollup, for page goals) with %s',
    async (_name, goals, expected) => {
      expect((await view(goals)).finds).toEqual(expected);
    },
  );
});
