/**
 * Where the ingest log lives (INGEST_ACK=log): INGEST_LOG_DIR, else beside the embedded database in the data
 * directory (same disk, so an acknowledged hit survives what the database survives), else, for an embedded database
 * in a temporary directory, a temporary directory too.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../config/loadConfig';

export async function ingestLogDir(config: Config): Promise<string | undefined> {
  if (config.ingest.ack !== 'log') return undefined;
  const dir =
    config.ingest.logDir ??
    (config.embeddedDataDir !== undefined
      ? join(config.embeddedDataDir, 'ingest-log')
      : await mkdtemp(join(tmpdir(), 'tally-ingest-log-')));
  await mkdir(dir, { recursive: true });
  return dir;
}
