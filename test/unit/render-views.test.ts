// Raw versus rendered as the analyst reads it, on a crawl file written directly: a rendered page's detail (raw and
// rendered values side by side, indexability with the raw one when it differs, the render's time, error and
// bounded lists of errors and resources), a page not rendered, and a file older than the renders table; and the
// export's render columns (CSV and XLSX), present only when the crawl rendered.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFile, openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { UrlState } from '../../electron/engine/frontier/model.ts';
import { MAX_RENDER_ITEMS, MAX_RENDER_TEXT, urlDetail } from '../../electron/engine/analysis/url-detail.ts';
import { urlKey } from '../../shared/url/url-key.ts';
import { parseSettings } from '../../shared/settings.ts';
import { downgradeToVersion3, downgradeToVersion4 } from '../helpers/old-crawl-file.ts';
import { filterCounts } from '../../electron/engine/analysis/result-filters.ts';
import ExcelJS from 'exceljs';
import { CSV_COLUMNS, exportCsv } from '../../electron/engine/export/csv-export.ts';
import { RENDER_EXPORT_COLUMNS, exportColumnLabel } from '../../shared/analysis.ts';

/** A CSV's records as lists of cells (no quoted newlines in these fixtures). */
function csvRows(file: string): string[][] {
  return fs
    .readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')),
    );
}

