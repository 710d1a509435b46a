import { beaconVisitorHash } from '../../../../src/domain/visitors/beaconVisitorHash';
import { visitorHash } from '../../../../src/domain/visitors/visitorHash';

const visitor = { salt: 'salt-2026-11-21', site: 'example.com', clientIp: '203.0.113.7', userAgent: 'Mozilla/5.0' };

describe('visitorHash', () => {
  it('is the first 8 bytes of HMAC-SHA-256 (RFC 4231 test case 2)', () => {
    // HMAC-SHA-256("Jefe", "what do ya want for nothing?") = 5bdcc146bf60754e 6a04…
    expect(visitorHash('Jefe', 'what do ya want for nothing?')).toEqual({ hi: 0x5bdcc146, lo: 0xbf60754e });
  });

  it('depends on the secret', () => {
    expect(visitorHash('secret-a', 'visitor-1')).not.toEqual(visitorHash('secret-b', 'visitor-1'));
  });

  it('gives one visitor the same hash every time', () => {
    expect(visitorHash('secret', 'visitor-1')).toEqual(visitorHash('secret', 'visitor-1'));
  });
});

describe('beaconVisitorHash', () => {
  it('gives one browser on one site the same hash under one salt', () => {
    expect(beaconVisitorHash(visitor)).toEqual(beaconVisitorHash({ ...visitor }));
  });

  it.each([
    ['the salt', { salt: 'salt-2026-11-22' }],
    ['the site', { site: 'example.org' }],
    ['the client IP', { clientIp: '203.0.113.8' }],
    ['the User-Agent', { userAgent: 'Mozilla/5.0 (X11)' }],
  ])('changes with %s', (_, change) => {
    expect(beaconVisitorHash({ ...visitor, ...change })).not.toEqual(beaconVisitorHash(visitor));
  });

  it('keeps fields apart: text cannot move from one field into the next', () => {
    const joined = beaconVisitorHash({ ...visitor, site: 'a', clientIp: 'b,c' });
    expect(beaconVisitorHash({ ...visitor, site: 'a,b', clientIp: 'c' })).not.toEqual(joined);
    expect(beaconVisitorHash({ ...visitor, site: 'a","b', clientIp: 'c' })).not.toEqual(
      beaconVisitorHash({ ...visitor, site: 'a', clientIp: 'b","c' }),
    );
  });
});
