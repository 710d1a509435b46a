import { createHash } from 'node:crypto';
import { parseKeys } from '../../../src/auth/parseKeys';
import { ConfigError } from '../../../src/errors/ConfigError';

const SECRET = 'tally_sk_this_must_never_be_quoted_0123456789';
const HASH = createHash('sha256').update(SECRET).digest('hex');
const V = 'TALLY_KEYS_JSON';

const key = (fields: Record<string, unknown> = {}) => ({ name: 'k', sha256: HASH, scopes: ['read'], ...fields });
const siteKey = (fields: Record<string, unknown> = {}) => ({
  key: 'pk_site_0123456789',
  site: 'a.example',
  origins: ['https://a.example'],
  ...fields,
});

function refusal(json: unknown): ConfigError {
  try {
    parseKeys(typeof json === 'string' ? json : JSON.stringify(json), V);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('parseKeys accepted it');
}

describe('parseKeys', () => {
  it('reads secret keys (hash, scopes, sites) and site keys (site, origins, keepQuery)', () => {
    const keys = parseKeys(
      JSON.stringify({
        keys: [key({ name: 'pipeline', scopes: ['ingest', 'read'], sites: ['a.example'] }), key({ name: 'ops' })],
        siteKeys: [siteKey({ origins: ['https://a.example', 'http://127.0.0.1:8080'], keepQuery: true })],
      }),
      V,
    );
    expect(keys.keys).toEqual([
      {
        name: 'pipeline',
        sha256: Buffer.from(HASH, 'hex'),
        scopes: new Set(['ingest', 'read']),
        sites: new Set(['a.example']),
      },
      { name: 'ops', sha256: Buffer.from(HASH, 'hex'), scopes: new Set(['read']), sites: undefined },
    ]);
    expect(keys.siteKeys).toEqual([
      {
        key: 'pk_site_0123456789',
        site: 'a.example',
        origins: new Set(['https://a.example', 'http://127.0.0.1:8080']),
        keepQuery: true,
      },
    ]);
  });

  it('reads an empty object as no keys at all', () => {
    expect(parseKeys('{}', V)).toEqual({ keys: [], siteKeys: [] });
  });

  it.each([
    [
      'text that is not JSON',
      `{"keys": [${SECRET}`,
      `${V} must be JSON holding { "keys": [...], "siteKeys": [...] }, got "text that is not JSON"`,
    ],
    ['a list', [], `${V} must be a JSON object, got "object"`],
    ['a string', '"x"', `${V} must be a JSON object, got "string"`],
    ['keys that are not a list', { keys: {} }, `${V} keys must be a list, got "object"`],
    ['siteKeys that are not a list', { siteKeys: 'x' }, `${V} siteKeys must be a list, got "string"`],
    ['a key that is not an object', { keys: [key(), 3] }, `${V} keys[1] must be an object, got "number"`],
    [
      'a key without a name',
      { keys: [key({ name: undefined })] },
      `${V} keys[0].name must be 1 to 64 letters, digits, ".", "_" or "-", got "undefined"`,
    ],
    [
      'a name with a space',
      { keys: [key({ name: 'my key' })] },
      `${V} keys[0].name must be 1 to 64 letters, digits, ".", "_" or "-", got "my key"`,
    ],
    [
      'uppercase hex',
      { keys: [key({ sha256: HASH.toUpperCase() })] },
      `${V} keys[0].sha256 must be 64 lowercase hex digits (the SHA-256 of the secret), got "something else"`,
    ],
    [
      'no scopes',
      { keys: [key({ scopes: [] })] },
      `${V} keys[0].scopes must be a non-empty list of ingest, read, admin, got "[]"`,
    ],
    [
      'an unknown scope',
      { keys: [key(), key({ name: 'b', scopes: ['read', 'write'] })] },
      `${V} keys[1].scopes must be each one of ingest, read, admin, got "write"`,
    ],
    [
      'sites that are not a list',
      { keys: [key({ sites: 'a.example' })] },
      `${V} keys[0].sites must be a list of sites, got "\\"a.example\\""`,
    ],
    [
      'a site with a slash',
      { keys: [key({ sites: ['a.example/x'] })] },
      `${V} keys[0].sites must be valid site names, got "a.example/x (site must not contain \\"/\\", got \\"a.example/x\\")"`,
    ],
    ['two keys with one name', { keys: [key(), key()] }, `${V} keys must be unique names, got "k"`],
    [
      'a site key too short',
      { siteKeys: [siteKey({ key: 'pk_1' })] },
      `${V} siteKeys[0].key must be 8 to 128 letters, digits, "_" or "-", got "pk_1"`,
    ],
    [
      'a site key without a site',
      { siteKeys: [siteKey({ site: 7 })] },
      `${V} siteKeys[0].site must be site names, got "7"`,
    ],
    [
      'an origin with a path',
      { siteKeys: [siteKey({ origins: ['https://a.example/'] })] },
      `${V} siteKeys[0].origins must be origins such as "https://example.com" (no path), got "https://a.example/"`,
    ],
    [
      'keepQuery that is not a boolean',
      { siteKeys: [siteKey(), siteKey({ keepQuery: 'yes' })] },
      `${V} siteKeys[1].keepQuery must be true or false, got "yes"`,
    ],
  ])('refuses %s, naming the entry and field', (_label, json, message) => {
    const error = refusal(json);
    expect(error.message).toBe(message);
    expect(error.variable).toBe(message.slice(0, message.indexOf(' must be ')));
  });

  it.each([
    ['the secret pasted as the hash', { keys: [key({ sha256: SECRET })] }],
    ['the secret pasted into a JSON that does not parse', `{"keys": [{"sha256": "${SECRET}"`],
  ])('never quotes a secret: %s', (_label, json) => {
    expect(refusal(json).message).not.toContain(SECRET);
  });
});
