// The analysis queries at scale: a crawl file of 300,000 synthetic results rows (written in one transaction of
// prepared inserts), where every filter count must equal what a walk over the rows finds, and where SQLite's plan
// for each hot query (filters, counts, URL detail, queue, charts, comparison) must read the index it is built on
// rather than scan the wide results rows. No timings here: electron/bench/analysis-bench.ts has those.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { buildSyntheticCrawl, syntheticUrl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import {
  countSql,
  FILTER_IDS,
  FILTER_SQL,
  filterCounts,
  pageSql,
  queryFiltered,
  textPlan,
  type FilterCounts,
} from '../../electron/engine/analysis/result-filters.ts';
import { detailSql, urlDetail } from '../../electron/engine/analysis/url-detail.ts';
import { descriptionPixelWidth, titlePixelWidth } from '../../shared/serp-width.ts';
import { prefixSql, queuePrefixes, queueSearchSql } from '../../electron/engine/analysis/queue-inspector.ts';
import { chartSql, fileCharts, statusDistribution } from '../../electron/engine/analysis/charts-data.ts';
import { CrawlComparison } from '../../electron/engine/analysis/compare.ts';
import { refreshContentAnalysis } from '../../electron/engine/analysis/near-duplicates.ts';
import { LOW_CONTENT_WORDS, MINHASH_BINS, NEAR_DUPLICATE_THRESHOLD, signatureOf } from '../../shared/content.ts';

const ROWS = 300_000;
/** Parsed pages given a main text (duplicate content): enough for every content filter, few enough to compare pairwise below. */
const CONTENT_PAGES = 3000;
let dir: string;
let oldFile: string;
let newFile: string;
let db: Db;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-analysis-scale-'));
  oldFile = path.join(dir, 'old.trawl');
  newFile = path.join(dir, 'new.trawl');
  buildSyntheticCrawl(oldFile, {
    results: ROWS,
    linksPerPage: 1,
    rendered: true,
    sitemaps: true,
    images: true,
    structuredData: true,
    content: CONTENT_PAGES,
  }).db.close();
  buildSyntheticCrawl(newFile, { results: 3000, variant: 1 }).db.close();
  db = openCrawlFile(oldFile, { readonly: true });
  // Duplicate content's filters read this connection's TEMP table, filled as a view fills it before its counts.
  refreshContentAnalysis(db);
}, 300_000); // a hang bound: the build writes image uses and structured data too (issue 18)
afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function plan(sql: string, params: unknown = {}): string {
  const st = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const rows = (st.reader && /[@?]/.test(sql) ? st.all(params as never) : st.all()) as { detail: string }[];
  return rows.map((r) => r.detail).join(' | ');
}
/** A table walked whole, row by row: what the hot queries must not do (an index walked whole is another thing). */
const TABLE_SCAN = /\bSCAN (r|u|d|j|l|ra|rb|ua|ub|results|urls|links|renders)\b(?! USING)/;

