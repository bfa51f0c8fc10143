// The README stands on its own: it names no path outside the repository, every `npm run` script and `trawl`
// subcommand it shows exists, its local links resolve, and it says what Trawl does not do yet.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  bin: Record<string, string>;
};

describe('the README', () => {
  it('names no path outside the repository', () => {
    expect(readme).not.toMatch(/(^|[\s(`'"])\.\.\//m);
    // Links to files of the repository resolve.
    for (const [, target] of readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      expect(fs.existsSync(path.join(root, target!)), target).toBe(true);
    }
  });

  it('shows only npm scripts and trawl commands that exist, the demo site and the web console among them', () => {
    const scripts = new Set([...readme.matchAll(/npm run ([\w-]+(?::[\w-]+)?)/g)].map((m) => m[1]!));
    for (const s of scripts) expect(pkg.scripts, `npm run ${s}`).toHaveProperty([s]);
    expect(scripts).toContain('demo-site');
    expect(scripts).toContain('serve');
    expect(pkg.bin['trawl']).toBe('bin/trawl.mjs');
    for (const [, sub] of readme.matchAll(/trawl (crawl|serve|compare|[a-z]+) /g)) expect(['crawl', 'serve', 'compare']).toContain(sub);
  });

  it('has a section on what Trawl does not do yet, linked anchors included', () => {
    expect(readme).toMatch(/^## What Trawl does not do yet$/m);
    const headings = new Set(
      [...readme.matchAll(/^#{2,3} (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/[^\w\s-]/g, '')
          .replace(/\s/g, '-'),
      ),
    );
    for (const [, anchor] of readme.matchAll(/\]\(#([^)]+)\)/g)) expect(headings, `#${anchor}`).toContain(anchor);
  });
});
