import { loadConfig } from '../../../src/config/loadConfig';
import { parseTrustProxy } from '../../../src/config/parseTrustProxy';
import { bundledCountryDatabasePath } from '../../../src/domain/dimensions/bundledCountryDatabase';

describe('visitor and dimension configuration', () => {
  it('rotates salts daily, counts dimensions with a cap of 1,000, per-value visitors for device, browser and os', () => {
    const config = loadConfig({});
    expect(config.visitors).toEqual({ saltRotation: 'day' });
    expect(config.dimensions).toEqual({
      enabled: true,
      maxValues: 1000,
      visitors: ['device', 'browser', 'os'],
      countryDatabase: undefined,
    });
    expect(config.trustProxy).toBe(false);
  });

  it('reads each setting', () => {
    const config = loadConfig({
      VISITOR_SALT_ROTATION: 'never',
      DIMENSIONS_ENABLED: 'false',
      DIMENSION_MAX_VALUES: '50',
      DIMENSION_VISITORS: 'source,country,source',
      COUNTRY_DATABASE: bundledCountryDatabasePath(),
      TRUST_PROXY: '2',
    });
    expect(config.visitors.saltRotation).toBe('never');
    expect(config.dimensions).toEqual({
      enabled: false,
      maxValues: 50,
      visitors: ['source', 'country'],
      countryDatabase: bundledCountryDatabasePath(),
    });
    expect(config.trustProxy).toBe(2);
    expect(loadConfig({ DIMENSION_VISITORS: 'none' }).dimensions.visitors).toEqual([]);
  });

  it.each([
    [{ VISITOR_SALT_ROTATION: 'week' }, 'VISITOR_SALT_ROTATION must be one of day, month, never, got "week"'],
    [{ DIMENSIONS_ENABLED: 'yes' }, 'DIMENSIONS_ENABLED must be true, false, 1 or 0, got "yes"'],
    [{ DIMENSION_MAX_VALUES: '0' }, 'DIMENSION_MAX_VALUES must be an integer from 1 to 1771, got "0"'],
    [
      { DIMENSION_VISITORS: 'device,referrer' },
      'DIMENSION_VISITORS must be none or a comma list of source, utmSource, utmMedium, utmCampaign, browser, os, device, country, got "device,referrer"',
    ],
    [
      { DIMENSION_VISITORS: 'source,utmSource,utmMedium,utmCampaign,browser,os', DIMENSION_MAX_VALUES: '1000' },
      'DIMENSION_MAX_VALUES must be an integer from 1 to 698, got "1000"',
    ],
    [
      { COUNTRY_DATABASE: '/nonexistent/x.mmdb' },
      'COUNTRY_DATABASE must be a readable file, got "/nonexistent/x.mmdb (ENOENT)"',
    ],
    [{ COUNTRY_DATABASE: '/tmp' }, 'COUNTRY_DATABASE must be a readable file, got "/tmp"'],
    [
      { TRUST_PROXY: 'yes' },
      'TRUST_PROXY must be false, true, a hop count, or a comma list of proxy addresses and CIDR ranges (e.g. 10.0.0.0/8,::1 or loopback), got "yes"',
    ],
  ])('rejects %o naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('parseTrustProxy', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    ['1', 1],
    ['10.0.0.0/8, 192.168.1.1,::1,fd00::/8,loopback', ['10.0.0.0/8', '192.168.1.1', '::1', 'fd00::/8', 'loopback']],
  ])('reads %j as %j', (raw, trust) => {
    expect(parseTrustProxy(raw)).toEqual(trust);
  });

  it.each(['0', '101', '10.0.0.0/33', '::1/129', 'proxy.internal', '10.0.0.1,', '1.2.3.4/x'])('refuses %j', (raw) => {
    expect(() => parseTrustProxy(raw)).toThrow(/^TRUST_PROXY must be false, true, a hop count/);
  });
});
