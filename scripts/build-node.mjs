// Bundles the headless CLI (crawl, compare), the web console server (`npm run serve`) and the crawl worker into out/node/ with esbuild (well under a second), so
// `npm run crawl` and every worker process start in a fraction of the time a TypeScript loader takes.
// Run before each `npm run crawl` and by the test setup, so the bundles are never stale.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const outDir = path.join(root, 'out', 'node');

export async function buildNode() {
  await build({
    absWorkingDir: root,
    entryPoints: {
      crawl: 'electron/cli/crawl.ts',
      compare: 'electron/cli/compare.ts',
      serve: 'electron/cli/serve.ts',
      worker: 'electron/worker/worker-main.ts',
    },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // Native addon; and 'electron' must never be pulled into the plain-Node bundles.
    external: ['better-sqlite3', 'electron'],
    // Bundled CommonJS dependencies may call require(); give ESM output one.
    banner: { js: "import { createRequire as __trawlRequire } from 'node:module'; const require = __trawlRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return outDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildNode();
