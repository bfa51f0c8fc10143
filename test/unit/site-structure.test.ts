// The site-structure tree over a crawl file whose rows are written directly, so every folder's numbers are known:
// URLs own and below, indexable and non-indexable, status classes, least and mean crawl depth; the "N more
// folders" row under a small limit; a file read while more rows are written (the tree grows by the new rows
// alone, exactly); the CSV; and the explorer's prefix filter listing exactly a folder's URLs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { UrlState } from '../../electron/engine/frontier/model.ts';
import { openCrawlForAnalysis } from '../../electron/engine/analysis/index.ts';
import { exportStructureCsv, siteStructure } from '../../electron/engine/analysis/site-structure.ts';
import { queryFiltered } from '../../electron/engine/analysis/result-filters.ts';
import { urlKey } from '../../shared/url/url-key.ts';
import { parseSettings } from '../../shared/settings.ts';
import type { StructureFolder } from '../../shared/structure.ts';

const E = 'https://example.com';
const O = 'https://other.org';

/** [url, status, indexability, depth], or with a 5th field: an out-of-scope link checked for its status. */
type Row = [string, number | null, string | null, number, 'external'?];
const ROWS: Row[] = [
  [`${E}/`, 200, 'indexable', 0],
  [`${E}/about`, 200, 'indexable', 1],
  [`${E}/search?q=/docs/x`, 200, 'non-indexable', 1],
  [`${E}/docs/`, 200, 'indexable', 1],
  [`${E}/docs/intro`, 301, 'non-indexable', 2],
  [`${E}/docs/api/`, 200, 'indexable', 2],
  [`${E}/docs/api/a.html`, 404, 'non-indexable', 3],
  [`${E}/docs/api/b.html`, 500, 'non-indexable', 4],
  [`${E}/docs/api/c.png`, 200, null, 3],
  [`${E}/docs/guide/one`, null, 'non-indexable', 3],
  [`${E}/blog/2024/post`, 200, 'indexable', 2],
  [`${E}/blog/2025/post`, 200, 'indexable', 2],
  [`${E}/news/x`, 200, 'indexable', 2],
  [`${O}/page`, 200, null, 1, 'external'],
  [`https://cdn.example.com/img/logo.png`, 200, null, 1],
];

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-structure-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
function writer(): { file: string; db: Db; add: (rows: Row[]) => void } {
  const file = path.join(dir, `${++n}.trawl`);
  const db = createCrawlFile(file, parseSettings({ seeds: [`${E}/`] }));
  db.prepare('INSERT INTO hosts (id, origin) VALUES (1, ?)').run(E);
  const addUrl = db.prepare(
    'INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at, kind, check_only) VALUES (?, ?, ?, 1, ?, ?, 0, ?, ?)',
  );
  const addResult = db.prepare('INSERT INTO results (url_id, status_code, crawl_depth, indexability, fetched_at) VALUES (?, ?, ?, ?, 0)');
  let id = 0;
  const add = (rows: Row[]) =>
    db.transaction(() => {
      for (const [url, status, indexability, depth, external] of rows) {
        id++;
        addUrl.run(id, url, urlKey(url), depth, external ? UrlState.outOfScope : UrlState.done, 'page', external ? 1 : 0);
        addResult.run(id, status, depth, indexability);
      }
    })();
  return { file, db, add };
}

const byPath = (folders: readonly StructureFolder[]) => new Map(folders.map((f) => [f.path, f]));

