// The tests, grouped by what they need (one vitest project per folder), so a run pays only for what it uses:
//   unit       test/unit, test/renderer: in-process code only (SQLite files, loopback HTTP servers); no build.
//   scale      test/scale: in-process too, but over hundreds of thousands of generated rows (speed and memory
//              bounds); no build, tens of seconds, so kept out of unit.
//   fuzz       test/fuzz: property-based tests (fast-check, 10,000 seeded inputs each) of the normaliser, the HTML
//              extractor, the CSV writer, settings validation and WebSocket frames; in-process, no build.
//   processes  test/processes: start worker processes, the CLI or the web console bundles; builds out/node first.
//   postgres   test/postgres: need PostgreSQL (TRAWL_TEST_PG), most also start processes; builds out/node first.
//   browser    test/browser: drive the built app in Chromium (or Electron); builds out/node and the app first.
// `vitest run --project <name>` runs one group; a project's global setup runs only when it has files to run.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const nodeBundles = 'test/setup/build-node-bundles.ts';

// Each project's folders. A test file anywhere else would match no project and silently never run (say one added
// at test/ on a branch made before the tests were grouped), so the config refuses to load until it is moved.
const GROUPS = ['test/unit/', 'test/renderer/', 'test/scale/', 'test/fuzz/', 'test/processes/', 'test/postgres/', 'test/browser/'];
const testDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test');
const stray = fs
  .readdirSync(testDir, { recursive: true, encoding: 'utf8' })
  .map((file) => `test/${file.split(path.sep).join('/')}`)
  .filter((file) => file.endsWith('.test.ts') && !GROUPS.some((group) => file.startsWith(group)));
if (stray.length > 0) throw new Error(`test files outside the test groups of vitest.config.ts: ${stray.join(', ')}`);

export default defineConfig({
  test: {
    // Tests start real worker processes and HTTP servers; on a 2-core machine run files two at a time.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/renderer/**/*.test.ts'] } },
      { extends: true, test: { name: 'scale', include: ['test/scale/**/*.test.ts'] } },
      { extends: true, test: { name: 'fuzz', include: ['test/fuzz/**/*.test.ts'] } },
      { extends: true, test: { name: 'processes', include: ['test/processes/**/*.test.ts'], globalSetup: [nodeBundles] } },
      { extends: true, test: { name: 'postgres', include: ['test/postgres/**/*.test.ts'], globalSetup: [nodeBundles] } },
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], globalSetup: [nodeBundles, 'test/setup/build-app.ts'] },
      },
    ],
  },
});
