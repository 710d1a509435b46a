/**
 * Builds the benchmark's peer, GoatCounter v2.7.0, from the Go module proxy into .tools/goatcounter-v2.7.0/ once
 * (a second call finds it there). `go install …@latest` is refused on the proxy's version list, so
 * bench/peer/goatcounter/ is a wrapper module that requires v2.7.0 as a tool and pins every checksum.
 * Run directly (`node dist/bench/peer/buildGoatcounter.js`) it prints the executable's path.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/projectRoot';

export const GOATCOUNTER_VERSION = 'v2.7.0';
const PACKAGE = 'zgo.at/goatcounter/v2/cmd/goatcounter';

/** Where the build lands, whether or not it exists yet. */
export function goatcounterPath(): string {
  return path.join(projectRoot(), '.tools', `goatcounter-${GOATCOUNTER_VERSION}`, 'goatcounter');
}

/** The GoatCounter executable, built first if missing (a few minutes: SQLite is compiled with cgo). */
export function ensureGoatcounter(log: (line: string) => void): string {
  const binary = goatcounterPath();
  if (fs.existsSync(binary)) return binary;
  const moduleDir = path.join(projectRoot(), 'bench', 'peer', 'goatcounter');
  fs.mkdirSync(path.dirname(binary), { recursive: true });
  // Built beside the target and renamed, so an interrupted build never leaves a half-written executable behind.
  const partial = `${binary}.partial-${process.pid}`;
  log(`building GoatCounter ${GOATCOUNTER_VERSION} into ${path.dirname(binary)} (once; needs Go and a C compiler)…`);
  try {
    // The version stamp its release builds get (else it calls itself "dev").
    const ldflags = `-X zgo.at/goatcounter/v2.Version=${GOATCOUNTER_VERSION}`;
    execFileSync('go', ['build', '-trimpath', '-ldflags', ldflags, '-o', partial, PACKAGE], {
      cwd: moduleDir,
      // -mod=readonly: go.mod and go.sum are complete, so a build never edits them or asks the checksum database.
      env: { ...process.env, CGO_ENABLED: '1', GOFLAGS: '-mod=readonly -buildvcs=false' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    fs.renameSync(partial, binary);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return binary;
}

if (require.main === module) {
  try {
    console.log(ensureGoatcounter((line) => console.error(line)));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
