/**
 * A fault-injecting wrapper around a real Database (issue 9): every write command the store sends (bulkWrite,
 * insertMany, updateOne) is counted, and the Nth one after `failNth` fails in one of two ways:
 * - `before`: the server refuses it (a MongoServerError, nothing applied: a definite failure);
 * - `after`: it is applied, then the reply is lost (a MongoNetworkError: the client cannot know it was applied).
 * Reads pass through untouched. The driver is real; only the wrapper decides which reply the store sees.
 * While `hold()` is on, write commands wait before they are sent, so a test can count how many are under way.
 */
import { MongoNetworkError, MongoServerError } from 'mongodb';
import type { Collection, Db } from 'mongodb';
import type { Database } from '../../src/store/connectDatabase';

const WRITE_METHODS = new Set(['bulkWrite', 'insertMany', 'updateOne']);

export type FaultMode = 'before' | 'after';

export class Faults {
  /** Write commands sent through the wrapper since it was created. */
  writes = 0;
  /** Write commands waiting for release() right now. */
  held = 0;
  private armed: { at: number; mode: FaultMode } | undefined;
  private gate: { readonly opened: Promise<void>; open(): void } | undefined;

  /** The `n`th write command from now (1 = the next) fails as `mode` says. */
  failNth(n: number, mode: FaultMode): void {
    this.armed = { at: this.writes + n, mode };
  }

  get pending(): boolean {
    return this.armed !== undefined;
  }

  clear(): void {
    this.armed = undefined;
  }

  /** Write commands from now on wait until release(). */
  hold(): void {
    let open = (): void => undefined;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.gate = { opened, open };
  }

  release(): void {
    this.gate?.open();
    this.gate = undefined;
  }

  /** While held: resolves when the write command may be sent. Otherwise undefined, so nothing waits a tick. */
  passGate(): Promise<void> | undefined {
    const gate = this.gate;
    if (!gate) return undefined;
    this.held += 1;
    return gate.opened.then(() => {
      this.held -= 1;
    });
  }

  /** Called for every write command: returns how this one must fail, if it must. */
  next(): FaultMode | undefined {
    this.writes += 1;
    if (this.armed?.at !== this.writes) return undefined;
    const { mode } = this.armed;
    this.armed = undefined;
    return mode;
  }
}

export function faultyDatabase(database: Database, faults: Faults): Database {
  const writers = new Map<string, Db>();
  return {
    ...database,
    db: faultyDb(database.db, faults),
    // The store writes through writerDb (its own connection per collection on FerretDB): those writes fail too.
    writerDb(name: string): Db {
      let wrapped = writers.get(name);
      if (!wrapped) {
        wrapped = faultyDb(database.writerDb(name), faults);
        writers.set(name, wrapped);
      }
      return wrapped;
    },
  };
}

function faultyDb(db: Db, faults: Faults): Db {
  const collections = new Map<string, Collection>();
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'collection') {
        return (name: string) => {
          let wrapped = collections.get(name);
          if (!wrapped) {
            wrapped = faultyCollection(target.collection(name), faults);
            collections.set(name, wrapped);
          }
          return wrapped;
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as Db;
}

function faultyCollection(collection: Collection, faults: Faults): Collection {
  return new Proxy(collection, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...a: unknown[]) => Promise<unknown>).bind(target);
      if (typeof property !== 'string' || !WRITE_METHODS.has(property)) return method;
      return async (...args: unknown[]) => {
        const held = faults.passGate();
        if (held) await held;
        const fault = faults.next();
        if (fault === 'before') {
          throw new MongoServerError({
            message: `injected: ${property} refused`,
            code: 91,
            codeName: 'ShutdownInProgress',
          });
        }
        const result = await method(...args);
        if (fault === 'after') throw new MongoNetworkError(`injected: reply to ${property} lost`);
        return result;
      };
    },
  });
}
