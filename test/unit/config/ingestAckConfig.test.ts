import { loadConfig } from '../../../src/config/loadConfig';

const URI = 'mongodb://127.0.0.1:27017';

describe('loadConfig: INGEST_ACK, FLUSH_WINDOW_MS, FLUSH_IDLE_MS, INGEST_LOG_DIR, TALLY_EMBEDDED_NICE', () => {
  it('acknowledges from the log on the embedded default and after the database write with MONGODB_URI', () => {
    expect(loadConfig({}).ingest).toMatchObject({ ack: 'log', windowMs: 10_000, idleMs: 1_000, logDir: undefined });
    expect(loadConfig({ MONGODB_URI: URI }).ingest.ack).toBe('database');
    expect(loadConfig({ INGEST_ACK: 'database' }).ingest.ack).toBe('database');
    expect(
      loadConfig({ MONGODB_URI: URI, INGEST_ACK: 'log', INGEST_LOG_DIR: '/var/lib/tally/log' }).ingest,
    ).toMatchObject({ ack: 'log', logDir: '/var/lib/tally/log' });
  });

  it('runs the embedded server behind tally only where nobody waits on its writes', () => {
    expect(loadConfig({}).embeddedNiceness).toBe(10);
    expect(loadConfig({ INGEST_ACK: 'database' }).embeddedNiceness).toBe(0);
    expect(loadConfig({ TALLY_EMBEDDED_NICE: '0' }).embeddedNiceness).toBe(0);
    expect(loadConfig({ INGEST_ACK: 'database', TALLY_EMBEDDED_NICE: '19' }).embeddedNiceness).toBe(19);
  });

  it.each([
    [{ TALLY_EMBEDDED_NICE: '20' }, 'TALLY_EMBEDDED_NICE must be an integer from 0 to 19, got "20"'],
    [{ TALLY_EMBEDDED_NICE: '-5' }, 'TALLY_EMBEDDED_NICE must be an integer from 0 to 19, got "-5"'],
    [{ INGEST_ACK: 'disk' }, 'INGEST_ACK must be one of log, database, got "disk"'],
    [{ FLUSH_WINDOW_MS: '5' }, 'FLUSH_WINDOW_MS must be an integer from 10 to 60000, got "5"'],
    [{ FLUSH_IDLE_MS: '-1' }, 'FLUSH_IDLE_MS must be an integer from 0 to 60000, got "-1"'],
    [
      { MONGODB_URI: URI, INGEST_ACK: 'log' },
      'INGEST_LOG_DIR must be a directory on a persistent disk when INGEST_ACK=log and MONGODB_URI are set, got ""',
    ],
  ])('refuses %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
