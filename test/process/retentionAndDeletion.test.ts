/**
 * Retention and deletion on the built server and CLI (issue 30), configured as an operator would: with
 * RETENTION_MINUTES_DAYS and RETENTION_DAYS set and a short SWEEP_INTERVAL_MS, the background job drops old daily
 * documents and old minute counters by itself, queries for them answer null with the `retention` note, and
 * /metrics counts it; `deleteSite` is carried out by the server's own job, and `tally delete` run beside the server
 * removes another site; afterwards no document of any collection names either site.
 */
import { MongoClient } from 'mongodb';
import { startCliChild } from '../support/builtCli';
import { readMetric } from '../support/builtCli';
import { assertBuilt, startServer, stopWith, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { storedText } from '../support/storedText';
import { testDatabaseName, testMongoUri } from '../support/testDatabase';
import { waitFor } from '../support/waitFor';

jest.setTimeout(240_000);

const DAY = 86_400_000;
const TODAY = Date.now() - (Date.now() % DAY);
const SITE = 'retained.example';
const BY_MUTATION = 'mutation-deleted.example';
const BY_CLI = 'cli-deleted.example';
const day = (back: number): string => new Date(TODAY - back * DAY).toISOString().slice(0, 10);
const dayId = (back: number, site: string): string => `${day(back).replaceAll('-', '')}/${site}/a`;

let server: ServerProcess;
let client: MongoClient;
const database = testDatabaseName('retention_process');

interface SeriesReply {
  data?: { pageStats: { total: number | null; values: Array<number | null> } };
  extensions?: { retention?: { nullPoints: number; minuteCountersFrom: string; dailyDocumentsFrom: string } };
}

async function series(granularity: string, from: string, to: string): Promise<SeriesReply> {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `query($from: DateTime!, $to: DateTime!, $g: Granularity!) {
        pageStats(site: "${SITE}", page: "/a", range: { from: $from, to: $to }, granularity: $g) { total values }
      }`,
      variables: { from, to, g: granularity },
    }),
  });
  return (await response.json()) as SeriesReply;
}

const dailyIds = async (site: string): Promise<string[]> =>
  (
    await client
      .db(database)
      .collection('stats.daily')
      .find({ 'metadata.site': site }, { projection: { _id: 1 } })
      .toArray()
  )
    .map((doc) => String(doc._id))
    .sort();

beforeAll(async () => {
  assertBuilt();
  client = new MongoClient(testMongoUri());
  server = startServer({
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: database,
    RETENTION_MINUTES_DAYS: '1',
    RETENTION_DAYS: '3',
    SWEEP_INTERVAL_MS: '1000',
  });
  await waitUntilServing(server);
  const hits = [SITE, BY_MUTATION, BY_CLI].flatMap((site) =>
    [6, 5, 4, 3, 2, 1, 0].map((back) => ({
      site,
      page: '/a',
      at: `${day(back)}T00:10:00Z`,
      count: 2,
      visitor: `visitor-${back}`,
    })),
  );
  const reply = await server.graphql('mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }', {
    hits,
  });
  expect(reply.body.errors).toBeUndefined();
}, 120_000);

afterAll(async () => {
  if (server) await stopWith(server, 'SIGTERM');
  await client
    ?.db(database)
    .dropDatabase()
    .catch(() => undefined);
  await client?.close();
});

