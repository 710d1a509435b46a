/**
 * A process test's data directory with the test keys in it (testKeys.ts), the environment that points the built
 * server at both, and the afterAll that stops the server cleanly and removes the directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { stopWith, temporaryDataDir } from './serverProcess';
import type { ServerProcess } from './serverProcess';
import { KEYS_JSON } from './testKeys';

/** A temporary data directory holding the test keys (testKeys.ts) as `keys.json`; keyedEnv points a server at both. */
export function keyedDataDir(label: string): string {
  const dataDir = temporaryDataDir(label);
  fs.writeFileSync(path.join(dataDir, 'keys.json'), KEYS_JSON);
  return dataDir;
}

export function keyedEnv(dataDir: string): Record<string, string> {
  return { TALLY_DATA_DIR: dataDir, TALLY_KEYS_FILE: path.join(dataDir, 'keys.json') };
}

/** For afterAll: a server still running stops on SIGTERM with exit code 0; then its data directory goes. */
export async function stopAndRemove(server: ServerProcess | undefined, dataDir: string | undefined): Promise<void> {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    expect(await stopWith(server, 'SIGTERM')).toBe(0);
  }
  if (dataDir !== undefined) fs.rmSync(dataDir, { recursive: true, force: true });
}
