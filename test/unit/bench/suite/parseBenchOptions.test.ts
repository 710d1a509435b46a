/** `npm run bench` arguments: modes, FerretDB executables to run or compare, and mistakes that name the flag. */
import path from 'node:path';
import { parseBenchOptions } from '../../../../bench/suite/parseBenchOptions';

const existing = process.execPath;

describe('parseBenchOptions', () => {
  it.each([
    [[], {}, { mode: 'full', ferretdbBinary: undefined, compareFerretdb: undefined }],
    [['--quick'], {}, { mode: 'quick' }],
    [['--smoke', '--compare-stock'], {}, { mode: 'smoke', compareFerretdb: 'stock' }],
    [['--ferretdb-binary', existing], {}, { mode: 'full', ferretdbBinary: existing }],
    [[], { BENCH_FERRETDB_BINARY: existing }, { ferretdbBinary: existing }],
    [['--compare-ferretdb-binary', existing], {}, { compareFerretdb: { binary: existing } }],
    [['--quick', '--only', 'ingest', '--only', 'idempotency'], {}, { mode: 'quick', only: ['ingest', 'idempotency'] }],
    [['--quick', '--only', 'peer', '--peer-hits', '10000'], {}, { only: ['peer'], peerHits: 10_000 }],
    [
      ['--results-dir', 'out', '--docs-dir', 'out/docs'],
      {},
      { resultsDir: path.resolve('out'), docsDir: path.resolve('out/docs') },
    ],
  ] as const)('parses %j with env %j', (argv, env, expected) => {
    expect(parseBenchOptions(argv, env)).toMatchObject(expected);
  });

  it.each([
    [['--fast'], {}, 'unknown argument "--fast"; expected --quick, --smoke, --full, --results-dir DIR'],
    [['quick'], {}, 'unknown argument "quick"; expected --quick'],
    [['--quick', '--smoke'], {}, '--quick, --smoke and --full exclude each other, got quick and smoke'],
    [
      ['--compare-stock', '--compare-ferretdb-binary', existing],
      {},
      '--compare-stock and --compare-ferretdb-binary exclude each other',
    ],
    [['--only'], {}, '--only needs a value (SECTION), got ""'],
    [['--peer-hits', '399'], {}, '--peer-hits needs a whole number of hits, at least 400, got "399"'],
    [['--peer-hits', '1e5'], {}, '--peer-hits needs a whole number of hits, at least 400, got "1e5"'],
    [['--ferretdb-binary'], {}, '--ferretdb-binary needs the path of a FerretDB executable, got ""'],
    [['--ferretdb-binary', '--quick'], {}, '--ferretdb-binary needs the path of a FerretDB executable, got "--quick"'],
    [
      ['--ferretdb-binary', 'no/such/ferretdb'],
      {},
      `--ferretdb-binary: no such file "${path.resolve('no/such/ferretdb')}"`,
    ],
    [
      ['--compare-stock'],
      { MONGODB_URI: 'mongodb://127.0.0.1:1' },
      'start embedded FerretDB servers; unset MONGODB_URI',
    ],
  ] as const)('rejects %j with env %j', (argv, env, message) => {
    expect(() => parseBenchOptions(argv, env)).toThrow(message);
  });
});
