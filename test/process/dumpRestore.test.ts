/**
 * The built `tally dump`, `restore` and `migrate` as an operator runs them: the dump and the migrate read the
 * embedded database of a server that keeps running and counting on the same data directory (TALLY_DATA_DIR, as
 * `npm start`), the restores write into databases on the test server (MONGODB_URI and MONGODB_DB). A server
 * started on the restored database answers as the source did when it was dumped; a merge of the same archive
 * doubles every count and leaves visitors as they were (sketches ORed with themselves); a damaged archive and a
 * target with data are refused without writing anything.
 */
import { rm, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startCliChild } from '../support/builtCli';
import type { CliChild } from '../support/builtCli';
import { embeddedDatabaseUri } from '../support/embeddedDatabaseUri';
import { assertBuilt, startServer, stopWith, temporaryDataDir, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { testDatabaseName, testMongoUri } from '../support/testDatabase';

jest.setTimeout(300_000);

const DAY = 86_400_000;
const TODAY = Date.now() - (Date.now() % DAY);
const SITE = 'cli.example';
const RANGE = { from: new Date(TODAY - 59 * DAY).toISOString(), to: new Date(TODAY + DAY).toISOString() };
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
];

const QUERY = `query Figures($site: String!, $from: DateTime!, $to: DateTime!) {
  siteStats(site: $site, range: { from: $from, to: $to }, granularity: DAY) { total visitors values }
  page: pageStats(site: $site, page: "/a", range: { from: $from, to: $to }, granularity: DAY) { total visitors values }
  breakdown(site: $site, dimension: SOURCE, range: { from: $from, to: $to }, first: 20) {
    totalCount edges { node { value hits visitors } }
  }
}`;

interface Figures {
  siteStats: { total: number; visitors: number; values: number[] };
  page: { total: number; visitors: number; values: number[] };
  breakdown: { totalCount: number; edges: Array<{ node: { value: string; hits: number; visitors: number | null } }> };
}

let dataDir: string;
let source: ServerProcess;
const servers: ServerProcess[] = [];
const databases: string[] = [];
const started: CliChild[] = [];

function hits(seed: number, count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => ({
    site: SITE,
    page: ['/a', '/b', '/c'][(i * 7 + seed) % 3],
    at: new Date(TODAY - ((i * 13 + seed) % 60) * DAY + ((i * 7919) % DAY)).toISOString(),
    count: 1 + (i % 3),
    visitor: `v${(i * 31 + seed) % 150}`,
    userAgent: AGENTS[i % AGENTS.length],
    referrer: ['https://www.google.com/', 'https://news.example/x', undefined][i % 3],
  })).filter((hit) => Date.parse(hit.at) < Date.now());
}

async function record(server: ServerProcess, batch: Array<Record<string, unknown>>): Promise<void> {
  const reply = await server.graphql<{ recordHits: { accepted: number } }>(
    'mutation ($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }',
    { hits: batch },
  );
  expect(reply.body.errors).toBeUndefined();
  expect(reply.body.data?.recordHits.accepted).toBe(batch.length);
}

async function figures(server: ServerProcess): Promise<Figures> {
  const reply = await server.graphql<Figures>(QUERY, { site: SITE, ...RANGE });
  expect(reply.body.errors).toBeUndefined();
  return reply.body.data as Figures;
}

/** The CLI with the embedded source's settings (TALLY_DATA_DIR, no MONGODB_URI), or a database on the test server. */
async function cli(
  args: string[],
  database?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = database
    ? { MONGODB_URI: testMongoUri(), MONGODB_DB: database, TALLY_DATA_DIR: undefined }
    : { MONGODB_URI: undefined, MONGODB_DB: undefined, TALLY_DATA_DIR: dataDir };
  const child = startCliChild(args, env);
  started.push(child);
  return child.done;
}

function freshDatabase(label: string): string {
  const name = testDatabaseName(label);
  databases.push(name);
  return name;
}

async function serve(database: string): Promise<ServerProcess> {
  const server = startServer({ NODE_ENV: 'production', MONGODB_URI: testMongoUri(), MONGODB_DB: database });
  servers.push(server);
  await waitUntilServing(server);
  return server;
}

function sourceCount(list: number[]): number {
  return list.reduce((sum, value) => sum + value, 0);
}

beforeAll(async () => {
  assertBuilt();
  dataDir = temporaryDataDir('dump');
  source = startServer({ TALLY_DATA_DIR: dataDir });
  await waitUntilServing(source);
  await record(source, hits(1, 600));
}, 120_000);

afterEach(() => {
  for (const child of started.splice(0)) if (child.process.exitCode === null) child.process.kill('SIGKILL');
});

