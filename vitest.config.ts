// The tests, grouped by what they need (one vitest project per folder), so a run pays only for what it uses:
//   unit       test/unit, test/renderer: in-process code only (SQLite files, loopback HTTP servers); no build.
//   scale      test/scale: in-process too, but over hundreds of thousands of generated rows (speed and memory
//              bounds); no build, tens of seconds, so kept out of unit.
//   processes  test/processes: start worker processes, the CLI or the web console bundles; builds out/node first.
//   postgres   test/postgres: need PostgreSQL (TRAWL_TEST_PG), most also start processes; builds out/node first.
//   browser    test/browser: drive the built app in Chromium (or Electron); builds out/node and the app first.
// `vitest run --project <name>` runs one group; a project's global setup runs only when it has files to run.
import { defineConfig } from 'vitest/config';

const nodeBundles = 'test/setup/build-node-bundles.ts';

export default defineConfig({
  test: {
    // Tests start real worker processes and HTTP servers; on a 2-core machine run files two at a time.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/renderer/**/*.test.ts'] } },
      { extends: true, test: { name: 'scale', include: ['test/scale/**/*.test.ts'] } },
      { extends: true, test: { name: 'processes', include: ['test/processes/**/*.test.ts'], globalSetup: [nodeBundles] } },
      { extends: true, test: { name: 'postgres', include: ['test/postgres/**/*.test.ts'], globalSetup: [nodeBundles] } },
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], globalSetup: [nodeBundles, 'test/setup/build-app.ts'] },
      },
    ],
  },
});
