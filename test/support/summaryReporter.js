/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, that CI systems read whatever the runner.
 * Jest's own summary stays above it. A suite that failed outside its tests (a hook threw, the file did not load)
 * has no failed test, so it counts as one failure of its own and a line above names it: otherwise the last line
 * would say 0 failed for a run Jest failed (issue 31). When the browser tests were skipped for want of Chromium, a
 * block just above that line names each of them, says why, and gives the command that runs them.
 */
const path = require('node:path');

const RULE = '─'.repeat(100);

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const missing = process.env.TALLY_TEST_CHROMIUM_MISSING;
    const skippedFiles = missing
      ? results.testResults.filter(
          (file) =>
            file.testFilePath.includes(`${path.sep}test${path.sep}browser${path.sep}`) &&
            file.testResults.length > 0 &&
            file.testResults.every((test) => test.status === 'pending'),
        )
      : [];
    if (skippedFiles.length > 0) {
      const count = skippedFiles.reduce((sum, file) => sum + file.testResults.length, 0);
      const lines = [RULE, `${count} browser tests did not run (counted as skipped): no usable Chromium: ${missing}.`];
      for (const file of skippedFiles) {
        lines.push(`  ${path.relative(process.cwd(), file.testFilePath)}`);
        for (const test of file.testResults) lines.push(`    ○ ${[...test.ancestorTitles, test.title].join(' › ')}`);
      }
      lines.push(`To run them: ${process.env.TALLY_TEST_CHROMIUM_ENABLE}`, RULE);
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    const failedOutside = results.testResults.filter(
      (file) => (file.testExecError !== undefined || file.failureMessage) && file.numFailingTests === 0,
    );
    if (failedOutside.length > 0) {
      const lines = [
        `${failedOutside.length} suite${failedOutside.length === 1 ? '' : 's'} failed outside its tests (counted as failed):`,
        ...failedOutside.map((file) => `  ${path.relative(process.cwd(), file.testFilePath)}`),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    const failed = results.numFailedTests + failedOutside.length;
    process.stdout.write(
      `tests: ${results.numPassedTests} passed, ${failed} failed, ${results.numPendingTests} skipped\n`,
    );
  }
}

module.exports = SummaryReporter;
