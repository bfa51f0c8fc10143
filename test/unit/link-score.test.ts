// Link Score: the PageRank itself on small graphs whose answers are known or computed here independently, and the
// graph a crawl file gives it (redirects and canonicals passing value, nofollow not, external and resource URLs left
// out), computed in the worker thread as the session runs it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSettings } from '../../shared/settings.ts';
import { urlKey } from '../../shared/url/url-key.ts';
import { computeLinkScores, logScores, pageRank, type CsrGraph } from '../../electron/engine/analysis/link-score.ts';
import { computeLinkScoresOffThread, refreshLinkScores } from '../../electron/engine/analysis/link-score-thread.ts';
import { createCrawlFile, openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';

/** A CSR graph from adjacency lists. */
function csr(adj: number[][]): CsrGraph {
  const offsets = new Int32Array(adj.length + 1);
  const targets: number[] = [];
  adj.forEach((out, i) => {
    targets.push(...out);
    offsets[i + 1] = targets.length;
  });
  return { n: adj.length, offsets, targets: Int32Array.from(targets) };
}

/** PageRank by the textbook's dense power iteration (the Google matrix, dangling rows uniform), for comparison. */
function densePageRank(adj: number[][], d = 0.85, iterations = 1000): number[] {
  const n = adj.length;
  let pr = new Array<number>(n).fill(1 / n);
  for (let k = 0; k < iterations; k++) {
    const next = new Array<number>(n).fill(0);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        // Probability of stepping from i to j.
        const out = adj[i]!;
        const link = out.length === 0 ? 1 / n : out.includes(j) ? 1 / out.length : 0;
        next[j]! += pr[i]! * (d * link + (1 - d) / n);
      }
    }
    pr = next;
  }
  return pr;
}

const sum = (a: Float64Array) => a.reduce((s, v) => s + v, 0);

describe('PageRank on known graphs', () => {
  it('converges to the textbook values on a 4-node graph', () => {
    // A -> B, C; B -> C; C -> A; D -> C (the classic example).
    const adj = [[1, 2], [2], [0], [2]];
    const { ranks, converged, iterations } = pageRank(csr(adj));
    expect(converged).toBe(true);
    expect(iterations).toBeLessThan(200);
    const expected = densePageRank(adj);
    for (let i = 0; i < 4; i++) expect(ranks[i]).toBeCloseTo(expected[i]!, 8);
    // The closed form: D gets only the teleport share, (1 - d) / N.
    expect(ranks[3]).toBeCloseTo(0.15 / 4, 12);
    expect(sum(ranks)).toBeCloseTo(1, 12);
  });

  it('ranks a chain in order, the end highest', () => {
    const { ranks } = pageRank(csr([[1], [2], [3], []]));
    expect(ranks[0]!).toBeLessThan(ranks[1]!);
    expect(ranks[1]!).toBeLessThan(ranks[2]!);
    expect(ranks[2]!).toBeLessThan(ranks[3]!);
    const expected = densePageRank([[1], [2], [3], []]);
    for (let i = 0; i < 4; i++) expect(ranks[i]).toBeCloseTo(expected[i]!, 8);
  });

  it('gives a hub linked from every spoke the highest rank, and it scores 100', () => {
    const adj = [[1, 2, 3, 4], [0], [0], [0], [0]];
    const { ranks } = pageRank(csr(adj));
    for (let i = 1; i < 5; i++) expect(ranks[0]!).toBeGreaterThan(ranks[i]!);
    const scores = logScores(ranks);
    expect(scores[0]).toBe(100);
    // The spokes are equal: the lowest rank, 0.
    expect([...scores.slice(1)]).toEqual([0, 0, 0, 0]);
  });

  it('spreads a dangling page’s value over every page', () => {
    // 0 -> 1, 1 dangling: as if 1 linked to both.
    const adj = [[1], []];
    const { ranks } = pageRank(csr(adj));
    const expected = densePageRank(adj);
    expect(ranks[0]).toBeCloseTo(expected[0]!, 8);
    expect(ranks[1]).toBeCloseTo(expected[1]!, 8);
    expect(sum(ranks)).toBeCloseTo(1, 12);
    // Nothing links to 0 but it still gets teleport plus half of 1's value: 1 / (2 + d) exactly.
    expect(ranks[0]).toBeCloseTo(1 / 2.85, 8);
  });

  it('maps ranks to 0-100 on a log scale, one decimal, all equal -> 100', () => {
    expect([...logScores(Float64Array.from([0.01, 0.1, 1]))]).toEqual([0, 50, 100]);
    expect([...logScores(Float64Array.from([0.2, 0.2]))]).toEqual([100, 100]);
    expect([...logScores(Float64Array.from([1]))]).toEqual([100]);
    expect([...logScores(Float64Array.from([1, 2]))]).toEqual([0, 100]);
    expect(logScores(Float64Array.from([1, 3, 9]))[1]).toBe(50);
  });
});

