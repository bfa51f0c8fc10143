// Bundles the headless CLI (crawl, compare), the web console server (`npm run serve`) and the crawl worker into out/node/ with esbuild (well under a second), so
// `npm run crawl` and every worker process start in a fraction of the time a TypeScript loader takes.
// Beside the bundles it writes the list of every file they were built from (build-inputs.json, from esbuild's
// metafile) and when the build started, so scripts/run-node.mjs can tell a stale build from a fresh one with a few
// hundred stat() calls instead of rebuilding on every start. The test setup always rebuilds.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_BUILD_INPUTS, NODE_ENTRIES, nodeBuildInputsFile } from './fresh.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const outDir = path.join(root, 'out', 'node');

/** Every importer except the shims themselves (a shim loads the real module it stands for). */
const ANY_BUT_SHIMS = /^(?!.*[\\/]scripts[\\/]bundle-shims[\\/])/;

/**
 * Modules replaced in the bundles by a shim (scripts/bundle-shims/, where each says why), for the importers named:
 * modules that a package loads at start-up but the bundles need little of, and node:assert, whose failures without a
 * message read the bundle's source.
 */
export const BUNDLE_SHIMS = [
  { module: 'node:assert', importer: ANY_BUT_SHIMS, shim: 'assert-with-message.cjs' },
  { module: 'assert', importer: ANY_BUT_SHIMS, shim: 'assert-with-message.cjs' },
  { module: 'node:http2', importer: /undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/, shim: 'http2-for-undici.cjs' },
  {
    module: 'whatwg-encoding',
    importer: /encoding-sniffer[\\/]dist[\\/](esm|commonjs)[\\/]sniffer\.js$/,
    shim: 'whatwg-encoding-labels.cjs',
  },
];

const shimsPlugin = {
  name: 'bundle-shims',
  setup(b) {
    for (const { module, importer, shim } of BUNDLE_SHIMS) {
      const filter = new RegExp(`^${module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      b.onResolve({ filter }, (args) =>
        importer.test(args.importer) ? { path: path.join(root, 'scripts', 'bundle-shims', shim) } : undefined,
      );
    }
  },
};

export async function buildNode() {
  const stamp = nodeBuildInputsFile(root);
  // A failed or interrupted build must leave the bundles stale.
  fs.rmSync(stamp, { force: true });
  const startedAt = Date.now();
  const result = await build({
    absWorkingDir: root,
    entryPoints: NODE_ENTRIES,
    outdir: outDir,
    // CommonJS, run by a launcher NAME.mjs through vm.Script with V8's code cache (scripts/load-bundle.mjs).
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    // Whitespace and syntax minified (names kept, so an unmapped worker stack still reads): a third smaller, and
    // without comments the bundles are pure ASCII, which Node decodes and V8 compiles faster. Start-up of the CLI
    // and of every worker pays for the bundle's size. Licence comments go to NAME.cjs.LEGAL.txt beside each bundle.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'external',
    metafile: true,
    plugins: [shimsPlugin],
    // Native addon; 'electron' must never be pulled into the plain-Node bundles; iconv-lite's tables and exceljs (the
    // XLSX export) are loaded from node_modules when a page or an export needs them, not parsed at every start;
    // so is playwright-core, when a crawl first renders (electron/engine/render/playwright-renderer.ts).
    external: ['better-sqlite3', 'electron', 'iconv-lite', 'exceljs', 'playwright-core'],
    // The sources are ES modules that locate files beside themselves with import.meta.url.
    define: { 'import.meta.url': '__trawlImportMetaUrl' },
    banner: { js: "var __trawlImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    logLevel: 'warning',
  });
  // Each bundle's launcher (what `node out/node/NAME.mjs` runs) and the loader they share. Caches of an earlier
  // build would be refused by V8 anyway (the source changed); removing them saves the first run that check.
  fs.copyFileSync(path.join(root, 'scripts', 'load-bundle.mjs'), path.join(outDir, 'load-bundle.mjs'));
  for (const name of Object.keys(NODE_ENTRIES)) {
    fs.writeFileSync(
      path.join(outDir, `${name}.mjs`),
      `import { runBundle } from './load-bundle.mjs';\nrunBundle(${JSON.stringify(name)});\n`,
    );
    fs.rmSync(path.join(outDir, `${name}.cjs.cache`), { force: true });
  }
  // Installed packages count as one file per node_modules folder, the .package-lock.json npm rewrites on every
  // install (a third of the stat calls instead of hundreds).
  const inputs = new Set(NODE_BUILD_INPUTS.map((p) => path.join(root, p)));
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = path.resolve(root, input);
    const modules = file.indexOf(`${path.sep}node_modules${path.sep}`);
    inputs.add(modules < 0 ? file : path.join(file.slice(0, modules), 'node_modules', '.package-lock.json'));
  }
  const outputs = [
    ...Object.keys(result.metafile.outputs).map((p) => path.resolve(root, p)),
    path.join(outDir, 'load-bundle.mjs'),
    ...Object.keys(NODE_ENTRIES).map((name) => path.join(outDir, `${name}.mjs`)),
  ];
  fs.writeFileSync(`${stamp}.${process.pid}.tmp`, `${JSON.stringify({ startedAt, inputs: [...inputs], outputs })}\n`);
  fs.renameSync(`${stamp}.${process.pid}.tmp`, stamp);
  return outDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildNode();