/** The counts a walk over every row gives, computed in JavaScript from the rows themselves. */
function walkedCounts(): FilterCounts {
  const c = Object.fromEntries(FILTER_IDS.map((id) => [id, 0])) as FilterCounts;
  const titles = new Map<string, number>();
  const descriptions = new Map<string, number>();
  const rows =
    db.prepare(`SELECT r.status_code AS s, r.content_type AS ct, r.title, r.meta_description AS d, r.h1_count AS h1, r.canonical, r.meta_robots AS mr,
    r.x_robots_tag AS xr, r.indexability AS ix, u.url FROM results r NOT INDEXED JOIN urls u ON u.id = r.url_id`);
  const tokens = (mr: string | null, xr: string | null) =>
    `${mr ?? ''},${xr ?? ''}`
      .toLowerCase()
      .replace(/max-image-preview: ?none/g, '')
      .split(/[\s,:]+/);
  const parsed: { title: string | null; d: string | null }[] = [];
  for (const r of rows.iterate() as Iterable<Record<string, string | number | null>>) {
    c.all++;
    const s = r.s as number | null;
    const media = typeof r.ct === 'string' ? r.ct.split(';')[0]!.trim().toLowerCase() : null;
    if (media === 'text/html' || media === 'application/xhtml+xml') c.html++;
    if (s === null) c['status-none']++;
    else if (s >= 200 && s <= 299) c['status-2xx']++;
    else if (s >= 300 && s <= 399) c['status-3xx']++;
    else if (s >= 400 && s <= 499) c['status-4xx']++;
    else if (s >= 500 && s <= 599) c['status-5xx']++;
    const t = tokens(r.mr as string | null, r.xr as string | null);
    if (t.includes('noindex') || t.includes('none')) c['directive-noindex']++;
    if (t.includes('nofollow') || t.includes('none')) c['directive-nofollow']++;
    if (r.ix === 'indexable') c.indexable++;
    if (r.ix === 'non-indexable') c['non-indexable']++;
    if (r.h1 === null) continue;
    const title = r.title as string | null;
    const d = r.d as string | null;
    parsed.push({ title, d });
    if (title) titles.set(title, (titles.get(title) ?? 0) + 1);
    if (d) descriptions.set(d, (descriptions.get(d) ?? 0) + 1);
    if (!title) c['title-missing']++;
    if (title !== null && [...title].length > 60) c['title-over-60']++;
    if (title && [...title].length < 30) c['title-under-30']++;
    if (title && titlePixelWidth(title) > 561) c['title-over-561px']++;
    if (title && titlePixelWidth(title) < 200) c['title-under-200px']++;
    if (!d) c['description-missing']++;
    if (d !== null && [...d].length > 155) c['description-over-155']++;
    if (d && [...d].length < 70) c['description-under-70']++;
    if (d && descriptionPixelWidth(d) > 985) c['description-over-985px']++;
    if (d && descriptionPixelWidth(d) < 400) c['description-under-400px']++;
    if (r.h1 === 0) c['h1-missing']++;
    if ((r.h1 as number) > 1) c['h1-multiple']++;
    if (r.canonical === null) c['canonical-missing']++;
    else if (r.canonical === r.url) c['canonical-self']++;
    else c['canonical-elsewhere']++;
  }
  for (const { title, d } of parsed) {
    if (title && titles.get(title)! > 1) c['title-duplicate']++;
    if (d && descriptions.get(d)! > 1) c['description-duplicate']++;
  }
  // The issues overview's filters over the link graph, from plain walks of the tables.
  const rowOf = new Map(
    (
      db
        .prepare(`SELECT u.id, u.url, u.kind, u.check_only AS co, r.seq, r.status_code AS s, r.error, r.indexability AS ix, r.canonical, r.h1_count AS h1
          FROM urls u NOT INDEXED LEFT JOIN results r ON r.url_id = u.id`)
        .all() as Record<string, string | number | null>[]
    ).map((u) => [u.id as number, u]),
  );
  const graph = db.prepare('SELECT from_id AS f, to_id AS t, kind FROM links NOT INDEXED').all() as {
    f: number;
    t: number;
    kind: string;
  }[];
  const linked = new Set(graph.map((l) => l.t));
  const is3xx = (s: unknown) => typeof s === 'number' && s >= 300 && s <= 399;
  const redirectsOut = new Set(graph.filter((l) => l.kind === 'redirect').map((l) => l.f));
  const chains = new Set<number>();
  const badCanonicals = new Set<number>();
  const mixed = new Set<number>();
  for (const l of graph) {
    const from = rowOf.get(l.f)!;
    const to = rowOf.get(l.t);
    if (l.kind === 'redirect' && is3xx(from.s) && redirectsOut.has(l.t)) chains.add(l.f);
    const canonicalised = from.h1 !== null && from.canonical !== null && from.canonical !== from.url;
    if (l.kind === 'canonical' && canonicalised && l.t !== l.f && to && to.seq !== null && to.ix !== 'indexable') badCanonicals.add(l.f);
    if (['image', 'script', 'stylesheet'].includes(l.kind) && String(to?.url).startsWith('http:') && String(from.url).startsWith('https:'))
      mixed.add(l.f);
  }
  for (const [id, u] of rowOf) {
    if (u.seq === null) continue; // no results row
    const s = u.s as number | null;
    if ((s === null || s >= 400) && linked.has(id) && !(u.co === 1 && u.kind === 'page')) c['broken-internal']++;
    if (is3xx(s) && u.error === 'redirect loop') c['redirect-loop']++;
  }
  c['redirect-chain'] = chains.size;
  c['canonical-non-indexable'] = badCanonicals.size;
  // Security and hreflang (issue 18.5): the flags as written; each alternate judged against its target's row, in JavaScript.
  const BITS = {
    'security-http': 1,
    'security-no-hsts': 4,
    'security-no-csp': 8,
    'security-no-nosniff': 16,
    'security-no-frame-options': 32,
    'security-unsafe-links': 64,
  } as const;
  for (const s of db.prepare('SELECT url_id, flags FROM security NOT INDEXED').all() as { url_id: number; flags: number }[]) {
    if (s.flags & 2) mixed.add(s.url_id);
    for (const [id, bit] of Object.entries(BITS)) if (s.flags & bit) c[id as keyof typeof BITS]++;
  }
  const alternates = db.prepare('SELECT url_id AS p, target_id AS t, lang, valid FROM hreflang NOT INDEXED').all() as {
    p: number;
    t: number;
    lang: string;
    valid: number;
  }[];
  const names = new Set(alternates.map((a) => `${a.p} ${a.t}`));
  const sets = {
    'hreflang-pages': new Set<number>(),
    'hreflang-missing-return': new Set<number>(),
    'hreflang-non-200': new Set<number>(),
    'hreflang-invalid': new Set<number>(),
    'hreflang-non-indexable': new Set<number>(),
  };
  const withDefault = new Set<number>();
  const withSelf = new Set<number>();
  for (const a of alternates) {
    sets['hreflang-pages'].add(a.p);
    if (a.lang.toLowerCase() === 'x-default') withDefault.add(a.p);
    if (a.valid === 0) sets['hreflang-invalid'].add(a.p);
    if (a.t === a.p) {
      withSelf.add(a.p);
      continue;
    }
    const t = rowOf.get(a.t);
    if (!t || t.seq === null) continue;
    if (t.h1 !== null && !names.has(`${a.t} ${a.p}`)) sets['hreflang-missing-return'].add(a.p);
    if (t.s !== 200) sets['hreflang-non-200'].add(a.p);
    else if (t.ix === 'non-indexable') sets['hreflang-non-indexable'].add(a.p);
  }
  for (const [id, set] of Object.entries(sets)) c[id as keyof typeof sets] = set.size;
  c['hreflang-no-x-default'] = [...sets['hreflang-pages']].filter((p) => !withDefault.has(p)).length;
  c['hreflang-no-self'] = [...sets['hreflang-pages']].filter((p) => !withSelf.has(p)).length;
  c['mixed-content'] = [...mixed].filter((id) => rowOf.get(id)!.seq !== null).length;
  // The sitemap audit: each URL's sitemap entries against its row, its results row and its inlinks.
  const entries = db.prepare('SELECT url_id AS id, sitemap_id AS sm, hreflang FROM sitemap_urls NOT INDEXED').all() as {
    id: number;
    sm: number;
    hreflang: string | null;
  }[];
  const listings = new Map<number, number>();
  const withHreflang = new Set<number>();
  for (const e of entries) {
    listings.set(e.id, (listings.get(e.id) ?? 0) + 1);
    if (e.hreflang !== null) withHreflang.add(e.id);
  }
  const linkedByOther = new Set(graph.filter((l) => l.f !== l.t).map((l) => l.t));
  const depthOf = new Map(
    (db.prepare('SELECT id, depth, state FROM urls NOT INDEXED').all() as { id: number; depth: number; state: number }[]).map((u) => [
      u.id,
      u,
    ]),
  );
  const external = (u: Record<string, string | number | null>) =>
    depthOf.get(u.id as number)!.state === 4 || (u.co === 1 && u.kind === 'page');
  const urlsetsRead =
    (db.prepare("SELECT count(*) AS n FROM sitemaps NOT INDEXED WHERE kind IN ('urlset', 'text')").get() as { n: number }).n > 0;
  for (const [id, u] of rowOf) {
    const listed = listings.get(id) ?? 0;
    if (listed > 0) {
      c['sitemap-urls']++;
      if (listed > 1) c['sitemap-multiple']++;
      if (withHreflang.has(id)) c['sitemap-hreflang']++;
      if (external(u)) c['sitemap-outside-scope']++;
      else if (depthOf.get(id)!.depth > 0 && !linkedByOther.has(id)) c['sitemap-orphans']++;
      if (u.seq !== null && u.ix === 'non-indexable') c['sitemap-non-indexable']++;
    } else if (u.seq !== null && u.ix === 'indexable' && urlsetsRead) c['sitemap-missing']++;
  }
  c['sitemap-over-limit'] = (
    db.prepare('SELECT count(*) AS n FROM sitemaps NOT INDEXED WHERE over_url_limit = 1 OR over_size_limit = 1').get() as { n: number }
  ).n;
  // The JavaScript filters: each renders row's rendered fields against its raw HTML's, in JavaScript.
  const renders = db
    .prepare(`SELECT j.*, j.raw_meta_description AS raw_description, j.raw_meta_robots AS raw_robots, r.x_robots_tag AS xr
      FROM renders j JOIN results r NOT INDEXED ON r.url_id = j.url_id`)
    .all() as Record<string, string | number | null>[];
  const differs = (a: unknown, b: unknown) => (a ?? '') !== (b ?? '');
  for (const j of renders) {
    c['js-rendered']++;
    if ((j.rendered_links as number) > 0) c['js-rendered-links']++;
    if (j.console_errors !== null || j.page_errors !== null) c['js-errors']++;
    if (j.blocked_resources !== null) c['js-blocked']++;
    if (j.js_redirect !== null) c['js-redirect']++;
    if (j.error !== null) {
      c['js-render-failed']++;
      continue;
    }
    if (differs(j.title, j.raw_title)) c['js-title-changed']++;
    if (differs(j.meta_description, j.raw_description)) c['js-description-changed']++;
    if (differs(j.canonical, j.raw_canonical)) c['js-canonical-changed']++;
    if (differs(String(j.meta_robots ?? '').toLowerCase(), String(j.raw_robots ?? '').toLowerCase())) c['js-robots-changed']++;
    const noindex = (t: string[]) => t.includes('noindex') || t.includes('none');
    if (
      noindex(tokens(j.meta_robots as string | null, j.xr as string | null)) &&
      !noindex(tokens(j.raw_robots as string | null, j.xr as string | null))
    )
      c['js-noindex-rendered']++;
  }
  // Structured data and social tags (issue 18.4), from plain walks of their tables and the parsed pages.
  const sd = db.prepare('SELECT url_id AS id, format, error FROM structured_data NOT INDEXED').all() as {
    id: number;
    format: string;
    error: string | null;
  }[];
  const social = db.prepare('SELECT url_id AS id, property FROM social_tags NOT INDEXED').all() as { id: number; property: string }[];
  const withFormat = (f: (row: (typeof sd)[number]) => boolean) => new Set(sd.filter(f).map((row) => row.id)).size;
  c['structured-jsonld-errors'] = withFormat((row) => row.format === 'json-ld' && row.error !== null);
  c['structured-jsonld'] = withFormat((row) => row.format === 'json-ld');
  c['structured-microdata'] = withFormat((row) => row.format === 'microdata');
  c['structured-rdfa'] = withFormat((row) => row.format === 'rdfa');
  const withAny = new Set(sd.map((row) => row.id));
  const tagged = (property: string) => new Set(social.filter((t) => t.property === property).map((t) => t.id));
  const [ogTitle, ogImage, card] = [tagged('og:title'), tagged('og:image'), tagged('twitter:card')];
  for (const { id } of db.prepare('SELECT url_id AS id FROM results NOT INDEXED WHERE h1_count IS NOT NULL').all() as { id: number }[]) {
    if (!withAny.has(id)) c['structured-none']++;
    if (!ogTitle.has(id) || !ogImage.has(id)) c['structured-og-missing']++;
    if (!card.has(id)) c['structured-twitter-missing']++;
  }
  c.external = (
    db.prepare("SELECT count(*) AS n FROM urls NOT INDEXED WHERE state = 4 OR (check_only = 1 AND kind = 'page')").get() as { n: number }
  ).n;
  // Images (issue 18.3): each use, its image's own row (by URL) when the crawl checked it.
  const checked = new Map<string, { s: number | null; size: number | null }>();
  for (const r of db
    .prepare('SELECT u.url, r.status_code AS s, r.size_bytes AS size FROM urls u NOT INDEXED JOIN results r ON r.url_id = u.id')
    .iterate() as Iterable<{ url: string; s: number | null; size: number | null }>)
    checked.set(r.url, r);
  const imageUrls = new Map((db.prepare('SELECT id, url FROM images').all() as { id: number; url: string }[]).map((i) => [i.id, i.url]));
  for (const u of db.prepare('SELECT image_id, alt_len, width, height FROM image_uses NOT INDEXED').iterate() as Iterable<{
    image_id: number;
    alt_len: number | null;
    width: string | null;
    height: string | null;
  }>) {
    c['images-all']++;
    if (u.alt_len === null) c['images-alt-missing']++;
    if (u.alt_len === 0) c['images-alt-empty']++;
    if (u.alt_len !== null && u.alt_len > 100) c['images-alt-over-100']++;
    if (u.width === null || u.height === null) c['images-no-dimensions']++;
    const own = checked.get(imageUrls.get(u.image_id)!);
    if (own && own.size !== null && own.size > 102_400) c['images-over-100kb']++;
    if (own && (own.s === null || own.s >= 400)) c['images-broken']++;
  }
  // Duplicate content (issue 18.1), over indexable pages: exact groups by text hash, low content by main-text words,
  // and near-duplicates by comparing every pair's signatures (no banding), pages of one exact group left out.
  const content = db
    .prepare(`SELECT c.main_words AS words, c.text_hash AS hash, c.minhash FROM content c NOT INDEXED JOIN results r ON r.url_id = c.url_id
      WHERE r.indexability = 'indexable'`)
    .all() as { words: number; hash: string | null; minhash: Buffer | null }[];
  const sameHash = new Map<string, number>();
  for (const p of content) if (p.hash !== null) sameHash.set(p.hash, (sameHash.get(p.hash) ?? 0) + 1);
  const sigs = content.map((p) => (p.minhash ? signatureOf(p.minhash) : null));
  const minSame = Math.ceil(NEAR_DUPLICATE_THRESHOLD * MINHASH_BINS - 1e-9);
  const near = new Set<number>();
  for (let a = 0; a < content.length; a++) {
    if (content[a]!.words < LOW_CONTENT_WORDS) c['content-low']++;
    if (content[a]!.hash !== null && sameHash.get(content[a]!.hash!)! > 1) c['content-exact-duplicates']++;
    const sa = sigs[a];
    if (!sa) continue;
    for (let b = a + 1; b < content.length; b++) {
      const sb = sigs[b];
      if (!sb || (content[a]!.hash !== null && content[a]!.hash === content[b]!.hash)) continue;
      let same = 0;
      for (let j = 0; j < MINHASH_BINS; j++) if (sa[j] === sb[j]) same++;
      if (same >= minSame) near.add(a).add(b);
    }
  }
  c['content-near-duplicates'] = near.size;
  return c;
}

