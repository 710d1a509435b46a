/**
 * The data decides the engine (issue 30), on the built server: the first start records the engine in
 * `engine.json`, and later starts keep to it whatever else becomes available.
 *
 * Offline is simulated with mongodb-memory-server's own switch (MONGOMS_RUNTIME_DOWNLOAD=false: no download is tried,
 * and none is remembered as failed) and a PATH without mongod. "mongod became available" is a `mongod` on PATH that
 * answers `--version` and can serve nothing: that is how tally finds an installed mongod, and a start that switched
 * engines would fail on it or log "embedded mongod started", which these tests check it does not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ferretdbBuild, readableFrom } from '../../src/store/embedded/ferretdbDataFormat';
import { assertBuilt, startServer, stopWith, temporaryDataDir, waitUntilServing } from '../support/serverProcess';
import type { LogLine, ServerProcess } from '../support/serverProcess';

const RECORD = `mutation {
  recordHits(hits: [{ site: "engine.example", page: "/", at: "2026-03-10T10:00:00Z", count: 7 }]) { total }
}`;
const READ = `{
  pageStats(site: "engine.example", page: "/", range: { from: "2026-03-10T00:00:00Z", to: "2026-03-11T00:00:00Z" },
    granularity: DAY) { total }
  serverInfo { database { engine } }
}`;

interface Read {
  pageStats: { total: number } | null;
  serverInfo: { database: { engine: string } };
}

const started: ServerProcess[] = [];
const dirs: string[] = [];
let dataDir: string;
let fakeMongodDir: string;

const offlinePath = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter((dir) => dir !== '' && !fs.existsSync(path.join(dir, 'mongod')))
  .join(path.delimiter);

beforeAll(() => {
  assertBuilt();
  fakeMongodDir = temporaryDataDir('fake-mongod');
  dirs.push(fakeMongodDir);
  fs.writeFileSync(
    path.join(fakeMongodDir, 'mongod'),
    '#!/bin/sh\n[ "$1" = --version ] && { echo "db version v8.0.99"; exit 0; }\necho "fake mongod: serves nothing" >&2\nexit 1\n',
    { mode: 0o755 },
  );
});

beforeEach(() => {
  dataDir = temporaryDataDir('engine');
  dirs.push(dataDir);
});

afterEach(async () => {
  for (const server of started.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
});

afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>): ServerProcess {
  const server = startServer({ TALLY_DATA_DIR: dataDir, ...env });
  started.push(server);
  return server;
}

const offline = { PATH: offlinePath, MONGOMS_RUNTIME_DOWNLOAD: 'false' };
/** PATH with the fake mongod first (made in beforeAll). */
function mongodAvailable(): Record<string, string> {
  return { PATH: `${fakeMongodDir}${path.delimiter}${offlinePath}` };
}

async function firstStartOffline(): Promise<void> {
  const first = start(offline);
  await waitUntilServing(first);
  expect((await first.graphql(RECORD)).body.errors).toBeUndefined();
  expect(await stopWith(first, 'SIGTERM')).toBe(0);
}

interface RecordFile {
  engine?: string;
  version?: string;
  recordedAt?: string;
  lastVersion?: string;
  readableFrom?: number;
}

function readRecord(): RecordFile {
  return JSON.parse(fs.readFileSync(path.join(dataDir, 'engine.json'), 'utf8')) as RecordFile;
}

const hints = (server: ServerProcess): LogLine[] =>
  server.logs.filter((line) => /^mongod v8\.0\.99 is available/.test(line.msg ?? ''));

