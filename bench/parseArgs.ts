/** Parses `npm run bench` arguments (and BENCH_FERRETDB_BINARY) into BenchOptions; mistakes name the flag. */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../src/projectRoot';
import type { BenchMode, BenchOptions } from './options';

const USAGE =
  '--quick, --smoke, --full, --results-dir DIR, --docs-dir DIR, --ferretdb-binary PATH, --compare-stock, --compare-ferretdb-binary PATH or --only SECTION';

function executable(flag: string, value: string | undefined): string {
  if (value === undefined || value === '' || value.startsWith('--'))
    throw new Error(`${flag} needs the path of a FerretDB executable, got ${JSON.stringify(value ?? '')}`);
  const file = path.resolve(value);
  if (!fs.existsSync(file)) throw new Error(`${flag}: no such file ${JSON.stringify(file)}`);
  return file;
}

export function parseArgs(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const root = projectRoot();
  let mode: BenchMode = 'full';
  let resultsDir = path.join(root, 'bench-results');
  let docsDir = path.join(root, 'docs');
  let ferretdbBinary = env.BENCH_FERRETDB_BINARY
    ? executable('BENCH_FERRETDB_BINARY', env.BENCH_FERRETDB_BINARY)
    : undefined;
  let compareFerretdb: BenchOptions['compareFerretdb'];
  const only: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') mode = 'quick';
    else if (arg === '--smoke') mode = 'smoke';
    else if (arg === '--full') mode = 'full';
    else if (arg === '--results-dir') resultsDir = path.resolve(argv[++i] ?? '');
    else if (arg === '--docs-dir') docsDir = path.resolve(argv[++i] ?? '');
    else if (arg === '--ferretdb-binary') ferretdbBinary = executable(arg, argv[++i]);
    else if (arg === '--compare-stock') compareFerretdb = 'stock';
    else if (arg === '--compare-ferretdb-binary') compareFerretdb = { binary: executable(arg, argv[++i]) };
    else if (arg === '--only') only.push(argv[++i] ?? '');
    else throw new Error(`unknown argument ${JSON.stringify(arg)}; expected ${USAGE}`);
  }
  if (env.MONGODB_URI && (ferretdbBinary !== undefined || compareFerretdb !== undefined))
    throw new Error(
      '--ferretdb-binary, BENCH_FERRETDB_BINARY and --compare-* start embedded FerretDB servers; unset MONGODB_URI to use them',
    );
  return {
    mode,
    resultsDir,
    docsDir,
    server: 'child',
    ferretdbBinary,
    compareFerretdb,
    ...(only.length > 0 ? { only } : {}),
  };
}
