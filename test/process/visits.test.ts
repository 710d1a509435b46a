/**
 * Issue 29's promise on the built server as a person runs it (its own embedded database in a data directory):
 * visits from each source — the mutations (with a keyed retry and a SIGKILL between two halves of the traffic), the
 * beacon and `tally import` — read back from GraphQL (siteStats and pageStats per day and over the whole range,
 * entry and exit pages, a breakdown by source) and compared with an independent sessionisation of the same input
 * (test/support/sessionise.ts); recent visits from the mutations, across a SIGKILL, read back from pageStatsLive's,
 * pageStats' and siteStats' MINUTE points against a per-minute sessionisation. Afterwards no visitor id, address or User-Agent is in the session
 * collection.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { seededRandom } from '../../bench/shared/random';
import { timeLocal } from '../../bench/shared/accessLogs';
import { startCliChild } from '../support/builtCli';
import { readableJson } from '../support/readableJson';
import { embeddedDatabaseUri } from '../support/embeddedDatabaseUri';
import { httpGraphql } from '../support/httpGraphql';
import type { HttpGraphqlReply } from '../support/httpGraphql';
import { keyedDataDir, keyedEnv, stopAndRemove } from '../support/keyedDataDir';
import { sessionise, sessioniseBy } from '../support/sessionise';
import type { OracleHit } from '../support/sessionise';
import { wsClient, wsOperation } from '../support/wsOperation';
import { assertBuilt, startServer, stopWith, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { ALLOWED_ORIGIN, bearer, SECRETS, SITE_KEY } from '../support/testKeys';
import {
  approximately,
  FIGURE_FIELDS,
  readVisits,
  sessionisedFigures,
  sessionisedVisits,
} from '../support/visitReadout';
import type { Figures } from '../support/visitReadout';

const DAY = 86_400_000;
const MINUTE = 60_000;
const TIMEOUT = 30 * MINUTE;
/** Seven UTC days, Monday 2 to Sunday 8 November 2026 (inside the clock skew the mutations accept: the past). */
const FROM = Date.UTC(2026, 10, 2);
const DAYS = 7;
const iso = (t: number): string => new Date(t).toISOString();
const RANGE = { from: iso(FROM), to: iso(FROM + DAYS * DAY) };
const PAGES = ['/', '/pricing', '/docs/start', '/blog/visits'];

let dataDir: string;
let server: ServerProcess;
let base: string;

function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<HttpGraphqlReply<T>> {
  return httpGraphql<T>(`${base}/graphql`, query, variables, bearer(SECRETS.ops));
}

function start(): ServerProcess {
  return startServer({
    ...keyedEnv(dataDir),
    FLUSH_WINDOW_MS: '200',
    TRUST_PROXY: 'true',
  });
}

/**
 * People reading a few pages in a sitting, one to three sittings a day, with gaps inside a sitting under the
 * timeout and between sittings over it (and one gap of exactly the timeout: a new visit).
 */
function traffic(site: string, seed: number): OracleHit[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const hits: OracleHit[] = [];
  for (let day = 0; day < DAYS; day += 1) {
    for (let person = 0; person < 12; person += 1) {
      const sittings = Math.floor(random() * 3);
      let at = FROM + day * DAY + Math.floor(random() * 4 * 60) * MINUTE;
      for (let sitting = 0; sitting < sittings; sitting += 1) {
        const views = 1 + Math.floor(random() * 4);
        for (let view = 0; view < views; view += 1) {
          hits.push({ site, page: pick(PAGES), at, visitor: `person-${person}` });
          at += Math.floor(random() * 20 * MINUTE) + 1_000;
        }
        at += sitting === 0 && person === 0 ? TIMEOUT : TIMEOUT + Math.floor(random() * 5 * 60) * MINUTE;
      }
    }
  }
  return hits.filter((hit) => hit.at < FROM + DAYS * DAY).sort((a, b) => a.at - b.at);
}

async function expectVisits(site: string, hits: readonly OracleHit[]): Promise<void> {
  const read = await readVisits(graphql, site, RANGE, PAGES);
  expect(read).toEqual(approximately(sessionisedVisits(hits, TIMEOUT, RANGE, PAGES)));
}

async function recordHits(hits: readonly OracleHit[], idempotencyKey?: string): Promise<void> {
  const reply = await graphql<{ recordHits: { accepted: number } }>(
    `
      mutation ($hits: [HitInput!]!, $key: String) {
        recordHits(hits: $hits, idempotencyKey: $key) {
          accepted
        }
      }
    `,
    {
      hits: hits.map((hit) => ({ site: hit.site, page: hit.page, at: iso(hit.at), visitor: hit.visitor })),
      key: idempotencyKey,
    },
  );
  expect(reply.body).toEqual({ data: { recordHits: { accepted: hits.length } } });
}

beforeAll(async () => {
  assertBuilt();
  dataDir = keyedDataDir('visits');
  server = start();
  base = await waitUntilServing(server);
}, 120_000);

afterAll(() => stopAndRemove(server, dataDir));

