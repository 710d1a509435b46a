/**
 * The importer's visitors (issue 19) and dimensions (issue 20), with the built `tally` CLI and the built server as a
 * person runs them: access logs in combined format and in an nginx log_format with $http_referer and
 * $http_user_agent, carrying real referrers, User-Agents, IPv4 and IPv6 addresses, UTM parameters, bots, static
 * assets, errors and POSTs, imported over GraphQL into a running server and, in another data directory, straight
 * into the database with --mongodb-uri. Every dimension's breakdown and the visitors per day are read back and
 * compared with an independent recount of the lines (the importer's visitor is one address and User-Agent per UTC
 * day; bots, assets, errors and other methods are not counted). Running an import again counts nothing twice;
 * --no-visitors sends none. Afterwards no raw address, User-Agent or referrer is in either database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../../bench/shared/random';
import { timeLocal } from '../../bench/shared/accessLogs';
import { createLogger } from '../../src/logging/createLogger';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';
import type { EmbeddedDatabase } from '../../src/store/embedded/startEmbeddedDatabase';
import { startCliChild } from '../support/builtCli';
import {
  BOT_USER_AGENTS,
  BROWSER_NAMES,
  CLIENT_IPS,
  EXTERNAL_REFERRERS,
  internalReferrer,
  rawInputs,
  USER_AGENTS,
  UTM_QUERIES,
} from '../support/dimensionInputs';
import type { ClientIpCase, ReferrerCase, UserAgentCase, UtmCase } from '../support/dimensionInputs';
import { expectBreakdowns, readBreakdowns } from '../support/dimensionBreakdowns';
import { embeddedDatabaseUri } from '../support/embeddedDatabaseUri';
import { httpGraphql } from '../support/httpGraphql';
import { distinctVisitors, recountDays, sumHits, within } from '../support/recountHits';
import type { SentHit } from '../support/recountHits';
import { assertBuilt, startServer, stopWith, temporaryDataDir, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { storedRaws, storedText } from '../support/storedText';

const DAY = 86_400_000;
const FROM = Date.UTC(2026, 8, 14);
const DAYS = 3;
const iso = (t: number): string => new Date(t).toISOString();
const RANGE = { from: iso(FROM), to: iso(FROM + DAYS * DAY) };
/** nginx's `main` format behind a load balancer, with the virtual host in front and the request time after. */
const NGINX_FORMAT =
  '$host $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for" $request_time';
/** Why ±1: see test/support/dimensionBreakdowns.ts. */
const SMALL = 1;

type Kind = 'view' | 'status' | 'method' | 'asset' | 'bot';

/** One request as a web server logged it, and what the importer must make of it. */
interface LogLine {
  readonly host: string;
  readonly ip: ClientIpCase;
  readonly userAgent: UserAgentCase | string | undefined;
  readonly referrer: ReferrerCase;
  readonly method: string;
  readonly target: string;
  readonly status: number;
  readonly at: number;
  /** Minutes east of UTC the server wrote the time in. */
  readonly offsetMinutes: number;
  readonly kind: Kind;
  /** The page, as tally must count it (query dropped, percent-decoded), and its UTM values. */
  readonly page: string;
  readonly utm: UtmCase;
}

/**
 * People: an address and a browser each; the first three addresses are shared by two browsers each (a NAT). Over
 * the 3 days a value has at most 30 visitor ids (desktop: 10 people, a new id each day), inside the per-value
 * sketches' sparse range (32), where ±1 holds.
 */
const PEOPLE = Array.from({ length: 18 }, (_, k) => ({
  ip: CLIENT_IPS[k % CLIENT_IPS.length] as ClientIpCase,
  userAgent: USER_AGENTS[BROWSER_NAMES[(k * 3) % BROWSER_NAMES.length] as keyof typeof USER_AGENTS],
}));
const PATHS = [
  { target: '/', page: '/' },
  { target: '/docs/install', page: '/docs/install' },
  { target: '/caf%C3%A9', page: '/café' },
];
const ASSETS = ['/static/app.css', '/img/logo.png?v=3', '/favicon.ico', '/fonts/inter.woff2'];

