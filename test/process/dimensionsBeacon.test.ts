/**
 * The beacon's visitors (issue 19) and dimensions (issue 20) on the built server as a person runs it behind a proxy:
 * its own embedded database, API keys and a site key from a keys file, TRUST_PROXY on. Beacons come from another
 * origin with real User-Agents, X-Forwarded-For addresses (IPv4, IPv6, private, a proxy chain), referrers and UTM
 * parameters in the page; every dimension's breakdown and the visitors of pages and site are read back and compared
 * with an independent recount (one person per address and User-Agent under the day's salt). Then the salts: only
 * the current period's is kept, a restart keeps it, and a new period counts a returning person again. Afterwards no raw address,
 * User-Agent or referrer is anywhere in the database. (The same beacon from a page in Chromium: test/browser.)
 */
import { Binary, MongoClient } from 'mongodb';
import {
  BOT_USER_AGENTS,
  CLIENT_IPS,
  EXTERNAL_REFERRERS,
  internalReferrer,
  PRIVATE_CLIENT_IPS,
  rawInputs,
  USER_AGENTS,
  UTM_QUERIES,
} from '../support/dimensionInputs';
import type { ClientIpCase, ReferrerCase, UtmCase } from '../support/dimensionInputs';
import { expectBreakdowns, readBreakdowns } from '../support/dimensionBreakdowns';
import { embeddedDatabaseUri } from '../support/embeddedDatabaseUri';
import { httpGraphql } from '../support/httpGraphql';
import type { HttpGraphqlReply } from '../support/httpGraphql';
import { keyedDataDir, keyedEnv, stopAndRemove } from '../support/keyedDataDir';
import { distinctVisitors, recountSpans, sumHits } from '../support/recountHits';
import type { SentHit } from '../support/recountHits';
import { assertBuilt, startServer, stopWith, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { storedRaws, storedText } from '../support/storedText';
import { ALLOWED_ORIGIN, bearer, SECRETS, SITE_KEY } from '../support/testKeys';
import { waitFor } from '../support/waitFor';

const DAY = 86_400_000;
const iso = (t: number): string => new Date(t).toISOString();
const OPS = bearer(SECRETS.ops);

let dataDir: string;
let server: ServerProcess;
let base: string;

function start(env: Record<string, string> = {}): ServerProcess {
  return startServer({
    ...keyedEnv(dataDir),
    TRUST_PROXY: 'true',
    // The salt sweep runs at this interval too.
    SWEEP_INTERVAL_MS: '1000',
    ...env,
  });
}

function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<HttpGraphqlReply<T>> {
  return httpGraphql<T>(`${base}/graphql`, query, variables, OPS);
}

beforeAll(async () => {
  assertBuilt();
  dataDir = keyedDataDir('beacon');
  server = start();
  base = await waitUntilServing(server);
}, 120_000);

afterAll(() => stopAndRemove(server, dataDir));

/** One beacon as a browser on ALLOWED_ORIGIN sends it, through a proxy that sets X-Forwarded-For. */
interface BeaconInput {
  readonly page: string;
  readonly referrer: ReferrerCase;
  readonly userAgent: string;
  readonly forwardedFor: string;
}

/** What a beacon must count as: the page without its query, the pinned values, one person per address and UA. */
function beaconHit(input: BeaconInput, at: number): SentHit | undefined {
  const agent = Object.values(USER_AGENTS).find((known) => known.userAgent === input.userAgent);
  if (agent === undefined) return undefined;
  const client = input.forwardedFor.split(',')[0]?.trim() as string;
  const utm = UTM_QUERIES.find((candidate) => candidate.query !== '' && input.page.endsWith(candidate.query));
  return {
    site: 'a.example',
    page: input.page.split('?')[0] as string,
    at,
    count: 1,
    visitor: `${client} ${input.userAgent}`,
    values: {
      SOURCE: input.referrer.source,
      UTM_SOURCE: utm?.utmSource ?? '(none)',
      UTM_MEDIUM: utm?.utmMedium ?? '(none)',
      UTM_CAMPAIGN: utm?.utmCampaign ?? '(none)',
      BROWSER: agent.browser,
      OS: agent.os,
      DEVICE: agent.device,
      COUNTRY: CLIENT_IPS.find((known) => known.ip === client)?.country ?? '(unknown)',
    },
  };
}

const [GOOGLE, HACKER_NEWS, REDDIT, TWITTER] = EXTERNAL_REFERRERS as [
  ReferrerCase,
  ReferrerCase,
  ReferrerCase,
  ReferrerCase,
];
const DIRECT: ReferrerCase = { url: undefined, source: '(direct)' };
const [NEWSLETTER, MASTODON] = UTM_QUERIES.slice(1) as [UtmCase, UtmCase];
const BEACONS: readonly BeaconInput[] = [
  {
    page: `/landing${NEWSLETTER.query}`,
    referrer: GOOGLE,
    userAgent: USER_AGENTS.chromeWindows.userAgent,
    forwardedFor: '81.169.145.1',
  },
  {
    page: '/pricing',
    referrer: internalReferrer('a.example', '/landing'),
    userAgent: USER_AGENTS.chromeWindows.userAgent,
    forwardedFor: '81.169.145.1',
  },
  {
    page: `/landing${MASTODON.query}`,
    referrer: HACKER_NEWS,
    userAgent: USER_AGENTS.safariIphone.userAgent,
    forwardedFor: '2001:67c:2e8:22::c100:68b',
  },
  { page: '/', referrer: DIRECT, userAgent: USER_AGENTS.firefoxLinux.userAgent, forwardedFor: '81.169.145.1' },
  {
    page: '/pricing',
    referrer: TWITTER,
    userAgent: USER_AGENTS.chromeWindows.userAgent,
    forwardedFor: (PRIVATE_CLIENT_IPS[0] as ClientIpCase).ip,
  },
  {
    page: '/pricing',
    referrer: DIRECT,
    userAgent: USER_AGENTS.safariIphone.userAgent,
    forwardedFor: '2001:67c:2e8:22::c100:68b',
  },
  { page: '/', referrer: GOOGLE, userAgent: BOT_USER_AGENTS[0], forwardedFor: '8.8.8.8' },
  { page: '/', referrer: REDDIT, userAgent: USER_AGENTS.samsungTablet.userAgent, forwardedFor: '8.8.8.8, 10.0.0.1' },
];

function sendBeacon(to: string, input: BeaconInput): Promise<Response> {
  return fetch(`${to}/api/hit`, {
    method: 'POST',
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      origin: ALLOWED_ORIGIN,
      'user-agent': input.userAgent,
      'x-forwarded-for': input.forwardedFor,
    },
    body: JSON.stringify({ key: SITE_KEY, site: 'a.example', page: input.page, referrer: input.referrer.url }),
  });
}