describe('site structure', () => {
  it('counts each folder exactly: URLs own and below, indexability, status classes, depth', () => {
    const w = writer();
    w.add(ROWS);
    const db = openCrawlForAnalysis(w.file);
    const s = siteStructure(db, { paths: [`${E}/`, `${E}/docs/`, `${E}/docs/api/`, `${E}/nowhere/`], limit: 50 });
    // The out-of-scope link is left out; the other host's image is its own host.
    expect(s.total.urls).toBe(14);
    expect(s.hosts.children.map((h) => [h.name, h.urls])).toEqual([
      [E, 13],
      ['https://cdn.example.com', 1],
    ]);
    const host = s.hosts.children[0]!;
    expect(host).toMatchObject({ path: `${E}/`, level: 0, own: 3, indexable: 7, nonIndexable: 5, folders: 3, minDepth: 0 });
    expect(host.status).toEqual({ '2xx': 9, '3xx': 1, '4xx': 1, '5xx': 1, none: 1 });
    expect(host.avgDepth).toBe(2);
    // Levels come in the order asked; an unknown folder is left out.
    expect(s.levels.map((l) => l.path)).toEqual([`${E}/`, `${E}/docs/`, `${E}/docs/api/`]);
    const top = s.levels[0]!;
    expect(top.children.map((c) => [c.name, c.urls])).toEqual([
      ['docs/', 7],
      ['blog/', 2],
      ['news/', 1],
    ]);
    expect(top.more).toBeNull();
    const docs = byPath(top.children).get(`${E}/docs/`)!;
    expect(docs).toMatchObject({ level: 1, own: 2, indexable: 2, nonIndexable: 4, folders: 2, minDepth: 1 });
    expect(docs.status).toEqual({ '2xx': 3, '3xx': 1, '4xx': 1, '5xx': 1, none: 1 });
    expect(docs.avgDepth).toBeCloseTo(18 / 7, 10);
    const api = byPath(s.levels[1]!.children).get(`${E}/docs/api/`)!;
    expect(api).toMatchObject({ name: 'api/', level: 2, urls: 4, own: 4, indexable: 1, nonIndexable: 2, folders: 0, minDepth: 2 });
    expect(api.status).toEqual({ '2xx': 2, '3xx': 0, '4xx': 1, '5xx': 1, none: 0 });
    expect(api.avgDepth).toBe(3);
    expect(s.levels[2]!.children).toEqual([]);
    const blog = byPath(top.children).get(`${E}/blog/`)!;
    expect(blog).toMatchObject({ own: 0, folders: 2 });
    db.close();
    w.db.close();
  });

  it('folds a row its packed walk cannot hold (a depth outside its bound) by reading the rows whole, with the same sums', () => {
    // The first fold reads each row's depth, seq and status class as one number, exact below 2^53; a depth outside
    // the bound (here below 0) makes it read them as rows instead.
    const w = writer();
    w.add(ROWS.map((r): Row => (r[0] === `${E}/news/x` ? [r[0], r[1], r[2], -1] : r)));
    const db = openCrawlForAnalysis(w.file);
    const host = siteStructure(db, { paths: [], limit: 50 }).hosts.children[0]!;
    expect(host).toMatchObject({ urls: 13, own: 3, indexable: 7, nonIndexable: 5, minDepth: -1 });
    expect(host.status).toEqual({ '2xx': 9, '3xx': 1, '4xx': 1, '5xx': 1, none: 1 });
    expect(host.avgDepth).toBeCloseTo(23 / 13, 10);
    db.close();
    w.db.close();
  });

  it('lists the largest children up to the limit and sums the rest as "N more folders"', () => {
    const w = writer();
    w.add(ROWS);
    const db = openCrawlForAnalysis(w.file);
    const s = siteStructure(db, { paths: [`${E}/`], limit: 1 });
    expect(s.levels[0]!.children.map((c) => c.name)).toEqual(['docs/']);
    expect(s.levels[0]!.more).toEqual({
      folders: 2,
      urls: 3,
      own: 1,
      indexable: 3,
      nonIndexable: 0,
      status: { '2xx': 3, '3xx': 0, '4xx': 0, '5xx': 0, none: 0 },
      minDepth: 2,
      avgDepth: 2,
    });
    expect(s.hosts.children).toHaveLength(1);
    expect(s.hosts.more).toMatchObject({ folders: 1, urls: 1 });
    db.close();
    w.db.close();
  });

  it("follows a crawl file while rows are written: the tree is that moment's, then grows by the new rows exactly", () => {
    const w = writer();
    w.add(ROWS.slice(0, 6));
    const db = openCrawlForAnalysis(w.file);
    const first = siteStructure(db, { paths: [`${E}/docs/`], limit: 50 });
    expect(first.total.urls).toBe(6);
    expect(first.levels[0]!.children.map((c) => [c.name, c.urls])).toEqual([['api/', 1]]);
    w.add(ROWS.slice(6));
    const second = siteStructure(db, { paths: [`${E}/docs/`], limit: 50 });
    // The same answer as a fresh connection reading the whole file.
    const fresh = openCrawlForAnalysis(w.file);
    expect(second).toEqual(siteStructure(fresh, { paths: [`${E}/docs/`], limit: 50 }));
    expect(second.total.urls).toBe(14);
    expect(second.levels[0]!.children.map((c) => [c.name, c.urls])).toEqual([
      ['api/', 4],
      ['guide/', 1],
    ]);
    fresh.close();
    db.close();
    w.db.close();
  });

  it("lists exactly a folder's URLs in the explorer through the prefix filter", () => {
    const w = writer();
    w.add(ROWS);
    const db = openCrawlForAnalysis(w.file);
    const s = siteStructure(db, { paths: [`${E}/`], limit: 50 });
    for (const f of s.levels[0]!.children) {
      const page = queryFiltered(db, { filter: 'all', prefix: f.path, sort: 'url', descending: false, offset: 0, limit: 100 });
      expect(page.total).toBe(f.urls);
      expect(page.rows.every((r) => r.url.startsWith(f.path))).toBe(true);
    }
    // Exact, not LIKE: "_" and "%" are themselves, and case counts.
    expect(queryFiltered(db, { filter: 'all', prefix: `${E}/DOCS/`, sort: 'seq', descending: false, offset: 0, limit: 10 }).total).toBe(0);
    expect(queryFiltered(db, { filter: 'all', prefix: `${E}/d%`, sort: 'seq', descending: false, offset: 0, limit: 10 }).total).toBe(0);
    // With a filter and a text too.
    const docs404 = queryFiltered(db, {
      filter: 'status-4xx',
      text: 'api',
      prefix: `${E}/docs/`,
      sort: 'seq',
      descending: false,
      offset: 0,
      limit: 10,
    });
    expect(docs404.rows.map((r) => r.url)).toEqual([`${E}/docs/api/a.html`]);
    db.close();
    w.db.close();
  });

  it('writes the whole tree as CSV, each folder before those below it', async () => {
    const w = writer();
    w.add([...ROWS, [`${E}/=cmd|x/`, 200, 'indexable', 1]]);
    const db = openCrawlForAnalysis(w.file);
    const file = path.join(dir, 'structure.csv');
    const { rows } = await exportStructureCsv(db, file);
    const lines = fs
      .readFileSync(file, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'folder,level,urls,own_urls,indexable,non_indexable,status_2xx,status_3xx,status_4xx,status_5xx,status_none,min_depth,avg_depth',
    );
    expect(rows).toBe(lines.length - 1);
    expect(lines.slice(1, 5)).toEqual([
      `${E}/,0,14,3,8,5,10,1,1,1,1,0,1.93`,
      `${E}/docs/,1,7,2,2,4,3,1,1,1,1,1,2.57`,
      `${E}/docs/api/,2,4,4,1,2,2,0,1,1,0,2,3`,
      `${E}/docs/guide/,2,1,1,0,1,0,0,0,0,1,3,3`,
    ]);
    expect(lines.map((l) => l.split(',')[0])).toContain(`${E}/=cmd|x/`);
    expect(lines.at(-1)).toBe('https://cdn.example.com/img/,1,1,1,0,0,1,0,0,0,0,1,1');
    db.close();
    w.db.close();
  });
});
