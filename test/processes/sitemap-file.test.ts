// Sitemaps given as local files (`--sitemap FILE`, issue 17: "sitemaps given by URL or file"): read before the crawl
// starts, plain or gzip, recorded as sitemaps (by their file: URL) with what they list, so the URLs only they name
// are crawled and the sitemap filters count them; a path that is neither a URL nor a file is refused before anything.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterCounts } from '../../electron/engine/analysis/result-filters.ts';
import { openCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';

let site: FixtureSite;
let dir: string;
const orphan = (res: import('node:http').ServerResponse) =>
  void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Orphan</title><h1>Orphan</h1>');

beforeAll(async () => {
  site = await startFixtureSite({
    pages: 3,
    linksPerPage: 1,
    routes: { '/orphan': (_q, res) => orphan(res), '/lonely': (_q, res) => orphan(res) },
  });
  dir = tempDir('trawl-sitemap-file-');
});
afterAll(async () => site?.close());

describe('crawl CLI: --sitemap FILE', () => {
  it('reads local sitemaps (XML and gzip text) into the crawl: their URLs crawled, recorded, counted', async () => {
    const xml = path.join(dir, 'pages.xml');
    fs.writeFileSync(
      xml,
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.url('/p/0')}</loc></url><url><loc>${site.url('/orphan')}</loc></url></urlset>`,
    );
    const gz = path.join(dir, 'more.txt.gz');
    fs.writeFileSync(gz, zlib.gzipSync(`${site.url('/lonely')}\n${site.url('/p/1')}\n`));
    const db = path.join(dir, 'c.trawl');
    const run = await runCli([site.url('/p/0'), '--sitemap', xml, '--sitemap', gz, '--no-sitemaps', '--db', db, '--quiet']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const file = openCrawlFile(db, { readonly: true });
    try {
      const sitemaps = file.prepare('SELECT url, kind, url_count AS n, error FROM sitemaps ORDER BY url').all();
      expect(sitemaps).toEqual([
        { url: pathToFileURL(gz).href, kind: 'text', n: 2, error: null },
        { url: pathToFileURL(xml).href, kind: 'urlset', n: 2, error: null },
      ]);
      // The pages only the sitemaps name were crawled, and are orphans (linked from no crawled page).
      const crawled = file.prepare('SELECT u.url FROM results r JOIN urls u ON u.id = r.url_id').all() as { url: string }[];
      expect(crawled.map((r) => r.url)).toEqual(expect.arrayContaining([site.url('/orphan'), site.url('/lonely')]));
      const counts = filterCounts(file);
      expect(counts['sitemap-urls']).toBe(4);
      expect(counts['sitemap-orphans']).toBe(2);
    } finally {
      file.close();
    }
    // Nothing fetched for the files themselves.
    expect(site.log.some((r) => r.path.includes('pages.xml') || r.path.includes('more.txt'))).toBe(false);
  });

  it('refuses a --sitemap that is neither a URL nor a file, before crawling', async () => {
    const before = site.log.length;
    const run = await runCli([site.url('/p/0'), '--sitemap', path.join(dir, 'nope.xml')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--sitemap: ${path.join(dir, 'nope.xml')} is neither an http(s) URL nor a file`);
    expect(site.log.length).toBe(before);
  });
});