const E = 'https://spa.example';
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-render-views-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** Three pages: / rendered (its script's title, noindex and canonical), /plain not rendered, /broken whose render failed. */
function buildRenderedCrawl(): { file: string; writer: Db } {
  const file = path.join(dir, `${++n}.trawl`);
  const writer = createCrawlFile(
    file,
    parseSettings({ seeds: [`${E}/`], extraction: [{ name: 'price', type: 'regex', expression: '\\$\\d+' }] }),
  );
  writer.prepare('INSERT INTO hosts (id, origin) VALUES (1, ?)').run(E);
  const addUrl = writer.prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (?, ?, ?, 1, 0, ?, 0)');
  const addResult = writer.prepare(`INSERT INTO results (seq, url_id, status_code, content_type, crawl_depth, title, meta_description,
    h1, h1_count, canonical, meta_robots, word_count, indexability, indexability_reason, fetched_at)
    VALUES (?, ?, 200, 'text/html', 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`);
  const addRender = writer.prepare(`INSERT INTO renders (url_id, title, meta_description, h1, h1_count, canonical, meta_robots, word_count,
    rendered_links, js_redirect, console_errors, page_errors, failed_resources, blocked_resources, render_ms, error, raw_indexability,
    raw_title, raw_meta_description, raw_h1, raw_h1_count, raw_canonical, raw_meta_robots, raw_word_count)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  /** The shell's own fields (raw_title ... raw_word_count): what the raw HTML of / and /broken says. */
  const SHELL = ['Loading…', null, null, 0, null, null, 2] as const;
  const consoleErrors = Array.from({ length: 150 }, (_, i) => (i === 0 ? `<b>${'x'.repeat(MAX_RENDER_TEXT + 10)}</b>` : `error ${i}`));
  writer.transaction(() => {
    for (const [id, p] of [
      [1, '/'],
      [2, '/plain'],
      [3, '/broken'],
    ] as const) {
      addUrl.run(id, `${E}${p}`, urlKey(`${E}${p}`), UrlState.done);
    }
    // The raw HTML is the shell; the results row shows the rendered page (the script's title, noindex and all), the
    // renders row keeps the shell's fields beside the rendered ones. A failed render leaves the results row raw.
    addResult.run(1, 1, 'Home of the SPA', 'Made by script', 'Home of the SPA', 1, `${E}/p/1`, 'noindex', 120, 'non-indexable', 'noindex');
    addResult.run(2, 2, 'Plain', 'A page', 'Plain', 1, `${E}/plain`, null, 300, 'indexable', null);
    addResult.run(3, 3, 'Loading…', null, null, 0, null, null, 2, 'indexable', null);
    addRender.run(
      1,
      'Home of the SPA',
      'Made by script',
      'Home of the SPA',
      1,
      `${E}/p/1`,
      'noindex',
      120,
      6,
      `${E}/next`,
      JSON.stringify(consoleErrors),
      JSON.stringify(['ReferenceError: app is not defined']),
      JSON.stringify([{ url: `${E}/api/missing.json`, reason: '404' }]),
      JSON.stringify([{ url: 'https://tracker.example/t.js', reason: 'blocked by robots.txt' }]),
      812,
      null,
      'indexable',
      ...SHELL,
    );
    addRender.run(3, null, null, null, 0, null, null, 0, 0, null, null, null, null, null, 5000, 'render timeout', null, ...SHELL);
  })();
  return { file, writer };
}

describe('a rendered page in the URL detail', () => {
  it('shows raw and rendered values side by side, the raw indexability where it differs, and the render\u2019s findings bounded', () => {
    const { file, writer } = buildRenderedCrawl();
    writer.close();
    const db = openCrawlFile(file, { readonly: true });
    try {
      const render = urlDetail(db, { url: `${E}/` })!.render!;
      expect(render.fields).toEqual([
        { field: 'title', raw: 'Loading…', rendered: 'Home of the SPA', changed: true },
        { field: 'meta_description', raw: null, rendered: 'Made by script', changed: true },
        { field: 'h1', raw: null, rendered: 'Home of the SPA', changed: true },
        { field: 'h1_count', raw: 0, rendered: 1, changed: true },
        // Neither the raw row nor the render written here has an h2, a language or hreflang.
        { field: 'h2', raw: null, rendered: null, changed: false },
        { field: 'h2_count', raw: null, rendered: null, changed: false },
        { field: 'canonical', raw: null, rendered: `${E}/p/1`, changed: true },
        { field: 'meta_robots', raw: null, rendered: 'noindex', changed: true },
        { field: 'lang', raw: null, rendered: null, changed: false },
        { field: 'hreflang', raw: null, rendered: null, changed: false },
        { field: 'word_count', raw: 2, rendered: 120, changed: true },
        { field: 'indexability', raw: 'indexable', rendered: 'non-indexable: noindex', changed: true },
      ]);
      expect(render).toMatchObject({ rendered_links: 6, js_redirect: `${E}/next`, render_ms: 812, error: null });
      // 150 console errors: the first 100 listed, as text (markup and all), a long one cut.
      expect(render.console_errors.total).toBe(150);
      expect(render.console_errors.items).toHaveLength(MAX_RENDER_ITEMS);
      expect(render.console_errors.items[0]).toBe(`<b>${'x'.repeat(MAX_RENDER_TEXT - 3)}…`);
      expect(render.console_errors.items[99]).toBe('error 99');
      expect(render.page_errors).toEqual({ items: ['ReferenceError: app is not defined'], total: 1 });
      expect(render.failed_resources).toEqual({ items: [{ url: `${E}/api/missing.json`, reason: '404' }], total: 1 });
      expect(render.blocked_resources).toEqual({
        items: [{ url: 'https://tracker.example/t.js', reason: 'blocked by robots.txt' }],
        total: 1,
      });

      // A page the crawl did not render has no render part.
      expect(urlDetail(db, { url: `${E}/plain` })!.render).toBeNull();

      // A failed render: its error and time; the raw fields stand, nothing rendered, indexability the same.
      const broken = urlDetail(db, { url: `${E}/broken` })!.render!;
      expect(broken).toMatchObject({ error: 'render timeout', render_ms: 5000, rendered_links: 0, js_redirect: null });
      expect(broken.fields.find((f) => f.field === 'title')).toEqual({ field: 'title', raw: 'Loading…', rendered: null, changed: false });
      expect(broken.fields.find((f) => f.field === 'word_count')).toEqual({ field: 'word_count', raw: 2, rendered: null, changed: false });
      expect(broken.fields.find((f) => f.field === 'indexability')).toEqual({
        field: 'indexability',
        raw: 'indexable',
        rendered: 'indexable',
        changed: false,
      });
      expect(broken.console_errors).toEqual({ items: [], total: 0 });
    } finally {
      db.close();
    }
  });

  it('reads a version 4 file made before the raw HTML columns as rendering nothing, and upgrades it when opened to crawl', () => {
    const { file, writer } = buildRenderedCrawl();
    downgradeToVersion4(writer);
    writer.exec('DROP INDEX renders_compared');
    for (const c of ['raw_title', 'raw_meta_description', 'raw_h1', 'raw_h1_count', 'raw_h2', 'raw_h2_count', 'raw_canonical'])
      writer.exec(`ALTER TABLE renders DROP COLUMN ${c}`);
    for (const c of ['raw_meta_robots', 'raw_lang', 'raw_hreflang', 'raw_word_count']) writer.exec(`ALTER TABLE renders DROP COLUMN ${c}`);
    writer.close();
    const viewed = openCrawlFile(file, { readonly: true });
    try {
      expect(filterCounts(viewed)['js-rendered']).toBe(0);
      expect(urlDetail(viewed, { url: `${E}/` })!.render).toBeNull();
    } finally {
      viewed.close();
    }
    openCrawlFile(file).close();
    const upgraded = openCrawlFile(file, { readonly: true });
    try {
      expect(filterCounts(upgraded)['js-rendered']).toBe(2);
      // The raw columns are there, empty: what the raw HTML said was not kept by that build.
      expect(urlDetail(upgraded, { url: `${E}/` })!.render!.fields[0]).toMatchObject({
        field: 'title',
        raw: null,
        rendered: 'Home of the SPA',
      });
    } finally {
      upgraded.close();
    }
  });

  it('has no render part on a file older than the renders table, read as stored', () => {
    const { file, writer } = buildRenderedCrawl();
    downgradeToVersion3(writer);
    writer.close();
    const db = openCrawlFile(file, { readonly: true, asStored: true });
    try {
      const detail = urlDetail(db, { url: `${E}/` })!;
      expect(detail.row.title).toBe('Home of the SPA');
      expect(detail.render).toBeNull();
    } finally {
      db.close();
    }
  });
});

describe('the export of a rendered crawl', () => {
  it('has the render columns after the raw ones and before the extraction rules, empty for a page not rendered', async () => {
    const { file, writer } = buildRenderedCrawl();
    writer.close();
    const out = path.join(dir, 'rendered.csv');
    expect(await exportCsv(file, out)).toEqual({ rows: 3 });
    const [header, home, plain, broken] = csvRows(out);
    expect(header).toEqual([...CSV_COLUMNS, ...RENDER_EXPORT_COLUMNS, 'price']);
    const cells = (row: string[]) => Object.fromEntries(header!.map((h, i) => [h, row[i]]));
    expect(cells(home!)).toMatchObject({
      title: 'Home of the SPA',
      meta_description: 'Made by script',
      canonical: `${E}/p/1`,
      meta_robots: 'noindex',
      word_count: '120',
      indexability: 'non-indexable',
      raw_title: 'Loading…',
      raw_meta_description: '',
      raw_h1: '',
      raw_h1_count: '0',
      raw_canonical: '',
      raw_meta_robots: '',
      raw_word_count: '2',
      rendered_links: '6',
      js_redirect: `${E}/next`,
      raw_indexability: 'indexable',
      render_ms: '812',
      render_error: '',
      console_errors: '150',
      page_errors: '1',
      failed_resources: '1',
      blocked_resources: '1',
    });
    for (const c of RENDER_EXPORT_COLUMNS) expect({ c, v: cells(plain!)[c] }).toEqual({ c, v: '' });
    expect(cells(broken!)).toMatchObject({
      render_error: 'render timeout',
      render_ms: '5000',
      title: 'Loading…',
      raw_title: 'Loading…',
      console_errors: '0',
    });
    // Labelled for people in the column choosers.
    expect(RENDER_EXPORT_COLUMNS.map(exportColumnLabel)).toContain('Links only in rendered HTML');
    expect(RENDER_EXPORT_COLUMNS.every((c) => exportColumnLabel(c) !== c)).toBe(true);

    // Chosen columns, in XLSX: typed numbers.
    const xlsx = path.join(dir, 'rendered.xlsx');
    await exportCsv(file, xlsx, { format: 'xlsx', columns: ['url', 'title', 'raw_title', 'render_ms', 'render_error'] });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(xlsx);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'url', 'title', 'raw_title', 'render_ms', 'render_error']);
    expect(sheet.getRow(2).values).toEqual([undefined, `${E}/`, 'Home of the SPA', 'Loading…', 812]);
  });

  it('has no render columns when the crawl rendered nothing, and refuses them by name', async () => {
    const { file, writer } = buildRenderedCrawl();
    writer.exec('DELETE FROM renders');
    writer.close();
    const out = path.join(dir, 'plain.csv');
    await exportCsv(file, out);
    expect(csvRows(out)[0]).toEqual([...CSV_COLUMNS, 'price']);
    await expect(exportCsv(file, path.join(dir, 'x.csv'), { columns: ['url', 'raw_title'] })).rejects.toThrow(/unknown column "raw_title"/);
  });
});
