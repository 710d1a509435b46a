/**
 * INGEST_ACK=log on a full disk (issue 27): the built server's log on a 256 KiB tmpfs, the database elsewhere (the
 * test server). Requests are refused with SERVICE_UNAVAILABLE once the log cannot take them; every hit acknowledged
 * before and after is counted exactly once, and once windows are written the log frees its space and takes hits
 * again. Mounting needs root (CI runs as root); elsewhere the test is skipped, saying so.
 */
import { readMetric } from '../support/readMetric';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { mountTinyDisk, unmount } from '../support/mountTinyDisk';
import { assertBuilt, startServer, stopWith, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { testDatabaseName, testMongoUri } from '../support/testDatabase';
import { waitFor } from '../support/waitFor';

const AT = '2026-03-10T10:00:00.000Z';
const RECORD_HITS = `mutation Record($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted total } }`;
const DAY_TOTAL = `{ siteStats(site: "full.example", range: { from: "2026-03-10T00:00:00Z", to: "2026-03-11T00:00:00Z" }, granularity: DAY) { total } }`;

// A server start, a disk filled and a window written on a loaded 2-core machine: minutes, not the default minute.
jest.setTimeout(240_000);

const disk = mountTinyDisk('tally-full-disk');
const dbName = testDatabaseName('ingestLogFullDisk');
let server: ServerProcess | undefined;

afterAll(async () => {
  if (server && server.child.exitCode === null) await stopWith(server, 'SIGKILL');
  if (disk) unmount(disk);
  const client = await MongoClient.connect(testMongoUri());
  await client.db(dbName).dropDatabase();
  await client.close();
});

/** A stall here is the server's to explain: its last log lines join the failure. */
async function withServerLogs<T>(target: ServerProcess, wait: () => Promise<T>): Promise<T> {
  try {
    return await wait();
  } catch (error) {
    const lines = [...target.logs.slice(-30).map((line) => JSON.stringify(line)), ...target.output.slice(-10)];
    throw new Error(`${(error as Error).message}\nthe server's last lines:\n${lines.join('\n')}`);
  }
}

// A skip states its reason: without root no tmpfs can be mounted to fill.
(disk ? describe : describe.skip)('INGEST_ACK=log on a full disk (needs root to mount a tmpfs)', () => {
  it('refuses with SERVICE_UNAVAILABLE once the log is full, loses nothing acknowledged, and recovers', async () => {
    assertBuilt();
    const logDir = join(disk as string, 'log');
    mkdirSync(logDir);
    server = startServer({
      MONGODB_URI: testMongoUri(),
      MONGODB_DB: dbName,
      INGEST_ACK: 'log',
      INGEST_LOG_DIR: logDir,
      // Windows long enough that the log fills before one is written.
      FLUSH_WINDOW_MS: '3000',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_ADDRESS: '0',
    });
    await waitUntilServing(server);
    const target = server;
    const page = (i: number) => `/${'x'.repeat(200)}/${i}`;
    const send = async (i: number) => {
      const hits = Array.from({ length: 50 }, (_, j) => ({ site: 'full.example', page: page(j), at: AT, count: 1 }));
      return target
        .graphql<{ recordHits: { total: number } }>(RECORD_HITS, { hits }, 20_000)
        .then((reply) => ({ i, reply }));
    };
    let acked = 0;
    let refused: { code?: string | undefined; message?: string | undefined } | undefined;
    for (let i = 0; i < 400 && !refused; i++) {
      const { reply } = await send(i);
      if (reply.body.data?.recordHits) acked += reply.body.data.recordHits.total;
      else refused = { code: reply.body.errors?.[0]?.extensions?.code, message: reply.body.errors?.[0]?.message };
    }
    expect(refused).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'the ingest log refused the hits: the disk is full; retry later',
    });
    expect(acked).toBeGreaterThan(0);
    // Operators see it: the log holds the disk's worth, in windows not yet written.
    const gauge = async (name: string) => (await readMetric(target.url as string, name)) ?? Number.NaN;
    expect(await gauge('tally_ingest_log_bytes')).toBeGreaterThan(100_000);
    expect(await gauge('tally_ingest_log_windows')).toBeGreaterThanOrEqual(1);
    // The window is sealed with the reserve, written, and its segment deleted: the log takes hits again. Requests
    // keep arriving four at a time meanwhile, competing for the space the reserve frees: the seal must get it.
    await withServerLogs(target, () =>
      waitFor(
        async () => {
          const replies = await Promise.all([0, 1, 2, 3].map(async (i) => (await send(i)).reply));
          const taken = replies.filter((reply) => reply.body.data?.recordHits !== undefined);
          for (const reply of taken) acked += reply.body.data?.recordHits.total ?? 0;
          return taken.length;
        },
        {
          timeoutMs: 120_000,
          what: 'the log to take hits again once its window was written',
          until: (taken) => taken > 0,
        },
      ),
    );
    // And not only in the reserve's room: the written windows' segments are deleted, the disk's worth freed. Nothing
    // is sent while waiting: requests arriving every poll would refill the log as fast as windows empty it, and how
    // fast that is depends on the machine's load, not on the log.
    await waitFor(() => gauge('tally_ingest_log_bytes'), {
      timeoutMs: 120_000,
      intervalMs: 250,
      what: 'the written windows to leave the log',
      until: (bytes) => bytes < 64 * 1024,
    });
    // Room for more than the reserve: four requests in a row (over 40 KiB of records) are all taken.
    for (let i = 0; i < 4; i++) {
      const { reply } = await send(i);
      expect(reply.body.errors).toBeUndefined();
      acked += reply.body.data?.recordHits.total ?? 0;
    }
    await stopWith(target, 'SIGTERM');
    const reader = startServer({ MONGODB_URI: testMongoUri(), MONGODB_DB: dbName, NODE_ENV: 'production' });
    server = reader;
    await waitUntilServing(reader);
    const stored = await reader.graphql<{ siteStats: { total: number } }>(DAY_TOTAL);
    expect(stored.body.data?.siteStats.total).toBe(acked);
    await stopWith(reader, 'SIGTERM');
  });
});
