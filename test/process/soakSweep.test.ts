/**
 * Issue 21, on the real processes: a sweep over a large expired set must not stall ingest. A FerretDB data
 * directory is seeded with 20,000 expired minute documents and 10,000 expired idempotency keys, the built server
 * is started on it with SWEEP_INTERVAL_MS shortened, and it takes a modest steady load (single hits, a third of
 * them keyed, and a dashboard read every 500 ms) for 60 s and until both sweeps have deleted their expired sets.
 * Every request must succeed. Before the sweeps were bounded, the seconds sweep
 * held stats.seconds' only writer for the whole scan and the flushes queued behind it failed with
 * SERVICE_UNAVAILABLE.
 */
import fs from 'node:fs';
import { MongoClient } from 'mongodb';
import { createLogger } from '../../src/logging/createLogger';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';
import { REQUESTS_COLLECTION } from '../../src/store/requestLedger';
import { SECONDS_COLLECTION, secondsDocumentId } from '../../src/store/secondStats';
import { assertBuilt, startServer, stopWith, temporaryDataDir, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

jest.setTimeout(300_000);

const HOUR = 3_600_000;
const EXPIRED_MINUTES = 20_000;
const EXPIRED_KEYS = 10_000;
const LOAD_MS = 60_000;
/** The sweeps rest as long as they work: about 30 s for both on an idle machine, more beside other suites. */
const SWEEP_DEADLINE_MS = 150_000;
const CLIENTS = 4;
/** Each client pauses this long between requests: about 100 requests a second in all, a modest rate. */
const PACE_MS = 40;
const SITE = 'soak.example';

let server: ServerProcess | undefined;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(() => assertBuilt());

afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await server?.exited;
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Expired documents, inserted oldest first as the server would have created them, in commands of 1,000. */
async function seed(uri: string): Promise<void> {
  const client = new MongoClient(uri);
  try {
    const db = client.db('tally');
    const now = Date.now();
    const seconds = Object.fromEntries(Array.from({ length: 60 }, (_, s) => [String(s), 1]));
    const minutes = Array.from({ length: EXPIRED_MINUTES }, (_, i) => {
      const minute = now - 72 * HOUR + Math.floor(i / 100) * 60_000;
      const page = `/old/${i % 100}`;
      return {
        _id: secondsDocumentId(SITE, page, minute),
        metadata: { date: new Date(minute), site: SITE, page },
        minute: 60,
        seconds,
      };
    });
    const created = new Date(now - 48 * HOUR);
    const keys = Array.from({ length: EXPIRED_KEYS }, (_, i) => ({
      _id: `expired-key-${i}`,
      fp: 'fp',
      now: created,
      attempts: [{ l: 'old', s: 1 }],
      v: 1,
      leaseUntil: created,
      createdAt: created,
    }));
    for (let i = 0; i < minutes.length; i += 1_000) {
      await db.collection(SECONDS_COLLECTION).insertMany(minutes.slice(i, i + 1_000) as never);
    }
    for (let i = 0; i < keys.length; i += 1_000) {
      await db.collection(REQUESTS_COLLECTION).insertMany(keys.slice(i, i + 1_000) as never);
    }
  } finally {
    await client.close();
  }
}

async function metric(url: string, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

interface Outcomes {
  ok: number;
  failures: Map<string, number>;
}

function fail(outcomes: Outcomes, why: string): void {
  outcomes.failures.set(why, (outcomes.failures.get(why) ?? 0) + 1);
}

async function request(target: ServerProcess, outcomes: Outcomes, query: string, variables?: Record<string, unknown>) {
  try {
    const reply = await target.graphql(query, variables, 30_000);
    const code = reply.body.errors?.[0]?.extensions?.code;
    if (reply.status !== 200 || code !== undefined) fail(outcomes, code ?? `HTTP ${reply.status}`);
    else outcomes.ok += 1;
  } catch (error) {
    fail(outcomes, `no answer: ${(error as Error).message}`);
  }
}

describe('a sweep over a large expired set, under load, on the real processes', () => {
  it('answers every request while the sweeps delete 20,000 expired minutes and 10,000 expired keys', async () => {
    const dataDir = temporaryDataDir('soak-sweep');
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const database = await startFerretdb({ dataDir, logger: createLogger({ level: 'silent', nodeEnv: 'test' }) });
    cleanups.push(() => database.stop());
    await seed(database.uri);

    server = startServer({ MONGODB_URI: database.uri, MONGODB_DB: 'tally', SWEEP_INTERVAL_MS: '5000' });
    const url = await waitUntilServing(server);
    const target = server;
    const outcomes: Outcomes = { ok: 0, failures: new Map() };
    const started = Date.now();
    let sweptAll = false;
    const loading = (): boolean => !sweptAll || Date.now() < started + LOAD_MS;
    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; loading(); i++) {
        const keyed = i % 3 === 0 ? `, idempotencyKey: "c${client}-${i}-${started}"` : '';
        await request(
          target,
          outcomes,
          `mutation { recordHit(site: "${SITE}", page: "/p${i % 50}"${keyed}) { count } }`,
        );
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }
    });
    const dashboard = (async () => {
      const query = `query ($from: DateTime!, $to: DateTime!) { ${Array.from(
        { length: 10 },
        (_, i) =>
          `s${i}: pageStats(site: "${SITE}", page: "/p${i}", range: { from: $from, to: $to }, granularity: MINUTE) { total }`,
      ).join(' ')} }`;
      while (loading()) {
        const to = new Date(Date.now() + 60_000).toISOString();
        await request(target, outcomes, query, { from: new Date(started - HOUR).toISOString(), to });
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    const swept = (what: string) => metric(url, 'tally_swept_documents_total', `what="${what}"`);
    try {
      await waitFor(() => swept('second-level documents'), {
        until: (n) => n >= EXPIRED_MINUTES,
        timeoutMs: SWEEP_DEADLINE_MS,
        intervalMs: 1_000,
        what: `${EXPIRED_MINUTES} expired minute documents swept while the load runs`,
      });
      await waitFor(() => swept('idempotency keys'), {
        until: (n) => n >= EXPIRED_KEYS,
        timeoutMs: SWEEP_DEADLINE_MS,
        intervalMs: 1_000,
        what: `${EXPIRED_KEYS} expired idempotency keys swept while the load runs`,
      });
    } finally {
      // Swept (or given up): the load ends once it has run for LOAD_MS.
      sweptAll = true;
      await Promise.all([...clients, dashboard]);
    }

    expect(Object.fromEntries(outcomes.failures)).toEqual({});
    expect(outcomes.ok).toBeGreaterThan(1_000);
    expect(await metric(url, 'tally_unavailable_total', 'cause="timeout"')).toBe(0);
    const client = new MongoClient(database.uri);
    try {
      const db = client.db('tally');
      expect(await db.collection(SECONDS_COLLECTION).countDocuments({ 'metadata.page': { $regex: '^/old/' } })).toBe(0);
      expect(
        await db.collection(REQUESTS_COLLECTION).countDocuments({ _id: { $regex: '^expired-key-' } } as never),
      ).toBe(0);
    } finally {
      await client.close();
    }
    expect(await stopWith(target, 'SIGTERM')).toBe(0);
  });
});
