/**
 * The live subscription gains visits (issue 29 follow-up): hits of known visits recorded through the mutation (with
 * `visitor`), read back from pageStatsLive's MINUTE points and window over WebSocket, equal an independent
 * sessionisation per start minute (test/support/sessionise.ts). A later hit of a visit updates the minute the visit
 * started in, though that minute gets no hit, and the subscriber is sent that minute again. SECOND points, and every
 * point with visits switched off, keep null.
 */
import { createClient } from 'graphql-ws';
import type { Client, ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { sessioniseBy } from '../support/sessionise';
import type { OracleCounts, OracleHit } from '../support/sessionise';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { sessionisedFigures } from '../support/visitReadout';
import type { Figures } from '../support/visitReadout';
import { waitFor } from '../support/waitFor';

// FerretDB rewrites whole documents and shares two cores with other suites: allow slow runs (no timing asserted).
jest.setTimeout(90_000);

const NOW = Date.parse('2026-11-21T12:00:30Z');
const MINUTE = 60_000;
const TIMEOUT = 30 * MINUTE;
const SITE = 'live-visits';
const PAGE = '/p';

const RECORD_HITS = `mutation Record($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;
const LIVE = `subscription Live($site: String!, $page: String!, $granularity: LiveGranularity!, $window: Int!) {
  pageStatsLive(site: $site, page: $page, granularity: $granularity, window: $window) {
    snapshot
    from
    visits
    bounceRate
    visitDuration
    viewsPerVisit
    points { t hits visits bounceRate visitDuration viewsPerVisit }
  }
}`;

interface Point extends Figures {
  t: string;
  hits: number;
}
interface LiveMessage {
  pageStatsLive: Figures & { snapshot: boolean; from: string; points: Point[] };
}

const at = (iso: string): number => Date.parse(`2026-11-21T${iso}Z`);
const hit = (visitor: string, page: string, time: string, event?: string): OracleHit => ({
  site: SITE,
  page,
  at: at(time),
  visitor,
  ...(event ? { event } : {}),
});

/** Visits entering on /p and on /q, bounces, a gap over the timeout (two visits), an event undoing a bounce. */
const FIRST: OracleHit[] = [
  hit('a', '/p', '11:10:05'),
  hit('a', '/q', '11:12:00'),
  hit('b', '/p', '11:20:10'),
  hit('c', '/q', '11:30:00'),
  hit('c', '/p', '11:31:00'),
  hit('d', '/p', '11:05:00'),
  hit('d', '/p', '11:50:00'),
  hit('e', '/p', '11:40:00'),
  hit('e', '/p', '11:41:00', 'Signup'),
];
/** Later hits of visits started in the first batch (b's undoes its bounce at 11:20, a minute this batch has no hit in). */
const SECOND: OracleHit[] = [hit('b', '/q', '11:45:00'), hit('a', '/p', '11:35:00'), hit('f', '/p', '11:59:00')];

function input(h: OracleHit): Record<string, unknown> {
  return { site: h.site, page: h.page, at: new Date(h.at).toISOString(), visitor: h.visitor, event: h.event };
}

/** Per minute of the window (ISO start → figures of /p), and the window's. */
function expected(hits: readonly OracleHit[], from: number): { points: Map<string, Figures>; window: Figures } {
  const perMinute = sessioniseBy(hits, TIMEOUT, (t) => t - (t % MINUTE));
  const points = new Map<string, Figures>();
  const total: OracleCounts = { visits: 0, bounces: 0, seconds: 0, pageviews: 0, entries: 0, exits: 0 };
  for (let t = from; t < NOW - (NOW % MINUTE) + MINUTE; t += MINUTE) {
    const counts = perMinute.get(t)?.get(PAGE);
    points.set(new Date(t).toISOString(), sessionisedFigures(counts, false));
    for (const field of Object.keys(total) as Array<keyof OracleCounts>) total[field] += counts?.[field] ?? 0;
  }
  return { points, window: sessionisedFigures(total, false) };
}

function figuresOf(value: Figures): Figures {
  const { visits, bounceRate, visitDuration, viewsPerVisit } = value;
  return { visits, bounceRate, visitDuration, viewsPerVisit };
}

async function record(app: TestApp, hits: readonly OracleHit[]): Promise<void> {
  const { body } = await app.graphql(RECORD_HITS, { hits: hits.map(input) });
  expect(body.errors).toBeUndefined();
}

/** A server of its own (clock at NOW) and a WebSocket client to it, for the describe block that calls this. */
function liveServer(label: string, env: Record<string, string> = {}): { app: TestApp; client: Client } {
  const server = {} as { app: TestApp; client: Client };
  beforeAll(async () => {
    server.app = await startTestApp(label, env, () => NOW);
    server.client = createClient({
      url: `${server.app.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
  });
  afterAll(async () => {
    await server.client.dispose();
    await server.app.stop();
  });
  return server;
}

