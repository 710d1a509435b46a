/**
 * Visitors (issue 19) and dimensions (issue 20) through the mutations, over HTTP against a real server: what
 * `recordHit`, `recordHits` and `recordHitColumns` store for visitor ids, referrers, User-Agents, client IPs and
 * explicit values; bad input refused as BAD_USER_INPUT naming field and row, with nothing written; and no raw id,
 * address, User-Agent or referrer in any stored document of any collection.
 */
import type { Binary } from 'mongodb';
import type { Document } from 'mongodb';
import { visitorHash } from '../../src/domain/visitors/visitorHash';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { VISITOR_SECRET_COLLECTION } from '../../src/store/visitorSecret';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { storedCounters } from '../support/storedCounters';

const NOW = Date.parse('2026-03-10T12:30:00Z');
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const RAW = {
  visitor: 'raw-visitor-id-4711',
  clientIp: '193.0.6.139',
  referrer: 'https://www.google.de/search?q=private+words',
};

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('visitorsDimensions', {}, () => NOW);
});

afterAll(async () => {
  await app.stop();
});

const RECORD_HIT = `mutation($site: String!, $page: String!, $visitor: String, $referrer: String, $userAgent: String,
  $clientIp: String, $dimensions: DimensionValuesInput) {
  recordHit(site: $site, page: $page, visitor: $visitor, referrer: $referrer, userAgent: $userAgent,
    clientIp: $clientIp, dimensions: $dimensions) { count }
}`;
const RECORD_HITS = `mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted total } }`;
const RECORD_COLUMNS = `mutation($columns: HitColumnsInput!) { recordHitColumns(columns: $columns) { accepted total } }`;

const find = (collection: string, id: string): Promise<Document | null> =>
  app.database.db.collection<Document>(collection).findOne({ _id: id } as Document);

async function secret(): Promise<Uint8Array> {
  const stored = await app.database.db.collection(VISITOR_SECRET_COLLECTION).findOne({});
  return new Uint8Array((stored?.key as Binary).value());
}

