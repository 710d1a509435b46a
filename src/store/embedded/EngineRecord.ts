/**
 * The data directory's record of the engine that holds its data: `engine.json` beside the engines' folders, written
 * at the first start and read at every start after it (chooseEngine). Data from before records is recognised by
 * which engine folder holds files.
 */
import fs from 'node:fs';
import path from 'node:path';

export type EngineName = 'mongod' | 'ferretdb';

export interface EngineRecord {
  readonly engine: EngineName;
  /** The engine's version at the first start, for the messages. */
  readonly version?: string | undefined;
  /** The engine's version at the latest start. */
  readonly lastVersion?: string | undefined;
  /** FerretDB: the oldest of tally's builds that reads the data, as the builds that wrote it knew (ferretdbDataFormat). */
  readonly readableFrom?: number | undefined;
  /** When the record was first written (ISO), kept when a later start notes its version. */
  readonly recordedAt?: string | undefined;
}

const FILE = 'engine.json';

export function engineLabel(engine: EngineName): string {
  return engine === 'ferretdb' ? 'FerretDB' : 'mongod';
}

/** The record, or undefined when there is none; a file that is not a record fails the start with its path. */
export function readEngineRecord(dataDir: string): EngineRecord | undefined {
  const file = path.join(dataDir, FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Record<string, unknown>;
  if (parsed.engine !== 'mongod' && parsed.engine !== 'ferretdb') {
    throw new Error(`${file} names no engine ("mongod" or "ferretdb"), got ${JSON.stringify(parsed.engine)}`);
  }
  const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  return {
    engine: parsed.engine,
    version: asString(parsed.version),
    // Records from before this field: the first start's version is the last one known.
    lastVersion: asString(parsed.lastVersion) ?? asString(parsed.version),
    recordedAt: asString(parsed.recordedAt),
    readableFrom: typeof parsed.readableFrom === 'number' ? parsed.readableFrom : undefined,
  };
}

/** Writes the record; `recordedAt` defaults to `now` (a first record). */
export function writeEngineRecord(dataDir: string, record: EngineRecord, now: number): void {
  const file = path.join(dataDir, FILE);
  const body = {
    engine: record.engine,
    version: record.version ?? null,
    recordedAt: record.recordedAt ?? new Date(now).toISOString(),
    lastVersion: record.lastVersion ?? record.version ?? null,
    ...(record.readableFrom === undefined ? {} : { readableFrom: record.readableFrom }),
  };
  // Written whole then renamed, so a crash never leaves half a record that would stop the next start.
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(body, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

/** Each engine folder of `dataDir` that holds files, with its newest modification time. */
export function legacyEngineFolders(dataDir: string): Partial<Record<EngineName, number>> {
  const found: Partial<Record<EngineName, number>> = {};
  for (const engine of ['mongod', 'ferretdb'] as const) {
    const newest = newestFileTime(path.join(dataDir, engine));
    if (newest !== undefined) found[engine] = newest;
  }
  return found;
}

function newestFileTime(dir: string): number | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return undefined;
  }
  let newest: number | undefined;
  for (const entry of entries) {
    const stat = fs.statSync(path.join(dir, entry), { throwIfNoEntry: false });
    if (stat?.isFile()) newest = Math.max(newest ?? 0, stat.mtimeMs);
  }
  return newest;
}