function logLines(seed: number, count: number, site: string, hosts: readonly string[]): LogLine[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const referrers = [...EXTERNAL_REFERRERS, internalReferrer(site, '/docs/secret-page-31')];
  const lines: LogLine[] = [];
  for (let i = 0; i < count; i += 1) {
    const person = pick(PEOPLE);
    const where = pick(PATHS);
    const utm = pick(UTM_QUERIES);
    const roll = random();
    const line: LogLine = {
      host: pick(hosts),
      ip: person.ip,
      userAgent: person.userAgent,
      referrer: pick(referrers),
      method: 'GET',
      target: where.target + utm.query,
      status: pick([200, 200, 304]),
      // Whole seconds: a log has no milliseconds.
      at: FROM + Math.floor(random() * DAYS * 86_400) * 1_000,
      offsetMinutes: pick([0, 120, -420, 330]),
      kind: 'view',
      page: where.page,
      utm,
    };
    if (roll < 0.6) lines.push(line);
    else if (roll < 0.7) lines.push({ ...line, status: pick([404, 500]), kind: 'status' });
    else if (roll < 0.75) lines.push({ ...line, method: pick(['POST', 'HEAD']), kind: 'method' });
    else if (roll < 0.88) lines.push({ ...line, target: pick(ASSETS), kind: 'asset' });
    else lines.push({ ...line, userAgent: pick([...BOT_USER_AGENTS, undefined]), kind: 'bot' });
  }
  return lines;
}

const userAgentText = (line: LogLine): string =>
  line.userAgent === undefined ? '-' : typeof line.userAgent === 'string' ? line.userAgent : line.userAgent.userAgent;

function combined(line: LogLine, remoteAddr = line.ip.ip): string {
  return (
    `${remoteAddr} - - [${timeLocal(line.at, line.offsetMinutes)}] "${line.method} ${line.target} HTTP/1.1" ` +
    `${line.status} 512 "${line.referrer.url ?? '-'}" "${userAgentText(line)}"`
  );
}

/** Every other line came through the load balancer (10.0.0.2), which logs the client first in X-Forwarded-For. */
function nginx(line: LogLine, index: number): string {
  return index % 2 === 0
    ? `${line.host} ${combined(line, '10.0.0.2')} "${line.ip.ip}, 10.0.0.1" 0.004`
    : `${line.host} ${combined(line)} "-" 0.004`;
}

/** What the importer must count: page views only, one visitor per address, User-Agent and UTC day. */
function expectedHits(lines: readonly LogLine[], site: string, visitors: boolean): SentHit[] {
  return lines
    .filter((line) => line.kind === 'view')
    .map((line) => {
      const agent = line.userAgent as UserAgentCase;
      const day = iso(line.at - (line.at % DAY)).slice(0, 10);
      return {
        site,
        page: line.page,
        at: line.at,
        count: 1,
        visitor: visitors ? `${line.ip.ip} ${agent.userAgent} ${day}` : undefined,
        values: {
          SOURCE: line.referrer.source,
          UTM_SOURCE: line.utm.utmSource,
          UTM_MEDIUM: line.utm.utmMedium,
          UTM_CAMPAIGN: line.utm.utmCampaign,
          BROWSER: agent.browser,
          OS: agent.os,
          DEVICE: agent.device,
          COUNTRY: line.ip.country,
        },
      };
    });
}

function filteredCounts(lines: readonly LogLine[]): Record<Exclude<Kind, 'view'>, number> {
  const count = (kind: Kind): number => lines.filter((line) => line.kind === kind).length;
  return { status: count('status'), method: count('method'), asset: count('asset'), bot: count('bot') };
}

const COMBINED_LINES = logLines(31, 400, 'logs.example', ['logs.example']);
const NGINX_LINES = logLines(32, 200, 'nginx.example', ['nginx.example', 'www.nginx.example', 'NGINX.Example']);
const QUIET_LINES = logLines(33, 150, 'quiet.example', ['quiet.example']);