// ---- the graph of a crawl file ----

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-linkscore-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface PageSpec {
  /** Path on https://site.test, or a full URL for another host. */
  url: string;
  /** 4: out of scope (state 4), never fetched. */
  external?: boolean;
  /** Fetched for its status only (an image). */
  resource?: boolean;
  metaRobots?: string;
  /** Its url id (the page's place in the list, from 1, by default); links name pages by place. */
  id?: number;
}

/** A crawl file with the pages given (ids from 1 in order) and links [from, to, kind, nofollow]. */
function crawlFile(name: string, pages: PageSpec[], links: [number, number, string?, number?][]): string {
  const file = path.join(tmp, `${name}.trawl`);
  const db = createCrawlFile(file, parseSettings({ seeds: ['https://site.test/'] }));
  db.prepare("INSERT INTO hosts (id, origin) VALUES (1, 'https://site.test')").run();
  const insertUrl = db.prepare(
    'INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at, kind, check_only) VALUES (?, ?, ?, 1, 0, ?, 0, ?, ?)',
  );
  const insertResult = db.prepare(
    "INSERT INTO results (url_id, status_code, content_type, crawl_depth, fetched_at, h1_count, meta_robots) VALUES (?, 200, 'text/html', 0, 0, 1, ?)",
  );
  const idOf = (place: number) => pages[place - 1]?.id ?? place;
  db.transaction(() => {
    pages.forEach((p, i) => {
      const url = p.url.startsWith('http') ? p.url : `https://site.test${p.url}`;
      insertUrl.run(idOf(i + 1), url, urlKey(url), p.external ? 4 : 2, p.resource ? 'image' : 'page', p.resource ? 1 : 0);
      if (!p.external) insertResult.run(idOf(i + 1), p.metaRobots ?? null);
    });
    const insertLink = db.prepare('INSERT INTO links (from_id, to_id, kind, nofollow) VALUES (?, ?, ?, ?)');
    for (const [from, to, kind, nofollow] of links) insertLink.run(idOf(from), idOf(to), kind ?? 'a', nofollow ?? 0);
  })();
  db.close();
  return file;
}

/** Score and unique inlinks by url id. */
function scoresOf(file: string): Map<number, { score: number; rank: number; unique: number }> {
  const db = openCrawlFile(file, { readonly: true });
  try {
    const s = computeLinkScores(db);
    return new Map([...s.urlIds].map((id, i) => [id, { score: s.scores[i]!, rank: s.ranks[i]!, unique: s.uniqueInlinks[i]! }]));
  } finally {
    db.close();
  }
}

