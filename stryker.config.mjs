// `npm run test:mutation`: mutation testing (StrykerJS, vitest runner) of the engine's core modules (the frontier's
// shared decisions, robots.txt, the SQLite store, scope, fetch, CSV, web-console auth) against the in-process tests of
// vitest.mutation.config.ts. Slow (about an hour and a half on two busy cores): outside `npm test` and CI's time
// budget. One module with the tests that reach it, e.g.
//   TRAWL_MUTATION_TESTS='test/unit/access.test.ts,test/unit/command-channel-limits.test.ts' npx stryker run --mutate electron/server/access.ts
// The report goes to reports/mutation/ (HTML and JSON); README "Development" says how to read it.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    // The frontier's decisions both stores share, robots.txt, and the SQLite store (the PostgreSQL store's files
    // need its server and take far longer; add electron/engine/frontier/postgres/pg-frontier.ts with --mutate).
    'electron/engine/frontier/redirect-chain.ts',
    'electron/engine/frontier/politeness.ts',
    'electron/engine/frontier/robots-policy.ts',
    'electron/engine/frontier/robots-txt.ts',
    'electron/engine/frontier/robots-rules.ts',
    'electron/engine/frontier/sqlite/frontier.ts',
    'shared/scope.ts',
    'electron/worker/fetch-url.ts',
    'electron/engine/export/csv-cell.ts',
    'electron/engine/export/csv-writer.ts',
    'electron/engine/export/csv-export.ts',
    'electron/server/access.ts',
  ],
  coverageAnalysis: 'perTest',
  // Module-level constants run once at import, so every test covers them: skip them rather than rerun everything.
  ignoreStatic: true,
  // Two cores, and the tests start processes of their own.
  concurrency: 1,
  // A mutant that hangs a test (a loop that never ends, a reply never sent) is counted as detected after this.
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  ignorePatterns: ['out', 'dist', 'test-artifacts', 'bench-results', 'reports', 'docs', '*.trawl', '*.trawl-wal', '*.trawl-shm'],
  tempDirName: '.stryker-tmp',
};
