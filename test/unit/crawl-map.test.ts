// The crawl map's tree over a crawl file whose rows are written directly: a seed, a hub page with 60 children, a
// chain eight levels deep, a page found by an out-of-scope URL (hung from the root), and the URLs the map leaves out
// (an out-of-scope link, an image checked). Drawn whole, each URL is its own node under the page that found it; at a
// small node limit the hub's children are folded into a "+N more" group and the deep chain collapsed, every URL still
// counted once and what was folded answered. Also: the radial layout's rings, Link Score per node and per group,
// the per-depth spreads of inlinks and Link Score, and the CSV.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { UrlState } from '../../electron/engine/frontier/model.ts';
import { CrawlMapMemo, crawlMap } from '../../electron/engine/analysis/crawl-map.ts';
import type { LinkScores } from '../../electron/engine/analysis/link-score.ts';
import { urlKey } from '../../shared/url/url-key.ts';
import { parseSettings } from '../../shared/settings.ts';
import { CRAWL_MAP_CSV_HEADER, crawlMapCsv, depthSpreadCsv, type CrawlMap } from '../../shared/crawl-map.ts';

const E = 'https://example.com';
let dir: string;
let db: Db;
/** url -> id */
const ids = new Map<string, number>();

/** [url, via url or null, depth, status, indexability, state, check_only] */
type Row = [string, string | null, number, number | null, string | null, number?, number?];
const ROWS: Row[] = [
  [`${E}/`, null, 0, 200, 'indexable'],
  [`${E}/hub`, `${E}/`, 1, 200, 'indexable'],
  [`${E}/deep/1`, `${E}/`, 1, 200, 'indexable'],
  ...Array.from(
    { length: 60 },
    (_, k): Row => [`${E}/hub/p${k}`, `${E}/hub`, 2, k % 10 === 0 ? 404 : 200, k % 10 === 0 ? 'non-indexable' : 'indexable'],
  ),
  ...Array.from({ length: 7 }, (_, k): Row => [`${E}/deep/${k + 2}`, `${E}/deep/${k + 1}`, k + 2, 200, 'indexable']),
  ['https://other.org/x', `${E}/`, 1, 200, null, UrlState.outOfScope, 1],
  [`${E}/logo.png`, `${E}/`, 1, 200, null, UrlState.done, 1],
  [`${E}/orphan`, 'https://other.org/x', 1, 200, 'indexable'],
];
const TOTAL = 71;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-crawl-map-'));
  db = createCrawlFile(path.join(dir, 'map.trawl'), parseSettings({ seeds: [`${E}/`] }));
  db.prepare('INSERT INTO hosts (id, origin) VALUES (1, ?)').run(E);
  const addUrl = db.prepare(
    'INSERT INTO urls (id, url, url_key, host_id, depth, state, via_id, discovered_at, kind, check_only) VALUES (?, ?, ?, 1, ?, ?, ?, 0, ?, ?)',
  );
  const addResult = db.prepare('INSERT INTO results (url_id, status_code, crawl_depth, indexability, fetched_at) VALUES (?, ?, ?, ?, 0)');
  const addLink = db.prepare('INSERT INTO links (from_id, to_id) VALUES (?, ?)');
  db.transaction(() => {
    ROWS.forEach(([url, via, depth, status, ix, state, checkOnly], i) => {
      ids.set(url, i + 1);
      addUrl.run(
        i + 1,
        url,
        urlKey(url),
        depth,
        state ?? UrlState.done,
        via === null ? null : ids.get(via)!,
        checkOnly ? 'image' : 'page',
        checkOnly ?? 0,
      );
      addResult.run(i + 1, status, depth, ix);
      if (via !== null) addLink.run(ids.get(via)!, i + 1);
    });
    // Every hub child links back home: "/" has 60 inlinks.
    for (let k = 0; k < 60; k++) addLink.run(ids.get(`${E}/hub/p${k}`)!, 1);
  })();
});
afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const nodeOf = (map: CrawlMap, url: string) => map.nodes.url.findIndex((u, i) => u === url && map.nodes.kind[i] === 'url');
const urlSum = (map: CrawlMap) => map.nodes.urls.reduce((n, u, i) => n + (map.nodes.kind[i] === 'root' ? 0 : u), 0);

