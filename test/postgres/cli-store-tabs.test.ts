// --export-tabs and --bulk-export on a crawl in the PostgreSQL store (issue 19): `--store URL --crawl ID --export-tabs
// ... --bulk-export ...` writes each tab and report as `--resume FILE` writes them for the same site crawled into a
// file (every column but what each store has its own way), with the pictures' data (the same bytes), after a new
// crawl in the store too, as XLSX too; an unknown crawl and an unknown tab are refused, saying so, with nothing
// written.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONTENT_EXPORT_COLUMNS, isContentFilter } from '../../shared/analysis.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { startImageSite, type ImageSite } from '../helpers/image-site.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';
import { worksheetsOf } from '../helpers/xlsx-download.ts';

const withPg = await pgSuite();

/** Tabs of every kind: results, a search result's width, URLs outside the scope, image uses, duplicate content. */
const TABS = [
  'all',
  'html',
  'status-4xx',
  'title-over-561px',
  'indexable',
  'external',
  'images-all',
  'images-alt-missing',
  'content-exact-duplicates',
  'content-low',
];
/** Bulk reports: two this site has rows for (links to the broken image, images without alt), two it has none for. */
const REPORTS = ['client-error-inlinks', 'images-missing-alt', 'non-indexable-inlinks', 'redirect-chains'];
/** The pictures' data, as the app saves them. */
const PICTURES = ['site-structure', 'crawl-map', 'depth-charts'];
/** Columns each store fills its own way: response times. */
const OWN_WAY = ['response_time_ms'];

