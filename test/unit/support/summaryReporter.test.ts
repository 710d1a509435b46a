/**
 * The plain closing line CI reads (test/support/summaryReporter.js) counts a suite that failed outside its tests
 * (a hook threw, or the file did not load) as failed. Runs a child Jest on fixture suites outside testMatch.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'summaryReporter');

function runFixtures(pattern: string): { status: number | null; lastLine: string; stdout: string } {
  const result = spawnSync(
    process.execPath,
    [require.resolve('jest/bin/jest'), '--config', path.join(FIXTURES, 'jest.config.js'), '--ci', pattern],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  const lines = result.stdout.trim().split('\n');
  return { status: result.status, lastLine: lines[lines.length - 1] ?? '', stdout: result.stdout };
}

describe('the summary line', () => {
  it('counts a suite whose afterAll throws as failed, and names it above the line', () => {
    const run = runFixtures('(afterAllThrows|passes)');
    expect(run.status).toBe(1);
    expect(run.lastLine).toBe('tests: 2 passed, 1 failed, 0 skipped');
    expect(run.stdout).toContain('1 suite failed outside its tests (counted as failed):');
    expect(run.stdout).toContain(path.join('test', 'fixtures', 'summaryReporter', 'afterAllThrows.test.js'));
  }, 60_000);

  it('counts a suite that fails to load as failed', () => {
    const run = runFixtures('(loadFails|passes)');
    expect(run.status).toBe(1);
    expect(run.lastLine).toBe('tests: 1 passed, 1 failed, 0 skipped');
    expect(run.stdout).toContain(path.join('test', 'fixtures', 'summaryReporter', 'loadFails.test.js'));
  }, 60_000);

  it('says 0 failed when every suite passes', () => {
    const run = runFixtures('passes');
    expect(run.status).toBe(0);
    expect(run.lastLine).toBe('tests: 1 passed, 0 failed, 0 skipped');
  }, 60_000);
});
