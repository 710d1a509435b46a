/**
 * An interrupted import, finished by running it again, counts every line exactly once. The built server and
 * the built CLI run as child processes; the CLI is killed with SIGKILL (a crash: nothing is flushed or
 * reported) or interrupted with SIGINT (Ctrl-C) while batches are in flight, then the same command runs to
 * the end and every HOUR and DAY series must equal a naive count of the file's lines.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { formatLogEntry, generateLogEntries } from '../../bench/shared/accessLogs';
import { readMetric, startCliChild } from '../support/builtCli';
import type { CliChild } from '../support/builtCli';
import { assertBuilt, startServer, stopWith, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { compareSeries, expectedHits } from '../support/importTruth';
import { testDatabaseName, testMongoUri } from '../support/testDatabase';
import { waitFor } from '../support/waitFor';

let server: ServerProcess;
let graphqlUrl: string;
let metricsUrl: string;
let dir: string;
const LINES = 6_000;
const BATCH_LINES = 50;

beforeAll(async () => {
  assertBuilt();
  dir = await mkdtemp(path.join(tmpdir(), 'tally-resume-'));
  server = startServer({ NODE_ENV: 'production', MONGODB_URI: testMongoUri(), MONGODB_DB: testDatabaseName('resume') });
  const base = await waitUntilServing(server);
  graphqlUrl = `${base}/graphql`;
  metricsUrl = `${base}/metrics`;
}, 120_000);

/** Every CLI started, so a failing test leaves none running. */
const started: CliChild[] = [];
function cli(args: string[]): CliChild {
  const child = startCliChild(args);
  started.push(child);
  return child;
}

afterEach(() => {
  for (const child of started.splice(0)) if (child.process.exitCode === null) child.process.kill('SIGKILL');
});

afterAll(async () => {
  if (server) await stopWith(server, 'SIGTERM');
  await rm(dir, { recursive: true, force: true });
});

async function writeLog(site: string, seed: number): Promise<{ file: string; hits: ReturnType<typeof expectedHits> }> {
  const entries = [
    ...generateLogEntries({ count: LINES, seed, sites: [site], start: Date.UTC(2026, 5, 29), spanMs: 3 * 86_400_000 }),
  ];
  const file = path.join(dir, `${site}.log.gz`);
  await writeFile(file, gzipSync(`${entries.map((e) => formatLogEntry(e, 'combined')).join('\n')}\n`));
  return { file, hits: expectedHits(entries, 'combined', site) };
}

async function requestsSoFar(): Promise<number> {
  return readMetric(metricsUrl, 'tally_graphql_requests_total{operation="TallyImport",outcome="ok"}');
}

/** Waits until the server has answered `more` import requests beyond `from`. */
async function waitForRequests(from: number, more: number): Promise<void> {
  await waitFor(requestsSoFar, {
    until: (n) => n >= from + more,
    timeoutMs: 60_000,
    intervalMs: 20,
    what: `${more} import requests answered beyond the ${from} before the import started`,
  });
}

function importArgs(site: string, file: string): string[] {
  return [
    'import',
    '--url',
    graphqlUrl,
    '--site',
    site,
    '--batch-lines',
    String(BATCH_LINES),
    '--progress',
    'none',
    file,
  ];
}

describe('an interrupted import run again', () => {
  it('counts every line exactly once after the CLI is killed (SIGKILL) mid-import', async () => {
    const site = 'killed.test';
    const { file, hits } = await writeLog(site, 13);
    const before = await requestsSoFar();
    const first = cli(importArgs(site, file));
    await waitForRequests(before, 5);
    first.process.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    // Killed mid-way: some batches were counted, not all of them.
    const sent = (await requestsSoFar()) - before;
    expect(sent).toBeLessThan(LINES / BATCH_LINES);
    expect(await compareSeries(graphqlUrl, hits)).not.toEqual([]);

    const second = await cli(importArgs(site, file)).done;
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('tally import done\n');
    expect(await compareSeries(graphqlUrl, hits)).toEqual([]);
  }, 180_000);

  it('stops after the batches in flight on Ctrl-C (SIGINT), exits 1, and the re-run completes it exactly', async () => {
    const site = 'interrupted.test';
    const { file, hits } = await writeLog(site, 14);
    const before = await requestsSoFar();
    const first = cli(importArgs(site, file));
    await waitForRequests(before, 5);
    first.process.kill('SIGINT');
    const interrupted = await first.done;
    expect(interrupted.code).toBe(1);
    expect(interrupted.stdout).toContain('tally import interrupted\n');
    expect(interrupted.stdout).toContain('stopped: interrupted (Ctrl-C)\n');
    expect(interrupted.stdout).toContain('Run the same command again to finish');

    const second = await cli(importArgs(site, file)).done;
    expect(second.code).toBe(0);
    expect(await compareSeries(graphqlUrl, hits)).toEqual([]);
  }, 180_000);
});
