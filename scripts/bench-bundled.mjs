// `node scripts/bench-bundled.mjs electron/bench/NAME.ts [ARGS...]`: runs a bench as the app runs its code, bundled.
// Run from its TypeScript source (`node --import tsx`), each worker thread the views start (Link Score, duplicate
// content, the whole-crawl reads) loads its sources through tsx's API: about 1.1 s of CPU and 0.7 s before it starts
// working, against a few tens of milliseconds for its bundle. A bench of views asked together then measures tsx.
// Here the bench is bundled beside the worker bundles (out/node, brought up to date first), where those threads find
// them, and run with the same V8 flags as the CLI.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ensureNodeBundles } from './fresh.mjs';
import { HEAP_FLAGS } from './v8-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [source, ...args] = process.argv.slice(2);
if (!source || !source.endsWith('.ts')) {
  process.stderr.write('Usage: node scripts/bench-bundled.mjs electron/bench/NAME.ts [ARGS...]\n');
  process.exit(2);
}
await ensureNodeBundles(root);
const outfile = path.join(root, 'out', 'node', `bench-${path.basename(source, '.ts')}.mjs`);
await build({
  absWorkingDir: root,
  entryPoints: [source],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // As scripts/build-node.mjs leaves them out, and pg (loaded from node_modules by the store's code).
  external: ['better-sqlite3', 'electron', 'iconv-lite', 'exceljs', 'playwright-core', 'pg'],
  // The sources' CommonJS dependencies call require(): an ES module bundle has none of its own.
  banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
  logLevel: 'warning',
});
const run = spawnSync(process.execPath, [...HEAP_FLAGS, outfile, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
