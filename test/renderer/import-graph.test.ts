// The renderer's import graph: it reaches only renderer/ and shared/ (packages aside), and has no cycles, type-only
// imports included (a cycle of types still ties the modules' meaning together).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RENDERER = path.join(ROOT, 'renderer');
const SHARED = path.join(ROOT, 'shared');

const sources = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(ts|tsx)$/.test(e.name) ? [path.join(dir, e.name)] : []));

/** The specifiers of a module's static and dynamic imports and re-exports. */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1]!);
  return found;
}

/** The modules a module imports, as absolute paths (relative imports only: packages are not part of the graph). */
function edges(file: string): string[] {
  return specifiers(file)
    .filter((s) => s.startsWith('.'))
    .map((s) => path.resolve(path.dirname(file), s));
}

const inside = (file: string, dir: string) => file === dir || file.startsWith(dir + path.sep);

describe('renderer import graph', () => {
  const files = sources(path.join(RENDERER, 'src'));

  it('imports only from renderer/ and shared/, never node: or electron', () => {
    const outside: string[] = [];
    for (const file of files) {
      for (const s of specifiers(file)) {
        if (s.startsWith('node:') || s === 'electron' || s.startsWith('electron/')) outside.push(`${path.relative(ROOT, file)} -> ${s}`);
        if (!s.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), s);
        if (!inside(target, RENDERER) && !inside(target, SHARED)) outside.push(`${path.relative(ROOT, file)} -> ${s}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('has no import cycles', () => {
    // Depth-first over the renderer's modules and the shared ones they reach; a module met again while still on the
    // path closes a cycle.
    const cycles: string[] = [];
    const done = new Set<string>();
    const onPath: string[] = [];
    const visit = (file: string) => {
      if (done.has(file)) return;
      const at = onPath.indexOf(file);
      if (at >= 0) {
        cycles.push([...onPath.slice(at), file].map((f) => path.relative(ROOT, f)).join(' -> '));
        return;
      }
      if (!fs.existsSync(file)) return;
      onPath.push(file);
      // Only the renderer's own modules: shared/'s cycles are shared/'s to answer for.
      for (const next of edges(file)) if (inside(next, RENDERER)) visit(next);
      onPath.pop();
      done.add(file);
    };
    for (const file of files) visit(file);
    expect(cycles).toEqual([]);
  });
});
