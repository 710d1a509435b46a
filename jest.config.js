/**
 * Five tiers: unit (pure code, no database), integration (store and query against a real
 * MongoDB-compatible server), e2e (GraphQL over HTTP), process (the built server as a child process), browser
 * (the pages in Chromium). The global setup starts the embedded server when
 * MONGODB_URI is unset, and every test file uses a database of its own.
 */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: [151002] } }];
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest },
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  transform: { '^.+\\.ts$': tsJest },
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  globalTeardown: '<rootDir>/test/support/globalTeardown.ts',
  maxWorkers: 2,
  // Integration and end-to-end tests talk to a real server on a 2-core machine: generous, never a timing assertion.
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/test/support/summaryReporter.js'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
    // The built server as a child process (npm test builds first): restarts, signals, database faults.
    { ...common, displayName: 'process', testMatch: ['<rootDir>/test/process/**/*.test.ts'] },
    // Chromium through playwright-core: the one @sparticuz/chromium ships, or CHROMIUM_PATH. When it is missing
    // the tests are skipped and the summary says why and how to run them; TALLY_REQUIRE_CHROMIUM=1 (CI) makes
    // them fail instead.
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/browserSetup.ts',
    },
  ],
};
