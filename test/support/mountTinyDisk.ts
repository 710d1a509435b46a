/**
 * A 256 KiB tmpfs to fill: the ingest log's full-disk tests. Mounting needs root (CI runs as root); elsewhere it
 * returns undefined and the caller skips, saying so.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function mountTinyDisk(label: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), `${label}-`));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    return undefined;
  }
}

export function unmount(dir: string): void {
  execFileSync('umount', [dir], { stdio: 'ignore' });
}