let dir: string;
let server: ServerProcess;
let base: string;
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  assertBuilt();
  dir = temporaryDataDir('import');
  fs.writeFileSync(path.join(dir, 'combined.log'), `${COMBINED_LINES.map((line) => combined(line)).join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'nginx.log'), `${NGINX_LINES.map(nginx).join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'quiet.log'), `${QUIET_LINES.map((line) => combined(line)).join('\n')}\n`);
  server = startServer({ TALLY_DATA_DIR: path.join(dir, 'server') });
  base = await waitUntilServing(server);
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    expect(await stopWith(server, 'SIGTERM')).toBe(0);
  }
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Summary {
  outcome: string;
  hitsImported: number;
  filtered: Record<string, number>;
  unparseable: number;
  invalid: number;
}

/** Runs `tally import` to the end; its JSON summary. */
async function runImport(args: string[]): Promise<Summary> {
  const { code, stdout, stderr } = await startCliChild(['import', '--progress', 'none', '--json', ...args]).done;
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(stdout) as Summary;
}

interface DayStats {
  total: number;
  visitors: number | null;
  points: Array<{ hits: number; visitors: number | null }>;
}

async function dayStats(graphqlUrl: string, site: string, page?: string): Promise<DayStats> {
  const series = page === undefined ? 'siteStats(site: $site' : 'pageStats(site: $site, page: $page';
  const { body } = await httpGraphql<{ stats: DayStats }>(
    graphqlUrl,
    `query ($site: String!, ${page === undefined ? '' : '$page: String!, '}$from: DateTime!, $to: DateTime!) {
      stats: ${series}, range: { from: $from, to: $to }, granularity: DAY) { total visitors points { hits visitors } }
    }`,
    { site, page, ...RANGE },
  );
  expect(body.errors).toBeUndefined();
  return body.data?.stats as DayStats;
}

/**
 * The site's and one page's hits and visitors per day and over the range (from GraphQL, and the site's from
 * GET /export), and every dimension's breakdown of the site, against the recount.
 */
async function expectImported(serverBase: string, site: string, hits: readonly SentHit[]): Promise<void> {
  const graphqlUrl = `${serverBase}/graphql`;
  for (const page of [undefined, '/café']) {
    const pageHits = page === undefined ? hits : hits.filter((hit) => hit.page === page);
    const days = await dayStats(graphqlUrl, site, page);
    const truth = recountDays(pageHits, FROM, DAYS);
    expect({ page, hits: days.points.map((p) => p.hits), total: days.total }).toEqual({
      page,
      hits: truth.hits,
      total: sumHits(pageHits),
    });
    expect({
      page,
      visitors: within(
        days.points.map((p) => p.visitors),
        truth.visitors,
        SMALL,
      ),
    }).toEqual({
      page,
      visitors: truth.visitors,
    });
    expect({ page, visitors: within([days.visitors], [distinctVisitors(pageHits)], SMALL) }).toEqual({
      page,
      visitors: [distinctVisitors(pageHits)],
    });
  }
  const csv = await fetch(`${serverBase}/export?${new URLSearchParams({ site, ...RANGE })}`);
  expect(csv.status).toBe(200);
  const rows = (await csv.text())
    .split('\r\n')
    .filter((line) => line !== '')
    .slice(1)
    .map((line) => line.split(','));
  const truth = recountDays(hits, FROM, DAYS);
  expect(rows.map((row) => Number(row[2]))).toEqual(truth.hits);
  expect(
    within(
      rows.map((row) => Number(row[5])),
      truth.visitors,
      SMALL,
    ),
  ).toEqual(truth.visitors);
  expectBreakdowns(await readBreakdowns(graphqlUrl, {}, { site, ...RANGE }), hits, true);
}

