import { readFileSync } from 'node:fs';
import { bundledCountryDatabasePath } from '../../../../src/domain/dimensions/bundledCountryDatabase';
import { CountryLookup } from '../../../../src/domain/dimensions/CountryLookup';
import { deriveDimensions } from '../../../../src/domain/dimensions/deriveDimensions';
import type { DimensionContext } from '../../../../src/domain/dimensions/deriveDimensions';
import { DIMENSIONS } from '../../../../src/domain/dimensions/Dimension';
import { UserAgentParser } from '../../../../src/domain/dimensions/UserAgentParser';
import { RejectReason } from '../../../../src/domain/RejectReason';
import { rejectionOf } from './rejectionOf';

const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const countries = new CountryLookup(readFileSync(bundledCountryDatabasePath()), 'bundled');
const context = (): DimensionContext => ({ siteHost: 'example.com', userAgents: new UserAgentParser(), countries });

const NOTHING = {
  source: '(direct)',
  utmSource: '(none)',
  utmMedium: '(none)',
  utmCampaign: '(none)',
  browser: '(unknown)',
  os: '(unknown)',
  device: '(unknown)',
  country: '(unknown)',
};

describe('deriveDimensions', () => {
  it('derives every dimension from what a beacon sees', () => {
    const values = deriveDimensions(
      {
        referrer: 'https://www.google.de/',
        userAgent: SAFARI_IPHONE,
        clientIp: '193.0.6.139',
        pageUrl: 'https://example.com/pricing?utm_source=Newsletter&utm_medium=email&utm_campaign=Spring+Sale',
      },
      undefined,
      context(),
    );
    expect(values).toEqual({
      source: 'Google',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'Spring Sale',
      browser: 'Safari',
      os: 'iOS',
      device: 'mobile',
      country: 'NL',
    });
  });

  it('gives every dimension an explicit value when nothing is known', () => {
    expect(deriveDimensions({}, undefined, context())).toEqual(NOTHING);
    expect(deriveDimensions({ referrer: null, userAgent: '', pageUrl: '/' }, null, context())).toEqual(NOTHING);
  });

  it('has a value for every dimension, so breakdowns add up to the hits', () => {
    expect(Object.keys(deriveDimensions({}, undefined, context())).sort()).toEqual([...DIMENSIONS].sort());
  });

  it('counts a referrer from the site or the page host as internal', () => {
    const derive = (referrer: string) =>
      deriveDimensions({ referrer, pageUrl: 'https://shop.example.net/a' }, {}, context());
    expect(derive('https://www.example.com/').source).toBe('(internal)');
    expect(derive('https://shop.example.net/cart').source).toBe('(internal)');
    expect(derive('https://elsewhere.example.org/').source).toBe('elsewhere.example.org');
  });

  it('lets explicit values win over derived ones', () => {
    const values = deriveDimensions(
      { referrer: 'https://www.bing.com/', userAgent: SAFARI_IPHONE, clientIp: '8.8.8.8', pageUrl: '/?utm_source=a' },
      { source: 'Podcast', utmSource: 'Radio', country: 'fr', device: 'tablet' },
      context(),
    );
    expect(values).toEqual({
      source: 'Podcast',
      utmSource: 'radio',
      utmMedium: '(none)',
      utmCampaign: '(none)',
      browser: 'Safari',
      os: 'iOS',
      device: 'tablet',
      country: 'FR',
    });
  });

  it('does not parse the User-Agent when browser, os and device are all set', () => {
    const userAgents = new UserAgentParser();
    deriveDimensions(
      { userAgent: SAFARI_IPHONE },
      { browser: 'X', os: 'Y', device: 'desktop' },
      { ...context(), userAgents },
    );
    expect(userAgents.stats.misses).toBe(0);
  });

  it('gives no country without a country database, unless one is set explicitly', () => {
    const noCountries: DimensionContext = { siteHost: 'example.com', userAgents: new UserAgentParser() };
    expect(deriveDimensions({ clientIp: '8.8.8.8' }, {}, noCountries).country).toBe('(unknown)');
    expect(deriveDimensions({ clientIp: '8.8.8.8' }, { country: 'de' }, noCountries).country).toBe('DE');
  });

  it.each([
    [
      { referrer: `https://example.org/${'r'.repeat(4077)}` },
      RejectReason.REFERRER_TOO_LONG,
      'referrer must be at most 4096 characters, got 4097',
      'referrer',
    ],
    [
      { pageUrl: `/${'p'.repeat(4096)}` },
      RejectReason.PAGE_URL_TOO_LONG,
      'pageUrl must be at most 4096 characters, got 4097',
      'pageUrl',
    ],
    [
      { userAgent: 'u'.repeat(1025) },
      RejectReason.USER_AGENT_TOO_LONG,
      'userAgent must be at most 1024 characters, got 1025',
      'userAgent',
    ],
    [
      { clientIp: '300.1.2.3' },
      RejectReason.CLIENT_IP_MALFORMED,
      'clientIp must be an IPv4 or IPv6 address such as "203.0.113.7" or "2001:db8::7", got "300.1.2.3"',
      'clientIp',
    ],
  ])('refuses %j', (raw, reason, message, field) => {
    expect(rejectionOf(() => deriveDimensions(raw, undefined, context()))).toEqual({ reason, message, field });
  });

  it('checks raw inputs even when explicit values make them unused, and names fields under the path', () => {
    expect(
      rejectionOf(() => deriveDimensions({ clientIp: 'nope' }, { country: 'DE' }, context(), { path: 'hits[4]' })),
    ).toEqual({
      reason: RejectReason.CLIENT_IP_MALFORMED,
      message: 'hits[4].clientIp must be an IPv4 or IPv6 address such as "203.0.113.7" or "2001:db8::7", got "nope"',
      field: 'hits[4].clientIp',
    });
    expect(rejectionOf(() => deriveDimensions({}, { device: 'fridge' }, context(), { path: 'hits[0]' })).field).toBe(
      'hits[0].device',
    );
  });

  it('treats an unknown but valid input as (unknown), never as an error', () => {
    const values = deriveDimensions(
      { referrer: 'not a url', userAgent: 'curl/8.5.0', clientIp: '10.0.0.1' },
      undefined,
      context(),
    );
    expect([values.source, values.browser, values.os, values.device, values.country]).toEqual([
      '(unknown)',
      '(unknown)',
      '(unknown)',
      '(unknown)',
      '(unknown)',
    ]);
  });
});
