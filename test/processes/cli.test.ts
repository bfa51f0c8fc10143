import { CSV_COLUMNS } from '../../electron/engine/export/csv-export.ts';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { tempDir } from '../helpers/engine.ts';
import { runCli } from '../helpers/cli.ts';
import { parseCli } from '../../electron/cli/args.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('crawl CLI', () => {
  it('crawls, writes the CSV, prints one summary line, exits 0 and removes its temporary crawl file', async () => {
    site = await startFixtureSite({ pages: 25, linksPerPage: 3 });
    const out = path.join(tempDir(), 'results.csv');
    // The CLI's own temporary folder goes under a TMPDIR of this test's, so other tests' files cannot interfere.
    const tmp = tempDir();
    const run = await runCli([site.url('/p/0'), '--threads', '3', '--out', out], { TMPDIR: tmp });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Finished \(completed\): 25 crawled, 0 failed, 0 still queued in [\d.]+ s \([\d.]+ URLs\/s\)\nCSV: .*results\.csv \(25 rows\)\n$/,
    );
    const csv = fs.readFileSync(out, 'utf8');
    expect(csv.startsWith(`\uFEFF${CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(csv).toContain(`${site.url('/p/0')},page,200,text/html; charset=utf-8,`);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('keeps the crawl in --db, and refuses to overwrite an existing crawl file', async () => {
    site = await startFixtureSite({ pages: 5, linksPerPage: 2 });
    const db = path.join(tempDir(), 'site.trawl');
    const first = await runCli([site.url('/p/0'), '--db', db]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Crawl file: ${db}`);
    const size = fs.statSync(db).size;
    const again = await runCli([site.url('/p/0'), '--db', db]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/site\.trawl already exists; use --resume/);
    expect(fs.statSync(db).size).toBe(size);
  });

  it('exits 2 naming every bad argument at once, and creates nothing', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'never.trawl');
    const run = await runCli([
      'notaurl',
      'ftp://x.test/',
      '--threads',
      '0',
      '--max-depth=-1',
      '--user-agent',
      'bad\u0007agent',
      '--db',
      db,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('seed URL #1: "notaurl" is not a valid URL');
    expect(run.stderr).toContain('seed URL #2: "ftp://x.test/" is not an http or https URL');
    expect(run.stderr).toContain('--threads: must be at least 1');
    expect(run.stderr).toContain('--max-depth: must be at least 0');
    expect(run.stderr).toContain('--user-agent: must be a valid HTTP header value');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('exits 2 for an unknown option, a missing seed, or a non-number', async () => {
    const unknown = await runCli(['http://a.invalid/', '--thredas', '4']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--thredas'/);
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/give at least one seed URL/);
    const nan = await runCli(['http://a.invalid/', '--max-pages', 'lots']);
    expect(nan.code).toBe(2);
    expect(nan.stderr).toMatch(/--max-pages: must be a whole number/);
  });

  it('exits 2 naming --exclude for a bad regular expression, and creates nothing', async () => {
    const dir = tempDir();
    const run = await runCli(['http://a.invalid/', '--exclude', '\\.pdf$', '--exclude', '(', '--db', path.join(dir, 'never.trawl')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--exclude: invalid regular expression: Unterminated group in "("');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('prints help with exit 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run crawl -- <seed URL>...');
  });

  it('turns the scope options into settings, repeatable ones into lists', () => {
    const request = parseCli([
      'http://a.invalid/',
      '--scope',
      'hosts',
      '--allow-host',
      'B.invalid:8080',
      '--allow-host',
      'c.invalid',
      '--include',
      '^http://',
      '--exclude',
      '/private/',
      '--exclude',
      '\\.pdf$',
      '--max-url-length',
      '512',
      '--strip-param',
      'utm_*',
      '--strip-param',
      'sid',
    ]);
    expect(request.settings).toMatchObject({
      scope: 'hosts',
      allowedHosts: ['b.invalid:8080', 'c.invalid'],
      include: ['^http://'],
      exclude: ['/private/', '\\.pdf$'],
      maxUrlLength: 512,
      stripQueryParams: ['utm_*', 'sid'],
    });
    expect(parseCli(['http://a.invalid/']).settings).toMatchObject({
      scope: 'same-host',
      allowedHosts: [],
      include: [],
      exclude: [],
      maxUrlLength: 2048,
      stripQueryParams: [],
    });
  });

  it('names the scope option that is wrong', () => {
    const bad = (args: string[]) => {
      try {
        parseCli(['http://a.invalid/', ...args]);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error(`expected ${args.join(' ')} to be refused`);
    };
    expect(bad(['--scope', 'world'])).toBe('--scope: must be one of same-host, subdomains, domain, hosts');
    expect(bad(['--scope', 'hosts'])).toBe('--allow-host: list at least one host when scope is "hosts"');
    expect(bad(['--allow-host', 'http://b.invalid/'])).toMatch(/^--allow-host: "http:\/\/b.invalid\/" is not a valid host name/);
    expect(bad(['--include', '['])).toMatch(/^--include: invalid regular expression: /);
    expect(bad(['--max-url-length', '10'])).toBe('--max-url-length: must be at least 64');
    expect(bad(['--strip-param', 'a=b'])).toMatch(/^--strip-param: "a=b" is not a query parameter name/);
    expect(bad(['--exclude', 'a\\.invalid'])).toBe(
      'seed URL #1: "http://a.invalid/" is excluded by your include/exclude patterns (it matches exclude pattern "a\\.invalid")',
    );
  });

  it('on --resume only --threads may change', () => {
    expect(() => parseCli(['--resume', 'x.trawl', '--max-depth', '3'])).toThrow(/only --threads can change \(not --max-depth\)/);
    expect(() => parseCli(['--resume', 'x.trawl', 'http://a.invalid/'])).toThrow(/give no seed URLs/);
    expect(() => parseCli(['--resume', 'x.trawl', '--exclude', 'x', '--scope', 'domain'])).toThrow(
      /only --threads can change \(not --scope, --exclude\)/,
    );
    expect(parseCli(['--resume', 'x.trawl', '--threads', '7'])).toMatchObject({ mode: 'resume', settings: { threads: 7 } });
  });
});

describe('crawl CLI on an unreachable site', () => {
  it('finishes with one error row that says why', async () => {
    const net = await import('node:net');
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as import('node:net').AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const out = path.join(tempDir(), 'down.csv');
    const run = await runCli([`http://127.0.0.1:${port}/`, '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Finished \(completed\): 0 crawled, 1 failed/);
    const rows = fs.readFileSync(out, 'utf8').trim().split('\r\n');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain('blocked: robots.txt unreachable (connection refused)');
  });
});
