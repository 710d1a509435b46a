#!/usr/bin/env node
/**
 * Builds FerretDB 1.24.2 (SQLite backend) from the Go module proxy into .tools/ once, and prints its path.
 * Used by `npm install` (postinstall, --if-needed) and by the embedded-database launcher.
 * Plain JavaScript because it runs before TypeScript is compiled.
 *
 * Why not `go install …@v1.24.2`: the module lacks the generated build/version/version.txt and the binary
 * panics at start-up, so we build from the downloaded module source with that file added.
 *
 * The build applies tally's patch series (scripts/ferretdb/patches/NNNN-name.patch, each headed by its reason, its
 * measured effect and its test) with an exact-match check (scripts/ferretdb/applyPatches.js): a hunk that does not
 * apply exactly stops the build, so a changed upstream can never give a silently unpatched binary. `--stock` builds
 * the unpatched server into its own folder (the benchmarks compare both). `--test-patches` applies the series to a
 * copy of the source and runs `gofmt`, `go vet` and the patched packages' own tests with tally's beside them.
 */
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { applySeries } = require('./ferretdb/applyPatches.js');

const VERSION = 'v1.24.2';
const MODULE = 'github.com/FerretDB/FerretDB';
const root = path.resolve(__dirname, '..');
/**
 * Changes whenever the patch series changes, so a stale build is never reused. A patch that changes how documents are
 * stored also adds its build to FORMAT_BUILDS (src/store/embedded/ferretdbDataFormat.ts), so no earlier build starts
 * on what it writes.
 */
const PATCH_TAG = 'tally22';
const stock = process.argv.includes('--stock');
const target = path.join(root, '.tools', `ferretdb-${VERSION}${stock ? '' : `-${PATCH_TAG}`}`, 'ferretdb');
const goEnv = () => ({ ...process.env, CGO_ENABLED: '0', GOFLAGS: '-buildvcs=false' });

/** tally's Go tests (scripts/ferretdb/tests/), each beside the package it tests; FerretDB uses none of these names. */
const TESTS = {
  'sjson_tally_test.go': 'internal/handler/sjson/tally_test.go',
  'sjson_paths_test.go': 'internal/handler/sjson/tally_paths_test.go',
  'handler_tally_test.go': 'internal/handler/tally_test.go',
  'handler_upsert_tally_test.go': 'internal/handler/tally_upsert_test.go',
  'sqlite_tally_test.go': 'internal/backends/sqlite/tally_test.go',
  'common_tally_test.go': 'internal/handler/common/tally_test.go',
  'resource_tally_test.go': 'internal/util/resource/tally_test.go',
  'types_tally_test.go': 'internal/types/tally_test.go',
};
/**
 * The packages the series touches, with their tests. internal/backends itself is vetted but not tested: its tests
 * need PostgreSQL (patch 10 adds a field to its QueryParams).
 */
const TESTED = [
  './internal/handler/sjson/',
  './internal/types/',
  './internal/handler/',
  './internal/handler/common/',
  './internal/backends/sqlite/',
  './internal/backends/sqlite/metadata/',
  './internal/util/resource/',
];
const VETTED = [...TESTED, './internal/backends/'];

/** The patched files, for gofmt. */
function patchedFiles(src) {
  const files = new Set();
  for (const name of fs.readdirSync(path.join(__dirname, 'ferretdb', 'patches'))) {
    const text = fs.readFileSync(path.join(__dirname, 'ferretdb', 'patches', name), 'utf8');
    for (const match of text.matchAll(/^\+\+\+ b\/(\S+)$/gm)) files.add(path.join(src, match[1]));
  }
  return [...files];
}

