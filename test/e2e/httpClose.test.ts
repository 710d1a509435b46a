/**
 * Stopping the app ends every connection it holds (issue 31: webRoutes' afterAll once waited past 60 s on
 * "closing HTTP"): an idle keep-alive connection, a client that stopped reading a streamed export, and a WebSocket
 * whose client never answers the close handshake. close() answers in-flight requests within a grace period
 * (half of SHUTDOWN_TIMEOUT_MS), then destroys what is left.
 */
import http from 'node:http';
import net from 'node:net';
import { startTestApp } from '../support/startTestApp';

/** A raw connection to the app; `closed` resolves when the server ends it. */
function connect(url: string): { socket: net.Socket; closed: Promise<void>; received: () => string } {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed, received: () => text };
}

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`waited 30 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('stops while a keep-alive connection idles, an export is not read, and a WebSocket ignores the close', async () => {
  const app = await startTestApp('http-close');

  // Idle keep-alive: one request answered, the socket kept for the next.
  const agent = new http.Agent({ keepAlive: true });
  const idleSocket = await new Promise<net.Socket>((resolve, reject) => {
    const request = http.get(`${app.url}/healthz`, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(request.socket as net.Socket));
    });
    request.on('error', reject);
  });
  const idleClosed = new Promise<void>((resolve) => idleSocket.once('close', () => resolve()));

  // A reader that stops: two months of minutes (84,960 rows, megabytes) stream only as fast as the client reads, so
  // the response never ends.
  const stalled = connect(app.url);
  const query = 'site=example.com&page=/&from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z&granularity=MINUTE';
  stalled.socket.write(`GET /export?${query}&format=ndjson HTTP/1.1\r\nhost: tally\r\n\r\n`);
  await until('the export to start streaming', () => stalled.received().startsWith('HTTP/1.1 200'));
  stalled.socket.pause();

  // A WebSocket client that completes the upgrade, then never reads again (nor answers the close frame).
  const silent = connect(app.url);
  silent.socket.write(
    [
      'GET /graphql HTTP/1.1',
      'host: tally',
      'upgrade: websocket',
      'connection: Upgrade',
      'sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==',
      'sec-websocket-version: 13',
      'sec-websocket-protocol: graphql-transport-ws',
      '',
      '',
    ].join('\r\n'),
  );
  await until('the WebSocket upgrade', () => silent.received().startsWith('HTTP/1.1 101'));
  silent.socket.pause();

  await app.stop();
  // Read again: a paused socket sees the server's end only once it has read what was sent before it.
  stalled.socket.resume();
  silent.socket.resume();
  await Promise.all([idleClosed, stalled.closed, silent.closed]);
  expect([idleSocket.destroyed, stalled.socket.destroyed, silent.socket.destroyed]).toEqual([true, true, true]);
  agent.destroy();
});
