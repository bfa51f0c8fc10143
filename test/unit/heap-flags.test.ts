// V8's heap flags (scripts/heap-flags.mjs) reach every Trawl process: the workers get them from the code that starts
// them, but the CLI's own process can only get them from its command line, so package.json's scripts and the `trawl`
// bin's first line must name exactly the declared flags.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HEAP_FLAGS } from '../../scripts/heap-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('heap flags', () => {
  it('are on the command line of npm run crawl, compare and serve', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const command of ['crawl', 'compare', 'serve'])
      expect(scripts[command]).toBe(`node ${HEAP_FLAGS.join(' ')} scripts/run-node.mjs ${command}`);
  });

  it('are on the first line of the trawl bin', () => {
    const first = fs.readFileSync(path.join(root, 'bin/trawl.mjs'), 'utf8').split('\n')[0];
    expect(first).toBe(`#!/usr/bin/env -S node ${HEAP_FLAGS.join(' ')}`);
  });

  it('name only options V8 takes at start-up, each once', () => {
    expect(HEAP_FLAGS.length).toBeGreaterThan(0);
    for (const flag of HEAP_FLAGS) expect(flag).toMatch(/^--max-(semi|old)-space-size=\d+$/);
    expect(new Set(HEAP_FLAGS).size).toBe(HEAP_FLAGS.length);
  });
});
