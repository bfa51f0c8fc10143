// The GitHub Actions workflow (.github/workflows/ci.yml) cannot run here, so it is kept valid and true to the local
// commands by this test: it passes the workflow schema (SchemaStore's, as @action-validator/core checks it), and
// what it runs is what .ci/run, package.json and electron-builder.yml say (the same install and test commands,
// scripts and test files that exist, the installers electron-builder makes).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const source = read('.github/workflows/ci.yml');
const ciRun = read('.ci/run');
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; engines: { node: string } };

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  container?: string;
  strategy?: { matrix: { os: string[] } };
  steps: Step[];
}
const workflow = parse(source) as { jobs: Record<string, Job> };
const runs = (job: Job) => job.steps.flatMap((s) => (s.run ? s.run.split('\n').map((l) => l.trim()) : [])).filter(Boolean);
const allRuns = Object.values(workflow.jobs).flatMap(runs);

describe('the CI workflow', () => {
  it('passes the GitHub Actions workflow schema', () => {
    expect(validateWorkflow(source).errors).toEqual([]);
  });

  it('is told apart from a broken one by the schema check (the check checks)', () => {
    const broken = source.replace('runs-on: ubuntu-latest', 'runs_on: ubuntu-latest');
    expect(broken).not.toBe(source);
    expect(validateWorkflow(broken).errors.length).toBeGreaterThan(0);
    expect(validateWorkflow(source.replace('timeout-minutes: 90', 'timeout-minutes: soon')).errors.length).toBeGreaterThan(0);
  });

  it('runs lint and every test on Linux through .ci/run itself, in Debian with the Node the project needs', () => {
    const test = workflow.jobs['test']!;
    expect(runs(test)).toContain('bash .ci/run');
    const node = Number(/^node:(\d+)-/.exec(test.container ?? '')?.[1]);
    expect(node).toBeGreaterThanOrEqual(Number(/>=\s*(\d+)/.exec(pkg.engines.node)?.[1]));
    expect(test.container).toMatch(/-(bookworm|trixie)$/); // Debian: .ci/run installs Debian's chromium and postgresql
    // What .ci/run does: Chromium and PostgreSQL from Debian, then the README's commands.
    expect(ciRun).toMatch(/^packages=\(chromium postgresql( [\w-]+)*\)$/m);
    expect(ciRun).toMatch(/^npm install --no-audit --no-fund$/m);
    expect(ciRun).toMatch(/^npm test$/m);
    expect(pkg.scripts['test']).toContain('npm run lint');
    expect(pkg.scripts['test']).toContain('vitest run');
  });

  it('tests and packages the desktop app on Linux, macOS and Windows with the local commands, uploading the installers', () => {
    const desktop = workflow.jobs['desktop']!;
    expect(desktop.strategy?.matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    const lines = runs(desktop);
    // The same install as .ci/run, the same preparation as `npm start`, the package script itself.
    expect(lines).toContain('npm install --no-audit --no-fund');
    const electronNative = pkg.scripts['start']!.split(' && ')[0]!;
    expect(lines).toContain(electronNative);
    expect(lines).toContain('npm run package');
    // The Electron test runs under Xvfb on Linux, and only there.
    const xvfb = desktop.steps.find((s) => s.run?.startsWith('xvfb-run'));
    expect(xvfb?.if).toBe("runner.os == 'Linux'");
    expect(xvfb?.run).toContain('test/browser/electron-app.test.ts');

    // electron-builder's output folder and targets, as the upload's paths.
    const builder = read('electron-builder.yml');
    const output = /^\s+output:\s*(\S+)$/m.exec(builder)?.[1];
    const upload = desktop.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    const paths = String(upload?.with?.['path']).trim().split('\n');
    const extension: Record<string, string> = { AppImage: 'AppImage', deb: 'deb', dmg: 'dmg', nsis: 'exe' };
    const targets = [...builder.matchAll(/target:\s*(\[[^\]]*\]|\S+)/g)].flatMap((m) => m[1]!.replace(/[[\]]/g, '').split(/,\s*/));
    expect(targets.sort()).toEqual(['AppImage', 'deb', 'dmg', 'nsis']);
    expect(paths.sort()).toEqual(targets.map((t) => `${output}/*.${extension[t]}`).sort());
    expect(upload?.with?.['if-no-files-found']).toBe('error');
  });

  it('names only scripts, files and test files that exist', () => {
    for (const line of allRuns) {
      for (const m of line.matchAll(/npm run ([\w:-]+)/g)) expect(pkg.scripts, line).toHaveProperty([m[1]!]);
      for (const m of line.matchAll(/(?:^|\s)((?:\.ci|scripts|test|node_modules\/electron)\/[\w./-]+)/g)) {
        expect(fs.existsSync(path.join(root, m[1]!)), `${m[1]} in "${line}"`).toBe(true);
      }
    }
    // node_modules/electron/install.js is the electron package's own installer (what its first run calls).
    expect(allRuns).toContain('node node_modules/electron/install.js');
    expect(fs.existsSync(path.join(root, 'node_modules/electron/install.js'))).toBe(true);
  });
});
