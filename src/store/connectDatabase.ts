/**
 * Opens the MongoDB client: detects the engine first (FerretDB gets one connection), reports every command
 * sent to `onCommand` (the metrics counter of round trips), and exposes ping for readiness.
 */
import { MongoClient } from 'mongodb';
import type { Db } from 'mongodb';
import type { Logger } from '../logging/createLogger';
import { detectEngine } from './EngineInfo';
import type { EngineInfo } from './EngineInfo';

export interface Database {
  readonly client: MongoClient;
  readonly db: Db;
  readonly engine: EngineInfo;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  readonly uri: string;
  readonly dbName: string;
  readonly logger: Logger;
  readonly onCommand?: (commandName: string) => void;
  readonly appName?: string;
}

const SERVER_SELECTION_TIMEOUT_MS = 10_000;

export async function connectDatabase(options: ConnectOptions): Promise<Database> {
  const engine = await probeEngine(options.uri);
  const client = new MongoClient(options.uri, {
    appName: options.appName ?? 'tally',
    monitorCommands: options.onCommand !== undefined,
    serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
    ...(engine.requiresSingleWriter ? { maxPoolSize: 1, minPoolSize: 1 } : {}),
  });
  if (options.onCommand) {
    const onCommand = options.onCommand;
    client.on('commandStarted', (event) => onCommand(event.commandName));
  }
  await client.connect();
  options.logger.info(
    { engine: engine.name, version: engine.version, singleConnection: engine.requiresSingleWriter },
    `connected to ${engine.name} ${engine.version}`,
  );
  const db = client.db(options.dbName);
  return {
    client,
    db,
    engine,
    async ping() {
      try {
        await db.command({ ping: 1 }, { timeoutMS: 2_000 });
        return true;
      } catch {
        return false;
      }
    },
    close: () => client.close(),
  };
}

async function probeEngine(uri: string): Promise<EngineInfo> {
  const probe = new MongoClient(uri, { maxPoolSize: 1, serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS });
  try {
    await probe.connect();
    return detectEngine(await probe.db('admin').command({ buildInfo: 1 }));
  } finally {
    await probe.close();
  }
}
