/**
 * The driver hang behind the stalled writes after the embedded FerretDB was killed: a command written to a
 * connection whose socket is destroyed, but has not emitted 'close' yet, never settles. Real loopback sockets, the
 * driver's own Connection class; whether a write is still pending is decided by socket events, never by sleeping.
 */
import net from 'node:net';
import { MongoNetworkError } from 'mongodb';
import { failWritesToClosedSockets, guarded } from '../../../src/store/failWritesToClosedSockets';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Connection } = require('mongodb/lib/cmap/connection') as {
  Connection: new (socket: net.Socket, options: { id: number; generation: number }) => DriverConnection;
};

interface DriverConnection {
  readonly closed: boolean;
  writeCommand(command: unknown, options: unknown): Promise<void>;
}

type WriteCommand = Parameters<typeof guarded>[0];

/** The driver's writeCommand as shipped (jest gives this file a driver of its own, not yet guarded). */
const shipped = Connection.prototype.writeCommand as unknown as WriteCommand;

const command = { toBin: () => [Buffer.from('a command')] };
const options = { agreedCompressor: 'none' };

const servers: net.Server[] = [];
const accepted: net.Socket[] = [];

async function connectedSocket(): Promise<net.Socket> {
  const server = net.createServer((socket) => accepted.push(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

afterAll(async () => {
  accepted.forEach((socket) => socket.destroy());
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** 'pending' when `write` has not settled once the socket closed and the event loop turned once more. */
async function stateAfterClose(socket: net.Socket, write: Promise<void>): Promise<string> {
  const state = write.then(
    () => 'resolved',
    (error: unknown) => (error instanceof MongoNetworkError ? 'network error' : `other: ${String(error)}`),
  );
  await new Promise((resolve) => socket.once('close', resolve));
  const turned = new Promise<string>((resolve) => setImmediate(() => resolve('pending')));
  return Promise.race([state, turned]);
}

describe('writes to a closed connection', () => {
  it('hang in the driver as shipped (when this fails, the driver fixed it and the guard can go)', async () => {
    const socket = await connectedSocket();
    const connection = new Connection(socket, { id: 1, generation: 0 });
    socket.destroy();
    expect(await stateAfterClose(socket, shipped.call(connection as never, command, options))).toBe('pending');
    // The driver knows the connection is closed by then; the write still waits for a 'drain' that never comes.
    expect(connection.closed).toBe(true);
  });

  it('fail with the connection’s network error once guarded', async () => {
    const socket = await connectedSocket();
    const connection = new Connection(socket, { id: 2, generation: 0 });
    socket.destroy();
    const write = guarded(shipped).call(connection as never, command, options);
    expect(await stateAfterClose(socket, write)).toBe('network error');
  });

  it('settle as before when the socket stays open, leaving no listener behind', async () => {
    const socket = await connectedSocket();
    const connection = new Connection(socket, { id: 3, generation: 0 });
    const listeners = socket.listenerCount('close');
    await guarded(shipped).call(connection as never, command, options);
    expect(socket.listenerCount('close')).toBe(listeners);
    socket.destroy();
  });

  it('is installed on the driver once, however often a database is connected', () => {
    expect(failWritesToClosedSockets()).toBe(true);
    const installed = Connection.prototype.writeCommand;
    expect(installed).not.toBe(shipped);
    expect(failWritesToClosedSockets()).toBe(true);
    expect(Connection.prototype.writeCommand).toBe(installed);
  });
});
