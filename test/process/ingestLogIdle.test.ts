/**
 * FLUSH_IDLE_MS at the process level (issue 27): the README promises that on the embedded default a hit is counted
 * about a second after it was acknowledged once traffic pauses, although windows last FLUSH_WINDOW_MS under steady
 * traffic. The built server with the longest window there is (60 s) and a short idle seal: a lone batch is counted,
 * and the log holds no window, well before that window would have ended.
 */
import { readMetric } from '../support/readMetric';
import { assertBuilt, startServer, stopWith, temporaryDataDir, waitUntilServing } from '../support/serverProcess';
import type { ServerProcess } from '../support/serverProcess';
import { waitFor } from '../support/waitFor';

const RECORD_HITS = `mutation Record($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;
const TOTAL = `{ pageStats(site: "idle.example", page: "/quiet", range: { from: "2026-03-10T00:00:00Z",
  to: "2026-03-11T00:00:00Z" }, granularity: DAY) { total } }`;

let server: ServerProcess | undefined;

jest.setTimeout(120_000);

beforeAll(() => assertBuilt());

afterAll(async () => {
  if (server && server.child.exitCode === null) await stopWith(server, 'SIGTERM');
});

it('writes a window once no hit joined it for FLUSH_IDLE_MS, long before FLUSH_WINDOW_MS', async () => {
  server = startServer({
    TALLY_DATA_DIR: temporaryDataDir('ingest-idle'),
    INGEST_ACK: 'log',
    FLUSH_WINDOW_MS: '60000',
    FLUSH_IDLE_MS: '300',
  });
  const base = await waitUntilServing(server);
  const hits = Array.from({ length: 5 }, () => ({ site: 'idle.example', page: '/quiet', at: '2026-03-10T10:00:00Z' }));
  const sent = Date.now();
  const reply = await server.graphql<{ recordHits: { accepted: number } }>(RECORD_HITS, { hits });
  expect(reply.body.data?.recordHits.accepted).toBe(5);

  // Half the window: a server that waited for its end would not be done by then.
  const target = server;
  const total = await waitFor(
    async () => (await target.graphql<{ pageStats: { total: number } }>(TOTAL)).body.data?.pageStats.total,
    { what: 'the lone batch counted', timeoutMs: Math.max(0, sent + 30_000 - Date.now()), until: (t) => t === 5 },
  );
  expect(total).toBe(5);
  // The page's day document can be written before the window's other parts (the minute documents' lane) and its
  // checkpoint: the window is done once the log holds none, within the same half window.
  const windows = await waitFor(() => readMetric(base, 'tally_ingest_log_windows'), {
    what: 'the log to hold no window',
    timeoutMs: Math.max(0, sent + 30_000 - Date.now()),
    until: (n) => n === 0,
  });
  expect(windows).toBe(0);
});
