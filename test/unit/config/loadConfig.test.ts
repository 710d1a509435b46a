import { loadConfig } from '../../../src/config/loadConfig';

describe('loadConfig', () => {
  it('has working defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 4000,
      host: '127.0.0.1',
      mongodbUri: undefined,
      mongodbDb: 'tally',
      introspection: true,
      playground: true,
    });
    expect(config.ingest.preallocate).toBe(false);
    expect(config.maxUpdatesPerCommand).toBeUndefined();
    expect(loadConfig({ WRITE_MAX_UPDATES_PER_COMMAND: '250' }).maxUpdatesPerCommand).toBe(250);
  });

  it('turns introspection and the playground off in production unless asked', () => {
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ introspection: false, playground: false });
    expect(loadConfig({ NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'true' }).introspection).toBe(true);
  });

  it.each([
    [{ PORT: 'http' }, 'PORT must be an integer from 0 to 65535, got "http"'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, got "70000"'],
    [
      { MONGODB_URI: 'localhost:27017' },
      'MONGODB_URI must be a mongodb:// or mongodb+srv:// connection string, got "localhost:27017"',
    ],
    [{ MONGODB_DB: 'my.db' }, 'MONGODB_DB must be 1 to 63 letters, digits, "_" or "-", got "my.db"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ PREALLOCATE: 'yes' }, 'PREALLOCATE must be true, false, 1 or 0, got "yes"'],
    [{ MONGODB_WRITE_CONCERN: 'all' }, 'MONGODB_WRITE_CONCERN must be a number of nodes or "majority", got "all"'],
    [
      { WRITE_MAX_UPDATES_PER_COMMAND: '0' },
      'WRITE_MAX_UPDATES_PER_COMMAND must be an integer from 1 to 100000, got "0"',
    ],
  ])('rejects %o naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('secure start-up', () => {
  const KEYS = JSON.stringify({ keys: [{ name: 'k', sha256: 'a'.repeat(64), scopes: ['read'] }] });

  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.com'])('refuses HOST=%s without keys', (host) => {
    expect(() => loadConfig({ HOST: host })).toThrow(
      `HOST must be a loopback address while no API keys are configured (set TALLY_KEYS_FILE, or TALLY_AUTH=off to serve without keys), got ${JSON.stringify(host)}`,
    );
  });

  it.each(['127.0.0.1', '127.0.0.2', '::1', 'localhost'])('serves HOST=%s without keys', (host) => {
    expect(loadConfig({ HOST: host }).host).toBe(host);
  });

  it('serves a public HOST with keys, or with TALLY_AUTH=off', () => {
    expect(loadConfig({ HOST: '0.0.0.0', TALLY_KEYS_JSON: KEYS }).auth.keys.keys).toHaveLength(1);
    expect(loadConfig({ HOST: '0.0.0.0', TALLY_AUTH: 'off' }).auth.off).toBe(true);
  });

  it.each([
    ['{', 'TALLY_KEYS_JSON must be JSON holding { "keys": [...], "siteKeys": [...] }, got "text that is not JSON"'],
    [
      JSON.stringify({ keys: [{ name: 'k', sha256: 'my-secret', scopes: ['read'] }] }),
      'TALLY_KEYS_JSON keys[0].sha256 must be 64 lowercase hex digits (the SHA-256 of the secret), got "something else"',
    ],
    [
      JSON.stringify({ keys: [{ name: 'k', sha256: 'a'.repeat(64), scopes: ['write'] }] }),
      'TALLY_KEYS_JSON keys[0].scopes must be each one of ingest, read, admin, got "write"',
    ],
    [
      JSON.stringify({ siteKeys: [{ key: 'pk_12345678', site: 'a', origins: ['https://a.example/path'] }] }),
      'TALLY_KEYS_JSON siteKeys[0].origins must be origins such as "https://example.com" (no path), got "https://a.example/path"',
    ],
  ])('refuses a bad keys file %s, naming the entry and never quoting a secret', (json, message) => {
    expect(() => loadConfig({ TALLY_KEYS_JSON: json })).toThrow(message);
  });

  it('counts only secret keys as keys: site keys alone keep a public HOST refused and GraphQL open', () => {
    const siteKeysOnly = JSON.stringify({
      siteKeys: [{ key: 'pk_12345678', site: 'a', origins: ['https://a.example'] }],
    });
    expect(() => loadConfig({ HOST: '0.0.0.0', TALLY_KEYS_JSON: siteKeysOnly })).toThrow(
      'HOST must be a loopback address',
    );
    expect(loadConfig({ TALLY_KEYS_JSON: siteKeysOnly }).auth.keys.siteKeys).toHaveLength(1);
  });

  it('refuses TALLY_AUTH=on without secret keys', () => {
    expect(() => loadConfig({ TALLY_AUTH: 'on' })).toThrow(
      'TALLY_AUTH must be off or unset while no secret keys are configured (TALLY_KEYS_FILE), got "on"',
    );
  });

  it('reads TALLY_KEYS_FILE and refuses a missing one', () => {
    expect(() => loadConfig({ TALLY_KEYS_FILE: '/nonexistent/keys.json' })).toThrow(
      'TALLY_KEYS_FILE must be a readable file, got "/nonexistent/keys.json (ENOENT)"',
    );
  });
});
