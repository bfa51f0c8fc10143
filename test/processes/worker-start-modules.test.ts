// What a crawl worker loads before its first job: each module loaded at start is paid by every worker of every
// crawl (scripts/build-node.mjs BUNDLE_SHIMS). The worker bundle must not load node:http2 (undici's HTTP/2 client,
// which crawls never use), node:tls (loaded at the first https connection) nor iconv-lite (loaded at the first page
// that is not UTF-8).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../shared/settings.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';

describe('a crawl worker at start', () => {
  it('has not loaded node:http2, node:tls or iconv-lite', async () => {
    // A preload that writes what is loaded when asked by a signal (a 'message' listener of its own would take the
    // worker's init before the worker listens).
    const dir = tempDir('worker-modules');
    const probe = path.join(dir, 'probe.cjs');
    const answer = path.join(dir, 'loaded.json');
    fs.writeFileSync(
      probe,
      `const fs = require('node:fs');
       process.on('SIGUSR2', () => {
         fs.writeFileSync(${JSON.stringify(`${answer}.tmp`)}, JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) }));
         fs.renameSync(${JSON.stringify(`${answer}.tmp`)}, ${JSON.stringify(answer)});
       });`,
    );
    const child = fork(path.join(ROOT, 'out/node/worker.mjs'), ['crawl-worker-test'], {
      execArgv: ['--require', probe],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.on('error', reject);
        child.on('exit', (code) => reject(new Error(`worker exited ${code}`)));
        child.on('message', (m) => {
          const batch = m as { t: string; message?: string }[];
          const fatal = batch.find((msg) => msg.t === 'fatal');
          if (fatal) reject(new Error(fatal.message));
          else if (batch.some((msg) => msg.t === 'ready')) resolve();
        });
        child.send({ t: 'init', workerName: 'crawl-worker-test', settings: parseSettings({ seeds: ['http://127.0.0.1:1/'] }) });
      });
      // Ready for jobs: what it has loaded now, every crawl's worker has loaded.
      child.kill('SIGUSR2');
      await expect.poll(() => fs.existsSync(answer), { timeout: 30_000 }).toBe(true);
      const loaded = JSON.parse(fs.readFileSync(answer, 'utf8')) as { builtins: string[]; files: string[] };
      // The probe sees what it should: the worker's bundle has run (its HTTP client and decompression are loaded).
      expect(loaded.builtins).toContain('NativeModule net');
      expect(loaded.builtins).toContain('NativeModule zlib');
      expect(loaded.builtins.filter((m) => /http2/.test(m))).toEqual([]);
      expect(loaded.builtins.filter((m) => /^NativeModule (tls|_tls_\w+)$/.test(m))).toEqual([]);
      expect(loaded.files.filter((f) => /iconv-lite|whatwg-encoding/.test(f))).toEqual([]);
    } finally {
      child.kill();
    }
  });
});

describe('the out/node bundles', () => {
  it('load node:assert only through the shim that gives its failures a message (scripts/bundle-shims/)', () => {
    const bundles = fs.readdirSync(path.join(ROOT, 'out/node')).filter((f) => f.endsWith('.cjs'));
    expect(bundles).toContain('worker.cjs');
    let shims = 0;
    for (const bundle of bundles) {
      const code = fs.readFileSync(path.join(ROOT, 'out/node', bundle), 'utf8');
      const requires = code.match(/require\("(node:)?assert(\/strict)?"\)/g) ?? [];
      const shimmed = code.includes('"scripts/bundle-shims/assert-with-message.cjs"') ? 1 : 0;
      expect(requires.length, bundle).toBe(shimmed);
      shims += shimmed;
    }
    // undici asserts throughout: the worker's bundle has it.
    expect(shims).toBeGreaterThan(0);
  });
});
