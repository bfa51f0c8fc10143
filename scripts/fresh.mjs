// Is a build up to date? Cheap checks (stat calls, no bundler loaded) for the two builds the command-line tools run
// from: the esbuild bundles in out/node/ (build-node.mjs lists the files they were built from) and the renderer
// that electron-vite builds into out/renderer/ (the web console's pages). A build is stale when a file it was built
// from is missing or was modified after the build started, or when the build never finished.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The bundles in out/node, by name, and their entry points. */
export const NODE_ENTRIES = {
  crawl: 'electron/cli/crawl.ts',
  compare: 'electron/cli/compare.ts',
  serve: 'electron/cli/serve.ts',
  worker: 'electron/worker/worker-main.ts',
  // A worker thread's script (analysis/link-score-thread.ts starts it beside the bundle that runs it).
  'link-score-worker': 'electron/engine/analysis/link-score-worker.ts',
  // Duplicate content's (analysis/near-duplicates-thread.ts), the same way.
  'near-duplicates-worker': 'electron/engine/analysis/near-duplicates-worker.ts',
  // The whole reads of a large crawl file for a view (analysis/crawl-reads-thread.ts), the same way.
  'crawl-reads-worker': 'electron/engine/analysis/crawl-reads-worker.ts',
};

/**
 * Files a node build depends on beyond the sources esbuild's metafile lists: the build scripts, the configuration
 * esbuild reads (tsconfig.json, package.json) and the installed packages.
 */
export const NODE_BUILD_INPUTS = [
  'scripts/build-node.mjs',
  'scripts/load-bundle.mjs',
  'scripts/fresh.mjs',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];

export const nodeBuildInputsFile = (root) => path.join(root, 'out', 'node', 'build-inputs.json');
export const rendererStampFile = (root) => path.join(root, 'out', 'renderer-build.json');

/** What makes the renderer build: its folders (walked) and files. */
const RENDERER_DIRS = ['renderer', 'shared'];
const RENDERER_FILES = [
  'electron.vite.config.ts',
  'package.json',
  'package-lock.json',
  'node_modules/.package-lock.json',
  'scripts/fresh.mjs',
];

function mtimeMs(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

function readStamp(file) {
  try {
    const stamp = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof stamp.startedAt === 'number' ? stamp : null;
  } catch {
    return null;
  }
}

/** Why out/node must be rebuilt, or null when it is up to date. */
export function nodeBundlesStale(root) {
  const stamp = readStamp(nodeBuildInputsFile(root));
  if (!stamp || !Array.isArray(stamp.inputs) || !Array.isArray(stamp.outputs)) return 'no complete build';
  for (const file of stamp.outputs) if (mtimeMs(file) === null) return `${path.relative(root, file)} is missing`;
  for (const file of stamp.inputs) {
    const t = mtimeMs(file);
    if (t === null) return `${path.relative(root, file)} is gone`;
    if (t >= stamp.startedAt) return `${path.relative(root, file)} changed`;
  }
  return null;
}

function newestUnder(dir, since) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
  for (const e of entries) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      const found = newestUnder(p, since);
      if (found) return found;
    } else if ((mtimeMs(p) ?? 0) >= since) return p;
  }
  // A file deleted or renamed changes its folder's mtime.
  return (mtimeMs(dir) ?? 0) >= since ? dir : null;
}

/** Why out/renderer must be rebuilt, or null when it is up to date. */
export function rendererStale(root) {
  const stamp = readStamp(rendererStampFile(root));
  if (!stamp) return 'no complete build';
  if (mtimeMs(path.join(root, 'out', 'renderer', 'index.html')) === null) return 'out/renderer/index.html is missing';
  for (const file of RENDERER_FILES) if ((mtimeMs(path.join(root, file)) ?? 0) >= stamp.startedAt) return `${file} changed`;
  for (const dir of RENDERER_DIRS) {
    const changed = newestUnder(path.join(root, dir), stamp.startedAt);
    if (changed) return `${path.relative(root, changed)} changed`;
  }
  return null;
}

/** Builds the app (main, preload and the renderer) with electron-vite and marks the renderer fresh. */
export function buildApp(root, stdio = ['ignore', 'inherit', 'inherit']) {
  const stamp = rendererStampFile(root);
  fs.rmSync(stamp, { force: true });
  const startedAt = Date.now();
  execFileSync(path.join(root, 'node_modules/.bin/electron-vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio });
  fs.writeFileSync(`${stamp}.${process.pid}.tmp`, `${JSON.stringify({ startedAt })}\n`);
  fs.renameSync(`${stamp}.${process.pid}.tmp`, stamp);
}

/** Rebuilds out/node when stale; returns whether it did. */
export async function ensureNodeBundles(root) {
  if (nodeBundlesStale(root) === null) return false;
  const { buildNode } = await import('./build-node.mjs');
  await buildNode();
  return true;
}
