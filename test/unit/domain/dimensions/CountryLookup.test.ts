import { readFileSync } from 'node:fs';
import { bundledCountryDatabasePath } from '../../../../src/domain/dimensions/bundledCountryDatabase';
import { CountryDatabaseError, CountryLookup } from '../../../../src/domain/dimensions/CountryLookup';
import { UNKNOWN } from '../../../../src/domain/dimensions/dimensionMarkers';
import { parseClientIp } from '../../../../src/domain/dimensions/parseClientIp';

describe('CountryLookup over the bundled database', () => {
  const countries = new CountryLookup(readFileSync(bundledCountryDatabasePath()), 'bundled');

  // Addresses of the Regional Internet Registries and public resolvers: their countries do not move.
  it.each([
    ['8.8.8.8', 'US'],
    ['193.0.6.139', 'NL'],
    ['200.160.2.3', 'BR'],
    ['202.12.29.205', 'AU'],
    ['196.216.2.1', 'ZA'],
    ['2001:4860:4860::8888', 'US'],
    ['2001:67c:2e8:22::c100:68b', 'NL'],
    ['::ffff:193.0.6.139', 'NL'],
    ['64:ff9b::c100:68b', 'NL'],
  ])('locates %s in %s', (address, country) => {
    expect(countries.lookup(parseClientIp(address))).toBe(country);
  });

  // The data maps some of these (192.168/16 and 203.0.113/24 to AU, 2001:db8::/32 to JP): they must not leak.
  it.each([
    '10.0.0.1',
    '127.0.0.1',
    '192.168.1.1',
    '203.0.113.7',
    '100.64.0.1',
    '::1',
    'fe80::1',
    '2001:db8::1',
    'fd00::1',
  ])('gives no country for %s, which locates no one', (address) => {
    expect(countries.lookup(parseClientIp(address))).toBe(UNKNOWN);
  });

  it('describes the database for the startup log', () => {
    expect(countries.description.type).toBe('country ipvAll');
    expect(countries.description.builtAt).toBeInstanceOf(Date);
  });
});

describe('CountryLookup on a file that is not a country database', () => {
  it('refuses bytes that are not a MaxMind DB', () => {
    expect(() => new CountryLookup(Buffer.from('not a database'), '/data/countries.mmdb')).toThrow(
      CountryDatabaseError,
    );
    expect(() => new CountryLookup(Buffer.from('not a database'), '/data/countries.mmdb')).toThrow(
      /^country database \/data\/countries\.mmdb must be a MaxMind DB \(\.mmdb\) file, got one that does not read as one: /,
    );
  });
});