describe('visits on the built server', () => {
  it('from the mutations, across a keyed retry and a SIGKILL, equal an independent sessionisation', async () => {
    const site = 'mutations.example';
    const hits = traffic(site, 29);
    const half = Math.floor(hits.length / 2);
    // In time order, in batches: a visitor's visit continues from batch to batch.
    for (let i = 0; i < half; i += 40) await recordHits(hits.slice(i, Math.min(i + 40, half)), `first-${i}`);
    // A retry of an acknowledged request counts nothing again.
    await recordHits(hits.slice(0, Math.min(40, half)), 'first-0');
    // Acknowledged hits survive a SIGKILL (the ingest log): the restart writes what the log holds.
    expect(await stopWith(server, 'SIGKILL')).toBe('SIGKILL');
    server = start();
    base = await waitUntilServing(server);
    for (let i = half; i < hits.length; i += 40) await recordHits(hits.slice(i, i + 40));
    await eventually(() => expectVisits(site, hits));
    expect(sessionise(hits, TIMEOUT).get('')?.bounces).toBeGreaterThan(0);

    // GET /export carries the same figures per bucket.
    const points = await graphql<{ siteStats: { points: Array<Figures & { t: string }> } }>(
      `query ($site: String!, $range: TimeRangeInput!) {
        siteStats(site: $site, range: $range, granularity: DAY) { points { t ${FIGURE_FIELDS} } }
      }`,
      { site, range: RANGE },
    );
    const query = new URLSearchParams({ site, from: RANGE.from, to: RANGE.to, granularity: 'DAY', format: 'ndjson' });
    const exported = await fetch(`${base}/export?${query}`, { headers: bearer(SECRETS.ops) });
    expect(exported.status).toBe(200);
    const rows = (await exported.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Figures);
    expect(
      rows.map(({ visits, bounceRate, visitDuration, viewsPerVisit }) => ({
        visits,
        bounceRate,
        visitDuration,
        viewsPerVisit,
      })),
    ).toEqual(points.body.data?.siteStats.points.map(({ t: _t, ...figures }) => figures));
  }, 180_000);

  it('from `tally import`, equal an independent sessionisation of the log (visitor: address, User-Agent, day)', async () => {
    const site = 'import.example';
    const people = Array.from({ length: 8 }, (_, i) => ({
      ip: `203.0.113.${10 + i}`,
      ua: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${120 + i}.0.0.0 Safari/537.36`,
    }));
    const hits = traffic(site, 7).map((hit) => ({ ...hit, at: hit.at - (hit.at % 1_000) }));
    const person = (hit: OracleHit) =>
      people[Number(hit.visitor.slice('person-'.length)) % people.length] as (typeof people)[number];
    const lines = hits.map(
      (hit) =>
        `${person(hit).ip} - - [${timeLocal(hit.at, 0)}] "GET ${hit.page} HTTP/1.1" 200 512 "-" "${person(hit).ua}"`,
    );
    const file = path.join(dataDir, 'access.log');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    const { code, stderr } = await startCliChild([
      'import',
      '--progress',
      'none',
      '--json',
      '--url',
      `${base}/graphql`,
      '--api-key',
      SECRETS.ops,
      '--site',
      site,
      file,
    ]).done;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const asImported = hits.map((hit) => ({
      ...hit,
      visitor: `${person(hit).ip} ${person(hit).ua} ${iso(hit.at).slice(0, 10)}`,
    }));
    await eventually(() => expectVisits(site, asImported));
  }, 180_000);

  it('from the beacon: two people, one bounce, by source', async () => {
    const send = (page: string, ua: string, ip: string, referrer?: string) =>
      fetch(`${base}/api/hit`, {
        method: 'POST',
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          origin: ALLOWED_ORIGIN,
          'user-agent': ua,
          'x-forwarded-for': ip,
        },
        body: JSON.stringify({ key: SITE_KEY, site: 'a.example', page, ...(referrer ? { referrer } : {}) }),
      });
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
    const safari =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    expect((await send('/', firefox, '198.51.100.7', 'https://www.google.com/')).status).toBe(204);
    expect((await send('/pricing', firefox, '198.51.100.7')).status).toBe(204);
    expect((await send('/', safari, '198.51.100.8')).status).toBe(204);
    const today = Date.now() - (Date.now() % DAY);
    const range = { from: iso(today), to: iso(today + DAY) };
    await eventually(async () => {
      const reply = await graphql<{
        siteStats: Figures;
        breakdown: { edges: Array<{ node: Figures & { value: string } }> };
      }>(
        `
          query ($range: TimeRangeInput!) {
            siteStats(site: "a.example", range: $range, granularity: DAY) {
              visits
              bounceRate
              viewsPerVisit
            }
            breakdown(site: "a.example", dimension: SOURCE, range: $range, first: 10) {
              edges {
                node {
                  value
                  visits
                  bounceRate
                  viewsPerVisit
                }
              }
            }
          }
        `,
        { range },
      );
      expect(reply.body.errors).toBeUndefined();
      expect(reply.body.data?.siteStats).toEqual({ visits: 2, bounceRate: 0.5, viewsPerVisit: 1.5 });
      const bySource = Object.fromEntries(
        (reply.body.data?.breakdown.edges ?? []).map(({ node }) => [node.value, node]),
      );
      expect(bySource.Google).toMatchObject({ visits: 1, bounceRate: 0, viewsPerVisit: 2 });
      expect(bySource['(direct)']).toMatchObject({ visits: 1, bounceRate: 1, viewsPerVisit: 1 });
    });
  }, 120_000);

  it('from the mutations, minutes old, read back from pageStatsLive MINUTE points across a SIGKILL', async () => {
    const site = 'live.example';
    const random = seededRandom(41);
    // Eight people over the last 50 minutes (the live window is the last hour), a few pageviews each, one break over
    // the timeout for some: visits that start in one minute and go on in later ones.
    const since = Date.now() - 50 * MINUTE;
    const hits: OracleHit[] = [];
    for (let person = 0; person < 8; person += 1) {
      let at = since + Math.floor(random() * 10 * MINUTE);
      for (let view = 0; view < 2 + (person % 4); view += 1) {
        hits.push({ site, page: PAGES[Math.floor(random() * 2)] as string, at, visitor: `live-${person}` });
        at += person % 3 === 0 && view === 0 ? TIMEOUT + MINUTE : Math.floor(random() * 6 * MINUTE) + 1_000;
      }
    }
    const ordered = hits.filter((hit) => hit.at < Date.now()).sort((a, b) => a.at - b.at);
    const half = Math.floor(ordered.length / 2);
    await recordHits(ordered.slice(0, half), 'live-first');
    // The first half's minute counters are in the ingest log or written: either way the restart leaves them once.
    expect(await stopWith(server, 'SIGKILL')).toBe('SIGKILL');
    server = start();
    base = await waitUntilServing(server);
    await recordHits(ordered.slice(half));
    await recordHits(ordered.slice(0, half), 'live-first');

    const perMinute = sessioniseBy(ordered, TIMEOUT, (t) => t - (t % MINUTE));
    const client = wsClient(base, bearer(SECRETS.ops).authorization);
    try {
      for (const page of PAGES.slice(0, 2)) {
        await eventually(async () => {
          const { data, errors } = await wsOperation(
            client,
            `subscription ($site: String!, $page: String!) {
              pageStatsLive(site: $site, page: $page, granularity: MINUTE, window: 3600) { points { t ${FIGURE_FIELDS} } }
            }`,
            { site, page },
          );
          expect(errors).toBeUndefined();
          const points = (data as { pageStatsLive: { points: Array<Figures & { t: string }> } }).pageStatsLive.points;
          const read = points.map(({ t, ...figures }) => ({ t, ...figures }));
          const want = points.map(({ t }) => ({
            t,
            ...sessionisedFigures(perMinute.get(Date.parse(t))?.get(page), false),
          }));
          expect(read).toEqual(want);
          expect(read.some((point) => (point.visits ?? 0) > 0)).toBe(true);
        });
      }
    } finally {
      await client.dispose();
    }
    // pageStats and siteStats MINUTE buckets read the same minute counters, inside the second-level retention.
    const hour = Date.now() - (Date.now() % MINUTE) - 59 * MINUTE;
    const range = { from: iso(hour), to: iso(hour + 60 * MINUTE) };
    for (const page of [...PAGES.slice(0, 2), undefined]) {
      await eventually(async () => {
        const reply = await graphql<{ stats: { points: Array<Figures & { t: string }> } }>(
          page === undefined
            ? `query ($site: String!, $range: TimeRangeInput!) {
                stats: siteStats(site: $site, range: $range, granularity: MINUTE) { points { t ${FIGURE_FIELDS} } }
              }`
            : `query ($site: String!, $page: String!, $range: TimeRangeInput!) {
                stats: pageStats(site: $site, page: $page, range: $range, granularity: MINUTE) { points { t ${FIGURE_FIELDS} } }
              }`,
          { site, range, ...(page === undefined ? {} : { page }) },
        );
        expect(reply.body.errors).toBeUndefined();
        const points = reply.body.data?.stats.points ?? [];
        expect(points).toHaveLength(60);
        const read = points.map(({ t, ...figures }) => ({ t, ...figures }));
        const want = points.map(({ t }) => ({
          t,
          ...sessionisedFigures(perMinute.get(Date.parse(t))?.get(page ?? ''), page === undefined),
        }));
        expect(read).toEqual(want);
        expect(read.some((point) => (point.visits ?? 0) > 0)).toBe(true);
      });
    }
  }, 180_000);

  it('keeps no visitor id, address or User-Agent in the sessions', async () => {
    const client = new MongoClient(embeddedDatabaseUri(server));
    try {
      // Session states are binaries: search what they hold.
      const text = readableJson(await client.db('tally').collection('visits.sessions').find().toArray());
      expect(text.length).toBeGreaterThan(100);
      for (const secret of ['person-', '203.0.113.', '198.51.100.', 'Mozilla', 'mutations.example']) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await client.close();
    }
  });
});

/** Retries `check` until it passes or 20 s pass: hits show once their window is written. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
