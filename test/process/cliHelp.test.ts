/**
 * `tally --help` says to run `tally <command> --help`; every command answers it with its usage on stdout and exit
 * code 0 (issue 31: `tally key --help` printed an error about --name and exited 2). Runs the built command.
 */
import { startCliChild } from '../support/builtCli';
import { assertBuilt } from '../support/serverProcess';

beforeAll(() => assertBuilt());

describe('tally <command> --help', () => {
  it.each([
    [['--help'], 'Usage: tally <command> [options]'],
    [['import', '--help'], 'Usage: tally import'],
    [['key', '--help'], 'Usage: tally key'],
    [['key', '-h'], 'Usage: tally key'],
    [['delete', '--help'], 'Usage: tally delete --site SITE [--page PAGE]'],
    [['delete', '-h'], 'Usage: tally delete'],
  ])('%j prints the usage and exits 0', async (args, usage) => {
    const { code, stdout, stderr } = await startCliChild(args).done;
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain(usage);
  });

  it('lists tally delete among the commands', async () => {
    const { stdout } = await startCliChild(['--help']).done;
    expect(stdout).toMatch(/^ {2}delete {4}/m);
  });

  it('documents every option of tally key', async () => {
    const { stdout } = await startCliChild(['key', '--help']).done;
    for (const option of ['--name', '--scopes', '--sites', '--site-key', '--site ', '--origins', '--keep-query']) {
      expect(stdout).toContain(option);
    }
  });
});
