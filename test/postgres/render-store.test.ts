// A rendering crawl kept in the PostgreSQL store keeps what the crawl file keeps of its renders: the client-rendered
// loopback site (test/helpers/spa-site.ts, with scripts that log errors, throw, load a blocked and a missing resource
// and redirect) crawled with --render through the CLI twice, into a crawl file and into the store; the store must hold
// the same renders rows (script-made titles, script errors, failed and blocked resources, the JavaScript redirect,
// the raw indexability where it differs), the same links marked as only in the rendered DOM, and export the same render
// columns with the same values. A crawl whose tables predate renders gets them when a node joins it.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CSV_COLUMNS, exportCsv } from '../../electron/engine/export/csv-export.ts';
import type { CsvHeaderPreset } from '../../electron/engine/export/csv-writer.ts';
import { exportCsvFromStore } from '../../electron/engine/export/pg-csv-export.ts';
import { createPgCrawl, joinPgCrawl } from '../../electron/engine/frontier/postgres/pg-crawl.ts';
import { RENDER_EXPORT_COLUMNS } from '../../shared/analysis.ts';
import { parseSettings } from '../../shared/settings.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';
import { testChromium } from '../helpers/render-fixtures.ts';
import { serveSpaSite, type SpaSite } from '../helpers/spa-site.ts';

const withPg = await pgSuite();
const chromium = testChromium();
if (!chromium.path) console.warn(`render store tests skipped: ${chromium.why}`);

type Row = Record<string, unknown>;

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

// The renders rows and the link graph by URL (ids differ between the stores), in one order.
const RENDERS_SQL = (s: string) =>
  `SELECT u.url, r.title, r.meta_description, r.h1, r.h1_count, r.h2, r.h2_count, r.canonical, r.meta_robots, r.lang, r.hreflang,
          r.word_count, r.rendered_links, r.js_redirect, r.console_errors, r.page_errors, r.failed_resources, r.blocked_resources,
          r.render_ms, r.error, r.raw_indexability, r.raw_title, r.raw_meta_description, r.raw_h1, r.raw_h1_count, r.raw_h2,
          r.raw_h2_count, r.raw_canonical, r.raw_meta_robots, r.raw_lang, r.raw_hreflang, r.raw_word_count
   FROM ${s}renders r JOIN ${s}urls u ON u.id = r.url_id ORDER BY u.url`;
const LINKS_SQL = (s: string) =>
  `SELECT f.url AS "from", t.url AS "to", l.kind, l.anchor, l.nofollow, l.rendered
   FROM ${s}links l JOIN ${s}urls f ON f.id = l.from_id JOIN ${s}urls t ON t.id = l.to_id ORDER BY 1, 2`;

/** Render times differ from crawl to crawl: each must be there, then is left out of the comparison. */
function withoutTimes(rows: Row[]): Row[] {
  return rows.map(({ render_ms, ...rest }) => {
    expect(render_ms, String(rest.url)).toBeGreaterThan(0);
    return rest;
  });
}

/** An export's header and its rows without the timings, sorted (the two crawls fetched in different orders). */
function readCsv(file: string): { header: string[]; rows: string[][] } {
  const [header, ...rows] = parse(fs.readFileSync(file, 'utf8'), { bom: true }) as string[][];
  const timings = new Set(['response_time_ms', 'Response Time', 'render_ms'].map((c) => header!.indexOf(c)));
  const kept = rows.map((r) => r.filter((_, i) => !timings.has(i)));
  return { header: header!, rows: kept.sort((a, b) => (a.join('\u0001') < b.join('\u0001') ? -1 : 1)) };
}

