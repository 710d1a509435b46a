/**
 * The built server's start-up promises (README "Security"), as the README runs it: `node dist/src/main.js`.
 * Without secret keys it refuses a non-loopback HOST (exit code 2, one line naming the fix); with
 * TALLY_AUTH=off it serves anyway and says so in a warning. The build runs once in beforeAll.
 */
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { testDatabaseName, testMongoUri } from '../support/testDatabase';

const ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(ROOT, 'dist/src/main.js');

beforeAll(() => {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'ignore',
  });
}, 180_000);

function start(env: Record<string, string>): {
  exited: Promise<number | null>;
  output: () => string;
  kill: () => void;
  waitFor: (text: string) => Promise<void>;
} {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', PORT: '0', MONGODB_URI: testMongoUri(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  const onData = (chunk: Buffer): void => {
    text += chunk.toString();
    for (const waiter of waiters) if (text.includes(waiter.text)) waiter.resolve();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return {
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    output: () => text,
    kill: () => child.kill('SIGTERM'),
    waitFor: (wanted) =>
      new Promise((resolve) => {
        if (text.includes(wanted)) resolve();
        else waiters.push({ text: wanted, resolve });
      }),
  };
}

describe('secure start-up of the built server', () => {
  it('refuses HOST=0.0.0.0 without keys with exit code 2 and a line naming the fix', async () => {
    const server = start({ HOST: '0.0.0.0', MONGODB_DB: testDatabaseName('startup_refused') });
    expect(await server.exited).toBe(2);
    expect(server.output()).toBe(
      'tally: invalid configuration: HOST must be a loopback address while no API keys are configured (set TALLY_KEYS_FILE, or TALLY_AUTH=off to serve without keys), got "0.0.0.0"\n',
    );
  });

  it('serves HOST=0.0.0.0 with TALLY_AUTH=off, logging a warning, and stops on SIGTERM', async () => {
    const server = start({ HOST: '0.0.0.0', TALLY_AUTH: 'off', MONGODB_DB: testDatabaseName('startup_off') });
    await server.waitFor('tally is serving GraphQL');
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; url?: string });
    const warning = lines.find((line) => line.msg.startsWith('TALLY_AUTH=off'));
    // An answer means main() has installed its signal handlers (they follow startApp in the same turn).
    const url = lines.find((line) => line.msg === 'tally is serving GraphQL')?.url ?? '';
    expect((await fetch(url.replace('/graphql', '/healthz').replace('0.0.0.0', '127.0.0.1'))).status).toBe(200);
    expect(warning?.level).toBe(40);
    expect(warning?.msg).toContain('WITHOUT API keys');
    server.kill();
    const code = await server.exited;
    expect({ code, output: code === 0 ? '' : server.output() }).toEqual({ code: 0, output: '' });
  });
});
