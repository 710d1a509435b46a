/**
 * INGEST_ACK=log at the process level (issue 27): the built server on its embedded default, its log in the data
 * directory, SIGKILLed at random moments under load (which takes its embedded FerretDB down with it: both die),
 * restarted on the same data each time. The promise checked against the test's own count of what the server
 * acknowledged: no acknowledged hit is lost and nothing is counted twice.
 * - Under load a request may be cut off after its hits became durable but before its answer left: such hits are
 *   counted although never acknowledged, so acknowledged <= stored <= sent, per page.
 * - Killed right after every request was answered: stored = acknowledged, exactly, per page.
 * - Requests with an idempotency key, each retried with its key until answered (across kills): stored = sent, exactly.
 */
import {
  assertBuilt,
  startServer,
  stopWith,
  temporaryDataDir,
  THREAD_NICENESS_READABLE,
  threadNiceness,
  waitUntilServing,
} from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';

const AT = '2026-03-10T10:00:00.000Z';
const PAGES = ['/a', '/b', '/c', '/d', '/e'];
const RECORD_HITS = `mutation Record($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted total } }`;
const RECORD_KEYED = `mutation Record($hits: [HitInput!]!, $key: String) {
  recordHits(hits: $hits, idempotencyKey: $key) { accepted total }
}`;

let dataDir: string;
const servers: ServerProcess[] = [];

// Every round starts the server and its embedded FerretDB again: minutes on a loaded 2-core machine.
jest.setTimeout(300_000);

beforeAll(() => assertBuilt());

beforeEach(() => {
  dataDir = temporaryDataDir('ingest-log');
});

afterEach(async () => {
  await Promise.all(servers.filter((s) => s.child.exitCode === null).map((s) => stopWith(s, 'SIGKILL')));
});

async function start(): Promise<ServerProcess> {
  const server = startServer({
    TALLY_DATA_DIR: dataDir,
    INGEST_ACK: 'log',
    // Short windows, so that kills land before, during and after window writes.
    FLUSH_WINDOW_MS: '150',
    NODE_ENV: 'production',
    RATE_LIMIT_PER_ADDRESS: '0',
  });
  servers.push(server);
  await waitUntilServing(server);
  return server;
}

interface Tally {
  sent: Map<string, number>;
  acked: Map<string, number>;
}

const add = (map: Map<string, number>, page: string, n: number) => map.set(page, (map.get(page) ?? 0) + n);

/** A batch of hits on one site: page i % 5 with count 1 + i % 3. */
function batch(site: string, seed: number): Array<{ site: string; page: string; at: string; count: number }> {
  return Array.from({ length: 10 }, (_, i) => ({
    site,
    page: PAGES[(seed + i) % PAGES.length] as string,
    at: AT,
    count: 1 + ((seed + i) % 3),
  }));
}

/** `clients` loops sending batches until `stop()`; every answered batch is counted as acknowledged. */
function load(target: ServerProcess, site: string, clients: number, tally: Tally) {
  let running = true;
  let seed = 0;
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const hits = batch(site, seed++);
      for (const hit of hits) add(tally.sent, hit.page, hit.count);
      try {
        const reply = await target.graphql<{ recordHits: { total: number } }>(RECORD_HITS, { hits }, 10_000);
        if (reply.status === 200 && reply.body.data?.recordHits) {
          for (const hit of hits) add(tally.acked, hit.page, hit.count);
        }
      } catch {
        // Cut off by the kill: unknown outcome.
      }
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function storedTotals(target: ServerProcess, site: string): Promise<Map<string, number>> {
  const fields = PAGES.map(
    (page, i) =>
      `p${i}: pageStats(site: "${site}", page: "${page}", range: { from: "2026-03-10T00:00:00Z", to: "2026-03-11T00:00:00Z" }, granularity: DAY) { total }`,
  ).join('\n');
  const reply = await target.graphql<Record<string, { total: number }>>(`{ ${fields} }`);
  expect(reply.body.errors).toBeUndefined();
  return new Map(PAGES.map((page, i) => [page, reply.body.data?.[`p${i}`]?.total ?? 0] as [string, number]));
}

describe('INGEST_ACK=log, the built server killed with SIGKILL', () => {
  it('loses no acknowledged hit and counts none twice, killed at random moments under load', async () => {
    const tally: Tally = { sent: new Map(), acked: new Map() };
    for (let round = 0; round < 3; round++) {
      const target = await start();
      const running = load(target, 'load.example', 4, tally);
      // Nobody waits on the database's writes here: it runs behind tally's requests (TALLY_EMBEDDED_NICE, Linux).
      if (THREAD_NICENESS_READABLE) expect(new Set(threadNiceness(target.ferretdbPid()))).toEqual(new Set([10]));
      await new Promise((resolve) => setTimeout(resolve, 400 + Math.floor(Math.random() * 1_200)));
      await stopWith(target, 'SIGKILL');
      await running.stop();
    }
    const last = await start();
    // SIGTERM writes what the log holds; the next start reads what was written.
    await stopWith(last, 'SIGTERM');
    const reader = await start();
    const stored = await storedTotals(reader, 'load.example');
    for (const page of PAGES) {
      expect(tally.acked.get(page) ?? 0).toBeGreaterThan(0);
      expect(stored.get(page)).toBeGreaterThanOrEqual(tally.acked.get(page) ?? 0);
      expect(stored.get(page)).toBeLessThanOrEqual(tally.sent.get(page) ?? 0);
    }
    await stopWith(reader, 'SIGTERM');
  });

  it('counts exactly what it acknowledged when killed right after the last answer, before any window closed', async () => {
    const target = await start();
    const tally: Tally = { sent: new Map(), acked: new Map() };
    for (let i = 0; i < 12; i++) {
      const hits = batch('exact.example', i);
      const reply = await target.graphql<{ recordHits: { total: number } }>(RECORD_HITS, { hits });
      expect(reply.body.data?.recordHits.total).toBe(hits.reduce((sum, h) => sum + h.count, 0));
      for (const hit of hits) add(tally.acked, hit.page, hit.count);
    }
    await stopWith(target, 'SIGKILL');
    const restarted = await start();
    // The replay is written as the first window after the start; SIGTERM waits for it.
    await stopWith(restarted, 'SIGTERM');
    const reader = await start();
    expect(await storedTotals(reader, 'exact.example')).toEqual(tally.acked);
    await stopWith(reader, 'SIGTERM');
  });

  it('counts keyed requests exactly once when each is retried with its key until answered, across kills', async () => {
    const sent = new Map<string, number>();
    let target = await start();
    let running = true;
    let seed = 0;
    const loops = Array.from({ length: 3 }, async (_, client) => {
      while (running) {
        const hits = batch('keyed.example', seed++);
        for (const hit of hits) add(sent, hit.page, hit.count);
        const key = `client-${client}-batch-${seed}`;
        // The same key until an answer: a kill may cut the first try off after its hits were logged.
        for (;;) {
          try {
            const reply = await target.graphql<{ recordHits: { total: number } }>(RECORD_KEYED, { hits, key }, 10_000);
            if (reply.status === 200 && reply.body.data?.recordHits) break;
          } catch {
            // Cut off by the kill, or sent while no server listens.
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    });
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 400 + Math.floor(Math.random() * 1_200)));
      await stopWith(target, 'SIGKILL');
      target = await start();
    }
    running = false;
    await Promise.all(loops);
    await stopWith(target, 'SIGTERM');
    const reader = await start();
    expect(await storedTotals(reader, 'keyed.example')).toEqual(sent);
    await stopWith(reader, 'SIGTERM');
  });
});
