// The CLI's exports as Screaming Frog's: --list-tabs, --export-tabs and --bulk-export after a crawl (files equal to
// what the explorer and the reports give), the same from a finished crawl file with --resume (nothing fetched), and
// a bad tab name refused before anything is crawled.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_FILTERS } from '../../shared/analysis.ts';
import { BULK_REPORTS, PICTURE_DATA } from '../../shared/bulk-reports.ts';
import { crawlMapCsv, DEFAULT_CRAWL_MAP_NODES, depthSpreadCsv } from '../../shared/crawl-map.ts';
import { crawlMap } from '../../electron/engine/analysis/crawl-map.ts';
import { computeLinkScores } from '../../electron/engine/analysis/link-score.ts';
import { exportStructureCsv } from '../../electron/engine/analysis/site-structure.ts';
import { openCrawlForAnalysis, queryFiltered } from '../../electron/engine/analysis/index.ts';
import { writeBulkReport } from '../../electron/engine/analysis/bulk-reports.ts';
import { parseCli } from '../../electron/cli/args.ts';
import { startBrokenSite, type BrokenSite } from '../helpers/broken-site.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { worksheetsOf } from '../helpers/xlsx-download.ts';

let site: BrokenSite;
let dir: string;
let db: string;
const CRAWL = ['--threads', '1', '--check-external', '--max-attempts', '1', '--quiet'];
const TABS = [
  '--export-tabs',
  'status-4xx,Response codes:Server error (5xx)',
  '--bulk-export',
  'redirect-chains',
  '--bulk-export',
  'client-error-inlinks',
];

beforeAll(async () => {
  site = await startBrokenSite();
  dir = tempDir();
  db = path.join(dir, 'site.trawl');
});
afterAll(async () => site?.close());

const records = (file: string) => parse(fs.readFileSync(file, 'utf8'), { bom: true }) as string[][];

/** The URLs (and statuses) of a filter as the explorer lists them, in its default order. */
function explorerRows(filter: 'status-4xx' | 'status-5xx'): string[][] {
  const conn = openCrawlForAnalysis(db);
  try {
    const page = queryFiltered(conn, { filter, text: '', sort: 'seq', descending: false, offset: 0, limit: 1000 });
    return page.rows.map((r) => [r.url, String(r.status_code)]);
  } finally {
    conn.close();
  }
}

