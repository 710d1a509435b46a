/**
 * A beacon from a headless browser (HeadlessChrome is a bot User-Agent) is answered 204 and counts nothing, as in
 * production; so a person trying the snippet in a test browser is told once, at debug level, instead of seeing
 * success and zero (issue 31). Once per process: the second such beacon logs nothing.
 */
import { testDatabaseName, testMongoUri } from '../support/testDatabase';
import { readMetric } from '../support/builtCli';
import { assertBuilt, startServer, stopWith, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { ALLOWED_ORIGIN, KEYS_JSON, SITE_KEY } from '../support/testKeys';

jest.setTimeout(120_000);

const HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';
const BOT_LOG = /^a beacon came from a bot User-Agent/;

let server: ServerProcess;

beforeAll(async () => {
  assertBuilt();
  server = startServer({
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: testDatabaseName('headless-beacon'),
    TALLY_KEYS_JSON: KEYS_JSON,
    METRICS_PORT: '0',
    LOG_LEVEL: 'debug',
  });
  await waitUntilServing(server);
});

afterAll(async () => {
  expect(await stopWith(server, 'SIGTERM')).toBe(0);
});

function beacon(): Promise<Response> {
  return fetch(`${server.url}/api/hit`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', origin: ALLOWED_ORIGIN, 'user-agent': HEADLESS },
    body: JSON.stringify({ key: SITE_KEY, site: 'a.example', page: '/snippet' }),
  });
}

it('answers 204, counts nothing, and says why once at debug level', async () => {
  expect((await beacon()).status).toBe(204);
  expect((await beacon()).status).toBe(204);
  const logged = await server.waitForLog((line) => BOT_LOG.test(line.msg ?? ''), 15_000);
  expect(logged.level).toBe(20);
  expect(JSON.stringify(logged)).not.toContain('HeadlessChrome/131');
  expect(server.logs.filter((line) => BOT_LOG.test(line.msg ?? ''))).toHaveLength(1);
  const metricsUrl = server.logs.find((line) => typeof line.metrics === 'string')?.metrics as string;
  expect(await readMetric(metricsUrl, 'tally_beacon_requests_total{outcome="bot_user_agent"}')).toBe(2);
  expect(await readMetric(metricsUrl, 'tally_beacon_requests_total{outcome="counted"}')).toBe(0);
});