describe('tally import into a running server (GraphQL)', () => {
  const hits = expectedHits(COMBINED_LINES, 'logs.example', true);
  const args = (): string[] => ['--url', `${base}/graphql`, '--site', 'logs.example', '--batch-lines', '50'];

  it('counts the page views of a combined log by every dimension, and its visitors per day, as recounted', async () => {
    const summary = await runImport([...args(), path.join(dir, 'combined.log')]);
    expect(summary).toMatchObject({
      outcome: 'complete',
      hitsImported: hits.length,
      filtered: filteredCounts(COMBINED_LINES),
      unparseable: 0,
      invalid: 0,
    });
    // Visitors are per UTC day: someone on two days counts on each, so the range has more than the 18 people.
    expect(distinctVisitors(hits)).toBeGreaterThan(PEOPLE.length);
    await expectImported(base, 'logs.example', hits);
  });

  it('counts nothing twice when the same import runs again', async () => {
    const summary = await runImport([...args(), path.join(dir, 'combined.log')]);
    expect(summary.outcome).toBe('complete');
    await expectImported(base, 'logs.example', hits);
  });

  it("reads an nginx log_format's $http_referer, $http_user_agent and $http_x_forwarded_for, sites from $host", async () => {
    const summary = await runImport([
      '--url',
      `${base}/graphql`,
      '--format',
      NGINX_FORMAT,
      '--map-host',
      'www.nginx.example=nginx.example',
      '--batch-lines',
      '50',
      path.join(dir, 'nginx.log'),
    ]);
    const nginxHits = expectedHits(NGINX_LINES, 'nginx.example', true);
    expect(summary).toMatchObject({ outcome: 'complete', hitsImported: nginxHits.length, unparseable: 0 });
    await expectImported(base, 'nginx.example', nginxHits);
  });

  it('sends no visitors with --no-visitors, and still every dimension', async () => {
    await runImport([
      '--url',
      `${base}/graphql`,
      '--site',
      'quiet.example',
      '--no-visitors',
      path.join(dir, 'quiet.log'),
    ]);
    const quietHits = expectedHits(QUIET_LINES, 'quiet.example', false);
    expect(sumHits(quietHits)).toBeGreaterThan(50);
    const days = await dayStats(`${base}/graphql`, 'quiet.example');
    expect(days.visitors).toBe(0);
    await expectImported(base, 'quiet.example', quietHits);
  });
});

describe('tally import --mongodb-uri, straight into the database of another data directory', () => {
  let database: EmbeddedDatabase;
  let reader: ServerProcess;

  it('counts the same as over GraphQL, again nothing twice, and a server started on the database reads it', async () => {
    const dataDir = path.join(dir, 'direct');
    database = await startFerretdb({ dataDir, logger: createLogger({ level: 'silent', nodeEnv: 'test' }) });
    cleanups.push(() => database.stop());
    const args = ['--mongodb-uri', database.uri, '--db', 'tally', '--site', 'logs.example', '--batch-lines', '50'];
    const hits = expectedHits(COMBINED_LINES, 'logs.example', true);
    const first = await runImport([...args, path.join(dir, 'combined.log')]);
    expect(first).toMatchObject({ outcome: 'complete', hitsImported: hits.length });
    expect((await runImport([...args, path.join(dir, 'combined.log')])).outcome).toBe('complete');

    // The importer wrote alone (FerretDB wants one writer); now a server reads what it wrote.
    reader = startServer({ MONGODB_URI: database.uri, MONGODB_DB: 'tally' });
    cleanups.push(async () => {
      if (reader.child.exitCode === null && reader.child.signalCode === null) await stopWith(reader, 'SIGTERM');
    });
    const readerBase = await waitUntilServing(reader);
    await expectImported(readerBase, 'logs.example', hits);
  });

  it('leaves no raw address, User-Agent or referrer in either database', async () => {
    const raws = [
      ...rawInputs(),
      ...[...COMBINED_LINES, ...NGINX_LINES, ...QUIET_LINES].flatMap((line) => line.referrer.url ?? []),
      '/docs/secret-page-31',
      '10.0.0.1',
      '10.0.0.2',
    ];
    for (const stored of [
      await storedText(embeddedDatabaseUri(server), 'tally'),
      await storedText(database.uri, 'tally'),
    ]) {
      expect(stored.text).toContain('logs.example');
      expect(stored.text).toContain('Samsung Internet');
      expect(storedRaws(stored, raws)).toEqual([]);
    }
  });
});