describe('crawl map', () => {
  it('draws every URL under the page that found it when the limit allows, with nothing folded', () => {
    const map = crawlMap(db, { maxNodes: 1000 });
    const n = map.nodes;
    expect(map.total).toBe(TOTAL);
    expect(n.kind.length).toBe(TOTAL + 1);
    expect(n.kind[0]).toBe('root');
    expect(n.kind.filter((k) => k === 'group')).toEqual([]);
    expect(map.folded).toEqual({ urls: 0, groups: 0, groupedUrls: 0, collapsed: 0, collapsedUrls: 0, fullDepth: 8 });
    expect(map.maxDepth).toBe(8);
    // The out-of-scope link and the image are not in the map; a page found by the out-of-scope URL hangs from the
    // page that found that one (the map's nearest finder).
    expect(n.url).not.toContain('https://other.org/x');
    expect(n.url).not.toContain(`${E}/logo.png`);
    expect(n.url[n.parent[nodeOf(map, `${E}/orphan`)]!]).toBe(`${E}/`);
    expect(n.parent[nodeOf(map, `${E}/`)]).toBe(0);
    // Each URL's parent is its via page.
    for (const [url, via] of ROWS) {
      const i = nodeOf(map, url);
      if (i < 0 || via === null || url === `${E}/orphan`) continue;
      expect(n.url[n.parent[i]!]).toBe(via);
    }
    expect(n.depth[nodeOf(map, `${E}/deep/8`)]).toBe(8);
    expect(n.status[nodeOf(map, `${E}/hub/p10`)]).toBe(404);
    expect(n.indexability[nodeOf(map, `${E}/hub/p10`)]).toBe('non-indexable');
    // Every URL once; the root stands for all of them.
    expect(urlSum(map)).toBe(TOTAL);
    expect(n.urls[0]).toBe(TOTAL);
    expect(n.indexable[0]).toBe(TOTAL - 6);
    // The radial layout: each node on the ring of its tree level (the root at the centre, seeds on ring 1).
    const level = (i: number): number => (i === 0 ? 0 : 1 + level(n.parent[i]!));
    for (let i = 0; i < n.kind.length; i++) expect(Math.hypot(n.x[i]!, n.y[i]!)).toBeCloseTo(level(i), 3);
  });

  it('folds the hub into a group and collapses the deep chain at a small limit, saying what it folded', () => {
    const map = crawlMap(db, { maxNodes: 20 });
    const n = map.nodes;
    expect(n.kind.length).toBeLessThanOrEqual(20);
    // The hub shows its 10 largest children and one group of the other 50.
    const hub = nodeOf(map, `${E}/hub`);
    const groups = n.kind.flatMap((k, i) => (k === 'group' ? [i] : []));
    expect(groups.length).toBe(1);
    const g = groups[0]!;
    expect(n.parent[g]).toBe(hub);
    expect(n.urls[g]).toBe(50);
    expect(n.parent.filter((p, i) => p === hub && n.kind[i] === 'url').length).toBe(10);
    // The chain is drawn down to /deep/5, which stands for itself and the three below it.
    const d5 = nodeOf(map, `${E}/deep/5`);
    expect(d5).toBeGreaterThan(0);
    expect(nodeOf(map, `${E}/deep/6`)).toBe(-1);
    expect(n.urls[d5]).toBe(4);
    expect(map.folded).toEqual({ urls: 53, groups: 1, groupedUrls: 50, collapsed: 1, collapsedUrls: 3, fullDepth: 1 });
    // Still every URL counted exactly once.
    expect(urlSum(map)).toBe(TOTAL);
    expect(n.kind.filter((k) => k === 'url').length + map.folded.urls).toBe(TOTAL);
  });

  it('sizes by Link Score (a group by its best URL) and spreads inlinks and Link Score per depth', () => {
    const urlIds = Int32Array.from(ids.values());
    const scoreOf = (id: number) => (id === 1 ? 100 : id % 7);
    const scores: LinkScores = {
      urlIds,
      scores: Float64Array.from(urlIds, scoreOf),
      ranks: new Float64Array(urlIds.length),
      uniqueInlinks: new Int32Array(urlIds.length),
      iterations: 1,
      converged: true,
      stamp: '0',
      ms: 0,
    };
    const map = crawlMap(db, { maxNodes: 20 }, scores);
    expect(map.scored).toBe(true);
    expect(map.nodes.linkScore[nodeOf(map, `${E}/`)]).toBe(100);
    const g = map.nodes.kind.indexOf('group');
    expect(map.nodes.linkScore[g]).toBe(6);
    const d0 = map.depths.find((d) => d.depth === 0)!;
    expect(d0).toMatchObject({ urls: 1, inlinks: { min: 60, median: 60, max: 60, mean: 60 }, linkScore: { max: 100 } });
    const d2 = map.depths.find((d) => d.depth === 2)!;
    // The hub's 60 children and /deep/2, one inlink each.
    expect(d2).toMatchObject({ urls: 61, inlinks: { min: 1, p25: 1, median: 1, p75: 1, max: 1, mean: 1 } });
    expect(map.depths.map((d) => d.depth)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    // Without scores, no node has one.
    expect(crawlMap(db, { maxNodes: 20 }).nodes.linkScore.every((s) => s === null)).toBe(true);
  });

  it('writes its nodes and depth spreads as CSV', () => {
    const map = crawlMap(db, { maxNodes: 20 });
    const lines = crawlMapCsv(map)
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(CRAWL_MAP_CSV_HEADER.join(','));
    expect(lines.length).toBe(map.nodes.kind.length + 1);
    const group = lines.find((l) => l.split(',')[1] === 'group')!.split(',');
    expect(group[4]).toBe(`${E}/hub`);
    expect(group[9]).toBe('50');
    const depth = depthSpreadCsv(map.depths).trimEnd().split('\r\n');
    expect(depth.length).toBe(10);
    expect(depth[1]!.split(',').slice(0, 8)).toEqual(['0', '1', '60', '60', '60', '60', '60', '60']);
  });

  it('reads results rows whole where its packed walk cannot hold them (a status past 999), with the same map', () => {
    // The results walk reads each row's fields as one number, for statuses of three digits; one past them makes it
    // read the rows whole instead, every row's fields still its own.
    const other = createCrawlFile(path.join(dir, 'odd-status.trawl'), parseSettings({ seeds: [`${E}/`] }));
    try {
      other.prepare('INSERT INTO hosts (id, origin) VALUES (1, ?)').run(E);
      const addUrl = other.prepare(
        "INSERT INTO urls (id, url, url_key, host_id, depth, state, via_id, discovered_at, kind, check_only) VALUES (?, ?, ?, 1, ?, ?, ?, 0, 'page', 0)",
      );
      const addResult = other.prepare(
        'INSERT INTO results (url_id, status_code, crawl_depth, indexability, fetched_at) VALUES (?, ?, ?, ?, 0)',
      );
      const pages: [string, number | null, number, number | null, string | null][] = [
        [`${E}/`, null, 0, 200, 'indexable'],
        [`${E}/a`, 1, 1, 1234, 'non-indexable'],
        [`${E}/a/b`, 2, 2, null, null],
      ];
      pages.forEach(([url, via, depth, status, ix], i) => {
        addUrl.run(i + 1, url, urlKey(url), depth, UrlState.done, via);
        addResult.run(i + 1, status, depth, ix);
      });
      const map = crawlMap(other, { maxNodes: 100 });
      const n = map.nodes;
      expect(map.total).toBe(3);
      expect(
        [`${E}/`, `${E}/a`, `${E}/a/b`].map((u) => [n.status[nodeOf(map, u)], n.depth[nodeOf(map, u)], n.indexability[nodeOf(map, u)]]),
      ).toEqual([
        [200, 0, 'indexable'],
        [1234, 1, 'non-indexable'],
        [null, 2, 'other'],
      ]);
      expect(n.url[n.parent[nodeOf(map, `${E}/a/b`)]!]).toBe(`${E}/a`);
    } finally {
      other.close();
    }
  });

  it('refuses a limit out of range', () => {
    expect(() => crawlMap(db, { maxNodes: 5 })).toThrow(RangeError);
  });

  // Last: it adds to the crawl.
  it('gives its last map again while the crawl is unchanged, and a new one after a new page or URL, new scores or another limit', () => {
    const memo = new CrawlMapMemo();
    const first = crawlMap(db, { maxNodes: 1000 }, null, memo);
    expect(crawlMap(db, { maxNodes: 1000 }, null, memo)).toBe(first);
    // Another limit, other scores: built again (and kept in turn).
    const small = crawlMap(db, { maxNodes: 20 }, null, memo);
    expect(small).not.toBe(first);
    expect(small.nodes.kind.length).toBeLessThan(first.nodes.kind.length);
    const urlIds = Int32Array.from(ids.values());
    const scores: LinkScores = {
      urlIds,
      scores: Float64Array.from(urlIds, (id) => id % 5),
      ranks: new Float64Array(urlIds.length),
      uniqueInlinks: new Int32Array(urlIds.length),
      iterations: 1,
      converged: true,
      stamp: '1',
      ms: 0,
    };
    const scored = crawlMap(db, { maxNodes: 20 }, scores, memo);
    expect(scored).not.toBe(small);
    expect(scored.scored).toBe(true);
    expect(crawlMap(db, { maxNodes: 20 }, scores, memo)).toBe(scored);
    // A URL found (no result yet): the same pages, but the map is read again.
    const id = ROWS.length + 1;
    db.prepare(
      "INSERT INTO urls (id, url, url_key, host_id, depth, state, via_id, discovered_at, kind, check_only) VALUES (?, ?, ?, 1, 2, ?, ?, 0, 'page', 0)",
    ).run(id, `${E}/hub/new`, urlKey(`${E}/hub/new`), UrlState.queued, ids.get(`${E}/hub`)!);
    const found = crawlMap(db, { maxNodes: 1000 }, null, memo);
    expect(found).not.toBe(first);
    expect(found.total).toBe(TOTAL);
    // Its page fetched: a new results row, a new map with it.
    db.prepare('INSERT INTO results (url_id, status_code, crawl_depth, indexability, fetched_at) VALUES (?, 200, 2, ?, 0)').run(
      id,
      'indexable',
    );
    db.prepare('UPDATE urls SET state = ? WHERE id = ?').run(UrlState.done, id);
    const fetched = crawlMap(db, { maxNodes: 1000 }, null, memo);
    expect(fetched.total).toBe(TOTAL + 1);
    expect(fetched.lastSeq).toBeGreaterThan(found.lastSeq);
    expect(fetched.nodes.url).toContain(`${E}/hub/new`);
  });
});
