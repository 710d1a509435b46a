/** Parses `npm run bench` arguments (and BENCH_FERRETDB_BINARY) into BenchOptions; mistakes name the flag. */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/projectRoot';
import { parseOptions } from '../shared/options';
import type { BenchMode, BenchOptions } from './BenchOptions';

/** One batch per client of the GoatCounter side-by-side section. */
const MIN_PEER_HITS = 400;
const EXECUTABLE = { kind: 'string', value: 'PATH', needs: 'the path of a FerretDB executable' } as const;

export const BENCH_FLAGS = {
  quick: { kind: 'flag' },
  smoke: { kind: 'flag' },
  full: { kind: 'flag' },
  'results-dir': { kind: 'string', value: 'DIR' },
  'docs-dir': { kind: 'string', value: 'DIR' },
  'ferretdb-binary': EXECUTABLE,
  'compare-stock': { kind: 'flag' },
  'compare-ferretdb-binary': EXECUTABLE,
  only: { kind: 'strings', value: 'SECTION' },
  'peer-hits': { kind: 'string', value: 'N', needs: `a whole number of hits, at least ${MIN_PEER_HITS}` },
} as const;

function executable(flag: string, value: string): string {
  const file = path.resolve(value);
  if (!fs.existsSync(file)) throw new Error(`${flag}: no such file ${JSON.stringify(file)}`);
  return file;
}

export function parseBenchOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const root = projectRoot();
  const flags = parseOptions(argv, BENCH_FLAGS, { program: 'npm run bench --' });
  const modes = (['quick', 'smoke', 'full'] as const).filter((mode) => flags[mode]);
  if (modes.length > 1) throw new Error(`--quick, --smoke and --full exclude each other, got ${modes.join(' and ')}`);
  const mode: BenchMode = modes[0] ?? 'full';
  const given = flags['ferretdb-binary'];
  const ferretdbBinary =
    given !== undefined
      ? executable('--ferretdb-binary', given)
      : env.BENCH_FERRETDB_BINARY
        ? executable('BENCH_FERRETDB_BINARY', env.BENCH_FERRETDB_BINARY)
        : undefined;
  if (flags['compare-stock'] && flags['compare-ferretdb-binary'] !== undefined)
    throw new Error('--compare-stock and --compare-ferretdb-binary exclude each other');
  const other = flags['compare-ferretdb-binary'];
  const compareFerretdb: BenchOptions['compareFerretdb'] = flags['compare-stock']
    ? 'stock'
    : other !== undefined
      ? { binary: executable('--compare-ferretdb-binary', other) }
      : undefined;
  if (env.MONGODB_URI && (ferretdbBinary !== undefined || compareFerretdb !== undefined))
    throw new Error(
      '--ferretdb-binary, BENCH_FERRETDB_BINARY and --compare-* start embedded FerretDB servers; unset MONGODB_URI to use them',
    );
  const peerHits = flags['peer-hits'];
  if (peerHits !== undefined && !(/^\d+$/.test(peerHits) && Number(peerHits) >= MIN_PEER_HITS))
    throw new Error(
      `--peer-hits needs a whole number of hits, at least ${MIN_PEER_HITS}, got ${JSON.stringify(peerHits)}`,
    );
  const resultsDir = flags['results-dir'];
  const docsDir = flags['docs-dir'];
  return {
    mode,
    resultsDir: resultsDir === undefined ? path.join(root, 'bench-results') : path.resolve(resultsDir),
    docsDir: docsDir === undefined ? path.join(root, 'docs') : path.resolve(docsDir),
    server: 'child',
    ferretdbBinary,
    compareFerretdb,
    ...(peerHits === undefined ? {} : { peerHits: Number(peerHits) }),
    ...(flags.only.length > 0 ? { only: flags.only } : {}),
  };
}