afterAll(async () => {
  await Promise.all([source, ...servers].filter(Boolean).map((server) => stopWith(server, 'SIGTERM')));
  const client = new MongoClient(testMongoUri());
  for (const name of databases)
    await client
      .db(name)
      .dropDatabase()
      .catch(() => undefined);
  await client.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('prints help for each command and refuses unknown options with exit code 2', async () => {
  for (const command of ['dump', 'restore', 'migrate']) {
    const help = await cli([command, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`Usage: tally ${command}`);
    const wrong = await cli([command, '--frobnicate', 'x']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('unknown option --frobnicate');
  }
  expect((await cli(['migrate'])).stderr).toContain('--to URI is required');
  const itself = await cli(['migrate', '--to', testMongoUri()], freshDatabase('cli_itself'));
  expect(itself.code).toBe(2);
  expect(itself.stderr).toContain('the target is the source');
});

it('dumps a running server’s embedded data, restores it elsewhere, and a merge adds it again', async () => {
  const archive = path.join(dataDir, 'backup.tally.gz');
  const before = await figures(source);
  expect(before.siteStats.total).toBeGreaterThan(600);
  expect(before.siteStats.visitors).toBeGreaterThan(100);

  const dumped = await cli(['dump', archive]);
  expect(dumped.stderr).toBe('');
  expect(dumped.code).toBe(0);
  expect(dumped.stdout).toMatch(/^tally dump: [\d,]+ documents from FerretDB .*embedded/);
  expect(dumped.stdout).toMatch(/stats\.daily\s+[\d,]+/);
  expect((await stat(archive)).size).toBeGreaterThan(1_000);
  await expect(stat(`${archive}.partial`)).rejects.toThrow(/ENOENT/);

  // The server kept serving and counting on the same data during and after the dump.
  await record(source, hits(2, 90));
  expect((await figures(source)).siteStats.total).toBeGreaterThan(before.siteStats.total);

  const restoredDb = freshDatabase('cli_restored');
  const restored = await cli(['restore', archive], restoredDb);
  expect(restored.stderr).toBe('');
  expect(restored.code).toBe(0);
  expect(restored.stdout).toMatch(
    /^tally restore: [\d,]+ documents restored into MongoDB|^tally restore: [\d,]+ documents restored into FerretDB/,
  );

  const again = await cli(['restore', archive], restoredDb);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('already holds data');
  expect(again.stderr).toContain('--merge');

  const merged = await cli(['restore', '--merge', archive], restoredDb);
  expect(merged.code).toBe(0);
  expect(merged.stdout).toContain('documents merged into');

  const server = await serve(restoredDb);
  const after = await figures(server);
  // Merged with itself: every count twice, every visitor once (a sketch ORed with itself is itself).
  expect(after.siteStats.values).toEqual(before.siteStats.values.map((value) => 2 * value));
  expect(after.siteStats.visitors).toBe(before.siteStats.visitors);
  expect(after.page.total).toBe(2 * before.page.total);
  expect(after.page.visitors).toBe(before.page.visitors);
  expect(after.breakdown.edges.map(({ node }) => [node.value, node.hits / 2, node.visitors])).toEqual(
    before.breakdown.edges.map(({ node }) => [node.value, node.hits, node.visitors]),
  );
  expect(sourceCount(after.siteStats.values)).toBe(2 * before.siteStats.total);
});

it('refuses a damaged archive before writing anything', async () => {
  const archive = path.join(dataDir, 'whole.tally.gz');
  expect((await cli(['dump', archive])).code).toBe(0);
  const bytes = await readFile(archive);
  const cut = path.join(dataDir, 'cut.tally.gz');
  await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
  const target = freshDatabase('cli_cut');
  const refused = await cli(['restore', cut], target);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('is not a complete archive, nothing was written');
  const client = new MongoClient(testMongoUri());
  try {
    expect(await client.db(target).collection('stats.daily').countDocuments()).toBe(0);
  } finally {
    await client.close();
  }
});

it('migrates the embedded data of a running server to another database, streamed', async () => {
  const target = freshDatabase('cli_migrated');
  const expected = await figures(source);
  const migrated = await cli(['migrate', '--to', testMongoUri(), '--db', target]);
  expect(migrated.stderr).toBe('');
  expect(migrated.code).toBe(0);
  expect(migrated.stdout).toMatch(/^tally migrate: [\d,]+ documents from FerretDB .* copied to /);
  const server = await serve(target);
  expect(await figures(server)).toEqual(expected);
  // The source's own database, read directly, still has everything: migrate only reads it.
  const client = new MongoClient(embeddedDatabaseUri(source));
  try {
    expect(await client.db('tally').collection('stats.daily').countDocuments()).toBeGreaterThan(0);
  } finally {
    await client.close();
  }
});
