/**
 * HitEnricher: what a hit's visitor and dimension inputs become (a keyed hash, derived values), what is refused and
 * how the refusal names its field and row, and that a columnar batch gets, row for row, the values deriveDimensions
 * gives the same inputs while deriving each dictionary entry once.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { bundledCountryDatabasePath } from '../../../src/domain/dimensions/bundledCountryDatabase';
import { CountryLookup } from '../../../src/domain/dimensions/CountryLookup';
import { deriveDimensions } from '../../../src/domain/dimensions/deriveDimensions';
import type { ExplicitDimensions } from '../../../src/domain/dimensions/deriveDimensions';
import { UserAgentParser } from '../../../src/domain/dimensions/UserAgentParser';
import type { Hit, HitInputFields } from '../../../src/domain/Hit';
import { InputRejectedError } from '../../../src/domain/InputRejectedError';
import { parseHitColumns } from '../../../src/domain/parseHitColumns';
import { RejectReason } from '../../../src/domain/RejectReason';
import { beaconVisitorHash } from '../../../src/domain/visitors/beaconVisitorHash';
import { visitorHash } from '../../../src/domain/visitors/visitorHash';
import type { HitColumnsRequest } from '../../../src/ingest/HitColumnsRequest';
import { HitEnricher } from '../../../src/ingest/HitEnricher';
import type { DimensionSources } from '../../../src/ingest/loadDimensionSources';

const SECRET = new Uint8Array(32).fill(7);
const countries = new CountryLookup(readFileSync(bundledCountryDatabasePath()), 'bundled');
const sources = (): DimensionSources => ({ userAgents: new UserAgentParser(), countries });
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const NOW = Date.parse('2026-11-21T12:00:00Z');
const LIMITS = { maxCount: 1000, maxClockSkewMs: 60_000, maxBatchSize: 10_000 };

const base = (fields: Partial<Hit> = {}): Hit => ({ site: 'example.com', page: '/p', at: NOW, count: 1, ...fields });
const input = (fields: Partial<HitInputFields> = {}): HitInputFields => ({
  site: 'example.com',
  page: '/p',
  ...fields,
});
const row = (name: string) => `hits[3].${name}`;

function refusal(run: () => unknown): { reason: RejectReason; message: string; field: string | undefined } {
  try {
    run();
  } catch (error) {
    if (error instanceof InputRejectedError)
      return { reason: error.reason, message: error.message, field: error.field };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('HitEnricher.enrich (recordHit, recordHits)', () => {
  const enricher = new HitEnricher(SECRET, sources());

  it('keeps the keyed hash of the visitor id, never the id', () => {
    const hit = enricher.enrich(base(), input({ visitor: 'account-42' }), row);
    expect(hit.visitor).toEqual(visitorHash(SECRET, 'account-42'));
    expect(JSON.stringify(hit)).not.toContain('account-42');
  });

  it('derives every dimension as deriveDimensions does, the page being where UTM values are', () => {
    const raw = { referrer: 'https://www.google.de/', userAgent: IPHONE, clientIp: '193.0.6.139' };
    const hit = enricher.enrich(
      base({ page: '/l?utm_source=News' }),
      input({ ...raw, page: '/l?utm_source=News' }),
      row,
    );
    expect(hit.dimensions).toEqual(
      deriveDimensions({ ...raw, pageUrl: '/l?utm_source=News' }, undefined, { siteHost: 'example.com', ...sources() }),
    );
    expect(hit.dimensions).toMatchObject({ source: 'Google', utmSource: 'news', os: 'iOS', country: 'NL' });
    expect(JSON.stringify(hit)).not.toMatch(/193\.0\.6\.139|iPhone OS|google\.de/);
  });

  it('gives a hit without inputs the markers, as deriveDimensions would', () => {
    expect(enricher.enrich(base(), input(), row).dimensions).toEqual(
      deriveDimensions({ pageUrl: '/p' }, undefined, { siteHost: 'example.com', ...sources() }),
    );
  });

  it('lets explicit values win, normalised', () => {
    const hit = enricher.enrich(
      base(),
      input({ userAgent: FIREFOX, dimensions: { browser: 'Lynx', country: 'de' } }),
      row,
    );
    expect(hit.dimensions).toMatchObject({ browser: 'Lynx', os: 'Linux', device: 'desktop', country: 'DE' });
  });

  it.each([
    ['VISITOR_EMPTY', { visitor: '' }, RejectReason.VISITOR_EMPTY, 'hits[3].visitor must not be empty'],
    [
      'VISITOR_HAS_CONTROL',
      { visitor: 'a\tb' },
      RejectReason.VISITOR_HAS_CONTROL,
      'hits[3].visitor must not contain control characters, got U+0009 at index 1',
    ],
    [
      'REFERRER_TOO_LONG',
      { referrer: `https://a.example/${'x'.repeat(4096)}` },
      RejectReason.REFERRER_TOO_LONG,
      'hits[3].referrer must be at most 4096 characters, got 4114',
    ],
    [
      'USER_AGENT_TOO_LONG',
      { userAgent: 'U'.repeat(1025) },
      RejectReason.USER_AGENT_TOO_LONG,
      'hits[3].userAgent must be at most 1024 characters, got 1025',
    ],
    [
      'CLIENT_IP_MALFORMED',
      { clientIp: '300.1.2.3' },
      RejectReason.CLIENT_IP_MALFORMED,
      'hits[3].clientIp must be an IPv4 or IPv6 address such as "203.0.113.7" or "2001:db8::7", got "300.1.2.3"',
    ],
    [
      'COUNTRY_NOT_ISO_CODE',
      { dimensions: { country: 'Germany' } },
      RejectReason.COUNTRY_NOT_ISO_CODE,
      'hits[3].dimensions.country must be an ISO 3166-1 alpha-2 code such as "DE", or "(unknown)", got "Germany"',
    ],
  ])('refuses %s input, naming the row and field', (_, fields, reason, message) => {
    expect(refusal(() => enricher.enrich(base(), input(fields), row))).toEqual({
      reason,
      message,
      field: message.slice(0, message.indexOf(' ')),
    });
  });

  it('counts no dimensions and ignores their inputs when dimensions are off, visitors still keyed', () => {
    const off = new HitEnricher(SECRET, undefined);
    const hit = off.enrich(base(), input({ visitor: 'v', clientIp: 'not an address', userAgent: FIREFOX }), row);
    expect(hit).toEqual({ ...base(), visitor: visitorHash(SECRET, 'v'), dimensions: undefined });
  });
});

describe('HitEnricher.beaconHit', () => {
  it('salts the cookieless visitor by site, normalised address and User-Agent, and cuts over-long headers', () => {
    const enricher = new HitEnricher(SECRET, sources());
    const salt = new Uint8Array([1, 2, 3]);
    const longAgent = `${FIREFOX} ${'x'.repeat(2000)}`;
    const hit = enricher.beaconHit(
      base(),
      {
        pageUrl: '/p?utm_campaign=Fall',
        referrer: 'https://example.com/',
        userAgent: longAgent,
        clientIp: '::ffff:193.0.6.139',
      },
      salt,
    );
    expect(hit.visitor).toEqual(
      beaconVisitorHash({ salt, site: 'example.com', clientIp: '193.0.6.139', userAgent: longAgent.slice(0, 1024) }),
    );
    expect(hit.dimensions).toMatchObject({
      source: '(internal)',
      utmCampaign: 'Fall',
      browser: 'Firefox',
      country: 'NL',
    });
  });
});

describe('HitEnricher.enrichColumns (recordHitColumns)', () => {
  function enrichColumns(enricher: HitEnricher, columns: HitColumnsRequest): Hit[] {
    const hits = parseHitColumns(columns, { now: NOW, limits: LIMITS, path: 'columns' });
    enricher.enrichColumns(hits, columns, 'columns.');
    return hits;
  }

  const REFERRERS = ['https://www.google.com/search', 'https://b.example/x', 'https://example.com/own', 'nonsense'];
  const AGENTS = [FIREFOX, IPHONE, '', 'curl-ish/1.0'];
  const ADDRESSES = ['193.0.6.139', '2001:4860:4860::8888', '10.0.0.1'];
  const PAGES = ['/a', '/l?utm_source=X&utm_medium=Mail', 'https://example.com/abs?utm_campaign=c'];
  const EXPLICIT: ExplicitDimensions[] = [{ country: 'fr' }, { browser: 'Lynx', os: 'Plan 9', device: 'tv' }];

  it('gives every row the values deriveDimensions gives its inputs', () => {
    const index = (size: number) => fc.integer({ min: -1, max: size - 1 });
    const rows = fc.array(
      fc.record({
        site: fc.integer({ min: 0, max: 1 }),
        page: fc.integer({ min: 0, max: PAGES.length - 1 }),
        referrer: index(REFERRERS.length),
        userAgent: index(AGENTS.length),
        clientIp: index(ADDRESSES.length),
        explicit: index(EXPLICIT.length),
      }),
      // At least as many rows as the largest dictionary has entries (a dictionary holds at most one per hit).
      { minLength: 4, maxLength: 40 },
    );
    const enricher = new HitEnricher(SECRET, sources());
    fc.assert(
      fc.property(rows, (picked) => {
        const columns: HitColumnsRequest = {
          sites: ['example.com', 'b.example'],
          pages: PAGES.map((page) => (page.startsWith('/') ? page : `/${page}`)),
          siteIndex: picked.map((r) => r.site),
          pageIndex: picked.map((r) => r.page),
          referrers: REFERRERS,
          referrerIndex: picked.map((r) => r.referrer),
          userAgents: AGENTS,
          userAgentIndex: picked.map((r) => r.userAgent),
          clientIps: ADDRESSES,
          clientIpIndex: picked.map((r) => r.clientIp),
          dimensions: EXPLICIT,
          dimensionIndex: picked.map((r) => r.explicit),
        };
        const hits = enrichColumns(enricher, columns);
        picked.forEach((r, i) => {
          const pick = <T>(values: readonly T[], at: number): T | undefined => (at < 0 ? undefined : values[at]);
          const expected = deriveDimensions(
            {
              referrer: pick(REFERRERS, r.referrer),
              userAgent: pick(AGENTS, r.userAgent),
              clientIp: pick(ADDRESSES, r.clientIp),
              pageUrl: columns.pages[r.page],
            },
            pick(EXPLICIT, r.explicit),
            { siteHost: columns.sites[r.site] as string, ...sources() },
          );
          expect(hits[i]?.dimensions).toEqual(expected);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('parses each distinct User-Agent and hashes each visitor once per batch: 1,000 hits on 20 User-Agents', () => {
    const parser = new UserAgentParser();
    const enricher = new HitEnricher(SECRET, { userAgents: parser, countries });
    const userAgents = Array.from({ length: 20 }, (_, i) => `${FIREFOX.replace('128.0', `${100 + i}.0`)}`);
    const hits = enrichColumns(enricher, {
      sites: ['example.com'],
      pages: ['/'],
      pageIndex: Array.from({ length: 1000 }, () => 0),
      userAgents,
      userAgentIndex: Array.from({ length: 1000 }, (_, i) => i % 20),
      visitors: ['a', 'b'],
      visitorIndex: Array.from({ length: 1000 }, (_, i) => (i % 3 === 0 ? -1 : i % 2)),
    });
    expect(parser.stats.hits + parser.stats.misses).toBe(20);
    expect(hits[1]?.visitor).toEqual(visitorHash(SECRET, 'b'));
    expect(hits[0]?.visitor).toBeUndefined();
    expect(hits[999]?.dimensions?.browser).toBe('Firefox');
  });

  it.each([
    [
      'VISITOR_EMPTY',
      { visitors: ['ok', ''], visitorIndex: [0, 0] },
      RejectReason.VISITOR_EMPTY,
      'columns.visitors[1] must not be empty',
    ],
    [
      'INDEX_OUT_OF_RANGE',
      { visitors: ['ok'], visitorIndex: [0, 1] },
      RejectReason.INDEX_OUT_OF_RANGE,
      'columns.visitorIndex[1] must be -1 (none) or an index from 0 to 0, got 1',
    ],
    [
      'INDEX_OUT_OF_RANGE',
      { clientIpIndex: [-1, 0] },
      RejectReason.INDEX_OUT_OF_RANGE,
      'columns.clientIpIndex[1] must be -1 (columns.clientIps is empty), got 0',
    ],
    [
      'COLUMNS_MISMATCH',
      { referrers: ['a'], referrerIndex: [0, 0, 0] },
      RejectReason.COLUMNS_MISMATCH,
      'columns.referrerIndex must hold one value per hit (2, the length of pageIndex), got 3',
    ],
    [
      'REFERRER_TOO_LONG',
      { referrers: ['https://a.example/', `https://a.example/${'x'.repeat(4096)}`] },
      RejectReason.REFERRER_TOO_LONG,
      'columns.referrers[1] must be at most 4096 characters, got 4114',
    ],
    [
      'USER_AGENT_TOO_LONG',
      { userAgents: ['U'.repeat(1025)] },
      RejectReason.USER_AGENT_TOO_LONG,
      'columns.userAgents[0] must be at most 1024 characters, got 1025',
    ],
    [
      'CLIENT_IP_MALFORMED',
      { clientIps: ['1.2.3.4', '1.2.3'] },
      RejectReason.CLIENT_IP_MALFORMED,
      'columns.clientIps[1] must be an IPv4 or IPv6 address such as "203.0.113.7" or "2001:db8::7", got "1.2.3"',
    ],
    [
      'DEVICE_NOT_KNOWN',
      { dimensions: [{ device: 'fridge' }] },
      RejectReason.DEVICE_NOT_KNOWN,
      'columns.dimensions[0].device must be one of desktop, mobile, tablet, tv, console or (unknown), got "fridge"',
    ],
    [
      'COLUMNS_MISMATCH',
      { clientIps: ['1.1.1.1', '1.1.1.2', '1.1.1.3'] },
      RejectReason.COLUMNS_MISMATCH,
      'columns.clientIps must hold at most one entry per hit (2, the length of pageIndex), got 3',
    ],
  ])('refuses %s, naming the dictionary entry or the index', (_, extra, reason, message) => {
    const enricher = new HitEnricher(SECRET, sources());
    const columns = { sites: ['example.com'], pages: ['/'], pageIndex: [0, 0], ...extra };
    expect(refusal(() => enrichColumns(enricher, columns))).toEqual({
      reason,
      message,
      field: message.slice(0, message.indexOf(' ')),
    });
  });
});
