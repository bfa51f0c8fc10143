// Builds better-sqlite3 for Electron's ABI into out/electron-native/, leaving node_modules' build (Node's ABI,
// used by the CLI and the tests) alone. The app loads it through better-sqlite3's `nativeBinding` option
// (electron/main/index.ts). Skipped when a build for this Electron and better-sqlite3 is already there.
// Needs network access the first time (a prebuilt binary, or Electron's headers to compile against).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const electronVersion = require('electron/package.json').version;
const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = require('better-sqlite3/package.json').version;
const outDir = path.join(root, 'out', 'electron-native');
const stampFile = path.join(outDir, 'VERSION');
const stamp = `electron ${electronVersion} better-sqlite3 ${sqliteVersion} ${process.platform}-${process.arch}`;

if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp && fs.existsSync(path.join(outDir, 'better_sqlite3.node'))) {
  process.exit(0);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-electron-native-'));
const copy = path.join(work, 'better-sqlite3');
fs.cpSync(sqliteDir, copy, {
  recursive: true,
  filter: (src) => !src.includes(`${path.sep}build${path.sep}`) && !src.endsWith(`${path.sep}build`),
});
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: copy, stdio: 'inherit' });

console.log(`Building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion}...`);
try {
  try {
    run(bin('prebuild-install'), ['--runtime', 'electron', '--target', electronVersion, '--arch', process.arch]);
  } catch {
    // No prebuilt binary for this pair: compile against Electron's headers.
    run(bin('node-gyp'), [
      'rebuild',
      '--release',
      '--runtime=electron',
      `--target=${electronVersion}`,
      '--dist-url=https://electronjs.org/headers',
    ]);
  }
  fs.mkdirSync(outDir, { recursive: true });
  fs.copyFileSync(path.join(copy, 'build', 'Release', 'better_sqlite3.node'), path.join(outDir, 'better_sqlite3.node'));
  fs.writeFileSync(stampFile, stamp);
  console.log(`better-sqlite3 for Electron ${electronVersion}: ${path.relative(root, outDir)}/better_sqlite3.node`);
} catch (err) {
  console.error(`Could not build better-sqlite3 for Electron ${electronVersion}: ${err.message}`);
  console.error('This needs network access once (a prebuilt binary, or Electron headers to compile against).');
  process.exit(1);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
