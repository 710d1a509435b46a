/**
 * Starts a real mongod through mongodb-memory-server: the one on PATH, or one it downloads (machines with
 * internet). A failed download is remembered for a day so offline machines do not pay for it on every start.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { MongoMemoryServer } from 'mongodb-memory-server-core';
import type { Logger } from '../../logging/createLogger';
import type { EmbeddedDatabase } from './EmbeddedDatabase';
import { binaryVersion } from './binaryVersion';
import { lowerPriority } from './lowerPriority';
import { projectRoot } from '../../projectRoot';

const DOWNLOAD_RETRY_MS = 24 * 60 * 60 * 1000;

export function mongodOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'mongod');
    if (dir && fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A mongod that runs without a download: on PATH, or one mongodb-memory-server downloaded before (looked up in its
 * cache, never downloaded here), with the version it reports.
 */
export async function installedMongod(): Promise<{ path: string; version: string | undefined } | undefined> {
  let found = mongodOnPath();
  if (found === undefined) {
    try {
      // The lookup module alone: the whole package costs ~1 s of start-up CPU.
      const { DryMongoBinary } = await import('mongodb-memory-server-core/lib/util/DryMongoBinary.js');
      found = await DryMongoBinary.locateBinary(DryMongoBinary.getEnsuredOptions());
    } catch {
      // A broken MONGOMS_SYSTEM_BINARY or cache: nothing installed that can be used.
    }
  }
  return found === undefined ? undefined : { path: found, version: binaryVersion(found) };
}

function failureMarker(): string {
  return path.join(projectRoot(), '.tools', 'mongod-download-failed');
}

export function mongodRecentlyUnavailable(now: number): boolean {
  try {
    return now - fs.statSync(failureMarker()).mtimeMs < DOWNLOAD_RETRY_MS;
  } catch {
    return false;
  }
}

export async function startMongod(options: {
  dataDir: string | undefined;
  logger: Logger;
  /** The server's nice value (lowerPriority); 0 or undefined: the default priority. */
  niceness?: number | undefined;
}): Promise<EmbeddedDatabase> {
  const systemBinary = mongodOnPath();
  const dbPath = options.dataDir === undefined ? undefined : path.resolve(options.dataDir, 'mongod');
  const created = dbPath !== undefined && !fs.existsSync(dbPath);
  if (dbPath) fs.mkdirSync(dbPath, { recursive: true });
  let server: MongoMemoryServer;
  try {
    // Loaded only when a mongod is wanted: the package and its download machinery cost ~1 s of start-up CPU.
    const { MongoMemoryServer } = await import('mongodb-memory-server-core');
    server = await MongoMemoryServer.create({
      instance: { ip: '127.0.0.1', ...(dbPath ? { dbPath, storageEngine: 'wiredTiger' as const } : {}) },
      ...(systemBinary ? { binary: { systemBinary } } : {}),
    });
  } catch (error) {
    // An empty mongod/ folder left behind would read as mongod's data to a start that finds no engine record.
    if (created) fs.rmSync(dbPath, { recursive: true, force: true });
    if (!systemBinary && (await downloadsEnabled())) {
      fs.mkdirSync(path.dirname(failureMarker()), { recursive: true });
      fs.writeFileSync(failureMarker(), String(error instanceof Error ? error.message : error));
    }
    throw error;
  }
  const pid = server.instanceInfo?.instance.mongodProcess?.pid;
  const niceness = options.niceness ?? 0;
  if (niceness > 0 && pid !== undefined) lowerPriority(pid, niceness);
  options.logger.info(
    { uri: server.getUri(), dbPath: dbPath ?? '(temporary)', pid, niceness },
    'embedded mongod started',
  );
  const binary = systemBinary ?? (await installedMongod())?.path;
  return {
    uri: server.getUri(),
    engine: 'mongod',
    version: binary === undefined ? undefined : binaryVersion(binary),
    pid: () => pid,
    async stop() {
      // Keep a persistent dbPath's files: `npm start` data must survive a restart.
      await server.stop({ doCleanup: dbPath === undefined, force: false });
    },
  };
}

/** MONGOMS_RUNTIME_DOWNLOAD=false turns downloads off: then no download failed, and none is remembered as failed. */
async function downloadsEnabled(): Promise<boolean> {
  const { resolveConfig, envToBool, ResolveConfigVariables } =
    await import('mongodb-memory-server-core/lib/util/resolveConfig.js');
  return envToBool(resolveConfig(ResolveConfigVariables.RUNTIME_DOWNLOAD));
}
