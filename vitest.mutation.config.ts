// The tests `npm run test:mutation` (StrykerJS, stryker.config.mjs) runs against each mutant of the engine's core
// modules: in-process tests only (a mutant is switched on in the test's own process; worker processes run the
// bundles of out/node unmutated, so the crawls of test/processes would cost minutes per mutant and catch little
// more). TRAWL_MUTATION_TESTS (comma-separated globs) runs others, e.g. `test/processes/frontier.test.ts`.
// PostgreSQL is left out unless TRAWL_MUTATION_PG names a server (the store contract's PostgreSQL half adds ~15 s
// to every mutant it reaches). Not part of `npm test`.
import { defineConfig } from 'vitest/config';

const CORE_TESTS = [
  // robots.txt, the frontier's shared decisions, fetch (body cap), CSV cells, web-console auth, scope edges
  'test/unit/**/*.test.ts',
  // the frontier through the FrontierStore interface (SQLite; PostgreSQL with TRAWL_MUTATION_PG)
  'test/postgres/frontier-store-contract.test.ts',
  // scope: the host rule and pattern cases (its crawls are left out by name below)
  'test/processes/scope.test.ts',
  // CSV export of a crawl file
  'test/scale/csv-export.test.ts',
];

const chosen = process.env.TRAWL_MUTATION_TESTS?.split(',')
  .map((glob) => glob.trim())
  .filter(Boolean);
const include = chosen?.length ? chosen : CORE_TESTS;
// TRAWL_MUTATION_NAMES: only the tests whose full name matches this regular expression. By default the crawls of
// scope.test.ts and csv-export.test.ts's 200,000-row memory bound (minutes under instrumentation) are left out.
const names = process.env.TRAWL_MUTATION_NAMES || (chosen?.length ? undefined : '^(?!scope in a crawl|exportCsv memory)');

export default defineConfig({
  test: {
    include,
    testNamePattern: names,
    env: { TRAWL_TEST_PG: process.env.TRAWL_MUTATION_PG ?? '' },
    // Tests that start processes need the node bundles (built once, from the sources as they are).
    globalSetup: include.some((glob) => !glob.startsWith('test/unit/')) ? ['test/setup/build-node-bundles.ts'] : [],
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
