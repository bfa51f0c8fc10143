// Structured data and social tags over a real crawl (issue 18.4): the CLI crawls a site of our own on 127.0.0.1, the
// crawl file keeps each page's JSON-LD, microdata, RDFa and og/twitter tags, the structured data filters list the
// planted pages, each is a tab of --list-tabs and --export-tabs, and the schema.org types report counts the types.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_FILTERS, type FilterId } from '../../shared/analysis.ts';
import { filterCounts, openCrawlForAnalysis, queryFiltered } from '../../electron/engine/analysis/index.ts';
import { urlDetail } from '../../electron/engine/analysis/url-detail.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { MARKUP_TITLE, startStructuredSite } from '../helpers/structured-site.ts';

let site: Awaited<ReturnType<typeof startStructuredSite>>;
let dir: string;
let db: string;
const STRUCTURED = RESULT_FILTERS.filter((f) => f.group === 'structured').map((f) => f.id);

beforeAll(async () => {
  site = await startStructuredSite();
  dir = tempDir();
  db = path.join(dir, 'structured.trawl');
});
afterAll(async () => site?.close());

const records = (file: string) => parse(fs.readFileSync(file, 'utf8'), { bom: true }) as string[][];

describe('structured data over a real crawl', () => {
  it('lists each structured data filter as a tab', async () => {
    const run = await runCli(['--list-tabs']);
    expect(run.code).toBe(0);
    expect(STRUCTURED).toHaveLength(7);
    for (const id of STRUCTURED) expect(run.stdout).toMatch(new RegExp(`^  ${id} +Structured data:`, 'm'));
    expect(run.stdout).toMatch(/^ {2}structured-data-types +Structured data:Schema\.org types$/m);
  });

  it('crawls the site and exports the tabs and the types report: the planted pages, the types counted', async () => {
    const out = path.join(dir, 'out');
    const run = await runCli([
      site.url('/'),
      '--db',
      db,
      '--threads',
      '1',
      '--quiet',
      '--export-tabs',
      STRUCTURED.join(','),
      '--bulk-export',
      'structured-data-types',
      '--output-folder',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const paths = (id: FilterId) => {
      const [header, ...rows] = records(path.join(out, `${id}.csv`));
      return rows.map((r) => new URL(r[header!.indexOf('url')]!).pathname).sort();
    };
    expect(paths('structured-jsonld-errors')).toEqual(['/broken']);
    expect(paths('structured-none')).toEqual(['/plain']);
    expect(paths('structured-jsonld')).toEqual(['/', '/broken']);
    expect(paths('structured-microdata')).toEqual(['/microdata']);
    expect(paths('structured-rdfa')).toEqual(['/rdfa']);
    expect(paths('structured-og-missing')).toEqual(['/broken', '/microdata', '/plain', '/rdfa']);
    expect(paths('structured-twitter-missing')).toEqual(['/broken', '/plain', '/rdfa']);
    const [header, ...types] = records(path.join(out, 'structured-data-types.csv'));
    expect(header).toEqual(['type', 'format', 'pages', 'items']);
    expect(types).toEqual([
      ['BreadcrumbList', 'json-ld', '1', '1'],
      ['Event', 'rdfa', '1', '1'],
      ['ImageObject', 'json-ld', '1', '1'],
      ['IndividualProduct', 'json-ld', '1', '1'],
      ['Offer', 'json-ld', '1', '1'],
      ['Organization', 'json-ld', '1', '1'],
      ['Person', 'microdata', '1', '1'],
      ['Product', 'json-ld', '1', '1'],
      ['Recipe', 'microdata', '1', '1'],
    ]);
  });

  it('keeps each page\u2019s items and tags for the detail pane, and counts the filters as it lists them', () => {
    const conn = openCrawlForAnalysis(db);
    try {
      const home = urlDetail(conn, { url: site.url('/') })!.structured!;
      expect(home.items).toEqual([
        { format: 'json-ld', types: ['Organization', 'ImageObject', 'Product', 'IndividualProduct', 'Offer'], error: null },
      ]);
      expect(home.social_tags.map((t) => t.property)).toEqual([
        'og:title',
        'og:image',
        'og:type',
        'og:url',
        'og:description',
        'twitter:card',
        'twitter:title',
        'twitter:description',
        'twitter:image',
      ]);
      expect(home.social_tags[0]!.content).toBe(MARKUP_TITLE);
      const broken = urlDetail(conn, { url: site.url('/broken') })!.structured!;
      expect(broken.items[0]).toMatchObject({ format: 'json-ld', types: [] });
      expect(broken.items[0]!.error).toMatch(/^Expected double-quoted property name in JSON at position \d+/);
      expect(broken.items[1]).toEqual({ format: 'json-ld', types: ['BreadcrumbList'], error: null });
      expect(urlDetail(conn, { url: site.url('/plain') })!.structured).toEqual({ items: [], social_tags: [] });
      const counts = filterCounts(conn);
      for (const id of STRUCTURED) {
        const page = queryFiltered(conn, { filter: id, sort: 'seq', descending: false, offset: 0, limit: 100 });
        expect({ id, count: counts[id] }).toEqual({ id, count: page.total });
      }
    } finally {
      conn.close();
    }
  });
});
