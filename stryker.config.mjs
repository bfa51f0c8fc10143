// `npm run test:mutation`: mutation testing (StrykerJS, vitest runner) of the engine's core modules (frontier and
// both stores, scope, robots.txt, fetch, CSV, web-console auth) against the tests of vitest.mutation.config.ts.
// Slow (hours for all of it on two cores): outside `npm test` and CI's time budget. A quick subset:
//   TRAWL_MUTATION_TESTS='test/unit/**/*.test.ts' npx stryker run --mutate electron/engine/export/csv-cell.ts,shared/scope.ts
// The report goes to reports/mutation/ (HTML and JSON); README "Development" says how to read it.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: [
    'electron/engine/frontier/**/*.ts',
    'shared/scope.ts',
    'electron/worker/fetch-url.ts',
    'electron/engine/export/csv-cell.ts',
    'electron/engine/export/csv-writer.ts',
    'electron/engine/export/csv-export.ts',
    'electron/engine/export/pg-csv-export.ts',
    'electron/server/access.ts',
  ],
  coverageAnalysis: 'perTest',
  // Module-level constants run once at import, so every test covers them: skip them rather than rerun everything.
  ignoreStatic: true,
  // Two cores, and the tests start processes of their own.
  concurrency: 1,
  timeoutMS: 60_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  ignorePatterns: ['out', 'dist', 'test-artifacts', 'bench-results', 'reports', 'docs', '*.trawl', '*.trawl-wal', '*.trawl-shm'],
  tempDirName: '.stryker-tmp',
};
