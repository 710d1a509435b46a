/**
 * A crash after an ingest log's window was written and before its checkpoint was saved (and its segment deleted).
 * The log in `dir` as it stands with the hits durable and their window not written is put back after `pipeline`
 * closes (the close writes the window), and a pipeline opened on it again replays the window: the window must count
 * once. `check` runs after the close and again after the replay; the restarted pipeline is returned open.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HitPipeline } from '../../src/ingest/openHitPipeline';

export async function replayWrittenWindow(
  pipeline: HitPipeline,
  dir: string,
  reopen: (dir: string) => Promise<HitPipeline>,
  check: () => Promise<void>,
): Promise<HitPipeline> {
  const snapshot = mkdtempSync(join(tmpdir(), 'tally-log-snapshot-'));
  try {
    cpSync(dir, snapshot, { recursive: true });
    await pipeline.close();
    await check();
    rmSync(dir, { recursive: true });
    cpSync(snapshot, dir, { recursive: true });
  } finally {
    rmSync(snapshot, { recursive: true, force: true });
  }
  const restarted = await reopen(dir);
  await restarted.drain();
  await check();
  return restarted;
}