describe('pageStatsLive visit figures', () => {
  const server = liveServer('live_visits');

  it('gives each MINUTE point and the window the sessionised figures of visits started there, and resends a minute a later hit changed', async () => {
    await record(server.app, FIRST);
    const messages = server.client.iterate<LiveMessage>({
      query: LIVE,
      variables: { site: SITE, page: PAGE, granularity: 'MINUTE', window: 3_600 },
    });
    const first = (await messages.next()).value as ExecutionResult<LiveMessage>;
    const snapshot = first.data?.pageStatsLive;
    if (!snapshot) throw new Error(`unexpected message ${JSON.stringify(first)}`);
    expect(snapshot.snapshot).toBe(true);
    const from = Date.parse(snapshot.from);
    const want = expected(FIRST, from);
    const seen = new Map(snapshot.points.map((point) => [point.t, figuresOf(point)]));
    expect(seen).toEqual(want.points);
    expect(figuresOf(snapshot)).toEqual(want.window);
    // The figures are not trivial: bounces, a visit that viewed /p without entering there, an event's visit.
    expect(want.window).toMatchObject({ visits: 6 });
    expect(want.window.bounceRate).toBeGreaterThan(0);

    await record(server.app, SECOND);
    const after = expected([...FIRST, ...SECOND], from);
    const resent = new Set<string>();
    let window = figuresOf(snapshot);
    await waitFor(
      async () => {
        const next = (await messages.next()).value as ExecutionResult<LiveMessage>;
        const update = next.data?.pageStatsLive;
        if (!update) throw new Error(`unexpected message ${JSON.stringify(next)}`);
        for (const point of update.points) {
          seen.set(point.t, figuresOf(point));
          resent.add(point.t);
        }
        window = figuresOf(update);
        return { points: seen, window };
      },
      {
        what: 'live updates carrying the second batch of visits',
        timeoutMs: 60_000,
        until: (state) =>
          JSON.stringify([...state.points]) === JSON.stringify([...after.points]) &&
          JSON.stringify(state.window) === JSON.stringify(after.window),
      },
    );
    expect(seen).toEqual(after.points);
    expect(window).toEqual(after.window);
    // b's visit started at 11:20 and bounced; its pageview at 11:45 is on /q, yet the 11:20 minute of /p changed.
    expect(resent.has(new Date(at('11:20:00')).toISOString())).toBe(true);
    expect(seen.get(new Date(at('11:20:00')).toISOString())).toEqual({
      visits: 1,
      bounceRate: 0,
      visitDuration: at('11:45:00') / 1000 - at('11:20:10') / 1000,
      viewsPerVisit: 2,
    });
    await messages.return?.();
  });

  it('keeps SECOND points null: visit counters are kept per minute at the finest', async () => {
    const messages = server.client.iterate<LiveMessage>({
      query: LIVE,
      variables: { site: SITE, page: PAGE, granularity: 'SECOND', window: 60 },
    });
    const { value } = await messages.next();
    const snapshot = (value as ExecutionResult<LiveMessage>).data?.pageStatsLive;
    expect(snapshot?.points).toHaveLength(60);
    const none = { visits: null, bounceRate: null, visitDuration: null, viewsPerVisit: null };
    expect(new Set(snapshot?.points.map((point) => JSON.stringify(figuresOf(point))))).toEqual(
      new Set([JSON.stringify(none)]),
    );
    expect(figuresOf(snapshot as Figures)).toEqual(none);
    await messages.return?.();
  });
});

describe('pageStatsLive visit figures with VISITS_ENABLED=false', () => {
  const server = liveServer('live_visits_off', { VISITS_ENABLED: 'false' });

  it('gives null visit figures at MINUTE, as before', async () => {
    await record(server.app, FIRST);
    const messages = server.client.iterate<LiveMessage>({
      query: LIVE,
      variables: { site: SITE, page: PAGE, granularity: 'MINUTE', window: 3_600 },
    });
    const { value } = await messages.next();
    const snapshot = (value as ExecutionResult<LiveMessage>).data?.pageStatsLive;
    expect(snapshot?.points.reduce((sum, point) => sum + point.hits, 0)).toBe(6);
    expect(snapshot?.points.every((point) => point.visits === null && point.bounceRate === null)).toBe(true);
    expect(snapshot?.visits).toBeNull();
    await messages.return?.();
  });
});
