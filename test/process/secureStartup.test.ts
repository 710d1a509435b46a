/**
 * The built server's start-up promises (README "Security"): without secret keys it refuses a non-loopback
 * HOST (exit code 2, one line naming the fix); with TALLY_AUTH=off it serves anyway, says so in a warning, and
 * still stops cleanly on SIGTERM.
 */
import fs from 'node:fs';
import { assertBuilt, startServer, stopWith, temporaryDataDir, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';

const started: ServerProcess[] = [];
const dirs: string[] = [];

beforeAll(() => assertBuilt());

afterEach(async () => {
  for (const server of started.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    await server.exited;
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>): ServerProcess {
  const dir = temporaryDataDir('secure');
  dirs.push(dir);
  const server = startServer({ TALLY_DATA_DIR: dir, NODE_ENV: 'production', ...env });
  started.push(server);
  return server;
}

describe('secure start-up of the built server', () => {
  it('refuses HOST=0.0.0.0 without keys with exit code 2 and a line naming the fix', async () => {
    const server = start({ HOST: '0.0.0.0' });
    expect(await server.exited).toBe(2);
    expect(server.output).toEqual([
      'tally: invalid configuration: HOST must be a loopback address while no API keys are configured (set TALLY_KEYS_FILE, or TALLY_AUTH=off to serve without keys), got "0.0.0.0"',
    ]);
  });

  it('serves HOST=0.0.0.0 with TALLY_AUTH=off, logging a warning, and stops on SIGTERM', async () => {
    const server = start({ HOST: '0.0.0.0', TALLY_AUTH: 'off' });
    await waitUntilServing(server);
    const warning = server.logs.find((line) => line.msg?.startsWith('TALLY_AUTH=off'));
    expect(warning?.level).toBe(40);
    expect(warning?.msg).toContain('WITHOUT API keys');
    expect(server.logs.find((line) => line.msg === 'tally is serving GraphQL')?.auth).toBe('off');
    expect(await stopWith(server, 'SIGTERM')).toBe(0);
  });
});
