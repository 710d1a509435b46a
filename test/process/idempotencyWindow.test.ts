/**
 * IDEMPOTENCY_WINDOW_HOURS as an operator sets it, on the built server (issue 31: only the ledger's window was
 * tested, never the variable). With a 2-hour window: the ledger's expiry is set up for 7,200 s, a keyed request
 * retried inside the window counts once, and one whose ledger entry is older than the window is expired (by the
 * sweep on FerretDB, by the TTL index on MongoDB) so that the same key counts anew. The entries' age is set in the
 * database, as an operator with database access could: the server's clock is not the test's to move.
 */
import { MongoClient } from 'mongodb';
import type { Collection, Document } from 'mongodb';
import { httpGraphql } from '../support/httpGraphql';
import { assertBuilt, startServer, stopWith, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { testDatabaseName, testMongoUri } from '../support/testDatabase';
import { waitFor } from '../support/waitFor';

// MongoDB's TTL monitor runs once a minute: room for two of its rounds.
jest.setTimeout(180_000);

const HOUR = 3_600_000;
const DB = testDatabaseName('idempotency-window');
const SITE = 'window.example';
const RECORD = 'mutation($page: String!) { recordHit(site: "window.example", page: $page) { count } }';

let server: ServerProcess;
let client: MongoClient;
let ledger: Collection<Document>;

beforeAll(async () => {
  assertBuilt();
  server = startServer({
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: DB,
    IDEMPOTENCY_WINDOW_HOURS: '2',
    SWEEP_INTERVAL_MS: '1000',
  });
  await waitUntilServing(server);
  client = await MongoClient.connect(testMongoUri());
  ledger = client.db(DB).collection('ingest.requests');
});

afterAll(async () => {
  expect(await stopWith(server, 'SIGTERM')).toBe(0);
  await client.db(DB).dropDatabase();
  await client.close();
});

async function record(page: string, key: string): Promise<void> {
  const reply = await httpGraphql(`${server.url}/graphql`, RECORD, { page }, { 'Idempotency-Key': key });
  expect(reply.body.errors).toBeUndefined();
}

async function total(page: string): Promise<number> {
  const reply = await httpGraphql<{ pageStats: { total: number } }>(
    `${server.url}/graphql`,
    `{ pageStats(site: "${SITE}", page: "${page}", range: { from: "2000-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" }, granularity: MONTH) { total } }`,
  );
  return reply.body.data?.pageStats.total ?? -1;
}

/** Makes every ledger entry created after `since` look `ageMs` old. */
async function age(since: number, ageMs: number): Promise<void> {
  const result = await ledger.updateMany(
    { createdAt: { $gte: new Date(since) } },
    { $set: { createdAt: new Date(Date.now() - ageMs) } },
  );
  expect(result.modifiedCount).toBe(1);
}

it('sets up the ledger expiry from the variable', async () => {
  const line = await server.waitForLog((l) => l.collection === 'ingest.requests' && l.expireAfterSeconds !== undefined);
  expect(line.expireAfterSeconds).toBe(2 * 3600);
});

it('counts a key once inside the window, and anew once its entry is older than the window', async () => {
  const outsideSince = Date.now() - 1_000;
  await record('/outside', 'window-outside');
  await age(outsideSince, 2.5 * HOUR);
  const insideSince = Date.now() - 1_000;
  await record('/inside', 'window-inside');
  await record('/inside', 'window-inside');
  await age(insideSince, 1.5 * HOUR);

  await waitFor(() => ledger.countDocuments({}), {
    until: (count) => count === 1,
    timeoutMs: 150_000,
    what: 'the ledger entry older than the 2-hour window to expire, and only that one',
  });
  await record('/inside', 'window-inside');
  await record('/outside', 'window-outside');
  expect({ inside: await total('/inside'), outside: await total('/outside') }).toEqual({ inside: 1, outside: 2 });
});
