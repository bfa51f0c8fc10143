// The `trawl` command (package.json's bin, bin/trawl.mjs) run as a user runs it, through `npm exec` (what `npx trawl`
// is): its list of subcommands, each subcommand's --help, a refusal of an unknown one, and a real crawl of the demo
// site the project ships (`npm run demo-site`, scripts/demo-site.mjs) written as XLSX because --out ends in .xlsx.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/engine.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[]): Promise<Run> {
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** `npx trawl ARGS`, offline: npm runs the bin of the package in the current folder. */
const trawl = (...args: string[]) => run(npm, ['exec', '--offline', '--', 'trawl', ...args]);

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
});

/** The demo site on a free port; resolves with its URL once it listens. */
function startDemoSite(): Promise<string> {
  const child = spawn(process.execPath, [path.join(root, 'scripts/demo-site.mjs'), '--port', '0', '--chapters', '3', '--sections', '4'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the demo site exited (${code}) before listening`)));
  });
}

describe('the trawl command', () => {
  it('lists its subcommands with --help, and refuses an unknown one with exit status 2', async () => {
    const help = await trawl('--help');
    expect(help.code).toBe(0);
    for (const name of ['crawl', 'compare', 'serve']) expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));

    const unknown = await trawl('crawwl', 'https://example.com/');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "crawwl"; the commands are crawl, compare, serve');
  }, 120_000);

  it("gives each subcommand's own --help", async () => {
    const [crawl, compare, serve] = await Promise.all([trawl('crawl', '--help'), trawl('compare', '--help'), trawl('serve', '--help')]);
    expect(crawl.code).toBe(0);
    expect(crawl.stdout).toContain('--out FILE.csv');
    expect(crawl.stdout).toContain('.xlsx');
    expect(compare.code).toBe(0);
    expect(compare.stdout).toContain('OLD.trawl NEW.trawl');
    expect(serve.code).toBe(0);
    expect(serve.stdout).toContain('--port');
  }, 120_000);

  it('crawls the demo site and writes an XLSX workbook for --out FILE.xlsx', async () => {
    const site = await startDemoSite();
    const out = path.join(tempDir(), 'demo.xlsx');
    const crawl = await trawl('crawl', site, '--threads', '3', '--processes', '1', '--quiet', '--out', out);
    expect(crawl.stderr).toBe('');
    expect(crawl.code).toBe(0);
    const rows = Number(/XLSX: .*demo\.xlsx \((\d+) rows\)/.exec(crawl.stdout)?.[1]);
    expect(fs.existsSync(out)).toBe(true);

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(out);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 3)).toEqual(['url', 'kind', 'status_code']);
    expect(sheet.rowCount).toBe(rows + 1);
    const statuses = new Map<unknown, number>();
    sheet.eachRow((row, n) => {
      if (n > 1) statuses.set(row.getCell(3).value, (statuses.get(row.getCell(3).value) ?? 0) + 1);
    });
    // The demo's 12 sections and 3 chapters, its contents, home, site map and planted pages, as numbers: its
    // redirects, its broken links (one a chapter) and its server error among them.
    expect(statuses.get(301)).toBe(1);
    expect(statuses.get(302)).toBe(1);
    expect(statuses.get(404)).toBe(3);
    expect(statuses.get(500)).toBe(1);
    expect(statuses.get(200)).toBeGreaterThan(12);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  }, 180_000);
});