withPg.describe('a rendering crawl in the PostgreSQL store', () => {
  let db: FreshDatabase;
  let site: SpaSite;
  let dir: string;
  let file: string;
  let crawlId: string;
  beforeAll(async () => {
    db = await freshDatabase('render_store');
    dir = tempDir('trawl-render-store-');
    if (!chromium.path) return;
    site = await serveSpaSite(5, { faulty: true });
    file = path.join(dir, 'spa.trawl');
    const args = [`${site.origin}/`, '--render', '--chromium', chromium.path, '--render-block', 'track\\.js', '--quiet'];
    const [toFile, toStore] = [await runCli([...args, '--db', file]), await runCli(['--store', db.url, ...args])];
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toStore.code, toStore.stderr).toBe(0);
    crawlId = /Crawl (c[a-z0-9_]+) in /.exec(toStore.stderr)![1]!;
  }, 180_000);
  afterAll(async () => {
    await site?.close();
    await db?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!chromium.path)('keeps the same render findings and rendered-only links as a crawl file', async () => {
    const sqlite = new Database(file, { readonly: true });
    let fileRenders: Row[];
    let fileLinks: Row[];
    try {
      fileRenders = sqlite.prepare(RENDERS_SQL('')).all() as Row[];
      fileLinks = sqlite.prepare(LINKS_SQL('')).all() as Row[];
    } finally {
      sqlite.close();
    }
    const s = `trawl_${crawlId}.`;
    const storeRenders = await query(db.url, RENDERS_SQL(s));
    const storeLinks = await query(db.url, LINKS_SQL(s));

    // What the renders found, in the crawl file (the store must say the same, below).
    const at = (p: string) => fileRenders.find((r) => r.url === `${site.origin}${p}`)!;
    expect(fileRenders.map((r) => r.url)).toEqual(site.pages.map((p) => `${site.origin}${p}`).sort());
    expect(at('/')).toMatchObject({ title: 'Home of the SPA', raw_title: 'Loading…' });
    expect(at('/p/2')).toMatchObject({ title: 'SPA page 2', h1: 'SPA page 2', error: null });
    expect(at('/p/3')).toMatchObject({ meta_robots: 'noindex', canonical: `${site.origin}/p/1`, raw_indexability: 'indexable' });
    expect(JSON.parse(at('/p/2').console_errors as string)).toEqual([expect.stringContaining('no consent banner on /p/2')]);
    expect(JSON.parse(at('/p/4').page_errors as string)).toEqual([expect.stringContaining('SPA page 4 broke')]);
    expect(at('/p/2').page_errors).toBeNull();
    expect(JSON.parse(at('/p/2').blocked_resources as string)).toEqual([expect.objectContaining({ url: `${site.origin}/track.js` })]);
    expect(JSON.parse(at('/p/2').failed_resources as string)).toEqual([
      expect.objectContaining({ url: `${site.origin}/api/missing.json`, reason: 'HTTP 404' }),
    ]);
    expect(at('/moved').js_redirect).toBe(`${site.origin}/landing`);
    expect(fileLinks).toContainEqual(
      expect.objectContaining({ from: `${site.origin}/moved`, to: `${site.origin}/landing`, kind: 'javascript', rendered: 1 }),
    );
    expect(fileLinks.filter((l) => l.rendered === 1).length).toBeGreaterThan(30);

    // The store: the same rows, field for field.
    expect(withoutTimes(storeRenders)).toEqual(withoutTimes(fileRenders));
    expect(storeLinks).toEqual(fileLinks);
  });

  it.skipIf(!chromium.path)('exports the same render columns with the same values as the crawl file', async () => {
    for (const preset of ['trawl', 'screaming-frog'] as CsvHeaderPreset[]) {
      const fromFile = path.join(dir, `file-${preset}.csv`);
      const fromStore = path.join(dir, `store-${preset}.csv`);
      await exportCsv(file, fromFile, { headerPreset: preset });
      await exportCsvFromStore(db.url, crawlId, fromStore, { headerPreset: preset });
      const a = readCsv(fromFile);
      const b = readCsv(fromStore);
      expect(b.header).toEqual(a.header);
      expect(b.rows).toEqual(a.rows);
      if (preset === 'trawl') {
        expect(b.header).toEqual([...CSV_COLUMNS, ...RENDER_EXPORT_COLUMNS]);
        const cell = (url: string, column: string) => {
          const row = b.rows.find((r) => r[0] === `${site.origin}${url}`)!;
          return row[b.header.filter((c) => !['response_time_ms', 'render_ms'].includes(c)).indexOf(column)];
        };
        // The page as rendered in its own columns, the shell's title beside it.
        expect(cell('/p/2', 'title')).toBe('SPA page 2');
        expect(cell('/p/2', 'raw_title')).toBe('Loading…');
        expect(cell('/p/3', 'raw_indexability')).toBe('indexable');
        expect(cell('/p/4', 'page_errors')).toBe('1');
        expect(cell('/p/2', 'console_errors')).toBe('1');
        expect(cell('/p/2', 'blocked_resources')).toBe('1');
        expect(cell('/p/2', 'failed_resources')).toBe('1');
        expect(cell('/moved', 'js_redirect')).toBe(`${site.origin}/landing`);
      } else {
        // Screaming Frog's names for the page's own columns (rendered values), Trawl's for the raw HTML's.
        expect(b.header).toEqual(expect.arrayContaining(['Title 1', 'raw_title', 'raw_h2']));
      }
    }
  });

  it('adds the render tables to a crawl made before the store kept renders when a node joins it', async () => {
    const first = await createPgCrawl(db.url, parseSettings({ seeds: ['http://older.test/'], render: true }), { name: 'old-a' });
    await first.store.close();
    const s = `trawl_${first.crawlId}`;
    // As an older Trawl made it: no renders table, links without rendered.
    await query(db.url, `DROP TABLE ${s}.renders; ALTER TABLE ${s}.links DROP COLUMN rendered`);
    await query(db.url, `UPDATE trawl.crawls SET state = 'stopped' WHERE id = $1`, [first.crawlId]);
    const columns = () =>
      query<{ name: string }>(
        db.url,
        `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
         WHERE table_schema = $1 AND (table_name = 'renders' OR column_name = 'rendered') ORDER BY 1`,
        [s],
      ).then((rows) => rows.map((r) => r.name));
    expect(await columns()).toEqual([]);
    // Its export reads it as it is: no render columns.
    const before = path.join(dir, 'older.csv');
    await exportCsvFromStore(db.url, first.crawlId, before);
    expect(readCsv(before).header).toEqual(CSV_COLUMNS);

    const node = await joinPgCrawl(db.url, first.crawlId, { name: 'old-b' });
    await node.store.close();
    expect(await columns()).toEqual(
      expect.arrayContaining([
        'links.rendered',
        'renders.url_id',
        'renders.blocked_resources',
        'renders.raw_title',
        'renders.raw_word_count',
      ]),
    );
    // A renders table of a build before the raw HTML's fields were kept gets them too.
    await query(db.url, `ALTER TABLE ${s}.renders DROP COLUMN raw_title, DROP COLUMN raw_word_count`);
    const older = await joinPgCrawl(db.url, first.crawlId, { name: 'old-d' });
    await older.store.close();
    expect(await columns()).toEqual(expect.arrayContaining(['renders.raw_title', 'renders.raw_word_count']));
    // Joining again finds them there.
    const again = await joinPgCrawl(db.url, first.crawlId, { name: 'old-c' });
    await again.store.close();
  });
});
