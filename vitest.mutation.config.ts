// The tests `npm run test:mutation` (StrykerJS, stryker.config.json) runs against each mutant of the engine's core
// modules: the ones that run those modules in the test's own process (a mutant is switched on in that process
// only; worker processes run the bundles of out/node unmutated). TRAWL_MUTATION_TESTS (comma-separated globs)
// runs fewer, e.g. `TRAWL_MUTATION_TESTS='test/unit/**/*.test.ts'` for a quick run. Not part of `npm test`.
import { defineConfig } from 'vitest/config';

const CORE_TESTS = [
  'test/unit/**/*.test.ts',
  // frontier and both stores (the contract runs each case on SQLite and, with TRAWL_TEST_PG, on PostgreSQL)
  'test/postgres/frontier-store-contract.test.ts',
  'test/processes/frontier.test.ts',
  'test/processes/resume.test.ts',
  'test/processes/retries.test.ts',
  'test/processes/politeness.test.ts',
  // scope
  'test/processes/scope.test.ts',
  // CSV
  'test/scale/csv-export.test.ts',
  'test/postgres/pg-csv-export.test.ts',
  // web-console auth
  'test/processes/web-console.test.ts',
];

const chosen = process.env.TRAWL_MUTATION_TESTS?.split(',')
  .map((glob) => glob.trim())
  .filter(Boolean);
const include = chosen?.length ? chosen : CORE_TESTS;
// TRAWL_MUTATION_NAMES: only the tests whose full name matches this regular expression (e.g. '^(?!scope in a crawl)'
// to leave out a file's crawls).
const names = process.env.TRAWL_MUTATION_NAMES || undefined;

export default defineConfig({
  test: {
    include,
    testNamePattern: names,
    // Tests that start processes need the node bundles (built once, from the sources as they are).
    globalSetup: include.some((glob) => !glob.startsWith('test/unit/')) ? ['test/setup/build-node-bundles.ts'] : [],
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