describe('visitors and dimensions through the mutations', () => {
  it('recordHit stores the keyed visitor and every derived dimension, the UTM values from the page', async () => {
    const { body } = await app.graphql(RECORD_HIT, {
      site: 'one.example',
      page: '/landing?utm_source=Newsletter&utm_campaign=Spring',
      visitor: RAW.visitor,
      referrer: RAW.referrer,
      userAgent: IPHONE,
      clientIp: RAW.clientIp,
    });
    expect(body).toEqual({ data: { recordHit: { count: 1 } } });
    const day = await find(DAILY_COLLECTION, '20260310/one.example/landing?utm_source=Newsletter&utm_campaign=Spring');
    expect(day?.d).toEqual({
      source: { Google: 1 },
      utmSource: { newsletter: 1 },
      utmMedium: { '(none)': 1 },
      utmCampaign: { Spring: 1 },
      browser: { Safari: 1 },
      os: { iOS: 1 },
      device: { mobile: 1 },
      country: { NL: 1 },
    });
    expect(day?.v).toEqual(
      VisitorSketch.empty(11)
        .add(visitorHash(await secret(), RAW.visitor))
        .toStoredFields(),
    );
    const site = await find(DAILY_COLLECTION, '20260310/one.example');
    expect(Object.keys(site?.dv as Document).sort()).toEqual(['browser', 'device', 'os']);
  });

  it('recordHits takes the same inputs per hit, explicit values winning, and one visitor is one visitor', async () => {
    const hits = [
      { site: 'many.example', page: '/a', visitor: 'u1', userAgent: FIREFOX },
      { site: 'many.example', page: '/a', visitor: 'u1', userAgent: FIREFOX, count: 2 },
      { site: 'many.example', page: '/a', visitor: 'u2', dimensions: { country: 'fr', source: 'Partner' } },
    ];
    expect((await app.graphql(RECORD_HITS, { hits })).body).toEqual({
      data: { recordHits: { accepted: 3, total: 4 } },
    });
    const month = await find(MONTHLY_COLLECTION, '202603/many.example/a');
    expect(month?.d).toMatchObject({
      source: { '(direct)': 3, Partner: 1 },
      browser: { Firefox: 3, '(unknown)': 1 },
      country: { '(unknown)': 3, FR: 1 },
    });
    expect(Math.round(VisitorSketch.fromStoredFields(month?.v as Document, 11).estimate())).toBe(2);
  });

  it('recordHitColumns derives from dictionaries, -1 meaning none', async () => {
    const columns = {
      sites: ['cols.example'],
      pages: ['/x', '/y?utm_medium=Social'],
      pageIndex: [0, 1, 1, 0],
      visitors: ['v1', 'v2'],
      visitorIndex: [0, 1, -1, 0],
      userAgents: [FIREFOX, IPHONE],
      userAgentIndex: [0, 1, 1, -1],
      clientIps: [RAW.clientIp],
      clientIpIndex: [0, -1, 0, -1],
      referrers: ['https://cols.example/internal', 'android-app://com.reddit.frontpage/'],
      referrerIndex: [0, 1, -1, -1],
      dimensions: [{ device: 'tablet' }],
      dimensionIndex: [-1, -1, 0, -1],
    };
    expect((await app.graphql(RECORD_COLUMNS, { columns })).body).toEqual({
      data: { recordHitColumns: { accepted: 4, total: 4 } },
    });
    const site = await find(DAILY_COLLECTION, '20260310/cols.example');
    expect(site?.d).toEqual({
      source: { '(internal)': 1, Reddit: 1, '(direct)': 2 },
      utmSource: { '(none)': 4 },
      utmMedium: { '(none)': 2, social: 2 },
      utmCampaign: { '(none)': 4 },
      browser: { Firefox: 1, Safari: 2, '(unknown)': 1 },
      os: { Linux: 1, iOS: 2, '(unknown)': 1 },
      device: { desktop: 1, mobile: 1, tablet: 1, '(unknown)': 1 },
      country: { NL: 2, '(unknown)': 2 },
    });
    expect(Math.round(VisitorSketch.fromStoredFields(site?.v as Document, 13).estimate())).toBe(2);
  });

  const badInputs: Array<[string, string, Record<string, unknown>, string, string]> = [
    [
      'an empty visitor',
      RECORD_HITS,
      { hits: [{ site: 'bad1.example', page: '/', visitor: '' }] },
      'hits[0].visitor',
      'hits[0].visitor must not be empty',
    ],
    [
      'an over-long visitor',
      RECORD_HITS,
      {
        hits: [
          { site: 'bad2.example', page: '/' },
          { site: 'bad2.example', page: '/', visitor: 'v'.repeat(256) },
        ],
      },
      'hits[1].visitor',
      'hits[1].visitor must be at most 255 characters, got 256',
    ],
    [
      'a visitor with a control character',
      RECORD_HIT,
      { site: 'bad3.example', page: '/', visitor: 'a\u0007b' },
      'visitor',
      'visitor must not contain control characters, got U+0007 at index 1',
    ],
    [
      'a malformed client IP',
      RECORD_HIT,
      { site: 'bad4.example', page: '/', clientIp: '10.0.0.256' },
      'clientIp',
      'clientIp must be an IPv4 or IPv6 address such as "203.0.113.7" or "2001:db8::7", got "10.0.0.256"',
    ],
    [
      'an over-long referrer',
      RECORD_HITS,
      { hits: [{ site: 'bad5.example', page: '/', referrer: `https://r.example/${'r'.repeat(4096)}` }] },
      'hits[0].referrer',
      'hits[0].referrer must be at most 4096 characters, got 4114',
    ],
    [
      'an over-long User-Agent',
      RECORD_COLUMNS,
      {
        columns: {
          sites: ['bad6.example'],
          pages: ['/'],
          pageIndex: [0],
          userAgents: ['U'.repeat(1025)],
          userAgentIndex: [0],
        },
      },
      'columns.userAgents[0]',
      'columns.userAgents[0] must be at most 1024 characters, got 1025',
    ],
    [
      'a visitor in a columnar dictionary',
      RECORD_COLUMNS,
      {
        columns: {
          sites: ['bad7.example'],
          pages: ['/'],
          pageIndex: [0, 0],
          visitors: ['ok', ''],
          visitorIndex: [0, 1],
        },
      },
      'columns.visitors[1]',
      'columns.visitors[1] must not be empty',
    ],
  ];

  it.each(badInputs)(
    'refuses %s as BAD_USER_INPUT naming field and row, writing nothing',
    async (_, query, variables, field, message) => {
      const { body } = await app.graphql(query, variables);
      expect(body.errors).toMatchObject([{ message, extensions: { code: 'BAD_USER_INPUT', field } }]);
      const site = JSON.stringify(variables).match(/bad\d\.example/)?.[0] as string;
      expect((await storedCounters(app.database.db, site)).size).toBe(0);
    },
  );

  it('stores no raw visitor id, client address, User-Agent or referrer in any document of any collection', async () => {
    const dump: string[] = [];
    for (const { name } of await app.database.db.listCollections().toArray()) {
      for (const document of await app.database.db.collection(name).find().toArray())
        dump.push(JSON.stringify(document));
    }
    const text = dump.join('\n');
    expect(text.length).toBeGreaterThan(1000);
    // Short ids are looked for as whole JSON strings; the rest anywhere in the text.
    for (const raw of [
      RAW.visitor,
      '"u1"',
      '"v1"',
      RAW.clientIp,
      'iPhone OS',
      'Gecko/20100101',
      RAW.referrer,
      'private+words',
      'google.de',
    ]) {
      expect({ raw, stored: text.includes(raw) }).toEqual({ raw, stored: false });
    }
  });
});
