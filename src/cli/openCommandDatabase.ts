/**
 * The database a `tally dump`, `restore` or `migrate` works on, found the way `npm start` finds it: `MONGODB_URI`
 * and `MONGODB_DB` when set, else the embedded engine on `TALLY_DATA_DIR` (default `./data`), started for the
 * command and stopped after it. Beside a running server on the same data directory: FerretDB's SQLite files take a
 * second server process (each transaction locks them briefly), so the command starts its own; a mongod locks its
 * data directory, so there the command says to use the running server's `MONGODB_URI`, or to stop it.
 */
import pino from 'pino';
import { loadConfig } from '../config/loadConfig';
import type { DocumentTargeting } from '../config/loadConfig';
import { ConfigError } from '../errors/ConfigError';
import type { Logger } from '../logging/createLogger';
import { connectDatabase } from '../store/connectDatabase';
import type { Database } from '../store/connectDatabase';
import { startEmbeddedDatabase } from '../store/embedded/startEmbeddedDatabase';
import type { EmbeddedDatabase } from '../store/embedded/startEmbeddedDatabase';
import { UsageError } from './UsageError';

/** A server waits for its database for ever; a command gives up after this long and says so. */
const CONNECT_DEADLINE_MS = 30_000;
/** Longest one command may take (a batch of 100 site documents full of sketches, on a loaded FerretDB). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;

export interface CommandDatabase {
  readonly database: Database;
  /** The connection string it was opened with (the embedded server's own, for the embedded default). */
  readonly uri: string;
  /** "FerretDB 1.24.2-tally10, database tally (embedded, ./data)". */
  readonly description: string;
  close(): Promise<void>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The driver and store log through pino; on the CLI only warnings matter, and they go to stderr. */
export function commandLogger(name: string): Logger {
  return pino({ level: 'warn', base: { service: name } }, pino.destination({ fd: 2, sync: true }));
}

/** The source database from the environment (UsageError for a bad setting). */
export async function openEnvironmentDatabase(
  env: Env,
  options: { readonly name: string; readonly timeoutMs: number; readonly signal?: AbortSignal | undefined },
): Promise<CommandDatabase> {
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const logger = commandLogger(options.name);
  if (config.mongodbUri !== undefined) {
    return openUri(config.mongodbUri, config.mongodbDb, { ...options, logger, targeting: config.documentTargeting });
  }
  const dataDir = config.embeddedDataDir;
  if (dataDir === undefined) {
    throw new UsageError(
      'TALLY_DATA_DIR is empty (a temporary database): set it to the data directory, or MONGODB_URI',
    );
  }
  let embedded: EmbeddedDatabase;
  try {
    embedded = await startEmbeddedDatabase({ engine: config.embeddedEngine, dataDir, logger, now: Date.now() });
  } catch (error) {
    throw new Error(
      `cannot start the embedded database on ${dataDir}: ${(error as Error).message.split('\n')[0]}. ` +
        'A tally server running on it with mongod holds its files: stop it, or set MONGODB_URI to its database.',
    );
  }
  try {
    const opened = await openUri(embedded.uri, config.mongodbDb, {
      ...options,
      logger,
      targeting: config.documentTargeting,
    });
    return {
      database: opened.database,
      uri: opened.uri,
      description: `${opened.description} (embedded, ${dataDir})`,
      async close() {
        await opened.close();
        await embedded.stop();
      },
    };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}

export async function openUri(
  uri: string,
  dbName: string,
  options: {
    readonly name: string;
    readonly timeoutMs: number;
    readonly logger?: Logger | undefined;
    readonly signal?: AbortSignal | undefined;
    /** DOCUMENT_TARGETING, as a server on this database is configured (how a merge addresses documents). */
    readonly targeting?: DocumentTargeting | undefined;
  },
): Promise<CommandDatabase> {
  const deadline = AbortSignal.timeout(CONNECT_DEADLINE_MS);
  let database: Database;
  try {
    database = await connectDatabase({
      uri,
      dbName,
      logger: options.logger ?? commandLogger(options.name),
      appName: options.name,
      timeoutMs: options.timeoutMs,
      signal: options.signal ? AbortSignal.any([options.signal, deadline]) : deadline,
      policy: { targeting: options.targeting },
    });
  } catch (error) {
    if (deadline.aborted) throw new Error(`the database at ${redact(uri)} did not answer within 30 s`);
    if (options.signal?.aborted === true) throw new Error('interrupted while connecting to the database');
    throw error;
  }
  return {
    database,
    uri,
    description: `${database.engine.name} ${database.engine.version}, database ${dbName}`,
    close: () => database.close(),
  };
}

/** A connection string without its password, for messages. */
export function redact(uri: string): string {
  return uri.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
