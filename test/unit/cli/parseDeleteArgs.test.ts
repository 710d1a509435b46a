import { parseDeleteArgs } from '../../../src/cli/parseDeleteArgs';
import { UsageError } from '../../../src/cli/UsageError';

describe('parseDeleteArgs', () => {
  it.each([
    [['--site', 'a.example'], { site: 'a.example' }, 60_000],
    [['--site=a.example', '--page=/x/y'], { site: 'a.example', page: '/x/y' }, 60_000],
    [['--page', '/p', '--site', 'a.example', '--timeout-ms', '500'], { site: 'a.example', page: '/p' }, 500],
  ])('reads %j', (args, target, timeoutMs) => {
    expect(parseDeleteArgs(args)).toEqual({ help: false, target, timeoutMs });
  });

  it('answers --help before anything else', () => {
    expect(parseDeleteArgs(['--site', 'a/b', '--help'])).toEqual({ help: true });
    expect(parseDeleteArgs(['-h'])).toEqual({ help: true });
  });

  it.each([
    [[], '--site is required'],
    [['--page', '/p'], '--site is required'],
    [['--site'], '--site needs a value'],
    [['--site', 'a.example', '--site', 'b.example'], '--site is given twice'],
    [['--site', 'a.example', '--force'], 'unknown option --force'],
    [['a.example'], 'unexpected argument "a.example"'],
    [['--site', 'a/b'], 'site must not contain "/"'],
    [['--site', 'a.example', '--page', 'x'], 'page must start with "/"'],
    [['--site', 'a.example', '--timeout-ms', '5'], '--timeout-ms must be an integer of at least 100, got "5"'],
  ])('refuses %j as a usage error', (args, message) => {
    expect(() => parseDeleteArgs(args)).toThrow(UsageError);
    expect(() => parseDeleteArgs(args)).toThrow(message);
  });
});
