/**
 * Upgrading a data directory that a version without `stats.rollups` wrote, as an operator does: stop the server,
 * start the new build on the same TALLY_DATA_DIR. The earlier version's database is made from a real one: the
 * rollups this build wrote are moved into the site-day documents' `p` fields, where earlier versions kept them, and
 * the collection is dropped. The new server says from which day its rollups are complete (the next UTC day), and
 * `topPages` equals a recount of what was sent, over the earlier days, today's hits sent after the upgrade included.
 */
import { MongoClient } from 'mongodb';
import type { Document } from 'mongodb';
import { embeddedDatabaseUri } from '../support/embeddedDatabaseUri';
import { readMetric } from '../support/readMetric';
import { assertBuilt, startServer, stopWith, temporaryDataDir, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

jest.setTimeout(240_000);

const DAY = 86_400_000;
const TODAY = Date.now() - (Date.now() % DAY);
const SITE = 'upgrade.example';
const PAGES = ['/', '/a', '/b', '/c/d', '/e.html'];

interface SentHit {
  readonly page: string;
  readonly at: number;
  readonly count: number;
}

function traffic(seed: number, count: number, from: number, to: number): SentHit[] {
  return Array.from({ length: count }, (_, i) => ({
    page: PAGES[(i * 7 + seed) % PAGES.length] as string,
    // Spread over the span, a little off the even grid.
    at: from + Math.floor(((i + ((i * 7919 + seed) % 97) / 100) / count) * (to - from)),
    count: 1 + ((i + seed) % 3),
  }));
}

async function record(server: ServerProcess, hits: readonly SentHit[]): Promise<void> {
  const reply = await server.graphql<{ recordHits: { accepted: number } }>(
    'mutation ($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }',
    { hits: hits.map((h) => ({ site: SITE, page: h.page, at: new Date(h.at).toISOString(), count: h.count })) },
  );
  expect(reply.body.errors).toBeUndefined();
  expect(reply.body.data?.recordHits.accepted).toBe(hits.length);
}

/** Every hit written to the database: the site's total, and no window of the ingest log left to write. */
async function written(server: ServerProcess, hits: readonly SentHit[]): Promise<void> {
  const total = hits.reduce((sum, h) => sum + h.count, 0);
  const range = { from: new Date(TODAY - 59 * DAY).toISOString(), to: new Date(TODAY + DAY).toISOString() };
  await waitFor(
    async () => {
      const reply = await server.graphql<{ siteStats: { total: number } }>(
        'query ($from: DateTime!, $to: DateTime!) { siteStats(site: "upgrade.example", range: { from: $from, to: $to }, granularity: DAY) { total } }',
        range,
      );
      const windows = await readMetric(server.url as string, 'tally_ingest_log_windows');
      return reply.body.data?.siteStats.total === total && (windows ?? 0) === 0;
    },
    { what: `${total} hits written`, timeoutMs: 60_000, until: (done) => done },
  );
}

function ranking(hits: readonly SentHit[], from: number, to: number): Array<{ page: string; hits: number }> {
  const counts = new Map<string, number>();
  for (const h of hits) if (h.at >= from && h.at < to) counts.set(h.page, (counts.get(h.page) ?? 0) + h.count);
  return [...counts]
    .map(([page, n]) => ({ page, hits: n }))
    .sort((a, b) => b.hits - a.hits || (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
}

async function topPages(server: ServerProcess, from: number, to: number) {
  const reply = await server.graphql<{ topPages: { edges: Array<{ node: { page: string; hits: number } }> } }>(
    'query ($from: DateTime!, $to: DateTime!) { topPages(site: "upgrade.example", range: { from: $from, to: $to }, first: 20) { edges { node { page hits } } } }',
    { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
  );
  expect(reply.body.errors).toBeUndefined();
  return reply.body.data?.topPages.edges.map((e) => e.node);
}

/** Moves the rollups into the site-day documents, as versions before `stats.rollups` kept them, and drops them. */
async function asAnEarlierVersionWroteIt(uri: string): Promise<number> {
  const client = new MongoClient(uri);
  try {
    const db = client.db('tally');
    const days = await db
      .collection('stats.rollups')
      .find({ _id: { $regex: /^\d{8}\// } } as Document)
      .toArray();
    for (const day of days) {
      const changed = await db
        .collection('stats.daily')
        .updateOne({ _id: day._id } as Document, { $set: { p: day.p as Document } });
      expect(changed.matchedCount).toBe(1);
    }
    await db.collection('stats.rollups').drop();
    return days.length;
  } finally {
    await client.close();
  }
}

let dataDir: string;
const servers: ServerProcess[] = [];

beforeAll(() => {
  assertBuilt();
  dataDir = temporaryDataDir('rollup-upgrade');
});

afterAll(async () => {
  for (const server of servers) await stopWith(server, 'SIGKILL').catch(() => undefined);
});

it('ranks the days an earlier version counted, and today’s hits sent after the upgrade, exactly', async () => {
  const before = startServer({ TALLY_DATA_DIR: dataDir });
  servers.push(before);
  await waitUntilServing(before);
  const earlier = [
    ...traffic(1, 300, TODAY - 45 * DAY, TODAY - 20 * DAY),
    ...traffic(2, 200, TODAY - 20 * DAY, Math.min(Date.now() - 60_000, TODAY + DAY - 1)),
  ].filter((h) => h.at < Date.now() - 60_000);
  await record(before, earlier);
  await written(before, earlier);
  expect(await asAnEarlierVersionWroteIt(embeddedDatabaseUri(before))).toBeGreaterThan(20);
  expect(await stopWith(before, 'SIGTERM')).toBe(0);

  const after = startServer({ TALLY_DATA_DIR: dataDir });
  servers.push(after);
  await waitUntilServing(after);
  const tomorrow = new Date(TODAY + DAY).toISOString().slice(0, 10);
  expect(after.logs.some((line) => line.msg?.startsWith(`page rollups are complete from ${tomorrow}`))).toBe(true);
  const today = traffic(3, 40, TODAY, Date.now() - 1_000).filter((h) => h.at >= TODAY);
  await record(after, today);
  const all = [...earlier, ...today];
  await written(after, all);
  for (const [from, to] of [
    [TODAY - 29 * DAY, TODAY + DAY],
    [TODAY - 59 * DAY, TODAY + DAY],
    [TODAY - 44 * DAY, TODAY - 19 * DAY],
    [TODAY, TODAY + DAY],
  ] as const) {
    expect(await topPages(after, from, to)).toEqual(ranking(all, from, to));
  }
  expect(await stopWith(after, 'SIGTERM')).toBe(0);
});