/** Copies the module's source into `src` (writable), with its version file, patched unless `--stock`. */
function prepareSource(src, { patched }) {
  const info = JSON.parse(
    execFileSync('go', ['mod', 'download', '-json', `${MODULE}@${VERSION}`], { env: goEnv(), encoding: 'utf8' }),
  );
  if (!info.Dir) throw new Error(`go mod download gave no directory: ${info.Error || 'unknown error'}`);
  fs.cpSync(info.Dir, src, { recursive: true });
  fs.chmodSync(src, 0o755);
  for (const entry of fs.readdirSync(src, { recursive: true })) {
    const file = path.join(src, entry);
    fs.chmodSync(file, fs.statSync(file).isDirectory() ? 0o755 : 0o644);
  }
  // The patch tag in the version lets tally tell its patched build from a stock FerretDB (EngineInfo).
  fs.writeFileSync(path.join(src, 'build', 'version', 'version.txt'), patched ? `${VERSION}-${PATCH_TAG}` : VERSION);
  if (patched) applySeries(src);
}

function onPath(command) {
  const dirs = (process.env.PATH || '').split(path.delimiter);
  return dirs.some((dir) => dir && fs.existsSync(path.join(dir, command)));
}

function build() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-ferretdb-'));
  try {
    const src = path.join(work, 'src');
    prepareSource(src, { patched: !stock });
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    execFileSync('go', ['build', '-o', partial, './cmd/ferretdb'], {
      cwd: src,
      env: goEnv(),
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * `--test-patches`: the series on a copy of the module's source, then `gofmt -l` on every patched file (none may
 * need formatting), `go vet` on the packages it touches and their own tests with tally's beside them. Needs Go and
 * the module proxy.
 */
function testPatches() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-ferretdb-test-'));
  const src = path.join(work, 'src');
  const run = (command, args) =>
    execFileSync(command, args, { cwd: src, env: goEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    prepareSource(src, { patched: true });
    for (const [file, dest] of Object.entries(TESTS)) {
      fs.copyFileSync(path.join(__dirname, 'ferretdb', 'tests', file), path.join(src, dest));
    }
    // FerretDB's test helpers look for the repository root by its .git directory.
    fs.mkdirSync(path.join(src, '.git'));
    const unformatted = run('gofmt', ['-l', ...patchedFiles(src), ...Object.values(TESTS)]).trim();
    if (unformatted) throw new Error(`gofmt would change: ${unformatted.split('\n').join(', ')}`);
    process.stdout.write(`gofmt: ${patchedFiles(src).length} patched files formatted\n`);
    process.stdout.write(run('go', ['vet', ...VETTED]));
    process.stdout.write(`go vet: ${VETTED.join(' ')} ok\n`);
    process.stdout.write(run('go', ['test', ...TESTED]));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function main() {
  if (process.argv.includes('--test-patches')) {
    testPatches();
    return;
  }
  const ifNeeded = process.argv.includes('--if-needed');
  if (fs.existsSync(target)) {
    process.stdout.write(`${target}\n`);
    return;
  }
  if (ifNeeded && (process.env.MONGODB_URI || onPath('mongod'))) {
    process.stderr.write('tally: a MongoDB server is available; skipping the FerretDB build\n');
    return;
  }
  if (!onPath('go')) {
    const message =
      'tally: Go is not installed, so the embedded FerretDB cannot be built; set MONGODB_URI or install mongod';
    if (ifNeeded) {
      process.stderr.write(`${message}\n`);
      return;
    }
    throw new Error(message);
  }
  process.stderr.write(
    `tally: building FerretDB ${VERSION}${stock ? ' (stock)' : ` (patched: ${PATCH_TAG})`} into ${path.relative(root, target)} (first run only, about 2 minutes)\n`,
  );
  build();
  process.stdout.write(`${target}\n`);
}

module.exports = { target, VERSION, PATCH_TAG };

if (require.main === module) {
  try {
    main();
  } catch (error) {
    process.stderr.write(`tally: FerretDB build failed: ${error.message}\n`);
    process.exit(process.argv.includes('--if-needed') ? 0 : 1);
  }
}
