/**
 * Global setup of the browser tier (jest.config.js): finds Chromium once per run, before the workers start, and
 * leaves the finding in the environment, where the test files (they inherit it) and the summary reporter (the
 * same process) read it.
 */
import { ENABLE_BROWSER_TESTS, ENABLE_VARIABLE, FOUND_VARIABLE, MISSING_VARIABLE, locateChromium } from './chromium';

export default function browserSetup(): void {
  delete process.env[FOUND_VARIABLE];
  delete process.env[MISSING_VARIABLE];
  const location = locateChromium();
  process.env[ENABLE_VARIABLE] = ENABLE_BROWSER_TESTS;
  if ('path' in location) process.env[FOUND_VARIABLE] = location.path;
  else process.env[MISSING_VARIABLE] = location.missing;
}
