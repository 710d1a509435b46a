/**
 * Exactly-once ingest (issue 9) at the process level: the built server is SIGKILLed in the middle of a keyed
 * flush and a new process completes the client's retry exactly; two server processes receiving the same keyed
 * batches at once count each once. Both run against the test server (one database shared by the processes).
 *
 * Stock FerretDB 1.x updates by read-modify-write without a lock, so two processes writing the *same* documents at
 * the same moment can lose increments there. On a server with atomic updates (MongoDB, tally's FerretDB from tally18:
 * TALLY_TEST_ATOMIC_UPDATES from the global setup) all distinct keys go out at once, each to both processes; on any
 * other they go out one after the other, and the ledger lets one process write each key while the other waits.
 */
import { MongoClient } from 'mongodb';
import type { HitInputFields } from '../../src/domain/Hit';
import { assertBuilt, startServer, stopWith, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { testDatabaseName, testMongoUri } from '../support/testDatabase';
import { collectionTotals, expectedCounters, storedCounters } from '../support/storedCounters';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { SECONDS_COLLECTION } from '../../src/store/secondStats';
import { waitFor } from '../support/waitFor';

const RECORD_HITS = `mutation Record($hits: [HitInput!]!, $key: String) {
  recordHits(hits: $hits, idempotencyKey: $key) { accepted total }
}`;

let client: MongoClient;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  assertBuilt();
  client = await MongoClient.connect(testMongoUri(), { maxPoolSize: 1 });
});

afterAll(async () => {
  await Promise.all(servers.filter((s) => s.child.exitCode === null).map((s) => stopWith(s, 'SIGTERM')));
  await client.close();
});

async function start(dbName: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = startServer({
    ...env,
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: dbName,
    NODE_ENV: 'production',
    IDEMPOTENCY_LEASE_MS: '1000',
    IDEMPOTENCY_WAIT_MS: '20000',
  });
  servers.push(server);
  await waitUntilServing(server);
  return server;
}

