/**
 * The database under test: MONGODB_URI when set, else the embedded server (mongod if available, FerretDB
 * otherwise; a given FerretDB executable when asked). The engine and version come from buildInfo, the same
 * probe the server uses; on FerretDB the build (stock or patched) from its query plans.
 */
import { MongoClient } from 'mongodb';
import { createLogger } from '../../src/logging/createLogger';
import { detectEngine } from '../../src/store/EngineInfo';
import type { EngineInfo } from '../../src/store/EngineInfo';
import type { EmbeddedDatabase } from '../../src/store/embedded/startEmbeddedDatabase';
import { startEmbeddedDatabase } from '../../src/store/embedded/startEmbeddedDatabase';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';
import type { FerretdbBuild } from './ferretdbBuild';
import { probeFerretdbBuild } from './ferretdbBuild';
import { processCpuSeconds } from './processCpu';

export interface DatabaseTarget {
  readonly uri: string;
  readonly engine: EngineInfo;
  /** FerretDB only: which build answered the probe. */
  readonly build?: FerretdbBuild;
  /** "FerretDB 1.24.2 patched", the label printed next to every figure. */
  readonly label: string;
  /** The label plus backend details, for the report's header. */
  readonly description: string;
  readonly embedded: boolean;
  /** The nice value the embedded server runs at (0 when not embedded). */
  readonly niceness: number;
  /** The executable we started, when we started one from a given path. */
  readonly binary?: string;
  /** CPU seconds the database server process has used so far, when we started it and the OS tells. */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

export interface TargetSpec {
  /** MONGODB_URI; excludes `ferretdbBinary`. */
  readonly uri?: string | undefined;
  /** Start this FerretDB executable (embedded, temporary data directory). */
  readonly ferretdbBinary?: string | undefined;
  /** The embedded server's nice value, as the server gives its own (TALLY_EMBEDDED_NICE); default 0. */
  readonly niceness?: number | undefined;
}

export async function openTarget(spec: TargetSpec): Promise<DatabaseTarget> {
  const logger = createLogger({ level: 'warn', nodeEnv: 'production' });
  let embedded: EmbeddedDatabase | undefined;
  if (spec.uri === undefined) {
    embedded =
      spec.ferretdbBinary === undefined
        ? await startEmbeddedDatabase({
            engine: 'auto',
            dataDir: undefined,
            logger,
            now: Date.now(),
            niceness: spec.niceness,
          })
        : await startFerretdb({ dataDir: undefined, logger, binary: spec.ferretdbBinary, niceness: spec.niceness });
  }
  const resolved = spec.uri ?? (embedded as EmbeddedDatabase).uri;
  const probe = new MongoClient(resolved, { maxPoolSize: 1, serverSelectionTimeoutMS: 10_000 });
  let engine: EngineInfo;
  let build: FerretdbBuild | undefined;
  try {
    await probe.connect();
    engine = detectEngine(await probe.db('admin').command({ buildInfo: 1 }));
    if (engine.name === 'FerretDB') build = (await probeFerretdbBuild(probe.db(`bench_probe_${process.pid}`))).build;
    await probe
      .db(`bench_probe_${process.pid}`)
      .dropDatabase()
      .catch(() => undefined);
  } catch (error) {
    await probe.close();
    await embedded?.stop();
    throw error;
  }
  await probe.close();
  const label = `${engine.name} ${engine.version}${build ? ` ${build}` : ''}`;
  const detail =
    engine.name === 'FerretDB'
      ? ` (${build} build, SQLite backend, MongoDB ${engine.compatibleWith} wire protocol)`
      : '';
  // Asked at each reading: a supervised embedded server gets a new process when it is restarted.
  const pid = (): number | undefined => embedded?.pid?.();
  return {
    uri: resolved,
    engine,
    ...(build === undefined ? {} : { build }),
    label,
    description: `${engine.name} ${engine.version}${detail}${embedded ? ', embedded' : ''}`,
    embedded: embedded !== undefined,
    niceness: embedded === undefined ? 0 : (spec.niceness ?? 0),
    ...(spec.ferretdbBinary === undefined ? {} : { binary: spec.ferretdbBinary }),
    cpuSeconds: () => processCpuSeconds(pid()),
    stop: async () => {
      await embedded?.stop();
    },
  };
}
