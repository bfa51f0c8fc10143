// Raw versus rendered on a real rendered crawl: the client-rendered loopback site (test/helpers/spa-site.ts) crawled
// with --render through the CLI, then read as the analyst reads it: the explorer's JavaScript filters (counts and
// rows), a page's detail raw beside rendered, and the CSV the CLI wrote with the render columns.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { testChromium } from '../helpers/render-fixtures.ts';
import { serveSpaSite, type SpaSite } from '../helpers/spa-site.ts';
import { openCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { filterCounts, FILTER_IDS, queryFiltered, type FilterId } from '../../electron/engine/analysis/result-filters.ts';
import { urlDetail } from '../../electron/engine/analysis/url-detail.ts';
import { CSV_COLUMNS } from '../../electron/engine/export/csv-export.ts';
import { RENDER_EXPORT_COLUMNS } from '../../shared/analysis.ts';

const chromium = testChromium();
if (!chromium.path) console.warn(`render views tests skipped: ${chromium.why}`);

describe.skipIf(!chromium.path)('a rendered crawl as the analyst reads it', () => {
  let site: SpaSite;
  let dir: string;
  let db: string;
  let csv: string;
  beforeAll(async () => {
    site = await serveSpaSite(5);
    dir = tempDir('trawl-render-views-');
    db = path.join(dir, 'spa.trawl');
    csv = path.join(dir, 'spa.csv');
    const run = await runCli([`${site.origin}/`, '--render', '--chromium', chromium.path!, '--db', db, '--out', csv, '--quiet']);
    expect(run.code, run.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts and lists the JavaScript filters', () => {
    const file = openCrawlFile(db, { readonly: true });
    try {
      const all = site.pages.map((p) => `${site.origin}${p}`);
      const p3 = [`${site.origin}/p/3`];
      // Every page is the same shell: its title, description and links are the script's.
      const expected: Partial<Record<FilterId, string[]>> = {
        'js-rendered': all,
        'js-rendered-links': all,
        'js-title-changed': all,
        'js-description-changed': all,
        // Page 3's script adds a noindex and a canonical: the raw HTML has neither.
        'js-canonical-changed': p3,
        'js-robots-changed': p3,
        'js-noindex-rendered': p3,
        'js-errors': [],
        'js-blocked': [],
        'js-render-failed': [],
        'js-redirect': [],
      };
      const counts = filterCounts(file);
      for (const id of FILTER_IDS.filter((f) => f.startsWith('js-'))) {
        const rows = queryFiltered(file, { filter: id, sort: 'url', descending: false, offset: 0, limit: 100 }).rows.map((r) => r.url);
        expect({ id, rows, count: counts[id] }).toEqual({ id, rows: [...expected[id]!].sort(), count: expected[id]!.length });
      }
      // The results rows show the pages as rendered: the script's titles are distinct (the shell's "Loading…" on every
      // page would be one duplicate title), and its noindex is a directive that makes the page non-indexable.
      expect(counts['title-duplicate']).toBe(0);
      expect(counts['title-missing']).toBe(0);
      expect(counts['directive-noindex']).toBe(1);
      expect(
        queryFiltered(file, { filter: 'non-indexable', sort: 'url', descending: false, offset: 0, limit: 10 }).rows.map((r) => r.url),
      ).toEqual(p3);
    } finally {
      file.close();
    }
  });

  it('details a page raw beside rendered', () => {
    const file = openCrawlFile(db, { readonly: true });
    try {
      const render = urlDetail(file, { url: `${site.origin}/p/3` })!.render!;
      const field = (f: string) => render.fields.find((x) => x.field === f);
      expect(field('title')).toEqual({ field: 'title', raw: 'Loading…', rendered: 'SPA page 3', changed: true });
      expect(field('meta_description')).toEqual({ field: 'meta_description', raw: null, rendered: 'About SPA page 3', changed: true });
      expect(field('h1')).toMatchObject({ rendered: 'SPA page 3', changed: true });
      expect(field('canonical')).toEqual({ field: 'canonical', raw: null, rendered: `${site.origin}/p/1`, changed: true });
      expect(field('meta_robots')).toEqual({ field: 'meta_robots', raw: null, rendered: 'noindex', changed: true });
      expect(field('indexability')).toEqual({ field: 'indexability', raw: 'indexable', rendered: 'non-indexable: noindex', changed: true });
      expect(render.error).toBeNull();
      expect(render.render_ms).toBeGreaterThan(0);
      expect(render.rendered_links).toBeGreaterThan(0);
      expect(render.console_errors).toEqual({ items: [], total: 0 });
      const home = urlDetail(file, { url: `${site.origin}/` })!.render!;
      expect(home.fields.find((x) => x.field === 'indexability')).toMatchObject({
        raw: 'indexable',
        rendered: 'indexable',
        changed: false,
      });
    } finally {
      file.close();
    }
  });

  it('writes the render columns in the CSV', () => {
    const lines = fs
      .readFileSync(csv, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    const header = lines[0]!.split(',');
    expect(header).toEqual([...CSV_COLUMNS, ...RENDER_EXPORT_COLUMNS]);
    const p3 = lines.find((l) => l.startsWith(`${site.origin}/p/3,`))!.split(',');
    const cell = (c: string) => p3[header.indexOf(c)];
    expect([cell('title'), cell('raw_title'), cell('meta_robots'), cell('raw_indexability'), cell('render_error')]).toEqual([
      'SPA page 3',
      'Loading…',
      'noindex',
      'indexable',
      '',
    ]);
    expect(Number(cell('render_ms'))).toBeGreaterThan(0);
  });
});