describe('the data directory decides the embedded engine', () => {
  it('keeps serving FerretDB data once mongod becomes available, and says once where the data is and how to move it', async () => {
    await firstStartOffline();
    expect(readRecord()).toMatchObject({ engine: 'ferretdb', version: expect.stringMatching(/^v1\.24\.2/) });

    const second = start(mongodAvailable());
    await waitUntilServing(second);
    const read = await second.graphql<Read>(READ);
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data).toEqual({ pageStats: { total: 7 }, serverInfo: { database: { engine: 'FerretDB' } } });
    expect(hints(second)).toHaveLength(1);
    expect(hints(second)[0]?.msg).toContain(`the data in ${path.resolve(dataDir)} is held by FerretDB`);
    expect(hints(second)[0]?.msg).toContain('`tally migrate --to URI` moves it to a MongoDB server');
    expect(second.logs.some((line) => line.msg === 'embedded mongod started')).toBe(false);
    expect(await stopWith(second, 'SIGTERM')).toBe(0);
  });

  it('recognises a data directory from before records by its folder, records it, and refuses a mismatched explicit engine', async () => {
    await firstStartOffline();
    fs.rmSync(path.join(dataDir, 'engine.json'));

    const legacy = start(mongodAvailable());
    await waitUntilServing(legacy);
    expect((await legacy.graphql<Read>(READ)).body.data?.pageStats).toEqual({ total: 7 });
    expect(legacy.logs.some((line) => /its folder ferretdb\/ says FerretDB holds it$/.test(line.msg ?? ''))).toBe(true);
    expect(hints(legacy)).toHaveLength(1);
    expect(await stopWith(legacy, 'SIGTERM')).toBe(0);
    expect(readRecord()).toMatchObject({ engine: 'ferretdb' });

    const mismatched = start({ ...offline, TALLY_EMBEDDED_ENGINE: 'mongod' });
    expect(await mismatched.exited).toBe(2);
    expect(mismatched.output).toEqual([
      expect.stringMatching(
        new RegExp(
          `^tally: refusing to start: TALLY_EMBEDDED_ENGINE=mongod does not match the data in ${escape(path.resolve(dataDir))}, which FerretDB v1\\.24\\.2\\S* holds: `,
        ),
      ),
    ]);
    expect(fs.existsSync(path.join(dataDir, 'mongod'))).toBe(false);
  });

  it('notes the FerretDB version of each start, keeping the first one, and refuses data a later build wrote', async () => {
    await firstStartOffline();
    const first = readRecord();
    const ownVersion = first.version as string;
    expect(first.lastVersion).toBe(ownVersion);
    const ownForm = readableFrom(ferretdbBuild(ownVersion) as number);
    expect(first.readableFrom).toBe(ownForm);
    // As if an earlier build had written last: this build reads that, and notes itself as the one writing now.
    fs.writeFileSync(
      path.join(dataDir, 'engine.json'),
      JSON.stringify({ ...first, version: 'v1.24.2-tally10', lastVersion: 'v1.24.2-tally16', readableFrom: 16 }),
    );
    const upgraded = start(offline);
    await waitUntilServing(upgraded);
    expect((await upgraded.graphql<Read>(READ)).body.data?.pageStats).toEqual({ total: 7 });
    expect(await stopWith(upgraded, 'SIGTERM')).toBe(0);
    expect(readRecord()).toEqual({
      engine: 'ferretdb',
      version: 'v1.24.2-tally10',
      recordedAt: first.recordedAt,
      lastVersion: ownVersion,
      readableFrom: ownForm,
    });
    expect(upgraded.logs.some((line) => line.msg === 'recorded the engine version that now writes the data')).toBe(
      true,
    );

    // A later build than any this checkout makes, with a form of its own: nothing here may start on its data.
    const later = { ...readRecord(), lastVersion: 'v1.24.2-tally999', readableFrom: 999 };
    fs.writeFileSync(path.join(dataDir, 'engine.json'), JSON.stringify(later));
    const refused = start(offline);
    expect(await refused.exited).toBe(2);
    expect(refused.output).toEqual([
      expect.stringMatching(
        new RegExp(
          `^tally: refusing to start: the data in ${escape(path.resolve(dataDir))} was last written by FerretDB v1\\.24\\.2-tally999, in a form only tally's builds from tally999 on read, and this one is FerretDB ${escape(ownVersion)}: `,
        ),
      ),
    ]);
    expect(readRecord()).toEqual(later);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
