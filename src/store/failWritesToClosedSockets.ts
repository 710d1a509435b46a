/**
 * Works around a hang in the driver (mongodb 7.9, found with the embedded FerretDB killed under ingest): a command
 * written to a connection whose socket is already destroyed never settles, whatever the timeouts.
 *
 * How it happens. When the server dies, Node destroys each of its client sockets as it reads the end of the stream,
 * but emits their 'close' one event-loop phase later; the driver marks a connection closed only on that 'close'. A
 * command failing on one connection settles in between, and the next one (a flush right behind it) checks out an
 * idle connection of another client that looks alive, whose socket is destroyed: `socket.write` then returns false
 * without an error, and the driver waits for a 'drain' that a destroyed socket never emits. socketTimeoutMS cannot
 * end the wait (a destroyed socket's timer is gone), and only CSOT (`timeoutMS`) would bound a socket write. The
 * command holds its pool's only connection for ever (every writer client has one), so every later flush waited.
 *
 * The fix: a write that is still pending when its socket emits 'close' fails with the connection's own network
 * error, as any command in flight on a closed connection does; the driver then checks the connection in, which
 * discards it, and the pool opens a new one. Installed once per process, before the first client connects.
 */
import type { Socket } from 'node:net';
import { MongoNetworkError } from 'mongodb';

/** What this needs of the driver's internal Connection (mongodb/lib/cmap/connection). */
interface DriverConnection {
  readonly socket: Socket;
  readonly error: Error | null;
  readonly id: number | string;
  readonly address: string;
}

type WriteCommand = (this: DriverConnection, ...args: unknown[]) => Promise<void>;

interface ConnectionModule {
  readonly Connection?: { readonly prototype: { writeCommand?: WriteCommand } };
}

const GUARDED = Symbol.for('tally.failWritesToClosedSockets');

/** Returns whether the guard is in place (false: the driver's internals changed; see the unit test). */
export function failWritesToClosedSockets(): boolean {
  const prototype = driverConnection()?.prototype as
    ({ writeCommand?: WriteCommand } & { [GUARDED]?: true }) | undefined;
  if (!prototype || typeof prototype.writeCommand !== 'function') return false;
  if (prototype[GUARDED]) return true;
  prototype.writeCommand = guarded(prototype.writeCommand);
  prototype[GUARDED] = true;
  return true;
}

/** `writeCommand` failing when its socket closes before the write settled. */
export function guarded(writeCommand: WriteCommand): WriteCommand {
  return function (this: DriverConnection, ...args: unknown[]): Promise<void> {
    const socket = this.socket;
    const written = writeCommand.apply(this, args);
    return new Promise<void>((resolve, reject) => {
      const closed = (): void => {
        reject(this.error ?? new MongoNetworkError(`connection ${this.id} to ${this.address} closed`));
      };
      if (socket.closed) {
        closed();
        return;
      }
      socket.once('close', closed);
      written.then(
        () => {
          socket.off('close', closed);
          resolve();
        },
        (error: unknown) => {
          socket.off('close', closed);
          reject(error as Error);
        },
      );
    });
  };
}

function driverConnection(): ConnectionModule['Connection'] {
  try {
    // The module loader that resolves `mongodb` above, so the patched class is the one its clients use (jest keeps
    // a registry of its own); the driver exports no types for its internals.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('mongodb/lib/cmap/connection') as ConnectionModule).Connection;
  } catch {
    return undefined;
  }
}
