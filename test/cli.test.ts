import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite } from './helpers/fixture-site.ts';
import type { FixtureSite } from './helpers/fixture-site.ts';
import { tempDir } from './helpers/engine.ts';
import { runCli } from './helpers/cli.ts';
import { parseCli } from '../electron/cli/args.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

function trawlTempDirs(): string[] {
  return fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith('trawl-') && !d.startsWith('trawl-test-') && !d.startsWith('trawl-pgdocs'));
}

describe('crawl CLI', () => {
  it('crawls, writes the CSV, prints one summary line, exits 0 and removes its temporary crawl file', async () => {
    site = await startFixtureSite({ pages: 25, linksPerPage: 3 });
    const out = path.join(tempDir(), 'results.csv');
    const before = trawlTempDirs();
    const run = await runCli([site.url('/p/0'), '--threads', '3', '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Finished \(completed\): 25 crawled, 0 failed, 0 still queued in [\d.]+ s \([\d.]+ URLs\/s\)\nCSV: .*results\.csv \(25 rows\)\n$/);
    const csv = fs.readFileSync(out, 'utf8');
    expect(csv.startsWith('\uFEFFurl,status_code,content_type,size_bytes,response_time_ms,crawl_depth,title,meta_description,h1,canonical,word_count,inlinks,outlinks,redirect_url,error\r\n')).toBe(true);
    expect(csv).toContain(`${site.url('/p/0')},200,text/html; charset=utf-8,`);
    expect(trawlTempDirs()).toEqual(before);
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
    const run = await runCli(['notaurl', 'ftp://x.test/', '--threads', '0', '--max-depth=-1', '--user-agent', 'bad\u0007agent', '--db', db]);
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

  it('prints help with exit 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run crawl -- <seed URL>...');
  });

  it('on --resume only --threads may change', () => {
    expect(() => parseCli(['--resume', 'x.trawl', '--max-depth', '3'])).toThrow(/only --threads can change \(not --max-depth\)/);
    expect(() => parseCli(['--resume', 'x.trawl', 'http://a.invalid/'])).toThrow(/give no seed URLs/);
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