/** POSTs recordHits with extra headers (the Idempotency-Key header), as a client would. */
async function postWithHeaders(
  server: ServerProcess,
  variables: Record<string, unknown>,
  headers: Record<string, string>,
) {
  const response = await fetch(`${server.url as string}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: RECORD_HITS, variables }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

function hitsFor(site: string, pages: number, perPage: number): HitInputFields[] {
  const base = Date.now() - 3_600_000;
  const hits: HitInputFields[] = [];
  for (let p = 0; p < pages; p++) {
    for (let i = 0; i < perPage; i++)
      hits.push({ site, page: `/p${p}`, at: new Date(base + i * 61_000), count: 1 + (i % 3) });
  }
  return hits;
}

const asHits = (inputs: HitInputFields[]) =>
  inputs.map((h) => ({ site: h.site, page: h.page, at: (h.at as Date).getTime(), count: h.count ?? 1 }));
const toVariables = (inputs: HitInputFields[]) => inputs.map((h) => ({ ...h, at: (h.at as Date).toISOString() }));

it('completes a retry exactly after the server is killed in the middle of a keyed flush', async () => {
  const dbName = testDatabaseName('killMidFlush');
  const db = client.db(dbName);
  const site = 'killed.example';
  // 200 pages × 2 minutes: 800 documents in three collections.
  const inputs = hitsFor(site, 200, 2);
  const total = inputs.reduce((sum, h) => sum + (h.count ?? 1), 0);
  // An engine may apply a write command's documents together (FerretDB tally15 writes an unordered command's updates
  // in one transaction, as MongoDB may), so the kill must land between commands: the flush sends each collection's
  // 200 or 400 upserts in commands of 50, one after the other, and the kill leaves some written and others not.
  const first = await start(dbName, { WRITE_MAX_UPDATES_PER_COMMAND: '50' });
  // The same hits once without a key first, so the keyed flush updates existing documents.
  const warmUp = await first.graphql(RECORD_HITS, { hits: toVariables(inputs) });
  expect(warmUp.body).toEqual({ data: { recordHits: { accepted: inputs.length, total } } });
  const request = first.graphql(RECORD_HITS, { hits: toVariables(inputs), key: 'batch-1' });
  let settled: unknown;
  request.then(
    (r) => (settled = r),
    (e: unknown) => (settled = e),
  );
  // SIGKILL as soon as the flush has written its first counters: the first document in `_id` order (writes go in
  // that order) of any of the collections counting more than the warm-up did. One document read per collection and
  // poll, so the kill lands mid-flush.
  const collections = [DAILY_COLLECTION, MONTHLY_COLLECTION, SECONDS_COLLECTION].map((name) => db.collection(name));
  const firstDocuments = async () =>
    JSON.stringify(
      await Promise.all(
        collections.map(
          async (collection) =>
            (await collection.find({ 'metadata.site': site }).sort({ _id: 1 }).limit(1).toArray())[0] as unknown,
        ),
      ),
    );
  const warm = await firstDocuments();
  await waitFor(
    async () => {
      if (settled) throw new Error(`the request finished before any counter was seen: ${JSON.stringify(settled)}`);
      return firstDocuments();
    },
    {
      until: (now) => now !== warm,
      timeoutMs: 30_000,
      intervalMs: 5,
      what: `the keyed flush's first counters of ${site}`,
    },
  );
  await stopWith(first, 'SIGKILL');
  await expect(request).rejects.toThrow();
  const partial = collectionTotals(await storedCounters(db, site));
  // The fault this test is about: the collections disagree, and nobody was told the hits were counted.
  expect(Object.values(partial).some((n) => n !== 2 * total)).toBe(true);

  const second = await start(dbName);
  // The client's retry: it waits out the dead attempt's lease, then writes only what is missing.
  const retried = await second.graphql(RECORD_HITS, {
    hits: toVariables(inputs),
    key: 'batch-1',
  });
  expect(retried.body).toEqual({ data: { recordHits: { accepted: inputs.length, total } } });
  const stored = await storedCounters(db, site);
  expect(collectionTotals(stored)).toEqual({ daily: 2 * total, monthly: 2 * total, seconds: 2 * total });
  // The server writes site totals too (SITE_TOTALS_ENABLED defaults to true): they must be exact as well.
  expect(stored).toEqual(expectedCounters(asHits([...inputs, ...inputs]), { siteTotals: true }));
  await stopWith(second, 'SIGTERM');
  await db.dropDatabase();
});

it('counts the same keyed batches sent to two server processes at once exactly once', async () => {
  const dbName = testDatabaseName('twoProcesses');
  const db = client.db(dbName);
  const site = 'two.example';
  const one = await start(dbName);
  const two = await start(dbName);
  const batches = Array.from({ length: 6 }, (_, i) => hitsFor(site, 5, 1 + i));
  const sendTwice = async (inputs: HitInputFields[], i: number): Promise<void> => {
    const variables = { hits: toVariables(inputs), key: `two-${i}` };
    const answers = await Promise.all([
      one.graphql(RECORD_HITS, variables),
      // The header is the alternative to the argument.
      postWithHeaders(two, { hits: variables.hits }, { 'Idempotency-Key': `two-${i}` }),
    ]);
    const total = inputs.reduce((sum, h) => sum + (h.count ?? 1), 0);
    for (const answer of answers) {
      expect(answer).toEqual({ status: 200, body: { data: { recordHits: { accepted: inputs.length, total } } } });
    }
  };
  if (process.env.TALLY_TEST_ATOMIC_UPDATES === 'true') {
    await Promise.all(batches.map(sendTwice));
  } else {
    for (const [i, inputs] of batches.entries()) await sendTwice(inputs, i);
  }
  const all = batches.flat();
  const total = all.reduce((sum, h) => sum + (h.count ?? 1), 0);
  const stored = await storedCounters(db, site);
  expect(collectionTotals(stored)).toEqual({ daily: total, monthly: total, seconds: total });
  expect(stored).toEqual(expectedCounters(asHits(all), { siteTotals: true }));
  await Promise.all([stopWith(one, 'SIGTERM'), stopWith(two, 'SIGTERM')]);
  await db.dropDatabase();
});
