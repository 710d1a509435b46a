/** `npm run bench` arguments: modes, FerretDB executables to run or compare, and mistakes that name the flag. */
import path from 'node:path';
import { parseArgs } from '../../../bench/parseArgs';

const existing = process.execPath;

describe('parseArgs', () => {
  it.each([
    [[], {}, { mode: 'full', ferretdbBinary: undefined, compareFerretdb: undefined }],
    [['--quick'], {}, { mode: 'quick' }],
    [['--smoke', '--compare-stock'], {}, { mode: 'smoke', compareFerretdb: 'stock' }],
    [['--ferretdb-binary', existing], {}, { mode: 'full', ferretdbBinary: existing }],
    [[], { BENCH_FERRETDB_BINARY: existing }, { ferretdbBinary: existing }],
    [['--compare-ferretdb-binary', existing], {}, { compareFerretdb: { binary: existing } }],
  ] as const)('parses %j with env %j', (argv, env, expected) => {
    expect(parseArgs(argv, env)).toMatchObject(expected);
  });

  it.each([
    [['--fast'], {}, 'unknown argument "--fast"; expected --quick'],
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
    expect(() => parseArgs(argv, env)).toThrow(message);
  });
});
