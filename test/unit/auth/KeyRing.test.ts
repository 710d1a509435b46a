import crypto from 'node:crypto';
import { KeyRing } from '../../../src/auth/KeyRing';
import { NO_KEYS } from '../../../src/auth/Keys';
import { parseKeys } from '../../../src/auth/parseKeys';
import {
  ALLOWED_ORIGIN,
  KEEP_QUERY_SITE_KEY,
  KEYS_JSON,
  OTHER_ALLOWED_ORIGIN,
  SECRETS,
  SITE_KEY,
} from '../../support/testKeys';

const keys = parseKeys(KEYS_JSON, 'TALLY_KEYS_JSON');
const ring = new KeyRing(keys);
const NOT_BEARER = { kind: 'invalid', reason: 'the authorization must be "Bearer <secret>"' };
const UNKNOWN = { kind: 'invalid', reason: 'the API key is not known to this server' };

afterEach(() => jest.restoreAllMocks());

describe('KeyRing.authenticate', () => {
  it('is open to everyone when no secret key is configured, even with site keys', () => {
    const siteKeysOnly = new KeyRing({ keys: [], siteKeys: keys.siteKeys });
    expect(siteKeysOnly.enabled).toBe(false);
    expect(siteKeysOnly.authenticate(undefined)).toEqual({ kind: 'open' });
    expect(siteKeysOnly.authenticate('Bearer whatever')).toEqual({ kind: 'open' });
    expect(new KeyRing(NO_KEYS).authenticate('garbage')).toEqual({ kind: 'open' });
  });

  it('is open with TALLY_AUTH=off although keys are configured', () => {
    const off = new KeyRing(keys, true);
    expect(off.enabled).toBe(false);
    expect(off.authenticate(`Bearer ${SECRETS.ops}`)).toEqual({ kind: 'open' });
  });

  it.each([undefined, null, ''])('calls a request without a key (%j) anonymous', (authorization) => {
    expect(ring.authenticate(authorization)).toEqual({ kind: 'anonymous' });
  });

  it.each([
    ['a number', 42],
    ['an object', { secret: SECRETS.ops }],
    ['no scheme', SECRETS.ops],
    ['another scheme', `Basic ${SECRETS.ops}`],
    ['a scheme without a secret', 'Bearer '],
    ['two words', `Bearer ${SECRETS.ops} extra`],
  ])('refuses %s as invalid, saying what form it needs', (_label, authorization) => {
    expect(ring.authenticate(authorization)).toEqual(NOT_BEARER);
  });

  it('refuses an Authorization longer than 512 characters before hashing anything', () => {
    const hash = jest.spyOn(crypto, 'createHash');
    expect(ring.authenticate(`Bearer ${'x'.repeat(506)}`)).toEqual(NOT_BEARER);
    expect(hash).not.toHaveBeenCalled();
    // 512 characters is still a well-formed attempt: hashed, compared, unknown.
    expect(ring.authenticate(`Bearer ${'x'.repeat(505)}`)).toEqual(UNKNOWN);
    expect(hash).toHaveBeenCalledTimes(1);
  });

  it('refuses a secret it does not know, without repeating it', () => {
    const principal = ring.authenticate('Bearer tally_sk_not_configured_0123456789');
    expect(principal).toEqual(UNKNOWN);
    expect(JSON.stringify(principal)).not.toContain('tally_sk_not_configured');
  });

  it.each([
    ['pipeline', SECRETS.pipeline, ['ingest'], ['a.example']],
    ['dashboard', SECRETS.dashboard, ['read'], undefined],
    ['ops', SECRETS.ops, ['admin', 'read', 'ingest'], undefined],
  ])('knows the %s key with its scopes and sites', (name, secret, scopes, sites) => {
    expect(ring.authenticate(`Bearer ${secret}`)).toEqual({
      kind: 'key',
      name,
      scopes: new Set(scopes),
      sites: sites === undefined ? undefined : new Set(sites),
    });
  });

  it('accepts any case of "Bearer", several spaces and surrounding whitespace', () => {
    for (const header of [`bearer ${SECRETS.ops}`, `BEARER   ${SECRETS.ops}`, `  Bearer ${SECRETS.ops}\t`]) {
      expect(ring.authenticate(header)).toMatchObject({ kind: 'key', name: 'ops' });
    }
  });

  it('compares the presented hash with every key in constant time, whichever matched or none', () => {
    const compare = jest.spyOn(crypto, 'timingSafeEqual');
    for (const secret of [SECRETS.pipeline, SECRETS.ops, 'tally_sk_unknown_0123456789']) {
      compare.mockClear();
      ring.authenticate(`Bearer ${secret}`);
      expect(compare).toHaveBeenCalledTimes(keys.keys.length);
      for (const [presented, configured] of compare.mock.calls) {
        expect([(presented as Buffer).length, (configured as Buffer).length]).toEqual([32, 32]);
      }
    }
  });
});

describe('KeyRing site keys', () => {
  it('finds a site key by its value, comparing with every site key', () => {
    const compare = jest.spyOn(crypto, 'timingSafeEqual');
    expect(ring.siteKey(SITE_KEY)).toMatchObject({ key: SITE_KEY, site: 'a.example', keepQuery: false });
    expect(compare).toHaveBeenCalledTimes(keys.siteKeys.length);
    expect(ring.siteKey(KEEP_QUERY_SITE_KEY)).toMatchObject({ site: 'q.example', keepQuery: true });
    expect(ring.siteKey('pk_unknown_0123456789')).toBeUndefined();
  });

  it('does not take a secret key as a site key, nor a site key as a secret key', () => {
    expect(ring.siteKey(SECRETS.ops)).toBeUndefined();
    expect(ring.authenticate(`Bearer ${SITE_KEY}`)).toEqual(UNKNOWN);
  });

  it.each([
    [ALLOWED_ORIGIN, true],
    [OTHER_ALLOWED_ORIGIN, true],
    ['https://a.example.evil', false],
    ['https://a.example/', false],
    ['http://a.example', false],
  ])('knows origin %s: %s', (origin, known) => {
    expect(ring.isKnownOrigin(origin)).toBe(known);
  });
});