const startOfUtcDay = (t: number): number => t - (t % DAY);
const saltId = (t: number): string => `day:${iso(t).slice(0, 10)}`;

async function saltIds(): Promise<string[]> {
  const client = new MongoClient(embeddedDatabaseUri(server));
  try {
    const salts = await client.db('tally').collection('visitors.salts').find().toArray();
    return salts.map((salt) => String(salt._id)).sort();
  } finally {
    await client.close();
  }
}

describe('the beacon from another origin, behind a trusted proxy', () => {
  let today: { from: string; to: string };
  let beaconHits: SentHit[];

  async function siteVisitors(): Promise<{ total: number; visitors: number | null }> {
    const { body } = await graphql<{ siteStats: { total: number; visitors: number | null } }>(
      `
        query ($from: DateTime!, $to: DateTime!) {
          siteStats(site: "a.example", range: { from: $from, to: $to }, granularity: DAY) {
            total
            visitors
          }
        }
      `,
      today,
    );
    expect(body.errors).toBeUndefined();
    return body.data?.siteStats as { total: number; visitors: number | null };
  }

  it('counts every dimension of the request and its payload, and one visitor per address and User-Agent', async () => {
    const first = Date.now();
    beaconHits = [];
    for (const input of BEACONS) {
      const response = await sendBeacon(base, input);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
      const hit = beaconHit(input, Date.now());
      if (hit) beaconHits.push(hit);
    }
    // The hits are stamped by the server's clock: read the UTC days they can fall in.
    today = { from: iso(startOfUtcDay(first)), to: iso(startOfUtcDay(Date.now()) + DAY) };
    expect(beaconHits).toHaveLength(BEACONS.length - 1);
    expectBreakdowns(await readBreakdowns(`${base}/graphql`, OPS, { site: 'a.example', ...today }), beaconHits, true);

    const { body } = await graphql<Record<string, { total: number; visitors: number | null }>>(
      `
        query ($from: DateTime!, $to: DateTime!) {
          landing: pageStats(site: "a.example", page: "/landing", range: { from: $from, to: $to }, granularity: DAY) {
            total
            visitors
          }
          pricing: pageStats(site: "a.example", page: "/pricing", range: { from: $from, to: $to }, granularity: DAY) {
            total
            visitors
          }
          home: pageStats(site: "a.example", page: "/", range: { from: $from, to: $to }, granularity: DAY) {
            total
            visitors
          }
        }
      `,
      today,
    );
    expect(body.errors).toBeUndefined();
    for (const [alias, page] of [
      ['landing', '/landing'],
      ['pricing', '/pricing'],
      ['home', '/'],
    ]) {
      const hits = beaconHits.filter((hit) => hit.page === page);
      expect({ page, stats: body.data?.[alias as string] }).toEqual({
        page,
        stats: { total: sumHits(hits), visitors: distinctVisitors(hits) },
      });
    }
    // Seven human beacons from five people (an address with another User-Agent is another person); the bot uncounted.
    expect(await siteVisitors()).toEqual({ total: 7, visitors: 5 });
    expect(distinctVisitors(beaconHits)).toBe(5);
  });

  it("answers this hour's visitors from the minute sketches, and exports today's", async () => {
    const HOUR = 3_600_000;
    const hours = [...new Set(beaconHits.map((hit) => hit.at - (hit.at % HOUR)))].sort();
    const range = { from: iso(hours[0] as number), to: iso((hours.at(-1) as number) + HOUR) };
    const { body } = await graphql<
      Record<
        'page' | 'site',
        { visitors: number | null; points: Array<{ t: string; hits: number; visitors: number | null }> }
      >
    >(
      `
        query ($from: DateTime!, $to: DateTime!) {
          page: pageStats(site: "a.example", page: "/pricing", range: { from: $from, to: $to }, granularity: HOUR) {
            visitors
            points {
              t
              hits
              visitors
            }
          }
          site: siteStats(site: "a.example", range: { from: $from, to: $to }, granularity: HOUR) {
            visitors
            points {
              t
              hits
              visitors
            }
          }
        }
      `,
      range,
    );
    expect(body.errors).toBeUndefined();
    const pricing = beaconHits.filter((hit) => hit.page === '/pricing');
    const spans = hours.map((start): [number, number] => [start, start + HOUR]);
    for (const [name, stats, hits] of [
      ['/pricing', body.data?.page, pricing],
      ['the site', body.data?.site, beaconHits],
    ] as const) {
      const truth = recountSpans(hits, spans);
      expect({ name, hits: stats?.points.map((p) => p.hits), visitors: stats?.points.map((p) => p.visitors) }).toEqual({
        name,
        hits: truth.hits,
        visitors: truth.visitors,
      });
      expect({ name, visitors: stats?.visitors }).toEqual({ name, visitors: distinctVisitors(hits) });
    }

    const csv = await fetch(`${base}/export?${new URLSearchParams({ site: 'a.example', ...today })}`, { headers: OPS });
    expect(csv.status).toBe(200);
    const rows = (await csv.text())
      .split('\r\n')
      .filter((line) => line !== '')
      .slice(1)
      .map((line) => line.split(','));
    expect(rows.reduce((sum, row) => sum + Number(row[2]), 0)).toBe(beaconHits.length);
    // Per day (the day's salt): the people of each day.
    expect(rows.map((row) => Number(row[5]))).toEqual(
      recountSpans(
        beaconHits,
        rows.map((row): [number, number] => [Date.parse(row[0] as string), Date.parse(row[1] as string)]),
      ).visitors,
    );
  });

  it('keeps only the current period’s salt: salts of past periods are swept away', async () => {
    const current = saltId(Date.now());
    expect(await saltIds()).toEqual([current]);
    // Salts a day and a month ago, as an instance running then would have left them.
    const client = new MongoClient(embeddedDatabaseUri(server));
    try {
      await client
        .db('tally')
        .collection<{ _id: string; salt: Binary; createdAt: Date }>('visitors.salts')
        .insertMany([
          {
            _id: saltId(Date.now() - DAY),
            salt: new Binary(Buffer.alloc(32, 7)),
            createdAt: new Date(Date.now() - DAY),
          },
          { _id: 'month:2026-01', salt: new Binary(Buffer.alloc(32, 9)), createdAt: new Date(Date.UTC(2026, 0, 1)) },
        ]);
    } finally {
      await client.close();
    }
    await waitFor(saltIds, {
      until: (ids) => ids.length === 1,
      timeoutMs: 20_000,
      what: 'the sweep (every second) to delete the salts of past periods',
    });
    expect(await saltIds()).toEqual([saltId(Date.now())]);
  });

  it("keeps the day's salt across a restart: a returning person on the same day is not counted again", async () => {
    expect(await stopWith(server, 'SIGTERM')).toBe(0);
    server = start();
    base = await waitUntilServing(server);
    const before = await siteVisitors();
    // The first person again, on a new process: it reads the day's salt back from the database.
    expect((await sendBeacon(base, BEACONS[0] as BeaconInput)).status).toBe(204);
    expect(await siteVisitors()).toEqual({ total: before.total + 1, visitors: before.visitors });
  });

  it('counts a returning person again under a new salt period (VISITOR_SALT_ROTATION=month after day)', async () => {
    expect(await stopWith(server, 'SIGTERM')).toBe(0);
    server = start({ VISITOR_SALT_ROTATION: 'month' });
    base = await waitUntilServing(server);
    const before = await siteVisitors();
    // The first person again: the same address and User-Agent, hashed with the month's salt, is someone new.
    expect((await sendBeacon(base, BEACONS[0] as BeaconInput)).status).toBe(204);
    expect(await siteVisitors()).toEqual({ total: before.total + 1, visitors: (before.visitors as number) + 1 });
    const month = `month:${iso(Date.now()).slice(0, 7)}`;
    await waitFor(saltIds, {
      until: (ids) => ids.length === 1 && ids[0] === month,
      timeoutMs: 20_000,
      what: `only the month's salt (${month}) to be left once the day's was swept`,
    });
    // And again under the same salt: still one person.
    expect((await sendBeacon(base, BEACONS[1] as BeaconInput)).status).toBe(204);
    expect(await siteVisitors()).toEqual({ total: before.total + 2, visitors: (before.visitors as number) + 1 });
  });
});

describe('what the database holds afterwards', () => {
  it('holds no address, User-Agent or full referrer that a beacon sent, in any key or value', async () => {
    const stored = await storedText(embeddedDatabaseUri(server), 'tally');
    expect(stored.collections).toContain('visitors.salts');
    // The derived values are stored (keys escaped, the search undoes it), so it would find the raw ones too.
    expect(stored.text).toContain('Samsung Internet');
    expect(stored.text).toContain('Hacker News');
    const raws = [...rawInputs(), '10.0.0.1', ...BEACONS.flatMap((beacon) => beacon.referrer.url ?? [])];
    expect(storedRaws(stored, raws)).toEqual([]);
  });
});
