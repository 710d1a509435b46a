/**
 * A probe's tally server: a child process on a database of its own, on MONGODB_URI or a fresh embedded server,
 * with a driver connection to the same database for what the probe loads or inspects directly. `close()` stops the
 * server, drops the database and stops what was started.
 */
import { MongoClient } from 'mongodb';
import type { Db } from 'mongodb';
import { startServer } from './serverProcess';
import type { ServerHandle } from './serverProcess';
import { openTarget } from './target';

export interface ServerProbe {
  readonly server: ServerHandle;
  readonly db: Db;
  /** The engine, for the line printed above the figures. */
  readonly description: string;
  close(): Promise<void>;
}

export async function openServerProbe(name: string, env: Readonly<Record<string, string>>): Promise<ServerProbe> {
  const target = await openTarget({ uri: process.env.MONGODB_URI || undefined });
  const dbName = `bench_${name}_${process.pid}`;
  const mongo = await MongoClient.connect(target.uri);
  const server = await startServer('child', { uri: target.uri, dbName, env });
  return {
    server,
    db: mongo.db(dbName),
    description: target.description,
    close: async () => {
      await server.stop();
      await mongo.db(dbName).dropDatabase();
      await mongo.close();
      await target.stop();
    },
  };
}

/** Runs a probe's main; a failure prints its stack and exits with 1. */
export function runProbe(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
