// `node scripts/run-node.mjs crawl|compare|serve [ARGS...]`: what `npm run crawl`, `npm run compare` and `npm run serve`
// run. Rebuilds out/node (and, for serve, the web console's pages in out/renderer) only when a file they are built
// from changed since (scripts/fresh.mjs: a few hundred stat calls), then runs the bundle in this same process, so an
// up-to-date start costs no bundler and no second Node.
// Stack traces still name the TypeScript sources, but the 3-7 MB source maps are read only when a stack is
// formatted (Node's --enable-source-maps parses the bundle's map at every start, about 0.1 s).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildApp, ensureNodeBundles, rendererStale } from './fresh.mjs';
import { WORKER_FLAGS } from './v8-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'out', 'node');
const COMMANDS = ['crawl', 'compare', 'serve'];

const [command, ...args] = process.argv.slice(2);
if (!COMMANDS.includes(command)) {
  process.stderr.write(`Usage: node scripts/run-node.mjs ${COMMANDS.join('|')} [ARGS...]\n`);
  process.exit(2);
}

const wantsHelp = args.includes('--help') || args.includes('-h');

// A crawl needs a worker process: fork it first, so it loads while this process checks the build and loads the
// engine, and leave it for the engine's first spawn (PRESPAWNED_WORKER in electron/engine/pool/child-process-spawner.ts,
// same fork options and environment: see workerEnv there). Unreferenced until adopted: a command that never
// crawls (a control command, a refused option) exits without it, and the worker leaves when its channel closes.
// A rebuild below replaces it with a worker of the new build.
function prespawnWorker() {
  const entry = path.join(outDir, 'worker.mjs');
  if (!fs.existsSync(entry)) return;
  const { NODE_EXTRA_CA_CERTS: extraCa, ...env } = process.env;
  if (extraCa) env.TRAWL_EXTRA_CA_CERTS = extraCa;
  const child = fork(entry, ['crawl-worker-1'], {
    execArgv: [...WORKER_FLAGS],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env,
  });
  child.unref();
  child.channel?.unref();
  globalThis[Symbol.for('trawl.prespawnedWorker')] = { entry, child };
}
const prespawns = command === 'crawl' && !wantsHelp;
if (prespawns) prespawnWorker();
if (command === 'serve' && !wantsHelp && rendererStale(root) !== null) {
  // The build's own output goes to stderr: serve's stdout is the one line with its URL.
  buildApp(root, ['ignore', 2, 2]);
}
if ((await ensureNodeBundles(root)) && prespawns) {
  globalThis[Symbol.for('trawl.prespawnedWorker')]?.child.kill();
  prespawnWorker();
}

/** Maps a bundle position back to its TypeScript source, reading a bundle's source map the first time it is needed. */
const maps = new Map();
function originalPosition(fileName, line, column) {
  const file = fileName.startsWith('file:') ? fileURLToPath(fileName) : fileName;
  if (path.dirname(file) !== outDir) return null;
  if (!maps.has(file)) {
    let map = null;
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
    } catch {
      // no map: leave the bundle's positions
    }
    maps.set(file, map);
  }
  const entry = maps.get(file)?.findEntry(line - 1, column - 1);
  if (!entry?.originalSource) return null;
  const source = entry.originalSource.startsWith('file:')
    ? fileURLToPath(entry.originalSource)
    : path.resolve(outDir, entry.originalSource);
  return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
}

Error.prepareStackTrace = (error, frames) => {
  let head;
  try {
    head = String(error);
  } catch {
    head = '<error>';
  }
  const lines = frames.map((frame) => {
    const text = frame.toString();
    const fileName = frame.getFileName();
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    if (!fileName || !line || !column) return `    at ${text}`;
    const where = `${fileName}:${line}:${column}`;
    const at = text.lastIndexOf(where);
    const original = at < 0 ? null : originalPosition(fileName, line, column);
    return `    at ${original ? text.slice(0, at) + original + text.slice(at + where.length) : text}`;
  });
  return [head, ...lines].join('\n');
};

const bundle = path.join(outDir, `${command}.mjs`);
process.argv = [process.argv[0], bundle, ...args];
await import(pathToFileURL(bundle).href);
