/**
 * Issue 20's promise through the mutations, on the built server as a person runs it (its own embedded database, API
 * keys from a keys file): hits with raw referrers, User-Agents, client addresses (public IPv4 and IPv6, private) and
 * UTM parameters in the page, and a few explicit values, sent through recordHit, recordHits and recordHitColumns
 * (as dictionaries). Every dimension's breakdown, of the site and of a page, the series of one value and the
 * per-dimension export are read back and compared with an independent recount (the values each input must count
 * under are pinned in test/support/dimensionInputs.ts). Bad inputs are refused naming field and row with nothing
 * written, and afterwards no raw address, User-Agent, referrer or visitor id is anywhere in the database. The
 * beacon and the importer: dimensionsBeacon.test.ts and dimensionsImport.test.ts.
 */
import { seededRandom } from '../../bench/shared/random';
import {
  BROWSER_NAMES,
  CLIENT_IPS,
  EXTERNAL_REFERRERS,
  internalReferrer,
  rawInputs,
  UNPARSEABLE_USER_AGENT,
  USER_AGENTS,
  UTM_QUERIES,
} from '../support/dimensionInputs';
import type { ClientIpCase, ReferrerCase, UserAgentCase, UtmCase } from '../support/dimensionInputs';
import { expectBreakdowns, readBreakdowns } from '../support/dimensionBreakdowns';
import type { Breakdowns } from '../support/dimensionBreakdowns';
import { embeddedDatabaseUri } from '../support/embeddedDatabaseUri';
import { httpGraphql } from '../support/httpGraphql';
import type { HttpGraphqlReply } from '../support/httpGraphql';
import { keyedDataDir, keyedEnv, stopAndRemove } from '../support/keyedDataDir';
import { distinctVisitors, recountBreakdown, recountDays, sumHits, within } from '../support/recountHits';
import type { DimensionValues, SentHit } from '../support/recountHits';
import { assertBuilt, startServer, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { storedRaws, storedText } from '../support/storedText';
import { bearer, SECRETS } from '../support/testKeys';

const DAY = 86_400_000;
const SHOP = 'shop.example';
const FROM = Date.UTC(2026, 9, 5);
const DAYS = 3;
const TO = FROM + DAYS * DAY;
const iso = (t: number): string => new Date(t).toISOString();
const RANGE = { from: iso(FROM), to: iso(TO) };
/** Why ±1: see test/support/dimensionBreakdowns.ts. */
const SMALL = 1;
const OPS = bearer(SECRETS.ops);

/** One hit as the test sends it through a mutation: raw inputs, and explicit values that win over them. */
interface MutationInput {
  readonly path: string;
  readonly utm: UtmCase;
  readonly at: number;
  readonly count: number;
  readonly visitor: string | undefined;
  readonly referrer: ReferrerCase;
  readonly userAgent: UserAgentCase | undefined;
  readonly clientIp: ClientIpCase | undefined;
  readonly explicit: { readonly source?: string; readonly country?: string } | undefined;
}

const PATHS = ['/', '/catalog', '/checkout'];
const SHOPPERS = Array.from({ length: 24 }, (_, i) => `shopper-${i}-c0ffee-id`);
const REFERRERS: ReferrerCase[] = [
  ...EXTERNAL_REFERRERS,
  internalReferrer(SHOP, '/cart/secret-basket-77'),
  // A subdomain of the site is another site: a source, not internal.
  { url: `https://help.${SHOP}/articles/returns-42`, source: `help.${SHOP}`, secret: '/articles/returns-42' },
];

function mutationInputs(): MutationInput[] {
  const random = seededRandom(20);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  return Array.from({ length: 240 }, (_, i) => {
    const userAgent = random() < 0.1 ? pick([undefined, UNPARSEABLE_USER_AGENT]) : USER_AGENTS[pick(BROWSER_NAMES)];
    return {
      path: pick(PATHS),
      utm: pick(UTM_QUERIES),
      at: FROM + Math.floor(random() * DAYS * DAY),
      count: 1 + Math.floor(random() * 3),
      visitor: random() < 0.8 ? pick(SHOPPERS) : undefined,
      referrer: pick(REFERRERS),
      userAgent,
      clientIp: random() < 0.9 ? pick(CLIENT_IPS) : undefined,
      explicit: i % 17 === 5 ? { source: 'Partner Portal', country: 'CH' } : undefined,
    };
  });
}

/** What a mutation input must count as: the pinned values of its inputs, the explicit ones winning. */
function expectedHit(input: MutationInput): SentHit {
  const values: DimensionValues = {
    SOURCE: input.explicit?.source ?? input.referrer.source,
    UTM_SOURCE: input.utm.utmSource,
    UTM_MEDIUM: input.utm.utmMedium,
    UTM_CAMPAIGN: input.utm.utmCampaign,
    BROWSER: input.userAgent?.browser ?? '(unknown)',
    OS: input.userAgent?.os ?? '(unknown)',
    DEVICE: input.userAgent?.device ?? '(unknown)',
    COUNTRY: input.explicit?.country ?? input.clientIp?.country ?? '(unknown)',
  };
  const page = input.path + input.utm.query;
  return { site: SHOP, page, at: input.at, count: input.count, visitor: input.visitor, values };
}

const INPUTS = mutationInputs();
const SHOP_HITS = INPUTS.map(expectedHit);

let dataDir: string;
let server: ServerProcess;
let base: string;

function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<HttpGraphqlReply<T>> {
  return httpGraphql<T>(`${base}/graphql`, query, variables, OPS);
}

const breakdowns = (where: { site: string; page?: string; from: string; to: string }): Promise<Breakdowns> =>
  readBreakdowns(`${base}/graphql`, OPS, where);

const hitFields = (input: MutationInput): Record<string, unknown> => ({
  site: SHOP,
  page: input.path + input.utm.query,
  at: iso(input.at),
  count: input.count,
  visitor: input.visitor,
  referrer: input.referrer.url,
  userAgent: input.userAgent?.userAgent,
  clientIp: input.clientIp?.ip,
  dimensions: input.explicit,
});

/** A few inputs through recordHit, half the rest through recordHits, the others through recordHitColumns. */
async function sendMutations(): Promise<void> {
  const single = INPUTS.slice(0, 6);
  for (const input of single) {
    const { body } = await graphql(
      `
        mutation (
          $site: String!
          $page: String!
          $at: DateTime!
          $count: Int!
          $visitor: String
          $referrer: String
          $userAgent: String
          $clientIp: String
          $dimensions: DimensionValuesInput
        ) {
          recordHit(
            site: $site
            page: $page
            at: $at
            count: $count
            visitor: $visitor
            referrer: $referrer
            userAgent: $userAgent
            clientIp: $clientIp
            dimensions: $dimensions
          ) {
            count
          }
        }
      `,
      hitFields(input),
    );
    expect(body).toEqual({ data: { recordHit: { count: input.count } } });
  }
  const rest = INPUTS.slice(single.length);
  const rows = rest.filter((_, i) => i % 2 === 0);
  const batch = await graphql(
    `
      mutation ($hits: [HitInput!]!) {
        recordHits(hits: $hits) {
          accepted
          total
        }
      }
    `,
    {
      hits: rows.map(hitFields),
    },
  );
  expect(batch.body).toEqual({ data: { recordHits: { accepted: rows.length, total: sumHits(rows) } } });

  const columns = rest.filter((_, i) => i % 2 === 1);
  const dictionary = <T>(values: ReadonlyArray<T | undefined>): { values: T[]; index: number[] } => {
    const distinct = [...new Set(values.filter((value): value is T => value !== undefined))];
    return { values: distinct, index: values.map((value) => (value === undefined ? -1 : distinct.indexOf(value))) };
  };
  const pages = dictionary(columns.map((input) => input.path + input.utm.query));
  const visitors = dictionary(columns.map((input) => input.visitor));
  const referrers = dictionary(columns.map((input) => input.referrer.url));
  const userAgents = dictionary(columns.map((input) => input.userAgent?.userAgent));
  const clientIps = dictionary(columns.map((input) => input.clientIp?.ip));
  const explicit = dictionary(columns.map((input) => input.explicit));
  const sent = await graphql(
    `
      mutation ($columns: HitColumnsInput!) {
        recordHitColumns(columns: $columns) {
          accepted
          total
        }
      }
    `,
    {
      columns: {
        sites: [SHOP],
        pages: pages.values,
        pageIndex: pages.index,
        atMs: columns.map((input) => input.at),
        count: columns.map((input) => input.count),
        visitors: visitors.values,
        visitorIndex: visitors.index,
        referrers: referrers.values,
        referrerIndex: referrers.index,
        userAgents: userAgents.values,
        userAgentIndex: userAgents.index,
        clientIps: clientIps.values,
        clientIpIndex: clientIps.index,
        dimensions: explicit.values,
        dimensionIndex: explicit.index,
      },
    },
  );
  expect(sent.body).toEqual({ data: { recordHitColumns: { accepted: columns.length, total: sumHits(columns) } } });
}

beforeAll(async () => {
  assertBuilt();
  dataDir = keyedDataDir('dimensions');
  server = startServer(keyedEnv(dataDir));
  base = await waitUntilServing(server);
  await sendMutations();
}, 120_000);

afterAll(() => stopAndRemove(server, dataDir));

describe('dimensions from the mutations: raw referrers, User-Agents, addresses and UTM parameters', () => {
  it("breaks the site's hits down by every dimension as recounted, with visitors per browser, OS and device", async () => {
    expectBreakdowns(await breakdowns({ site: SHOP, ...RANGE }), SHOP_HITS, true);
  });

  it("breaks one page's hits down by every dimension as recounted, without per-value visitors", async () => {
    const catalog = SHOP_HITS.filter((hit) => hit.page === '/catalog');
    expect(catalog.length).toBeGreaterThan(10);
    expectBreakdowns(await breakdowns({ site: SHOP, page: '/catalog', ...RANGE }), catalog, false);
  });

  it('answers the day series of one value of a dimension, with visitors where the site keeps them', async () => {
    const { body } = await graphql<
      Record<
        string,
        { total: number; visitors: number | null; points: Array<{ hits: number; visitors: number | null }> }
      >
    >(
      `
        query ($site: String!, $from: DateTime!, $to: DateTime!) {
          google: siteStats(
            site: $site
            range: { from: $from, to: $to }
            granularity: DAY
            filter: { dimension: SOURCE, value: "Google" }
          ) {
            total
            visitors
            points {
              hits
              visitors
            }
          }
          firefox: siteStats(
            site: $site
            range: { from: $from, to: $to }
            granularity: DAY
            filter: { dimension: BROWSER, value: "Firefox" }
          ) {
            total
            visitors
            points {
              hits
              visitors
            }
          }
          dutch: pageStats(
            site: $site
            page: "/catalog"
            range: { from: $from, to: $to }
            granularity: DAY
            filter: { dimension: COUNTRY, value: "NL" }
          ) {
            total
            visitors
            points {
              hits
              visitors
            }
          }
          nobody: siteStats(
            site: $site
            range: { from: $from, to: $to }
            granularity: DAY
            filter: { dimension: UTM_CAMPAIGN, value: "Never Sent" }
          ) {
            total
            points {
              hits
            }
          }
        }
      `,
      { site: SHOP, ...RANGE },
    );
    expect(body.errors).toBeUndefined();
    const data = body.data ?? {};
    const google = recountDays(
      SHOP_HITS.filter((hit) => hit.values?.SOURCE === 'Google'),
      FROM,
      DAYS,
    );
    expect(data.google?.points.map((p) => p.hits)).toEqual(google.hits);
    expect(google.hits.every((n) => n > 0)).toBe(true);
    // SOURCE keeps no per-value visitors (not in DIMENSION_VISITORS): null, never a guess.
    expect(data.google?.visitors).toBeNull();

    const firefoxHits = SHOP_HITS.filter((hit) => hit.values?.BROWSER === 'Firefox');
    const firefox = recountDays(firefoxHits, FROM, DAYS);
    expect(data.firefox?.points.map((p) => p.hits)).toEqual(firefox.hits);
    expect(within(data.firefox?.points.map((p) => p.visitors) ?? [], firefox.visitors, SMALL)).toEqual(
      firefox.visitors,
    );
    expect(within([data.firefox?.visitors ?? null], [distinctVisitors(firefoxHits)], SMALL)).toEqual([
      distinctVisitors(firefoxHits),
    ]);

    const dutch = recountDays(
      SHOP_HITS.filter((hit) => hit.page === '/catalog' && hit.values?.COUNTRY === 'NL'),
      FROM,
      DAYS,
    );
    expect(data.dutch?.points.map((p) => p.hits)).toEqual(dutch.hits);
    expect(data.dutch?.visitors).toBeNull();
    expect(data.nobody?.points.map((p) => p.hits)).toEqual([0, 0, 0]);
  });

  it('exports a breakdown per dimension, for the site (CSV) and for a page (NDJSON)', async () => {
    const csv = await fetch(`${base}/export?${new URLSearchParams({ site: SHOP, ...RANGE, dimension: 'BROWSER' })}`, {
      headers: OPS,
    });
    expect(csv.status).toBe(200);
    const rows = (await csv.text())
      .split('\r\n')
      .filter((line) => line !== '')
      .slice(1)
      .map((line) => line.split(','));
    const browsers = recountBreakdown(SHOP_HITS, 'BROWSER');
    expect(rows.map(([value, hits]) => [value, Number(hits)])).toEqual(browsers.map((row) => [row.value, row.hits]));
    expect(
      within(
        rows.map((row) => Number(row[2])),
        browsers.map((row) => row.visitors),
        SMALL,
      ),
    ).toEqual(browsers.map((row) => row.visitors));

    const ndjson = await fetch(
      `${base}/export?${new URLSearchParams({ site: SHOP, page: '/catalog', ...RANGE, dimension: 'utmSource', format: 'ndjson' })}`,
      { headers: OPS },
    );
    expect(ndjson.status).toBe(200);
    const lines = (await ndjson.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { value: string; hits: number; visitors: number | null });
    const sources = recountBreakdown(
      SHOP_HITS.filter((hit) => hit.page === '/catalog'),
      'UTM_SOURCE',
    );
    // A page keeps no per-value visitors or visit figures: null, never a guess.
    const none = { visitors: null, visits: null, bounceRate: null, visitDuration: null, viewsPerVisit: null };
    expect(lines).toEqual(sources.map(({ value, hits }) => ({ value, hits, ...none })));
  });
});

describe('bad dimension inputs over HTTP', () => {
  const ok = { site: 'refused.example', page: '/', at: '2026-10-05T12:00:00Z' };
  const RECORD_HITS = `mutation ($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;

  it.each<[string, string, Record<string, unknown>, string, string]>([
    [
      'a malformed address in recordHit',
      `mutation ($clientIp: String) { recordHit(site: "refused.example", page: "/", at: "2026-10-05T12:00:00Z", clientIp: $clientIp) { count } }`,
      { clientIp: '203.0.113.300' },
      'clientIp',
      'clientIp must be an IPv4 or IPv6 address such as "203.0.113.7" or "2001:db8::7", got "203.0.113.300"',
    ],
    [
      'an address with a port in the second entry of the clientIps dictionary',
      `mutation ($columns: HitColumnsInput!) { recordHitColumns(columns: $columns) { accepted } }`,
      {
        columns: {
          sites: ['refused.example'],
          pages: ['/'],
          pageIndex: [0, 0],
          atMs: [Date.parse(ok.at), Date.parse(ok.at)],
          clientIps: ['8.8.8.8', '8.8.4.4:443'],
          clientIpIndex: [0, 1],
        },
      },
      'columns.clientIps[1]',
      'columns.clientIps[1] must be an IPv4 or IPv6 address such as "203.0.113.7" or "2001:db8::7", got "8.8.4.4:443"',
    ],
    [
      'a referrer over 4,096 characters in the second row of recordHits',
      RECORD_HITS,
      { hits: [ok, { ...ok, referrer: `https://long.example/${'r'.repeat(4080)}` }] },
      'hits[1].referrer',
      'hits[1].referrer must be at most 4096 characters, got 4101',
    ],
    [
      'a User-Agent over 1,024 characters in recordHits',
      RECORD_HITS,
      { hits: [{ ...ok, userAgent: `Mozilla/5.0 ${'x'.repeat(1013)}` }] },
      'hits[0].userAgent',
      'hits[0].userAgent must be at most 1024 characters, got 1025',
    ],
  ])(
    'refuses %s as BAD_USER_INPUT naming field and row, and writes nothing',
    async (_, query, variables, field, message) => {
      const { body } = await graphql(query, variables);
      expect(body.errors).toMatchObject([{ message, extensions: { code: 'BAD_USER_INPUT', field } }]);
      const read = await graphql<{ siteStats: { total: number } }>(`
        {
          siteStats(
            site: "refused.example"
            range: { from: "2026-10-05T00:00:00Z", to: "2026-10-06T00:00:00Z" }
            granularity: DAY
          ) {
            total
          }
        }
      `);
      expect(read.body.data?.siteStats).toEqual({ total: 0 });
    },
  );

  it('refuses an unknown dimension in a breakdown and in an export as BAD_USER_INPUT', async () => {
    const { status, body } = await graphql(
      `
        query ($dimension: Dimension!) {
          breakdown(
            site: "shop.example"
            dimension: $dimension
            range: { from: "2026-10-05T00:00:00Z", to: "2026-10-06T00:00:00Z" }
          ) {
            totalCount
          }
        }
      `,
      { dimension: 'LANGUAGE' },
    );
    expect(status).toBe(400);
    expect(body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('Value "LANGUAGE" does not exist in "Dimension" enum.'),
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const exported = await fetch(
      `${base}/export?${new URLSearchParams({ site: SHOP, ...RANGE, dimension: 'LANGUAGE' })}`,
      {
        headers: OPS,
      },
    );
    expect(exported.status).toBe(400);
    expect(await exported.json()).toMatchObject({
      errors: [
        {
          message:
            'dimension must be one of SOURCE, UTM_SOURCE, UTM_MEDIUM, UTM_CAMPAIGN, BROWSER, OS, DEVICE, COUNTRY, got "LANGUAGE"',
          extensions: { code: 'BAD_USER_INPUT', field: 'dimension' },
        },
      ],
    });
  });
});

describe('what the database holds afterwards', () => {
  it('holds no address, User-Agent, full referrer or visitor id that was sent, in any key or value', async () => {
    const stored = await storedText(embeddedDatabaseUri(server), 'tally');
    expect(stored.documents).toBeGreaterThan(DAYS * PATHS.length);
    // The derived values are stored (keys escaped, the search undoes it), so it would find the raw ones too.
    expect(stored.text).toContain('Samsung Internet');
    expect(stored.text).toContain('blog.example.org');
    const raws = [
      ...rawInputs(),
      ...SHOPPERS,
      ...REFERRERS.flatMap((referrer) => [referrer.url ?? [], referrer.secret ?? []].flat()),
    ];
    expect(storedRaws(stored, raws)).toEqual([]);
    expect(storedRaws(stored, ['refused.example'])).toEqual([]);
  });
});
