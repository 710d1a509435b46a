import { DEFAULT_COMMAND_TIMEOUT_MS } from '../../../src/cli/openCommandDatabase';
import { parseArchiveArgs } from '../../../src/cli/parseArchiveArgs';

const RESTORE = { flags: ['merge'], values: ['timeout-ms'], files: 1 } as const;
const MIGRATE = { flags: ['merge'], values: ['to', 'db', 'timeout-ms'], files: 0 } as const;

describe('parseArchiveArgs', () => {
  it('reads a file, --merge and valued options in either spelling', () => {
    expect(parseArchiveArgs(['--merge', 'a.gz', '--timeout-ms=5000'], RESTORE)).toEqual({
      help: false,
      files: ['a.gz'],
      merge: true,
      to: undefined,
      db: undefined,
      timeoutMs: 5000,
    });
    expect(parseArchiveArgs(['-'], RESTORE).files).toEqual(['-']);
    const migrate = parseArchiveArgs(['--to', 'mongodb://h:1/?a=b', '--db', 'x'], MIGRATE);
    expect([migrate.to, migrate.db, migrate.merge, migrate.timeoutMs]).toEqual([
      'mongodb://h:1/?a=b',
      'x',
      false,
      DEFAULT_COMMAND_TIMEOUT_MS,
    ]);
    expect(parseArchiveArgs(['--to=mongodb://h/?w=1'], MIGRATE).to).toBe('mongodb://h/?w=1');
    expect(parseArchiveArgs(['x', '--help'], RESTORE).help).toBe(true);
  });

  it('names what is wrong', () => {
    expect(() => parseArchiveArgs([], RESTORE)).toThrow('expected one archive file (or "-"), got none');
    expect(() => parseArchiveArgs(['a', 'b'], RESTORE)).toThrow('got "a" "b"');
    expect(() => parseArchiveArgs(['a', '--to', 'x'], RESTORE)).toThrow('unknown option --to');
    expect(() => parseArchiveArgs(['file'], MIGRATE)).toThrow('unexpected argument "file"');
    expect(() => parseArchiveArgs(['--db'], MIGRATE)).toThrow('--db needs a value');
    expect(() => parseArchiveArgs(['a', '--timeout-ms', '5s'], RESTORE)).toThrow(
      '--timeout-ms must be an integer of at least 100, got "5s"',
    );
    expect(() => parseArchiveArgs(['a', '--merge=yes'], RESTORE)).toThrow('unknown option --merge=yes');
  });
});