describe('Link Score of a crawl file', () => {
  it('passes a redirect’s whole value to its target; the redirecting page’s links do not count', () => {
    // 1 home -> 2, 3; 2 redirects to 4 (and has a stray link to 3 that must not count); 3 -> 1; 4 -> 1.
    const file = crawlFile(
      'redirect',
      [{ url: '/' }, { url: '/old' }, { url: '/other' }, { url: '/new' }],
      [
        [1, 2],
        [1, 3],
        [2, 4, 'redirect'],
        [2, 3],
        [3, 1],
        [4, 1],
      ],
    );
    const s = scoresOf(file);
    // Independently: the same graph with 2 -> 4 only.
    const expected = densePageRank([[1, 2], [3], [0], [0]]);
    for (let id = 1; id <= 4; id++) expect(s.get(id)!.rank).toBeCloseTo(expected[id - 1]!, 8);
    // The target has at least the redirect's value beyond the teleport share.
    expect(s.get(4)!.rank).toBeGreaterThan(s.get(3)!.rank);
  });

  it('does not pass value through a nofollow link, nor through a page saying nofollow', () => {
    // 1 -> 2 (followed), 1 -> 3 (nofollow); 4 (meta nofollow) -> 3.
    const file = crawlFile(
      'nofollow',
      [{ url: '/' }, { url: '/a' }, { url: '/b' }, { url: '/c', metaRobots: 'index, nofollow' }],
      [
        [1, 2],
        [1, 3, 'a', 1],
        [4, 3],
        [2, 1],
        [3, 1],
      ],
    );
    const s = scoresOf(file);
    const expected = densePageRank([[1], [0], [0], []]);
    for (let id = 1; id <= 4; id++) expect(s.get(id)!.rank).toBeCloseTo(expected[id - 1]!, 8);
    expect(s.get(2)!.rank).toBeGreaterThan(s.get(3)!.rank);
    // No followed link reaches 3 from another page that follows its links.
    expect(s.get(3)!.unique).toBe(0);
    expect(s.get(2)!.unique).toBe(1);
  });

  it('reads nofollow from any directive that says it or none, in any case, and only those', () => {
    // 1 -> 2, 3, 4; 2 (NONE) -> 1; 3 (noindex: follows) -> 4; 4 (X-Robots-Tag style list, NoFollow) -> 1.
    const file = crawlFile(
      'directives',
      [
        { url: '/' },
        { url: '/a', metaRobots: 'NONE' },
        { url: '/b', metaRobots: 'noindex' },
        { url: '/c', metaRobots: 'noarchive,NoFollow' },
      ],
      [
        [1, 2],
        [1, 3],
        [1, 4],
        [2, 1],
        [3, 4],
        [4, 1],
      ],
    );
    const s = scoresOf(file);
    const expected = densePageRank([[1, 2, 3], [], [3], []]);
    for (let id = 1; id <= 4; id++) expect(s.get(id)!.rank).toBeCloseTo(expected[id - 1]!, 8);
    // The noindex page's link counts; those of the pages saying none or nofollow do not.
    expect(s.get(4)!.unique).toBe(2);
    expect(s.get(1)!.unique).toBe(0);
  });

  it('reads the links of url ids too large to pack two to a number (2^25 and past)', () => {
    // Below 2^25 a link's ids are read as one number; past it, as a row. The same graph either way.
    const big = 2 ** 25 + 7;
    const file = crawlFile(
      'large-ids',
      [{ url: '/' }, { url: '/a', id: big }, { url: '/b', id: big + 1 }],
      [
        [1, 2],
        [1, 3],
        [2, 3],
        [3, 1],
      ],
    );
    const s = scoresOf(file);
    expect([...s.keys()]).toEqual([1, big, big + 1]);
    const expected = densePageRank([[1, 2], [2], [0]]);
    expect([s.get(1)!.rank, s.get(big)!.rank, s.get(big + 1)!.rank].map((r) => r.toFixed(8))).toEqual(expected.map((r) => r.toFixed(8)));
    expect(s.get(big + 1)!.unique).toBe(2);
  });

  it('passes a canonicalised page’s value to its canonical; a self-canonical is no canonical', () => {
    // 1 -> 2, 3; 2 canonical -> 3 (its link to 1 does not count); 3 canonical -> 3 (self) and -> 1.
    const file = crawlFile(
      'canonical',
      [{ url: '/' }, { url: '/dup' }, { url: '/main' }],
      [
        [1, 2],
        [1, 3],
        [2, 3, 'canonical'],
        [2, 1],
        [3, 3, 'canonical'],
        [3, 1],
      ],
    );
    const s = scoresOf(file);
    const expected = densePageRank([[1, 2], [2], [0]]);
    for (let id = 1; id <= 3; id++) expect(s.get(id)!.rank).toBeCloseTo(expected[id - 1]!, 8);
  });

  it('leaves out external URLs and resources: links to them pass nothing', () => {
    const file = crawlFile(
      'external',
      [{ url: '/' }, { url: '/a' }, { url: 'https://elsewhere.test/', external: true }, { url: '/logo.png', resource: true }],
      [
        [1, 2],
        [1, 3],
        [1, 4, 'image'],
        [2, 1],
      ],
    );
    const s = scoresOf(file);
    expect([...s.keys()]).toEqual([1, 2]);
    // A two-page cycle: equal ranks, both 100.
    expect(s.get(1)!.score).toBe(100);
    expect(s.get(2)!.score).toBe(100);
  });

  it('computes in a worker thread and fills the reader connection’s link_scores, recomputing on new results', async () => {
    const file = crawlFile(
      'thread',
      [{ url: '/' }, { url: '/a' }, { url: '/b' }],
      [
        [1, 2],
        [1, 3],
        [2, 1],
        [3, 1],
      ],
    );
    const off = await computeLinkScoresOffThread(file);
    expect([...off.urlIds]).toEqual([1, 2, 3]);
    expect(off.scores[0]).toBe(100);
    const db: Db = openCrawlFile(file, { readonly: true });
    try {
      await refreshLinkScores(db);
      const rows = db.prepare('SELECT url_id, link_score, unique_inlinks FROM link_scores ORDER BY link_score DESC, url_id').all();
      expect(rows).toEqual([
        { url_id: 1, link_score: 100, unique_inlinks: 2 },
        { url_id: 2, link_score: 0, unique_inlinks: 1 },
        { url_id: 3, link_score: 0, unique_inlinks: 1 },
      ]);
      // New results (a page 4 linked from 2, linking to 3): the next refresh computes again and refills the table.
      const w = openCrawlFile(file);
      w.prepare(
        "INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (4, 'https://site.test/c', 0, 1, 1, 2, 0)",
      ).run();
      w.prepare(
        "INSERT INTO results (url_id, status_code, content_type, crawl_depth, fetched_at) VALUES (4, 200, 'text/html', 1, 0)",
      ).run();
      w.prepare("INSERT INTO links (from_id, to_id, kind) VALUES (2, 4, 'a'), (4, 3, 'a')").run();
      w.close();
      await refreshLinkScores(db, { wait: true, spacingMs: 0 });
      const after = db.prepare('SELECT url_id, unique_inlinks FROM link_scores ORDER BY url_id').all();
      expect(after).toEqual([
        { url_id: 1, unique_inlinks: 2 },
        { url_id: 2, unique_inlinks: 1 },
        { url_id: 3, unique_inlinks: 2 },
        { url_id: 4, unique_inlinks: 1 },
      ]);
    } finally {
      db.close();
    }
  });
});
