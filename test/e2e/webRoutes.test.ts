/** The browser routes over plain HTTP: what is served, when, and what happens when the assets are not built. */
import http from 'node:http';
import zlib from 'node:zlib';
import { buildTestWeb } from '../support/buildTestWeb';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';

let webDir: string;
const apps: TestApp[] = [];

async function start(label: string, env: Record<string, string>): Promise<TestApp> {
  const app = await startTestApp(label, env);
  apps.push(app);
  return app;
}

beforeAll(async () => {
  webDir = await buildTestWeb();
}, 60_000);

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop()));
});

describe('with the playground on (development)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await start('web-dev', { TALLY_WEB_DIR: webDir, GRAPHQL_PLAYGROUND: 'true' });
  });

  it('serves /tally.js as a script of a few KB that other origins may embed', async () => {
    const response = await fetch(`${app.url}/tally.js`);
    const body = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(body).toContain('sendBeacon');
    expect(Buffer.byteLength(body)).toBeLessThan(4096);
  });

  it('sends the gzip twin to browsers that accept it, and 304 for a known ETag', async () => {
    const raw = await new Promise<{ status: number; encoding?: string; etag?: string; body: Buffer }>((resolve) => {
      http.get(`${app.url}/ui/dashboard.js`, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            encoding: response.headers['content-encoding'],
            etag: response.headers.etag,
            body: Buffer.concat(chunks),
          }),
        );
      });
    });
    expect(raw.status).toBe(200);
    expect(raw.encoding).toBe('gzip');
    expect(zlib.gunzipSync(raw.body).toString()).toContain('pageStatsLive');
    const again = await fetch(`${app.url}/ui/dashboard.js`, { headers: { 'if-none-match': raw.etag ?? '' } });
    expect(again.status).toBe(304);
  });

  it('answers a browser at GET /graphql with the self-hosted GraphiQL page, and API clients as before', async () => {
    const page = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(html).toContain('ui/playground.js');
    expect(html).not.toMatch(/https?:\/\//);
    expect((await fetch(`${app.url}/ui/playground.js`)).status).toBe(200);
    const { status, body } = await app.graphql('{ serverInfo { version } }');
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
  });

  it('serves the dashboard page', async () => {
    const response = await fetch(`${app.url}/dashboard`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('ui/dashboard.js');
  });

  it('answers 404 for a file it does not have', async () => {
    const response = await fetch(`${app.url}/ui/../package.json`);
    expect(response.status).toBe(404);
    expect((await fetch(`${app.url}/ui/nope.js`)).status).toBe(404);
  });
});

describe('with the playground off (production default)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await start('web-prod', { TALLY_WEB_DIR: webDir, NODE_ENV: 'production', LOG_LEVEL: 'silent' });
  });

  it('serves neither the playground page nor its bundle, but keeps the dashboard and beacon', async () => {
    const page = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(await page.text()).not.toContain('ui/playground.js');
    expect((await fetch(`${app.url}/ui/playground.js`)).status).toBe(404);
    expect((await fetch(`${app.url}/dashboard`)).status).toBe(200);
    expect((await fetch(`${app.url}/tally.js`)).status).toBe(200);
  });
});

describe('without built assets', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await start('web-missing', { TALLY_WEB_DIR: `${webDir}-absent`, GRAPHQL_PLAYGROUND: 'true' });
  });

  it('still serves the API, and the pages answer 503 saying how to build them', async () => {
    const response = await fetch(`${app.url}/tally.js`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('run `npm run build`');
    const page = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('run `npm run build`');
    expect((await app.graphql('{ serverInfo { version } }')).status).toBe(200);
  });
});
