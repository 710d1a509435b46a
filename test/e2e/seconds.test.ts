import { createClient } from 'graphql-ws';
import type { Client, ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { waitFor } from '../support/waitFor';

// FerretDB rewrites whole documents and shares two cores with other suites: allow slow runs (no timing asserted).
jest.setTimeout(60_000);

const PAGE_STATS = `query Seconds($site: String!, $page: String!, $granularity: Granularity!, $from: DateTime!, $to: DateTime!) {
  pageStats(site: $site, page: $page, granularity: $granularity, range: { from: $from, to: $to }) {
    from
    to
    total
    values
  }
}`;
const RECORD_HITS = `mutation Record($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;
const LIVE = `subscription Live($site: String!, $page: String!, $granularity: LiveGranularity!, $window: Int!) {
  pageStatsLive(site: $site, page: $page, granularity: $granularity, window: $window) {
    snapshot
    from
    to
    total
    points { t hits }
  }
}`;

interface LiveMessage {
  pageStatsLive: {
    snapshot: boolean;
    from: string;
    to: string;
    total: number;
    points: Array<{ t: string; hits: number }>;
  };
}

describe('SECOND series over HTTP', () => {
  const NOW = Date.parse('2026-11-21T12:00:00.500Z');
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp('seconds_http', {}, () => NOW);
  });

  afterAll(async () => {
    await app.stop();
  });

  it('returns hits per second for a range inside the retention window', async () => {
    const hits = [
      { site: 'sec', page: '/p', at: '2026-11-21T11:59:58.100Z', count: 2 },
      { site: 'sec', page: '/p', at: '2026-11-21T11:59:58.900Z', count: 1 },
      { site: 'sec', page: '/p', at: '2026-11-21T12:00:00.000Z', count: 5 },
    ];
    expect((await app.graphql(RECORD_HITS, { hits })).body.errors).toBeUndefined();
    const { body } = await app.graphql(PAGE_STATS, {
      site: 'sec',
      page: '/p',
      granularity: 'SECOND',
      from: '2026-11-21T11:59:57.500Z',
      to: '2026-11-21T12:00:01Z',
    });
    expect(body.data?.pageStats).toEqual({
      from: '2026-11-21T11:59:57.000Z',
      to: '2026-11-21T12:00:01.000Z',
      total: 8,
      values: [0, 3, 0, 5],
    });
  });

  it('rejects a range reaching outside the window with BAD_USER_INPUT stating the window', async () => {
    const { status, body } = await app.graphql(PAGE_STATS, {
      site: 'sec',
      page: '/p',
      granularity: 'SECOND',
      from: '2026-11-18T00:00:00Z',
      to: '2026-11-18T00:01:00Z',
    });
    expect(status).not.toBe(500);
    expect(body.data?.pageStats).toBeNull();
    expect(body.errors?.[0]).toMatchObject({
      message:
        'range.from must be within the second-level retention window of 48 hours (after 2026-11-19T12:00:00.500Z), got 2026-11-18T00:00:00.000Z',
      extensions: { code: 'BAD_USER_INPUT', field: 'range' },
    });
  });
});

describe('SECOND series switched off', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp('seconds_off', { SECONDS_ENABLED: 'false' });
  });

  afterAll(async () => {
    await app.stop();
  });

  it('fails SECOND queries with a clear error', async () => {
    const now = Date.now();
    const { body } = await app.graphql(PAGE_STATS, {
      site: 'sec',
      page: '/p',
      granularity: 'SECOND',
      from: new Date(now - 60_000).toISOString(),
      to: new Date(now).toISOString(),
    });
    expect(body.errors?.[0]).toMatchObject({
      message:
        'granularity SECOND needs second-level counters, which are switched off on this server (SECONDS_ENABLED=false); use MINUTE or coarser',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});

describe('pageStatsLive over WebSocket', () => {
  let app: TestApp;
  let client: Client;

  beforeAll(async () => {
    app = await startTestApp('seconds_live');
    client = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
  });

  afterAll(async () => {
    await client.dispose();
    await app.stop();
  });

  it('sends the window first, then the increments of hits recorded over HTTP after subscribing', async () => {
    const variables = { site: 'live', page: '/p', granularity: 'SECOND', window: 60 };
    const before = await app.graphql(RECORD_HITS, { hits: [{ site: 'live', page: '/p', count: 2 }] });
    expect(before.body.errors).toBeUndefined();

    const messages = client.iterate<LiveMessage>({ query: LIVE, variables });
    const first = await messages.next();
    const snapshot = (first.value as ExecutionResult<LiveMessage>).data?.pageStatsLive;
    expect(snapshot?.snapshot).toBe(true);
    expect(snapshot?.points).toHaveLength(60);
    expect(snapshot?.total).toBe(2);

    // The client's view: bucket start → count, updated from change messages only.
    const counts = new Map(snapshot?.points.map((p) => [p.t, p.hits]));
    const recorded = await app.graphql(RECORD_HITS, {
      hits: [
        { site: 'live', page: '/p', count: 3 },
        { site: 'live', page: '/p', count: 4 },
        { site: 'live', page: '/other', count: 100 },
      ],
    });
    expect(recorded.body.errors).toBeUndefined();

    let total = snapshot?.total ?? 0;
    while (total < 9) {
      const next = await waitFor(() => messages.next(), {
        timeoutMs: 20_000,
        what: `the next live update (total ${total} so far, 9 expected)`,
      });
      const update = (next.value as ExecutionResult<LiveMessage>).data?.pageStatsLive;
      if (!update) throw new Error(`unexpected message ${JSON.stringify(next.value)}`);
      expect(update.snapshot).toBe(false);
      // Only changed buckets, each with its absolute count.
      expect(update.points.length).toBeLessThan(60);
      for (const point of update.points) counts.set(point.t, point.hits);
      for (const t of [...counts.keys()]) if (t < update.from) counts.delete(t);
      total = update.total;
      expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(update.total);
    }
    expect(total).toBe(9);
    await messages.return?.();

    // Nobody watches any more: the hub stops polling.
    await waitFor(() => app.services.live.watchedSeries === 0, {
      timeoutMs: 10_000,
      what: 'the hub to stop watching once the last subscriber left',
    });
    expect(app.services.live.watchedSeries).toBe(0);
  });

  it('reports bad arguments as BAD_USER_INPUT', async () => {
    const messages = client.iterate({
      query: LIVE,
      variables: { site: 'live', page: 'nope', granularity: 'SECOND', window: 60 },
    });
    const { value } = await messages.next();
    expect((value as ExecutionResult).errors?.[0]).toMatchObject({
      message: 'page must start with "/", got "nope"',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });
});

describe('shutdown with live subscribers', () => {
  it('ends open subscriptions and closes the server', async () => {
    const app = await startTestApp('seconds_close');
    const client = createClient({
      url: `${app.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    const messages = client.iterate({
      query: LIVE,
      variables: { site: 'c', page: '/p', granularity: 'MINUTE', window: 600 },
    });
    expect((await messages.next()).done).toBe(false);
    const ended = messages.next().then(
      (result) => result.done,
      () => true,
    );
    await app.stop();
    expect(await ended).toBe(true);
    expect(app.services.live.watchedSeries).toBe(0);
    await client.dispose();
  });
});
