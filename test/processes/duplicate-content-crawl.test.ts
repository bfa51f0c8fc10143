// Duplicate content (issue 18.1) end to end: the CLI crawls a site with known duplicates (test/helpers/duplicate-site.ts)
// and exports the content tabs; the analysis's options change the answer from the same crawl file without fetching
// anything again; the nav and footer, left out by default, would make distinct pages look alike if counted.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_FILTERS } from '../../shared/analysis.ts';
import { CrawlAnalysis } from '../../electron/engine/session/crawl-analysis.ts';
import { startDuplicateSite, type DuplicateSite } from '../helpers/duplicate-site.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';

let site: DuplicateSite;
let dir: string;
let db: string;
const TABS = ['--export-tabs', 'content-exact-duplicates,content-near-duplicates,Content:Low content'];

beforeAll(async () => {
  site = await startDuplicateSite();
  dir = tempDir();
  db = path.join(dir, 'site.trawl');
});
afterAll(async () => site?.close());

/** A CSV export as objects by header, sorted by URL path. */
function tab(folder: string, id: string): Record<string, string>[] {
  const rows = parse(fs.readFileSync(path.join(folder, `${id}.csv`), 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
  return rows.map((r) => ({ ...r, url: new URL(r.url!).pathname })).sort((a, b) => a.url!.localeCompare(b.url!));
}
const paths = (rows: Record<string, string>[]) => rows.map((r) => r.url);

describe('duplicate content: crawl and tab exports', () => {
  it('lists the content tabs', async () => {
    const run = await runCli(['--list-tabs']);
    expect(run.code).toBe(0);
    for (const f of RESULT_FILTERS.filter((x) => x.group === 'content'))
      expect(run.stdout).toMatch(new RegExp(`^  ${f.id} +Content:`, 'm'));
  });

  it('finds the exact duplicates, the near duplicates with their closest match, and the low-content page', async () => {
    const out = path.join(dir, 'tabs');
    const run = await runCli([site.url('/'), '--threads', '2', '--no-sitemaps', '--db', db, '--quiet', ...TABS, '--output-folder', out]);
    expect(run.code, run.stderr).toBe(0);

    const exact = tab(out, 'content-exact-duplicates');
    // /a-noindex has the same text but is not indexable: not compared by default.
    expect(paths(exact)).toEqual(['/a', '/a-copy']);
    expect(exact.map((r) => r.exact_duplicates)).toEqual(['2', '2']);
    expect(exact.map((r) => r.main_words)).toEqual(['300', '300']);

    const near = tab(out, 'content-near-duplicates');
    // The distinct pages share 5,000 words of nav and footer, left out: they are not near-duplicates.
    expect(paths(near)).toEqual(['/near-1', '/near-2']);
    expect(near.map((r) => new URL(r.near_match_url!).pathname)).toEqual(['/near-2', '/near-1']);
    for (const r of near) {
      expect(Number(r.near_similarity)).toBeGreaterThanOrEqual(90);
      expect(Number(r.near_similarity)).toBeLessThan(100);
    }

    const low = tab(out, 'content-low');
    expect(paths(low)).toEqual(['/thin']);
    expect(low[0]!.main_words).toBe('30');
  });

  it('changes with the analysis options, from the same file, fetching nothing', async () => {
    const before = site.requests();
    const out = path.join(dir, 'tabs-options');
    const run = await runCli([
      '--resume',
      db,
      '--quiet',
      ...TABS,
      '--output-folder',
      out,
      '--duplicates-all-pages',
      '--near-duplicate-threshold',
      '99',
      '--low-content-words',
      '250',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(site.requests()).toBe(before);
    expect(paths(tab(out, 'content-exact-duplicates'))).toEqual(['/a', '/a-copy', '/a-noindex']);
    expect(tab(out, 'content-near-duplicates')).toEqual([]);
    // 210 and 250 words are under 250... the home page's 250 are not, nor /a's 300.
    expect(paths(tab(out, 'content-low'))).toEqual(['/distinct-1', '/distinct-2', '/thin']);
  });

  it('the explorer: counts, rows with the closest match, and the options set after the crawl', async () => {
    const analysis = CrawlAnalysis.open(db);
    try {
      const counts = await analysis.filterCounts();
      expect([counts['content-exact-duplicates'], counts['content-near-duplicates'], counts['content-low']]).toEqual([2, 2, 1]);
      const page = analysis.queryFiltered({
        filter: 'content-near-duplicates',
        text: '',
        sort: 'url',
        descending: false,
        offset: 0,
        limit: 10,
      });
      expect(page.rows.map((r) => [new URL(r.url).pathname, new URL(r.near_match_url!).pathname])).toEqual([
        ['/near-1', '/near-2'],
        ['/near-2', '/near-1'],
      ]);
      analysis.setContentOptions({ threshold: 0.99, allPages: true });
      const after = await analysis.filterCounts();
      expect([after['content-exact-duplicates'], after['content-near-duplicates']]).toEqual([3, 0]);
    } finally {
      analysis.close();
    }
  });

  it('counting the nav and footer (--content-exclude "") makes the distinct pages look alike', async () => {
    const out = path.join(dir, 'tabs-no-exclude');
    const file = path.join(dir, 'no-exclude.trawl');
    const run = await runCli([
      site.url('/'),
      '--no-sitemaps',
      '--db',
      file,
      '--quiet',
      '--content-exclude',
      '',
      '--near-duplicate-threshold',
      '85',
      ...TABS,
      '--output-folder',
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(paths(tab(out, 'content-near-duplicates'))).toEqual(expect.arrayContaining(['/distinct-1', '/distinct-2']));
    // Every page has 5,000 words of boilerplate now: none is low content.
    expect(tab(out, 'content-low')).toEqual([]);
  });
});
