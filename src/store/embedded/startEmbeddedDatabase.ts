/**
 * The zero-configuration database: a real mongod where one can be had, FerretDB (SQLite) otherwise.
 */
import type { EmbeddedEngine } from './EmbeddedDatabase';
import type { Logger } from '../../logging/createLogger';
import type { EmbeddedDatabase } from './EmbeddedDatabase';
import { startFerretdb } from './startFerretdb';
import { mongodOnPath, mongodRecentlyUnavailable, startMongod } from './startMongod';

export type { EmbeddedDatabase };

export async function startEmbeddedDatabase(options: {
  engine: EmbeddedEngine;
  dataDir: string | undefined;
  logger: Logger;
  now: number;
}): Promise<EmbeddedDatabase> {
  const { engine, logger } = options;
  if (engine === 'ferretdb') return startFerretdb(options);
  if (engine === 'mongod') return startMongod(options);
  if (mongodOnPath() || !mongodRecentlyUnavailable(options.now)) {
    try {
      return await startMongod(options);
    } catch (error) {
      logger.warn(
        { reason: error instanceof Error ? error.message.split('\n')[0] : String(error) },
        'no mongod available; using FerretDB',
      );
    }
  }
  return startFerretdb(options);
}