describe('RETENTION_MINUTES_DAYS and RETENTION_DAYS on the built server', () => {
  it('drop old daily documents and minute counters in the background', async () => {
    // The job lags an hour behind queries (RETENTION_GRACE_MS): 6 and 5 days back are gone whenever this runs, 3
    // days back keeps its document but not its minutes, today keeps both.
    await waitFor(() => dailyIds(SITE), {
      what: 'the daily documents of 6 and 5 days back deleted by the retention job',
      timeoutMs: 60_000,
      until: (ids) => !ids.includes(dayId(6, SITE)) && !ids.includes(dayId(5, SITE)),
    });
    const daily = client.db(database).collection('stats.daily');
    await waitFor(() => daily.findOne({ _id: dayId(3, SITE) } as never), {
      what: 'the minute counters of 3 days back unset',
      timeoutMs: 60_000,
      until: (doc) => doc !== null && doc.minute === undefined,
    });
    const three = await daily.findOne({ _id: dayId(3, SITE) } as never);
    expect(three).toMatchObject({ daily: 2, hourly: { 0: 2 } });
    const today = await daily.findOne({ _id: dayId(0, SITE) } as never);
    expect(today?.minute).toEqual(expect.objectContaining({ 0: expect.objectContaining({ 10: 2 }) }));
    const monthly = await client
      .db(database)
      .collection('stats.monthly')
      .find({ 'metadata.site': SITE, 'metadata.page': '/a' })
      .toArray();
    expect(
      monthly.reduce(
        (sum, doc) => sum + Object.values(doc.daily as Record<string, number>).reduce((a, b) => a + b, 0),
        0,
      ),
    ).toBe(14);

    // Counted when the job's run ends, which can be just after the documents went: wait for it too.
    const swept = await waitFor(
      () =>
        readMetric(
          `${server.url}/metrics`,
          'tally_swept_documents_total{what="detail past RETENTION_MINUTES_DAYS and RETENTION_DAYS"}',
        ),
      { what: 'the retention run counted in /metrics', timeoutMs: 60_000, until: (n) => (n ?? 0) > 0 },
    );
    expect(swept).toBeGreaterThan(0);
  });

  it('answers null points with the retention note for dropped detail, and every UTC day from months', async () => {
    const minutes = await series('MINUTE', `${day(3)}T00:05:00Z`, `${day(3)}T00:15:00Z`);
    expect(minutes.data?.pageStats).toEqual({ total: null, values: Array(10).fill(null) });
    expect(minutes.extensions?.retention).toMatchObject({
      nullPoints: 10,
      minuteCountersFrom: `${day(1)}T00:00:00.000Z`,
      dailyDocumentsFrom: `${day(3)}T00:00:00.000Z`,
    });
    const hours = await series('HOUR', `${day(5)}T00:00:00Z`, `${day(5)}T02:00:00Z`);
    expect(hours.data?.pageStats.values).toEqual([null, null]);
    const days = await series('DAY', `${day(6)}T00:00:00Z`, `${day(0)}T23:00:00Z`);
    expect(days.data?.pageStats).toEqual({ total: 14, values: Array(7).fill(2) });
    expect(days.extensions).toBeUndefined();
  });
});

describe('deleting a site on the built server and CLI', () => {
  it('carries out deleteSite in the background and reports it in /metrics', async () => {
    const reply = await server.graphql<{ deleteSite: { status: string } }>(
      `mutation { deleteSite(site: "${BY_MUTATION}") { status } }`,
    );
    expect(reply.body.data?.deleteSite.status).toBe('PENDING');
    await waitFor(() => server.graphql<{ pendingDeletions: unknown[] }>('{ pendingDeletions { site } }'), {
      what: 'no pending deletion left',
      timeoutMs: 60_000,
      until: (pending) => pending.body.data?.pendingDeletions.length === 0,
    });
    expect(await dailyIds(BY_MUTATION)).toEqual([]);
    expect(await readMetric(`${server.url}/metrics`, 'tally_deletions_pending')).toBe(0);
    expect(
      await readMetric(`${server.url}/metrics`, 'tally_deleted_documents_total{collection="stats.monthly"}'),
    ).toBeGreaterThan(0);
  });

  it('deletes a site with `tally delete` while the server runs', async () => {
    const env = { MONGODB_URI: testMongoUri(), MONGODB_DB: database, TALLY_DATA_DIR: undefined };
    const help = await startCliChild(['delete', '--help'], env).done;
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: tally delete --site SITE [--page PAGE]');
    const missing = await startCliChild(['delete', '--page', '/a'], env).done;
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('tally delete: --site is required');
    const bad = await startCliChild(['delete', '--site', BY_CLI, '--page', 'a'], env).done;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('page must start with "/"');

    const run = await startCliChild(['delete', '--site', BY_CLI], env).done;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^tally delete: \\d+ documents of site ${BY_CLI.replaceAll('.', '\\.')} deleted`),
    );
    expect(await dailyIds(BY_CLI)).toEqual([]);

    const stored = await storedText(testMongoUri(), database);
    expect(stored.text).not.toContain(BY_CLI);
    expect(stored.text).not.toContain(BY_MUTATION);
    expect(stored.text).toContain(SITE);
  });
});
