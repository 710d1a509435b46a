/**
 * The README's promises about the process, tried the way a person does: the built server on a data directory,
 * stopped with signals, started again on the same data, and `npm start` itself signalled.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  assertBuilt,
  descendantPids,
  isRunning,
  startServer,
  stopWith,
  temporaryDataDir,
  waitUntilServing,
} from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { readMetric } from '../support/builtCli';
import { waitFor } from '../support/waitFor';

const DAY_RANGE = { from: '2026-03-10T00:00:00Z', to: '2026-03-11T00:00:00Z' };

const RECORD = `mutation {
  recordHits(hits: [
    { site: "life.example", page: "/a", at: "2026-03-10T10:00:00Z", count: 3 }
    { site: "life.example", page: "/a", at: "2026-03-10T11:30:00Z", count: 2 }
  ]) { total }
  recordHitColumns(columns: { sites: ["life.example"], pages: ["/a"], pageIndex: [0], atMs: [1773140400000], count: [4] }) {
    total
  }
  recordImpressions(impressions: [{ userId: "u1", itemId: "i1", count: 4 }]) { accepted }
}`;

const READ = `query ($from: DateTime!, $to: DateTime!) {
  pageStats(site: "life.example", page: "/a", range: { from: $from, to: $to }, granularity: HOUR) { total }
  userImpressions(userId: "u1", first: 5) { edges { node { itemId count } } }
}`;

interface ReadResult {
  pageStats: { total: number } | null;
  userImpressions: { edges: Array<{ node: { itemId: string; count: number } }> };
}

let dataDir: string;
const started: ServerProcess[] = [];

function start(env: Record<string, string> = {}, command?: string[]): ServerProcess {
  const server = startServer({ TALLY_DATA_DIR: dataDir, ...env }, command ? { command } : {});
  started.push(server);
  return server;
}

beforeAll(() => assertBuilt());

beforeEach(() => {
  dataDir = temporaryDataDir('life');
});

afterEach(async () => {
  for (const server of started.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the built server as a process', () => {
  it('keeps the counts across SIGTERM and a restart on the same data directory', async () => {
    const first = start();
    await waitUntilServing(first);
    expect((await first.graphql(RECORD)).body.errors).toBeUndefined();
    expect(await stopWith(first, 'SIGTERM')).toBe(0);
    expect(first.logs.some((line) => line.msg === 'stopped')).toBe(true);

    // The second start re-creates every collection's indexes on existing data (FerretDB used to panic here).
    const second = start();
    await waitUntilServing(second);
    const read = await second.graphql<ReadResult>(READ, DAY_RANGE);
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data?.pageStats?.total).toBe(9);
    expect(read.body.data?.userImpressions.edges).toEqual([{ node: { itemId: 'i1', count: 4 } }]);
    expect((await second.graphql(RECORD)).body.errors).toBeUndefined();
    expect(await stopWith(second, 'SIGINT')).toBe(0);
    expect(second.logs.some((line) => line.msg === 'stopped')).toBe(true);

    const third = start();
    await waitUntilServing(third);
    expect((await third.graphql<ReadResult>(READ, DAY_RANGE)).body.data?.pageStats?.total).toBe(18);
    expect(await stopWith(third, 'SIGTERM')).toBe(0);
  });

  it('flushes pending hits before it exits on SIGTERM', async () => {
    // A long group-commit window: the hits are still pending in memory when the signal arrives.
    const server = start({ INGEST_FLUSH_INTERVAL_MS: '5000' });
    await waitUntilServing(server);
    const updates = (): Promise<number> =>
      readMetric(`${server.url as string}/metrics`, 'tally_mongodb_commands_total{command="update"}');
    const before = await updates();
    const pending = server.graphql(
      'mutation { recordHit(site: "life.example", page: "/a", at: "2026-03-10T10:00:00Z", count: 7) { count } }',
    );
    // The signal must find the request inside the server: its flush has started (an idle server has no other
    // update to send), and its answer is still to come.
    await waitFor(updates, {
      until: (n) => n > before,
      timeoutMs: 30_000,
      intervalMs: 20,
      what: `the recordHit's first update command (${before} before it)`,
    });
    expect(await stopWith(server, 'SIGTERM')).toBe(0);
    expect((await pending).body.errors).toBeUndefined();

    const again = start();
    await waitUntilServing(again);
    expect((await again.graphql<ReadResult>(READ, DAY_RANGE)).body.data?.pageStats?.total).toBe(7);
  });

  it('stops cleanly when `npm start` itself gets SIGTERM, leaving no process behind', async () => {
    // `--ignore-scripts` skips prestart's build, which `npm test` has just done; the signal path is npm → node.
    const npm = start({}, ['npm', 'start', '--ignore-scripts', '--silent']);
    await waitUntilServing(npm);
    const ferretdb = npm.ferretdbPid();
    const descendants = descendantPids(npm.child.pid as number);
    expect(descendants).toContain(ferretdb);
    expect(await stopWith(npm, 'SIGTERM')).toBe(0);
    expect(npm.logs.some((line) => line.msg === 'stopped')).toBe(true);
    expect(descendants.filter(isRunning)).toEqual([]);
  });

  it('takes its embedded database down with it even when killed with SIGKILL', async () => {
    const server = start();
    await waitUntilServing(server);
    const ferretdb = server.ferretdbPid();
    expect(await stopWith(server, 'SIGKILL')).toBe('SIGKILL');
    // The kernel delivers the parent-death signal; give it a moment, without asserting how long.
    await waitFor(() => !isRunning(ferretdb), {
      timeoutMs: 10_000,
      what: `the embedded FerretDB (pid ${ferretdb}) to exit after its parent was killed`,
    });
    expect(fs.existsSync(path.join(dataDir, 'ferretdb'))).toBe(true);
  });
});
