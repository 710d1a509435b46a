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
  ])('rejects %o naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
