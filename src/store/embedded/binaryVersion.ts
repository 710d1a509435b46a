/**
 * The version a server binary reports for `--version` (`db version v8.0.4` from mongod, `version: v1.24.2-tally10`
 * from FerretDB), for the data directory's engine record and its messages; undefined when it says nothing usable.
 */
import { execFileSync } from 'node:child_process';

const TIMEOUT_MS = 10_000;

export function binaryVersion(binary: string): string | undefined {
  try {
    const output = execFileSync(binary, ['--version'], {
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return /^(?:db version|version:)\s*(v?\d\S*)/m.exec(output)?.[1];
  } catch {
    return undefined;
  }
}
