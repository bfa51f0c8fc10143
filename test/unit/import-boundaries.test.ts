// The import boundaries that `npm run lint` enforces (biome.json) catch what they are meant to, and nothing else:
// the project's own Biome config is run over a small throwaway tree laid out like the project. This guards the
// rules themselves (a config typo or a Biome upgrade that silently stops matching would otherwise pass lint).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/engine.ts';

const FILES: Record<string, string> = {
  // The plain-Node side: no electron, directly or through electron/main or electron/preload.
  'electron/engine/uses-electron.ts': "import { app } from 'electron';\nexport const a = app;\n",
  'electron/worker/uses-electron-subpath.ts': "import { ipcMain } from 'electron/main';\nexport const a = ipcMain;\n",
  'electron/cli/uses-main.ts': "import { x } from '../main/ipc-handlers.ts';\nexport const a = x;\n",
  'electron/server/uses-preload.ts': "import type { X } from '../preload/index.ts';\nexport type A = X;\n",
  'electron/host/uses-electron.ts': "import { dialog } from 'electron';\nexport const a = dialog;\n",
  'electron/bench/uses-node.ts': "import fs from 'node:fs';\nimport { y } from '../engine/y.ts';\nexport const a = [fs, y];\n",
  'electron/main/uses-electron.ts': "import { app } from 'electron';\nimport fs from 'node:fs';\nexport const a = [app, fs];\n",
  'electron/preload/uses-electron.ts': "import { contextBridge } from 'electron';\nexport const a = contextBridge;\n",
  // shared/: no Node module (either spelling), nothing from electron/ or renderer/.
  'shared/uses-node-prefix.ts': "import fs from 'node:fs';\nexport const a = fs;\n",
  'shared/uses-node-bare.ts': "import path from 'path';\nexport const a = path;\n",
  'shared/uses-engine.ts': "import type { X } from '../electron/engine/x.ts';\nexport type A = X;\n",
  'shared/uses-renderer.ts': "import { X } from '../renderer/src/x.ts';\nexport const a = X;\n",
  'shared/clean.ts': "import * as z from './zod.ts';\nimport { y } from './url/y.ts';\nexport const a = [z, y];\n",
  // zod only through shared/zod.ts, which names what is used (the package's own z is all of zod).
  'shared/zod.ts': "export { object } from 'zod';\n",
  'shared/uses-zod.ts': "import { z } from 'zod';\nexport const a = z;\n",
  'electron/engine/uses-zod.ts': "import { object } from 'zod';\nexport const a = object;\n",
  'renderer/src/uses-zod.ts': "import { z } from 'zod';\nexport const a = z;\n",
  // renderer/: only renderer/ and shared/ (and packages), no Node module, no electron.
  'renderer/src/uses-node.ts': "import path from 'node:path';\nexport const a = path;\n",
  'renderer/src/uses-electron.ts': "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n",
  'renderer/src/uses-engine.ts': "import type { X } from '../../electron/engine/x.ts';\nexport type A = X;\n",
  'renderer/src/uses-tests.ts': "import { x } from '../../test/helpers/x.ts';\nexport const a = x;\n",
  'renderer/src/clean.ts':
    "import { useState } from 'react';\nimport { s } from '../../shared/s.ts';\nimport { t } from './store/t.ts';\nexport const a = [useState, s, t];\n",
  // A cycle made only of type imports is still a cycle.
  'shared/cycle-a.ts': "import type { B } from './cycle-b.ts';\nexport interface A { b: B }\n",
  'shared/cycle-b.ts': "import type { A } from './cycle-a.ts';\nexport interface B { a: A }\n",
};

const EXPECTED: [file: string, rule: string][] = [
  ['electron/bench/uses-node.ts', 'none'],
  ['electron/cli/uses-main.ts', 'noRestrictedImports'],
  ['electron/engine/uses-electron.ts', 'noRestrictedImports'],
  ['electron/engine/uses-zod.ts', 'noRestrictedImports'],
  ['electron/host/uses-electron.ts', 'noRestrictedImports'],
  ['electron/main/uses-electron.ts', 'none'],
  ['electron/preload/uses-electron.ts', 'none'],
  ['electron/server/uses-preload.ts', 'noRestrictedImports'],
  ['electron/worker/uses-electron-subpath.ts', 'noRestrictedImports'],
  ['renderer/src/clean.ts', 'none'],
  ['renderer/src/uses-electron.ts', 'noRestrictedImports'],
  ['renderer/src/uses-engine.ts', 'noRestrictedImports'],
  ['renderer/src/uses-node.ts', 'noNodejsModules'],
  ['renderer/src/uses-tests.ts', 'noRestrictedImports'],
  ['renderer/src/uses-zod.ts', 'noRestrictedImports'],
  ['shared/clean.ts', 'none'],
  ['shared/cycle-a.ts', 'noImportCycles'],
  ['shared/cycle-b.ts', 'noImportCycles'],
  ['shared/uses-engine.ts', 'noRestrictedImports'],
  ['shared/uses-node-bare.ts', 'noNodejsModules'],
  ['shared/uses-node-prefix.ts', 'noNodejsModules'],
  ['shared/uses-renderer.ts', 'noRestrictedImports'],
  ['shared/uses-zod.ts', 'noRestrictedImports'],
  ['shared/zod.ts', 'none'],
];

// What the probes are about; other rules (say useNodejsImportProtocol on a bare 'path') may fire too.
const BOUNDARY_RULES = new Set(['noRestrictedImports', 'noNodejsModules', 'noImportCycles']);

interface Diagnostic {
  category: string;
  location: { path: string };
}

let found: Map<string, string[]>;
let dir: string;

beforeAll(() => {
  dir = tempDir('trawl-lint-');
  // The project's config, minus what needs the real checkout: its git ignore file and the schema path.
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'biome.json'), 'utf8'));
  delete config.$schema;
  config.vcs = { enabled: false };
  fs.writeFileSync(path.join(dir, 'biome.json'), JSON.stringify(config));
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/biome'), ['lint', '--reporter=json', '--max-diagnostics=none', '.'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const report = JSON.parse(run.stdout) as { diagnostics: Diagnostic[] };
  found = new Map();
  for (const d of report.diagnostics) {
    const rule = d.category.split('/').pop() ?? d.category;
    if (!BOUNDARY_RULES.has(rule)) continue;
    found.set(d.location.path, [...(found.get(d.location.path) ?? []), rule]);
  }
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('import boundaries (biome.json)', () => {
  it('flags each crossing with its rule, and leaves allowed imports alone', () => {
    const actual = Object.keys(FILES)
      .sort()
      .map((file): [string, string] => [file, [...new Set(found.get(file) ?? ['none'])].join(',')]);
    expect(actual).toEqual(EXPECTED);
  });
});