describe('crawl CLI: tab and report exports', () => {
  it('--list-tabs lists every explorer filter and bulk report by id and name, and crawls nothing', async () => {
    const run = await runCli(['--list-tabs']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}status-4xx +Response codes:Client error \(4xx\)$/m);
    expect(run.stdout).toMatch(/^ {2}redirect-chains +Redirects:Redirect chains$/m);
    for (const f of RESULT_FILTERS) expect(run.stdout).toMatch(new RegExp(`^  ${f.id} `, 'm'));
    for (const r of BULK_REPORTS) expect(run.stdout).toMatch(new RegExp(`^  ${r.id} `, 'm'));
    for (const p of PICTURE_DATA) expect(run.stdout).toMatch(new RegExp(`^  ${p.id} +${p.label}$`, 'm'));
  });

  it('refuses a bad tab or report name before crawling: exit 2, naming it and --list-tabs', async () => {
    const out = path.join(dir, 'never');
    const before = site.requests();
    const run = await runCli([
      site.url('/'),
      '--export-tabs',
      'status-4xx,Respons codes:Nope',
      '--bulk-export',
      'chains',
      '--output-folder',
      out,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--export-tabs: unknown tab "Respons codes:Nope"; npm run crawl -- --list-tabs lists them');
    expect(site.requests()).toBe(before);
    expect(fs.existsSync(out)).toBe(false);
    expect(() => parseCli([site.url('/'), '--bulk-export', 'chains'])).toThrow(/--bulk-export: unknown bulk report "chains"/);
    expect(() => parseCli([site.url('/'), '--export-format', 'pdf', '--export-tabs', 'all'])).toThrow(
      /--export-format must be csv or xlsx/,
    );
  });

  it('writes one CSV per tab and report after the crawl: the explorer\u2019s rows, the report\u2019s rows', async () => {
    const out = path.join(dir, 'after-crawl');
    const run = await runCli([site.url('/'), '--db', db, ...CRAWL, ...TABS, '--output-folder', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`CSV: ${path.join(out, 'status-4xx.csv')} (1 rows)`);
    expect(fs.readdirSync(out).sort()).toEqual(['client-error-inlinks.csv', 'redirect-chains.csv', 'status-4xx.csv', 'status-5xx.csv']);
    for (const filter of ['status-4xx', 'status-5xx'] as const) {
      const [header, ...rows] = records(path.join(out, `${filter}.csv`));
      const at = (name: string) => header!.indexOf(name);
      expect(rows.map((r) => [r[at('url')], r[at('status_code')]])).toEqual(explorerRows(filter));
    }
    expect(explorerRows('status-4xx')).toEqual([[site.url('/missing'), '404']]);
    // The reports' files are what the engine writes for this crawl file.
    const conn = openCrawlForAnalysis(db);
    try {
      for (const report of ['redirect-chains', 'client-error-inlinks'] as const) {
        const expected = path.join(dir, `expected-${report}.csv`);
        await writeBulkReport(conn, report, expected);
        expect(fs.readFileSync(path.join(out, `${report}.csv`), 'utf8')).toBe(fs.readFileSync(expected, 'utf8'));
      }
    } finally {
      conn.close();
    }
    expect(records(path.join(out, 'redirect-chains.csv'))).toHaveLength(6);
  });

  it('exports the same from the finished crawl file with --resume, without a request to the site', async () => {
    const first = path.join(dir, 'after-crawl');
    const again = path.join(dir, 'from-file');
    const before = site.requests();
    const run = await runCli(['--resume', db, ...TABS, '--output-folder', again]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Finished crawl ${db}: exporting it, nothing crawled`);
    expect(site.requests()).toBe(before);
    for (const name of fs.readdirSync(first)) {
      expect(fs.readFileSync(path.join(again, name), 'utf8')).toBe(fs.readFileSync(path.join(first, name), 'utf8'));
    }
    // As XLSX too.
    const xlsx = path.join(dir, 'xlsx');
    const all = path.join(dir, 'all.csv');
    const book = await runCli([
      '--resume',
      db,
      '--bulk-export',
      'redirect-chains',
      '--output-folder',
      xlsx,
      '--export-format',
      'xlsx',
      '--out',
      all,
    ]);
    expect(book.code).toBe(0);
    expect(records(all)).toHaveLength(16);
    expect(site.requests()).toBe(before);
    const [sheet] = await worksheetsOf(fs.readFileSync(path.join(xlsx, 'redirect-chains.xlsx')));
    expect(sheet!.rowCount).toBe(6);
  });

  it('writes the pictures\u2019 data as the app saves it: the folder tree, the crawl map\u2019s nodes, the depth charts', async () => {
    const out = path.join(dir, 'pictures');
    // By id and by name; CSV whatever --export-format says.
    const run = await runCli([
      '--resume',
      db,
      '--bulk-export',
      'site-structure,crawl-map',
      '--bulk-export',
      'Pictures:Inlinks and Link Score by depth',
      '--export-format',
      'xlsx',
      '--output-folder',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(['crawl-map.csv', 'depth-charts.csv', 'site-structure.csv']);
    const conn = openCrawlForAnalysis(db);
    try {
      const tree = path.join(dir, 'expected-tree.csv');
      const { rows } = await exportStructureCsv(conn, tree);
      expect(fs.readFileSync(path.join(out, 'site-structure.csv'), 'utf8')).toBe(fs.readFileSync(tree, 'utf8'));
      expect(run.stdout).toContain(`CSV: ${path.join(out, 'site-structure.csv')} (${rows} rows)`);
      const map = crawlMap(conn, { maxNodes: DEFAULT_CRAWL_MAP_NODES }, computeLinkScores(conn));
      expect(map.nodes.kind.length).toBeGreaterThan(5);
      expect(fs.readFileSync(path.join(out, 'crawl-map.csv'), 'utf8')).toBe(crawlMapCsv(map));
      expect(fs.readFileSync(path.join(out, 'depth-charts.csv'), 'utf8')).toBe(depthSpreadCsv(map.depths));
      expect(records(path.join(out, 'depth-charts.csv'))).toHaveLength(map.depths.length + 1);
    } finally {
      conn.close();
    }
  });

  it('writes a sitemap of the crawl’s indexable 200 pages with --sitemap-out, after a crawl or from the finished file', async () => {
    const conn = openCrawlForAnalysis(db);
    let indexable: string[];
    try {
      indexable = queryFiltered(conn, { filter: 'indexable', text: '', sort: 'seq', descending: false, offset: 0, limit: 1000 })
        .rows.filter((r) => r.status_code === 200 && /html/.test(r.content_type ?? ''))
        .map((r) => r.url);
    } finally {
      conn.close();
    }
    expect(indexable.length).toBeGreaterThan(2);
    const locs = (file: string) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    const before = site.requests();
    const fromFile = path.join(dir, 'sitemap-from-file.xml');
    const run = await runCli(['--resume', db, '--sitemap-out', fromFile]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Sitemap: ${fromFile} (${indexable.length} URLs)`);
    expect(site.requests()).toBe(before);
    expect(locs(fromFile).sort()).toEqual([...indexable].sort());
    // After a crawl, from the same site: the same pages.
    const afterCrawl = path.join(dir, 'sitemap-after-crawl.xml');
    const crawl = await runCli([site.url('/'), '--db', path.join(dir, 'again.trawl'), ...CRAWL, '--sitemap-out', afterCrawl]);
    expect(crawl.code).toBe(0);
    expect(locs(afterCrawl).sort()).toEqual([...indexable].sort());
    // A crawl in the store writes one too (test/postgres/cli-store-tabs.test.ts).
    expect(parseCli([site.url('/'), '--store', 'postgres://u:p@127.0.0.1/db', '--sitemap-out', 'x.xml']).sitemapOut).toBe('x.xml');
  });
});
