/**
 * The zero-configuration database: a real mongod where one can be had, FerretDB (SQLite) otherwise, and from the
 * first start on, whichever engine the data directory's record names (chooseEngine).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EmbeddedEngine } from './EmbeddedDatabase';
import type { Logger } from '../../logging/createLogger';
import type { EmbeddedDatabase } from './EmbeddedDatabase';
import { StartRefusedError } from '../../errors/StartRefusedError';
import { chooseEngine, mongodGoneMessage } from './chooseEngine';
import type { EngineChoice } from './chooseEngine';
import { legacyEngineFolders, readEngineRecord, writeEngineRecord } from './EngineRecord';
import { ferretdbDowngradeRefusal, readableAfterStart } from './ferretdbDataFormat';
import { startFerretdb } from './startFerretdb';
import type { RefuseVersion } from './startFerretdb';
import { installedMongod, mongodRecentlyUnavailable, startMongod } from './startMongod';

export type { EmbeddedDatabase };

export async function startEmbeddedDatabase(options: {
  engine: EmbeddedEngine;
  dataDir: string | undefined;
  logger: Logger;
  now: number;
  /** The server's nice value (lowerPriority); 0 or undefined: the default priority. */
  niceness?: number | undefined;
}): Promise<EmbeddedDatabase> {
  const { logger, now } = options;
  const dataDir = options.dataDir === undefined ? undefined : path.resolve(options.dataDir);
  const recorded = dataDir === undefined ? undefined : readEngineRecord(dataDir);
  const choice = chooseEngine({
    requested: options.engine,
    dataDir,
    recorded,
    legacy: dataDir === undefined || recorded !== undefined ? {} : legacyEngineFolders(dataDir),
    mongodInstalled: await installedMongod(),
    mongodDownloadDue: !mongodRecentlyUnavailable(now),
  });
  if ('refuse' in choice) throw new StartRefusedError(choice.refuse);
  if (choice.recognised !== undefined) logger.info({ dataDir }, choice.recognised);
  if (choice.hint !== undefined) logger.warn({ dataDir }, choice.hint);
  const refuseVersion: RefuseVersion | undefined =
    dataDir !== undefined && recorded?.engine === 'ferretdb'
      ? (version) => ferretdbDowngradeRefusal(dataDir, recorded, version)
      : undefined;
  const started = await startChosen(choice, { ...options, refuseVersion }, (reason) =>
    mongodGoneMessage(dataDir ?? '', recorded?.version, reason),
  );
  if (dataDir === undefined) return started;
  const written = {
    lastVersion: started.version,
    readableFrom: started.engine === 'ferretdb' ? readableAfterStart(recorded, started.version) : undefined,
  };
  if (choice.record) {
    fs.mkdirSync(dataDir, { recursive: true });
    writeEngineRecord(dataDir, { engine: started.engine, version: started.version, ...written }, now);
    logger.info(
      { dataDir, engine: started.engine, version: started.version },
      'recorded the engine that holds the data',
    );
  } else if (
    recorded?.engine === started.engine &&
    started.version !== undefined &&
    (written.lastVersion !== recorded.lastVersion || written.readableFrom !== recorded.readableFrom)
  ) {
    // What an earlier build must know before it starts here: it may not read what this one writes.
    writeEngineRecord(dataDir, { ...recorded, ...written }, now);
    logger.info(
      { dataDir, engine: started.engine, version: started.version, before: recorded.lastVersion ?? null },
      'recorded the engine version that now writes the data',
    );
  }
  return started;
}

async function startChosen(
  choice: Extract<EngineChoice, { start: unknown }>,
  options: {
    dataDir: string | undefined;
    logger: Logger;
    niceness?: number | undefined;
    refuseVersion?: RefuseVersion | undefined;
  },
  refusal: (reason: string) => string,
): Promise<EmbeddedDatabase> {
  if (choice.start === 'ferretdb') return startFerretdb(options);
  try {
    return await startMongod(options);
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    if (choice.otherwise === 'fail') throw error;
    if (choice.otherwise === 'refuse') {
      throw new StartRefusedError(refusal(reason));
    }
    options.logger.warn({ reason }, 'no mongod available; using FerretDB');
    return startFerretdb(options);
  }
}
