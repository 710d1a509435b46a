/**
 * The database under test: MONGODB_URI when set, else the embedded server (mongod if available, FerretDB
 * otherwise). The engine and version come from buildInfo, the same probe the server uses.
 */
import { MongoClient } from 'mongodb';
import { createLogger } from '../src/logging/createLogger';
import { detectEngine } from '../src/store/EngineInfo';
import type { EngineInfo } from '../src/store/EngineInfo';
import { startEmbeddedDatabase } from '../src/store/embedded/startEmbeddedDatabase';

export interface DatabaseTarget {
  readonly uri: string;
  readonly engine: EngineInfo;
  /** "FerretDB 1.24.2", the label printed next to every figure. */
  readonly label: string;
  /** The label plus backend details, for the report's header. */
  readonly description: string;
  readonly embedded: boolean;
  stop(): Promise<void>;
}

export async function openTarget(uri: string | undefined): Promise<DatabaseTarget> {
  const embedded =
    uri === undefined
      ? await startEmbeddedDatabase({
          engine: 'auto',
          dataDir: undefined,
          logger: createLogger({ level: 'warn', nodeEnv: 'production' }),
          now: Date.now(),
        })
      : undefined;
  const resolved = uri ?? (embedded as { uri: string }).uri;
  const probe = new MongoClient(resolved, { maxPoolSize: 1, serverSelectionTimeoutMS: 10_000 });
  let engine: EngineInfo;
  try {
    await probe.connect();
    engine = detectEngine(await probe.db('admin').command({ buildInfo: 1 }));
  } finally {
    await probe.close();
  }
  const detail = engine.name === 'FerretDB' ? ` (SQLite backend, MongoDB ${engine.compatibleWith} wire protocol)` : '';
  return {
    uri: resolved,
    engine,
    label: `${engine.name} ${engine.version}`,
    description: `${engine.name} ${engine.version}${detail}${embedded ? ', embedded' : ''}`,
    embedded: embedded !== undefined,
    stop: async () => {
      await embedded?.stop();
    },
  };
}
