/**
 * The README's promise for the browser pages, at process level: after `npm run build` (which bundles them into
 * dist/web), the built server serves the playground, the dashboard and the beacon, and the playground page
 * names nothing beyond the server itself.
 */
import fs from 'node:fs';
import { assertBuilt, startServer, stopWith, temporaryDataDir, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';

let dataDir: string;
let server: ServerProcess;

beforeAll(() => {
  assertBuilt();
  dataDir = temporaryDataDir('web');
  server = startServer({ TALLY_DATA_DIR: dataDir });
});

afterAll(async () => {
  if (server.child.exitCode === null && server.child.signalCode === null) await stopWith(server, 'SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the built server', () => {
  it('serves the playground, its bundle, the dashboard and the beacon from dist/web', async () => {
    const url = await waitUntilServing(server);
    const page = await fetch(`${url}/graphql`, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(html).toContain('ui/playground.js');
    expect(html).not.toMatch(/https?:\/\//);
    for (const file of ['/ui/playground.js', '/ui/playground.css', '/dashboard', '/ui/dashboard.js', '/tally.js']) {
      const response = await fetch(`${url}${file}`);
      expect([file, response.status]).toEqual([file, 200]);
    }
  });
});