withPg.describe('crawl CLI: --export-tabs from a crawl in the PostgreSQL store', () => {
  let db: FreshDatabase;
  let site: ImageSite;
  let dir: string;
  let file: string;
  let crawlId: string;

  beforeAll(async () => {
    db = await freshDatabase('cli_store_tabs');
    site = await startImageSite();
    dir = tempDir('trawl-store-tabs-');
    file = path.join(dir, 'site.trawl');
    const args = [site.url('/'), '--threads', '1', '--quiet', '--no-sitemaps', '--check', 'images', '--max-attempts', '1'];
    const toFile = await runCli([...args, '--db', file]);
    expect(toFile.code, toFile.stderr).toBe(0);
    const toStore = await runCli(['--store', db.url, ...args]);
    expect(toStore.code, toStore.stderr).toBe(0);
    crawlId = /Crawl (c[a-z0-9_]+) in /.exec(toStore.stderr)![1]!;
  }, 120_000);

  afterAll(async () => {
    await site?.close();
    await db?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const records = (f: string) => parse(fs.readFileSync(f, 'utf8'), { bom: true }) as string[][];
  /** A tab's header and its rows without the columns filled each store's own way; rows as a set (see below). */
  const comparable = (f: string) => {
    const [header, ...rows] = records(f);
    const keep = header!.map((h, i) => (OWN_WAY.includes(h) ? -1 : i)).filter((i) => i >= 0);
    return { header, rows: rows.map((r) => JSON.stringify(keep.map((i) => r[i]))).sort() };
  };

  /**
   * Each tab from the store as from the file: the same header (every column), the same rows. Two crawls of one site do
   * not fetch in one order, so the rows compare as sets (the app's exports are compared in order with each store's
   * explorer in analysis-contract). Duplicate content is computed from the store's signatures, as from the file's.
   */
  function expectSameTabs(fromFile: string, fromStore: string) {
    expect(fs.readdirSync(fromStore).sort()).toEqual(fs.readdirSync(fromFile).sort());
    for (const report of REPORTS) {
      const [f, s] = [comparable(path.join(fromFile, `${report}.csv`)), comparable(path.join(fromStore, `${report}.csv`))];
      expect(s, report).toEqual(f);
    }
    for (const tab of TABS) {
      const [f, s] = [comparable(path.join(fromFile, `${tab}.csv`)), comparable(path.join(fromStore, `${tab}.csv`))];
      expect(s.header, tab).toEqual(f.header);
      if (isContentFilter(tab)) expect(s.header, tab).toEqual(expect.arrayContaining([...CONTENT_EXPORT_COLUMNS]));
      expect(s.rows, tab).toEqual(f.rows);
    }
  }

  it('writes each tab as the crawl file’s --export-tabs does, naming the rows it wrote', async () => {
    const fromFile = path.join(dir, 'from-file');
    const fromStore = path.join(dir, 'from-store');
    const reports = ['--bulk-export', [...REPORTS, ...PICTURES].join(',')];
    const a = await runCli(['--resume', file, '--export-tabs', TABS.join(','), ...reports, '--output-folder', fromFile]);
    expect(a.code, a.stderr).toBe(0);
    // By name too, as for a crawl file.
    const named = TABS.map((t) => (t === 'status-4xx' ? 'Response codes:Client error (4xx)' : t));
    const b = await runCli([
      '--store',
      db.url,
      '--crawl',
      crawlId,
      '--export-tabs',
      named.join(','),
      ...reports,
      '--output-folder',
      fromStore,
    ]);
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    expect(fs.readdirSync(fromStore).sort()).toEqual([...TABS, ...REPORTS, ...PICTURES].map((t) => `${t}.csv`).sort());
    for (const tab of [...TABS, ...REPORTS, ...PICTURES]) {
      const out = path.join(fromStore, `${tab}.csv`);
      expect(b.stdout).toContain(`CSV: ${out} (${records(out).length - 1} rows)`);
    }
    // Something to compare in each but the ones that have none on this site.
    for (const tab of ['all', 'html', 'status-4xx', 'indexable', 'images-all', 'images-alt-missing', 'content-low', ...REPORTS.slice(0, 2)])
      expect(records(path.join(fromStore, `${tab}.csv`)).length, tab).toBeGreaterThan(1);
    expectSameTabs(fromFile, fromStore);
    // The pictures' data as the app saves them (the site structure's folders, the crawl map's nodes with their
    // layout and Link Scores, its depth charts' spreads): the same bytes from both.
    for (const picture of PICTURES) {
      const data = (folder: string) => fs.readFileSync(path.join(folder, `${picture}.csv`), 'utf8');
      expect(data(fromStore).split('\r\n').length, picture).toBeGreaterThan(2);
      expect(data(fromStore), picture).toBe(data(fromFile));
    }
  });

  it('writes the sitemap as the crawl file’s --sitemap-out does', async () => {
    const fromFile = path.join(dir, 'sitemap-file.xml');
    const fromStore = path.join(dir, 'sitemap-store.xml');
    const a = await runCli(['--resume', file, '--sitemap-out', fromFile]);
    expect(a.code, a.stderr).toBe(0);
    const b = await runCli(['--store', db.url, '--crawl', crawlId, '--sitemap-out', fromStore]);
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    const xml = fs.readFileSync(fromStore, 'utf8');
    const entries = (text: string) => text.split('\n').filter((line) => line.includes('<url>'));
    expect(b.stdout).toContain(`Sitemap: ${fromStore} (${entries(xml).length} URLs)`);
    expect(entries(xml).length).toBeGreaterThan(1);
    // The gallery's Last-Modified header, read from the JSON the store keeps.
    expect(xml).toContain('/gallery</loc><lastmod>2026-12-01T10:00:00Z</lastmod></url>');
    // The same head and tail, and the same pages (in fetch order, which two crawls of one site need not share).
    expect(xml.split('\n').filter((line) => !line.includes('<url>'))).toEqual(
      fs
        .readFileSync(fromFile, 'utf8')
        .split('\n')
        .filter((line) => !line.includes('<url>')),
    );
    expect(entries(xml).sort()).toEqual(entries(fs.readFileSync(fromFile, 'utf8')).sort());
  });

  it('takes the content tabs\u2019 options with --store as with a crawl file', async () => {
    // Fewer words make fewer pages low content; the options reach the store's computation as the file's.
    const args = ['--export-tabs', 'content-low', '--low-content-words', '2'];
    const [fromFile, fromStore] = [path.join(dir, 'low-file'), path.join(dir, 'low-store')];
    expect((await runCli(['--resume', file, ...args, '--output-folder', fromFile])).code).toBe(0);
    const run = await runCli(['--store', db.url, '--crawl', crawlId, ...args, '--output-folder', fromStore]);
    expect(run.code, run.stderr).toBe(0);
    const [f, st] = [comparable(path.join(fromFile, 'content-low.csv')), comparable(path.join(fromStore, 'content-low.csv'))];
    expect(st).toEqual(f);
    const defaults = path.join(dir, 'low-default');
    const plain = await runCli(['--store', db.url, '--crawl', crawlId, '--export-tabs', 'content-low', '--output-folder', defaults]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(st.rows.length).toBeLessThan(comparable(path.join(defaults, 'content-low.csv')).rows.length);
  });

  it('writes them as XLSX with the same cells', async () => {
    const fromFile = path.join(dir, 'xlsx-file');
    const fromStore = path.join(dir, 'xlsx-store');
    const tabs = ['html', 'images-all'];
    const format = ['--export-format', 'xlsx', '--export-tabs', tabs.join(',')];
    expect((await runCli(['--resume', file, ...format, '--output-folder', fromFile])).code).toBe(0);
    const run = await runCli(['--store', db.url, '--crawl', crawlId, ...format, '--output-folder', fromStore]);
    expect(run.code, run.stderr).toBe(0);
    for (const tab of tabs) {
      const rows = async (f: string) => {
        const [sheet] = await worksheetsOf(fs.readFileSync(f));
        const out: unknown[][] = [];
        sheet!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
        return out;
      };
      const [a, b] = [await rows(path.join(fromFile, `${tab}.xlsx`)), await rows(path.join(fromStore, `${tab}.xlsx`))];
      expect(b[0], tab).toEqual(a[0]);
      const keep = (a[0] as string[]).map((h, i) => (OWN_WAY.includes(h) ? -1 : i)).filter((i) => i >= 0);
      const set = (sheet: unknown[][]) =>
        sheet
          .slice(1)
          .map((r) => JSON.stringify(keep.map((i) => r[i] ?? null)))
          .sort();
      expect(set(b), tab).toEqual(set(a));
      expect(a.length, tab).toBeGreaterThan(1);
    }
  });

  it('writes the tabs after a new crawl in the store, as after a crawl into a file', async () => {
    const afterCrawl = path.join(dir, 'after-crawl');
    const run = await runCli([
      '--store',
      db.url,
      site.url('/'),
      '--threads',
      '1',
      '--quiet',
      '--no-sitemaps',
      '--check',
      'images',
      '--max-attempts',
      '1',
      '--export-tabs',
      TABS.join(','),
      '--bulk-export',
      [...REPORTS, ...PICTURES].join(','),
      '--output-folder',
      afterCrawl,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`CSV: ${path.join(afterCrawl, 'all.csv')} (`);
    expectSameTabs(path.join(dir, 'from-file'), afterCrawl);
  }, 60_000);

  it('refuses an unknown crawl and an unknown tab, writing nothing', async () => {
    const never = path.join(dir, 'never');
    const unknown = await runCli(['--store', db.url, '--crawl', 'cnosuchcrawl0', '--export-tabs', 'all', '--output-folder', never]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^trawl: there is no crawl "cnosuchcrawl0" in this store; the store has c/);
    const badTab = await runCli(['--store', db.url, '--crawl', crawlId, '--export-tabs', 'all,Nope', '--output-folder', never]);
    expect(badTab.code).toBe(2);
    expect(badTab.stderr).toContain('--export-tabs: unknown tab "Nope"; npm run crawl -- --list-tabs lists them');
    expect(fs.existsSync(never)).toBe(false);
    // --crawl alone names what it can do, the tabs among them; --list-tabs needs no crawl.
    const nothing = await runCli(['--store', db.url, '--crawl', crawlId]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain(
      '--crawl CRAWL_ID needs --control, --set-threads, --out, --export-tabs, --bulk-export or --sitemap-out',
    );
    const list = await runCli(['--list-tabs', '--store', db.url]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ {2}images-all +Images:/m);
  });
});
