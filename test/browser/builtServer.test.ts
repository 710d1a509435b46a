/**
 * The README's promise at process level: after `npm run build`, `node dist/src/main.js` (what `npm start`
 * runs) serves the playground, the dashboard and the beacon from dist/web, fetching nothing elsewhere.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { testDatabaseName, testMongoUri } from '../support/testDatabase';

const ROOT = path.resolve(__dirname, '..', '..');
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PORT: '0',
      MONGODB_URI: testMongoUri(),
      MONGODB_DB: testDatabaseName('built-server'),
      TALLY_WEB_DIR: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`tally exited with ${code} before serving`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'tally is serving GraphQL' && entry.url) resolve(entry.url.replace(/\/graphql$/, ''));
      } catch {
        // not a log line
      }
    });
  });
}, 240_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

describe('the built server', () => {
  it('serves the playground page and bundle, the dashboard and the beacon from dist/web', async () => {
    const playground = await fetch(`${url}/graphql`, { headers: { accept: 'text/html' } });
    const html = await playground.text();
    expect(html).toContain('ui/playground.js');
    expect(html).not.toMatch(/https?:\/\//);
    for (const file of ['/ui/playground.js', '/ui/playground.css', '/dashboard', '/ui/dashboard.js', '/tally.js']) {
      const response = await fetch(`${url}${file}`);
      expect([file, response.status]).toEqual([file, 200]);
    }
  });
});