const JS_FILTERS = FILTER_IDS.filter((id) => id.startsWith('js-'));

describe(`analysis at ${ROWS.toLocaleString('en')} results rows`, () => {
  // A generous hang bound: the walk in JavaScript over 300,000 rows and their links takes tens of seconds on a busy machine.
  it('counts every filter as a walk over the rows does, and each filter page agrees with its count', { timeout: 300_000 }, () => {
    const counts = filterCounts(db);
    expect(counts).toEqual(walkedCounts());
    for (const id of [
      'status-4xx',
      'title-duplicate',
      'canonical-elsewhere',
      'directive-noindex',
      'external',
      'content-near-duplicates',
      ...JS_FILTERS,
    ] as const) {
      const page = queryFiltered(db, { filter: id, sort: 'seq', descending: false, offset: 0, limit: 50 });
      expect({ id, total: page.total }).toEqual({ id, total: counts[id] });
      expect(page.rows.length).toBe(Math.min(50, counts[id]));
    }
    // Every filter has rows in this crawl, so each plan below is tried on real data.
    for (const id of FILTER_IDS) expect({ id, some: counts[id] > 0 }).toEqual({ id, some: true });
  });

  it('answers each filter, its count and its page from the filter\u2019s index, never walking the results table', () => {
    for (const id of FILTER_IDS) {
      const { index } = FILTER_SQL[id];
      const sql = pageSql(db, id, 'seq', false, false);
      const count = plan(sql.count);
      const ids = plan(sql.ids, { limit: 100, offset: 0 });
      if (id === 'mixed-content') {
        // No index orders URLs by their text: one walk of urls finds the plain-HTTP ones, their links and pages are
        // read by key, and the results rows by url_id.
        for (const p of [count, ids]) {
          expect(p).toMatch(/SCAN mt\b/);
          expect(p).toMatch(/SEARCH ml USING INDEX links_to/);
          expect(p).toMatch(/SEARCH r USING COVERING INDEX sqlite_autoindex_results_1 \(url_id=\?\)/);
        }
        continue;
      }
      if (id.startsWith('content-')) {
        // Driven by the connection's content_dups TEMP table (only the flagged pages), each page's results row then read
        // by url_id; its rows sorted by seq in a TEMP B-tree whose size is the flagged pages'. Never a walk of results.
        for (const p of [count, ids]) {
          expect({ id, plan: p }).toEqual({ id, plan: expect.stringMatching(/SCAN cd\b/) });
          expect({ id, plan: p }).toEqual({ id, plan: expect.not.stringMatching(TABLE_SCAN) });
        }
        continue;
      }
      if (/^(security|hreflang)-/.test(id)) {
        // Driven by the security and hreflang tables' indexes (the pages' rows then read by url_id): no walk of results
        // or urls but the page's own walk in seq order.
        expect({ id, plan: count }).toEqual({ id, plan: expect.not.stringMatching(TABLE_SCAN) });
        expect({ id, plan: ids.replace(/^SCAN r\b/, '') }).toEqual({ id, plan: expect.not.stringMatching(TABLE_SCAN) });
        continue;
      }
      if (id.startsWith('sitemap-') && index === null) {
        // Driven by what the sitemaps list (sitemap_urls, sitemaps; the URLs then read by key): the cost grows with the
        // sitemaps' entries, not with the crawl.
        for (const p of [count, ids]) expect({ id, plan: p }).toEqual({ id, plan: expect.not.stringMatching(/SCAN (u|r)\b(?! USING)/) });
        continue;
      }
      if (id.startsWith('images-')) {
        // Image uses (issue 18.3): from the filter's index of image_uses (all of them in id order, stopping at the page's
        // end); the checked ones through a walk of images (one row per image URL, far fewer than their uses), each
        // image's urls and results rows and its uses by key. Never a walk of results, urls or links.
        for (const p of [count, ids]) {
          if (index !== null)
            expect({ id, plan: p }).toEqual({ id, plan: expect.stringMatching(new RegExp(`USING (COVERING )?INDEX ${index}\\b`)) });
          expect({ id, plan: p }).toEqual({ id, plan: expect.not.stringMatching(TABLE_SCAN) });
          expect({ id, plan: p }).toEqual({ id, plan: expect.not.stringMatching(/\bSCAN (iuu|ir|pu)\b(?! USING)/) });
        }
        expect(plan(sql.rows, { keys: '[1,2]' })).toMatch(/SEARCH iu USING INTEGER PRIMARY KEY/);
        expect(plan(sql.rows, { keys: '[1,2]' })).not.toMatch(/\bSCAN (iu|im|pu|iuu|ir)\b(?! USING)/);
        continue;
      }
      if (index === null) {
        expect(count).toMatch(/COVERING INDEX/);
        expect(ids).toBe('SCAN r'); // in seq order, stopping at the page's end
        continue;
      }
      for (const p of [count, ids]) {
        expect({ id, plan: p }).toEqual({ id, plan: expect.stringMatching(new RegExp(`USING (COVERING )?INDEX ${index}\\b`)) });
        expect({ id, plan: p }).toEqual({ id, plan: expect.not.stringMatching(TABLE_SCAN) });
      }
      // The page's rows are read by key only.
      expect(plan(sql.rows, { keys: '[1,2]' })).toMatch(/SEARCH r USING INTEGER PRIMARY KEY|SEARCH u USING INTEGER PRIMARY KEY/);
    }
    for (const sql of countSql(db)) expect({ sql, plan: plan(sql) }).toEqual({ sql, plan: expect.not.stringMatching(TABLE_SCAN) });
    // A text inside a filter holding most rows walks the table in seq order on purpose; inside a small one, the index.
    expect(textPlan(db, 'status-2xx')).toBe('scan');
    expect(textPlan(db, 'status-4xx')).toBe('index');
  });

  it('details a URL by key lookups only', () => {
    const sql = detailSql(db);
    expect(plan(sql.byKey, [1])).toMatch(/SEARCH urls USING (COVERING )?INDEX urls_key \(url_key=\?\)/);
    expect(plan(sql.inlinks, [1, 0, 10])).toMatch(/SEARCH l USING (COVERING )?INDEX links_to \(to_id=\? AND from_id>\?\)/);
    expect(plan(sql.inlinkCount, [1])).toMatch(/links_to \(to_id=\?\)/);
    expect(plan(sql.outlinks, [1, 0, 10])).toMatch(/SEARCH l USING PRIMARY KEY \(from_id=\? AND to_id>\?\)/);
    expect(plan(sql.redirectSources, [1, 10])).toMatch(/SEARCH l USING (COVERING )?INDEX links_redirect_to \(to_id=\?\)/);
    expect(plan(sql.redirectTarget, [1])).toMatch(/SEARCH links USING PRIMARY KEY \(from_id=\?\)/);
    expect(plan(sql.extracted, [1])).toMatch(/SEARCH extracted USING PRIMARY KEY \(url_id=\?\)/);
    expect(plan(sql.unfetchable, [1, 10])).toMatch(/SEARCH unfetchable_links USING PRIMARY KEY \(from_id=\?\)/);
    for (const s of [sql.row, sql.hop])
      expect(plan(s, [1])).toMatch(/SEARCH u USING INTEGER PRIMARY KEY.*SEARCH r USING INDEX sqlite_autoindex_results_1 \(url_id=\?\)/);
    for (const s of Object.values(sql))
      expect(
        plan(
          s,
          (s.match(/\?/g) ?? []).map(() => 1),
        ),
      ).not.toMatch(TABLE_SCAN);
    // The home page: linked from every page; its detail still reads one page of inlinks.
    const home = urlDetail(db, { url: syntheticUrl(0) })!;
    expect(home.inlinks.total).toBeGreaterThan(ROWS / 2);
    expect(home.inlinks.rows).toHaveLength(100);
    expect(home.extracted).toEqual([{ rule: 'price', values: ['$0', '$5'] }]);
  });

  it('groups and searches the queue through the queue index, and charts from narrow indexes', () => {
    expect(plan(prefixSql(db, false), { host: 1, skip: 18, segments: 1, limit: 10 })).toMatch(
      /SEARCH u USING INDEX urls_queue \(host_id=\?\)/,
    );
    expect(
      plan(queueSearchSql(db, ['u.state = 0', '(u.host_id, u.id) > (@afterHost, @afterId)']), { afterHost: 0, afterId: 0, limit: 1 }),
    ).toMatch(/SEARCH u USING INDEX urls_queue/);
    expect(queuePrefixes(db, { hostId: 1 })!.counted).toBe(ROWS / 10);
    const full = chartSql(fileCharts(db), { after: null, upTo: ROWS });
    const histogram = full.histogram([0, 100, 1000]);
    for (const s of [full.status, full.depth, histogram])
      expect(plan(s.sql, s.params)).toBe(
        'SCAN r USING COVERING INDEX results_status' + (s === full.depth ? ' | USE TEMP B-TREE FOR GROUP BY' : ''),
      );
    const span = full.span(0);
    expect(plan(span.sql, span.params)).toMatch(/SEARCH r USING COVERING INDEX results_fetched_at \(fetched_at>\?\)/);
    const counted = full.overTime(1000, 0);
    expect(plan(counted.sql, counted.params)).toMatch(/SEARCH r USING COVERING INDEX results_fetched_at \(fetched_at>\?\)/);
    // Live updates read only the rows after the last seq seen, by rowid.
    const since = chartSql(fileCharts(db), { after: ROWS - 10, upTo: ROWS }).status;
    expect(plan(since.sql, since.params)).toMatch(/SEARCH r USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
    expect(statusDistribution(db, { afterSeq: ROWS - 10 }).total).toBe(10);
  });

  it('compares two crawl files by key lookups, walking each by seq', () => {
    const c = CrawlComparison.open(oldFile, newFile);
    try {
      for (const which of ['changed', 'removed', 'added', 'summaryOld', 'summaryNew'] as const) {
        const p = c.explain(which);
        expect({ which, p }).toEqual({ which, p: expect.stringMatching(/USING (COVERING )?INDEX urls_key \(url_key=\?\)/) });
        expect({ which, p }).toEqual({
          which,
          p: expect.stringMatching(/USING (COVERING )?INDEX sqlite_autoindex_results_1 \(url_id=\?\)/),
        });
        expect({ which, p }).toEqual({ which, p: expect.not.stringMatching(/MATERIALIZE|AUTOMATIC|\bSCAN (ub|ua)\b/) });
      }
      expect(c.explain('changed')).toMatch(/^SEARCH ra USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
      expect(c.explain('added')).toMatch(/^SEARCH rb USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
      // 3,000 rows crawled again (every 53rd gone, 60 new); the other 297,000 of the old crawl are gone from it.
      const s = c.summary();
      expect({ added: s.added, removed: s.removed }).toEqual({ added: 60, removed: ROWS - 3000 + Math.floor(2999 / 53) });
    } finally {
      c.close();
    }
  });
});
