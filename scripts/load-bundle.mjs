// Runs a CommonJS bundle of out/node with V8's code cache: what `node out/node/NAME.mjs` starts (the build writes
// that launcher beside each NAME.cjs bundle and copies this file there). Every Node process of a crawl (the CLI and
// each worker) parsed and compiled its megabyte of bundle at start-up, 40-60 ms each here, and compiled each
// function again the first time it ran. Node 20's ES module loader has no code cache; vm.Script does: the first
// run after a build saves the bytecode of everything it compiled (NAME.cjs.cache, written at exit, atomically) and
// later runs start from it. V8 checks the cache against the source and its own version and flags, and ignores one
// that does not match (it is then written again). A folder that cannot be written only costs the cache.
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Where a bundle finds the function that saves its code cache now, when this run is the one to save it. */
const SAVE_CODE_CACHE = Symbol.for('trawl.saveCodeCache');

/** Runs out/node/NAME.cjs as the main module of this process would run. */
export function runBundle(name) {
  const file = path.join(here, `${name}.cjs`);
  const cacheFile = `${file}.cache`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // no cache yet
  }
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
      } catch {
        // read-only install, full disk: run without a cache
      }
    };
    process.once('exit', save);
    // For a process that ends otherwise than by process.exit (a crawl worker ends itself with SIGTERM's default
    // action): it calls this first.
    globalThis[SAVE_CODE_CACHE] = save;
  }
  const module = new Module(file);
  module.filename = file;
  module.paths = Module._nodeModulePaths(here);
  module.loaded = true;
  script.runInThisContext()(module.exports, createRequire(file), module, file, here);
}
