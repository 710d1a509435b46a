/**
 * What of the ingest log is flushed: the writer lane of this log, the last window whose counter writes the database
 * acknowledged (`seq`), and the offset just past that window's seal record. Written atomically (a temporary file,
 * fsync, rename, fsync of the directory), so a crash leaves the old checkpoint or the new one, never half of one.
 * A checkpoint that lags is harmless: the windows after it are replayed under their own marks, and a document that
 * absorbed one skips it (src/store/FlushMark.ts).
 */
import { open, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDirectory } from './syncDirectory';

export interface LogCheckpoint {
  /** The lane every window of this log is written under: `_a.<lane>` in the counter documents. */
  readonly lane: string;
  /** The last window flushed; the next one is seq + 1. */
  readonly seq: number;
  /** Records ending at or before this offset are flushed. */
  readonly offset: number;
}

const FILE = 'checkpoint.json';

export async function readCheckpoint(dir: string, newLane: () => string): Promise<LogCheckpoint> {
  let text: string;
  try {
    text = await readFile(join(dir, FILE), 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    const fresh = { lane: newLane(), seq: 0, offset: 0 };
    await writeCheckpoint(dir, fresh);
    return fresh;
  }
  const parsed = JSON.parse(text) as Partial<LogCheckpoint>;
  if (
    typeof parsed.lane !== 'string' ||
    !Number.isSafeInteger(parsed.seq) ||
    !Number.isSafeInteger(parsed.offset) ||
    (parsed.seq as number) < 0 ||
    (parsed.offset as number) < 0
  ) {
    throw new Error(`${join(dir, FILE)} is not an ingest log checkpoint: ${text.slice(0, 200)}`);
  }
  return { lane: parsed.lane, seq: parsed.seq as number, offset: parsed.offset as number };
}

export async function writeCheckpoint(dir: string, checkpoint: LogCheckpoint): Promise<void> {
  const path = join(dir, FILE);
  const temporary = `${path}.tmp`;
  await writeFile(temporary, JSON.stringify(checkpoint));
  const file = await open(temporary, 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  await syncDirectory(dir);
}
