// The Results explorer's filters over a crawl file whose rows are written directly, so every filter's answer is
// known: its rows, its count, text search, sorting, paging, the external view, and the same answers from a file
// without the analysis indexes and from a connection opened before a crawl wrote more rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFile, openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { UrlState } from '../../electron/engine/frontier/model.ts';
import { urlKey } from '../../shared/url/url-key.ts';
import { parseSettings } from '../../shared/settings.ts';
import { downgradeToVersion2 } from '../helpers/old-crawl-file.ts';
import {
  countSql,
  viewWhere,
  FILTER_GROUPS,
  FILTER_IDS,
  RESULT_FILTERS,
  filterCounts,
  queryFiltered,
  textPlan,
  type FilterId,
} from '../../electron/engine/analysis/result-filters.ts';

const E = 'https://example.com';
const O = 'https://other.org';

interface Fixture {
  id: number;
  url: string;
  host?: number;
  state?: number;
  kind?: string;
  checkOnly?: 1;
  /** No results row when absent. */
  r?: Partial<{
    status_code: number | null;
    content_type: string | null;
    title: string | null;
    meta_description: string | null;
    h1_count: number | null;
    canonical: string | null;
    meta_robots: string | null;
    x_robots_tag: string | null;
    indexability: string | null;
    indexability_reason: string | null;
    redirect_url: string | null;
    error: string | null;
    word_count: number | null;
    response_time_ms: number | null;
  }>;
}

const LONG_TITLE = 'L'.repeat(61);
// Parsed pages (h1_count set) are 1 to 5; indexability is given, as the frontier would have written it.
const ROWS: Fixture[] = [
  {
    id: 1,
    url: `${E}/`,
    r: {
      status_code: 200,
      content_type: 'text/html; charset=utf-8',
      title: 'Home',
      meta_description: 'Welcome',
      h1_count: 1,
      canonical: `${E}/`,
      indexability: 'indexable',
      word_count: 300,
    },
  },
  {
    id: 2,
    url: `${E}/a`,
    r: {
      status_code: 200,
      content_type: 'text/html',
      title: 'Same',
      meta_description: 'Same desc',
      h1_count: 2,
      canonical: `${E}/a`,
      meta_robots: 'noindex, follow',
      indexability: 'non-indexable',
      indexability_reason: 'noindex',
      word_count: 40,
    },
  },
  {
    id: 3,
    url: `${E}/b`,
    r: {
      status_code: 200,
      content_type: 'application/xhtml+xml',
      title: 'Same',
      meta_description: 'Same desc',
      h1_count: 0,
      x_robots_tag: 'googlebot: nofollow',
      indexability: 'indexable',
      word_count: 10,
    },
  },
  {
    id: 4,
    url: `${E}/long`,
    r: {
      status_code: 200,
      content_type: 'Text/HTML',
      title: LONG_TITLE,
      h1_count: 1,
      canonical: `${E}/a`,
      meta_robots: 'max-image-preview:none, max-snippet:-1',
      indexability: 'non-indexable',
      indexability_reason: 'canonicalised',
      word_count: 500,
    },
  },
  {
    id: 5,
    url: `${E}/empty`,
    r: {
      status_code: 200,
      content_type: 'text/html',
      h1_count: 1,
      canonical: `${E}/empty`,
      meta_robots: 'NONE',
      indexability: 'non-indexable',
      indexability_reason: 'noindex',
      word_count: 0,
    },
  },
  {
    id: 6,
    url: `${E}/old`,
    r: {
      status_code: 301,
      content_type: 'text/html',
      redirect_url: `${E}/a`,
      indexability: 'non-indexable',
      indexability_reason: 'redirected',
    },
  },
  {
    id: 7,
    url: `${E}/gone`,
    r: { status_code: 404, content_type: 'text/html', indexability: 'non-indexable', indexability_reason: 'client error' },
  },
  {
    id: 8,
    url: `${E}/err`,
    r: { status_code: 500, content_type: 'text/plain', indexability: 'non-indexable', indexability_reason: 'server error' },
  },
  {
    id: 9,
    url: `${E}/timeout`,
    state: UrlState.failed,
    r: { status_code: null, error: 'timeout 100% (really)', indexability: 'non-indexable', indexability_reason: 'no response' },
  },
  { id: 10, url: `${E}/img.png`, kind: 'image', checkOnly: 1, r: { status_code: 200, content_type: 'image/png' } },
  { id: 11, url: `${O}/x`, host: 2, state: UrlState.outOfScope },
  { id: 12, url: `${O}/checked`, host: 2, checkOnly: 1, r: { status_code: 200, content_type: 'text/html' } },
  { id: 13, url: `${E}/queued`, state: UrlState.queued },
  { id: 14, url: `${O}/img.png`, host: 2, state: UrlState.outOfScope, kind: 'image' },
];
// from -> to (kind): the home page links to most; /old's redirect; /a links home.
const LINKS: [number, number, string][] = [
  [1, 2, 'a'],
  [1, 3, 'a'],
  [1, 4, 'a'],
  [1, 11, 'a'],
  [1, 14, 'image'],
  [3, 2, 'a'],
  [5, 2, 'a'],
  [6, 2, 'redirect'],
  [2, 1, 'a'],
  [3, 11, 'a'],
];

// Renders of the parsed pages (a crawl with settings.render), beside their raw results rows above.
const RENDERS: Record<string, unknown>[] = [
  // Home: a description written by script, links only in the rendered DOM, a console error.
  { url_id: 1, title: 'Home', meta_description: 'Welcome, rendered', canonical: `${E}/`, rendered_links: 2, console_errors: '["boom"]' },
  // /a: a new title, the same noindex, a blocked script and a script's redirect.
  {
    url_id: 2,
    title: 'Rendered A',
    meta_description: 'Same desc',
    canonical: `${E}/a`,
    meta_robots: 'noindex, follow',
    blocked_resources: '[{"url":"https://ads.example/x.js","reason":"blocked by pattern"}]',
    js_redirect: `${E}/b`,
  },
  // /b: a script's noindex (the raw HTML and X-Robots-Tag say none) and canonical, an uncaught exception.
  {
    url_id: 3,
    title: 'Same',
    meta_description: 'Same desc',
    canonical: `${E}/a`,
    meta_robots: 'noindex',
    page_errors: '["ReferenceError: x"]',
  },
  // /long: the render timed out; its fields are empty but nothing "changed".
  { url_id: 4, error: 'render timed out after 5 s' },
  // /empty: no title either way (null raw, empty rendered), NONE as none: nothing changed.
  { url_id: 5, title: '', canonical: `${E}/empty`, meta_robots: 'none' },
];

// Sitemaps (issue 17): two urlsets that both list /a, one over the URL limit, and the guessed /sitemap.xml (a 404).
const SITEMAPS: [number, string, string | null, number, number][] = [
  // id, url, kind, status, over_url_limit
  [1, `${E}/sitemap-a.xml`, 'urlset', 200, 0],
  [2, `${E}/sitemap-b.xml.gz`, 'urlset', 200, 0],
  [3, `${E}/sitemap-huge.xml`, 'urlset', 200, 1],
  [4, `${E}/sitemap.xml`, null, 404, 0],
];
// url id, sitemap id, hreflang: home, /a (in two, with alternates), /gone, /timeout and the queued URL (never linked),
// and the out-of-scope /x.
const SITEMAP_URLS: [number, number, string | null][] = [
  [1, 1, null],
  [2, 1, `en=${E}/a; de=${E}/de/a`],
  [7, 1, null],
  [13, 1, null],
  [11, 2, null],
  [2, 2, null],
  [9, 3, null],
];

// Structured data and social tags (issue 18.4) of the parsed pages: 1 has JSON-LD, microdata and all the social tags;
// 2 a broken JSON-LD block beside a valid one and og:title only; 3 RDFa and a Twitter card; 4 and 5 nothing.
const STRUCTURED: [number, number, string, string, string | null][] = [
  [1, 0, 'json-ld', '["WebSite"]', null],
  [1, 1, 'microdata', '["Organization"]', null],
  [2, 0, 'json-ld', '[]', "Expected ',' or '}' after property value in JSON at position 20"],
  [2, 1, 'json-ld', '["Product"]', null],
  [3, 0, 'rdfa', '["Person"]', null],
];
const SOCIAL: [number, number, string, string][] = [
  [1, 0, 'og:title', 'Home'],
  [1, 1, 'og:image', '/logo.png'],
  [1, 2, 'twitter:card', 'summary'],
  [2, 0, 'og:title', 'A'],
  [3, 0, 'twitter:card', 'summary'],
];

// Security (issue 18.5): url id and flags (shared/security.ts's bits, as the frontier computes them): home lacks a CSP
// and nosniff; /a lacks HSTS and frame options and has an unsafe _blank link; /empty counts as an HTTP page; /b is fine.
const SECURITY: [number, number][] = [
  [1, 8 | 16],
  [2, 4 | 32 | 64],
  [3, 0],
  [5, 1],
];
// Hreflang (issue 18.5): url id, target id, lang, valid. Home names itself, /a, x-default and the 404 /gone; /a names
// itself, home and /b (which names nothing back) with an invalid code; /long names /a (which does not name it back) and
// the queued URL (never crawled: not judged).
const HREFLANG: [number, number, string, number][] = [
  [1, 1, 'en', 1],
  [1, 2, 'de', 1],
  [1, 7, 'fr', 1],
  [1, 1, 'x-default', 1],
  [2, 2, 'de', 1],
  [2, 1, 'en', 1],
  [2, 3, 'en_US', 0],
  [4, 2, 'de', 1],
  [4, 13, 'it', 1],
];

/** What each filter lists, by url id in seq order (seq follows the id here). */
const EXPECTED: Record<FilterId, number[]> = {
  all: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12],
  html: [1, 2, 3, 4, 5, 6, 7, 12],
  'status-2xx': [1, 2, 3, 4, 5, 10, 12],
  'status-3xx': [6],
  'status-4xx': [7],
  'status-5xx': [8],
  'status-none': [9],
  // Nothing links to /gone, /err or /timeout; /old's target is a page (the real crawl of issues-overview.test.ts has them).
  'broken-internal': [],
  'redirect-chain': [],
  'redirect-loop': [],
  'title-missing': [5],
  'title-duplicate': [2, 3],
  'title-over-60': [4],
  // "Home" and "Same" are short; 61 L's are 678 px wide at 20 px.
  'title-under-30': [1, 2, 3],
  'title-over-561px': [4],
  'title-under-200px': [1, 2, 3],
  'description-missing': [4, 5],
  'description-duplicate': [2, 3],
  'description-over-155': [],
  'description-under-70': [1, 2, 3],
  'description-over-985px': [],
  'description-under-400px': [1, 2, 3],
  'h1-missing': [3],
  'h1-multiple': [2],
  'canonical-self': [1, 2, 5],
  'canonical-elsewhere': [4],
  'canonical-missing': [3],
  // No canonical links in the link graph here.
  'canonical-non-indexable': [],
  // "max-image-preview:none" is not "none"; "googlebot: nofollow" is nofollow; NONE is both.
  'directive-noindex': [2, 5],
  'directive-nofollow': [3, 5],
  indexable: [1, 3],
  'non-indexable': [2, 4, 5, 6, 7, 8, 9],
  external: [11, 12, 14],
  // The out-of-scope image is HTTPS.
  'mixed-content': [],
  'js-rendered': [1, 2, 3, 4, 5],
  'js-rendered-links': [1],
  'js-title-changed': [2],
  'js-description-changed': [1],
  'js-canonical-changed': [3],
  'js-robots-changed': [3],
  'js-noindex-rendered': [3],
  'js-errors': [1, 3],
  'js-blocked': [2],
  'js-render-failed': [4],
  'js-redirect': [2],
  'sitemap-urls': [1, 2, 7, 9, 11, 13],
  // Indexable pages (1 and 3) no sitemap lists.
  'sitemap-missing': [3],
  // Linked from no other page: /gone, /timeout and the queued URL (/x is outside the scope; home and /a are linked).
  'sitemap-orphans': [7, 9, 13],
  'sitemap-non-indexable': [2, 7, 9],
  'sitemap-multiple': [2],
  // Sitemaps, not URLs: the row's url_id is minus the sitemap's id.
  'sitemap-over-limit': [-3],
  'sitemap-outside-scope': [11],
  'sitemap-hreflang': [2],
  // Images (issue 18.3): uses of an image on a page, not URLs: the row's url_id is minus the use's id (IMAGE_USES).
  'images-all': [-1, -2, -3, -4, -5],
  'images-alt-missing': [-2, -5],
  'images-alt-empty': [-3],
  'images-alt-over-100': [-4],
  // /img.png, checked, 200,000 bytes.
  'images-over-100kb': [-1, -5],
  // /gone (404) used as an image; /unchecked.png was never checked, so is neither broken nor large.
  'images-broken': [-4],
  'images-no-dimensions': [-2, -4],
  'structured-jsonld-errors': [2],
  'structured-none': [4, 5],
  'structured-jsonld': [1, 2],
  'structured-microdata': [1],
  'structured-rdfa': [3],
  'structured-og-missing': [2, 3, 4, 5],
  'structured-twitter-missing': [2, 4, 5],
  'security-http': [5],
  'security-no-hsts': [2],
  'security-no-csp': [1],
  'security-no-nosniff': [1],
  'security-no-frame-options': [2],
  'security-unsafe-links': [2],
  'hreflang-pages': [1, 2, 4],
  // /b (read) does not name /a; /a (read) does not name /long; /gone is not read, the queued URL not crawled.
  'hreflang-missing-return': [2, 4],
  'hreflang-non-200': [1],
  'hreflang-invalid': [2],
  'hreflang-no-x-default': [2, 4],
  'hreflang-no-self': [4],
  // /a answered 200 but says noindex.
  'hreflang-non-indexable': [1, 4],
  // No content rows in this fixture (duplicate-content.test.ts crawls a site that has them).
  'content-exact-duplicates': [],
  'content-near-duplicates': [],
  'content-low': [],
};

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-analysis-filters-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let n = 0;
// Images (issue 18.3): id, URL (/img.png and /gone have urls rows and results: checked; /unchecked.png has none).
const IMAGES: [number, string][] = [
  [1, `${E}/img.png`],
  [2, `${E}/gone`],
  [3, `${E}/unchecked.png`],
];
// use id, page, image, alt, alt length, width, height.
const IMAGE_USES: [number, number, number, string | null, number | null, string | null, string | null][] = [
  [1, 1, 1, 'Logo', 4, '10', '10'],
  [2, 1, 3, null, null, null, null],
  [3, 2, 3, '', 0, '5', '5'],
  [4, 2, 2, 'x'.repeat(120), 120, '5', null],
  [5, 3, 1, null, null, '1', '1'],
];

function buildFixture(): { file: string; writer: Db } {
  const file = path.join(dir, `${++n}.trawl`);
  const writer = createCrawlFile(file, parseSettings({ seeds: [`${E}/`] }));
  writer.prepare('INSERT INTO hosts (id, origin) VALUES (1, ?), (2, ?)').run(E, O);
  const addUrl = writer.prepare(
    'INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at, kind, check_only) VALUES (?, ?, ?, ?, 1, ?, 0, ?, ?)',
  );
  const addResult =
    writer.prepare(`INSERT INTO results (seq, url_id, status_code, content_type, crawl_depth, title, meta_description, h1_count, canonical,
    meta_robots, x_robots_tag, indexability, indexability_reason, redirect_url, error, word_count, response_time_ms, fetched_at)
    VALUES (@seq, @url_id, @status_code, @content_type, 1, @title, @meta_description, @h1_count, @canonical, @meta_robots, @x_robots_tag,
    @indexability, @indexability_reason, @redirect_url, @error, @word_count, @response_time_ms, @fetched_at)`);
  const addLink = writer.prepare('INSERT INTO links (from_id, to_id, anchor, kind) VALUES (?, ?, ?, ?)');
  writer.transaction(() => {
    for (const row of ROWS) {
      const state = row.state ?? (row.r ? UrlState.done : UrlState.queued);
      addUrl.run(row.id, row.url, urlKey(row.url), row.host ?? 1, state, row.kind ?? 'page', row.checkOnly ?? 0);
      if (!row.r) continue;
      addResult.run({
        seq: row.id,
        url_id: row.id,
        status_code: null,
        content_type: null,
        title: null,
        meta_description: null,
        h1_count: null,
        canonical: null,
        meta_robots: null,
        x_robots_tag: null,
        indexability: null,
        indexability_reason: null,
        redirect_url: null,
        error: null,
        word_count: null,
        response_time_ms: 10 * row.id,
        fetched_at: 1_700_000_000_000 + row.id,
        ...row.r,
      });
    }
    for (const [from, to, kind] of LINKS) addLink.run(from, to, `to ${to}`, kind);
    const addSitemap = writer.prepare(
      "INSERT INTO sitemaps (id, url, host_id, source, kind, status_code, over_url_limit, state, discovered_at) VALUES (?, ?, 1, 'robots', ?, ?, ?, 2, 0)",
    );
    for (const s of SITEMAPS) addSitemap.run(...s);
    const addSitemapUrl = writer.prepare('INSERT INTO sitemap_urls (url_id, sitemap_id, hreflang) VALUES (?, ?, ?)');
    for (const s of SITEMAP_URLS) addSitemapUrl.run(...s);
    for (const [id, url] of IMAGES) writer.prepare('INSERT INTO images (id, url, url_key) VALUES (?, ?, ?)').run(id, url, urlKey(url));
    for (const use of IMAGE_USES)
      writer
        .prepare('INSERT INTO image_uses (id, page_id, image_id, alt, alt_len, width, height) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(...use);
    writer.prepare('UPDATE results SET size_bytes = 200000 WHERE url_id = 10').run();
    const addStructured = writer.prepare('INSERT INTO structured_data (url_id, n, format, types, error) VALUES (?, ?, ?, ?, ?)');
    for (const s of STRUCTURED) addStructured.run(...s);
    const addSocial = writer.prepare('INSERT INTO social_tags (url_id, n, property, content) VALUES (?, ?, ?, ?)');
    for (const s of SOCIAL) addSocial.run(...s);
    const addSecurity = writer.prepare('INSERT INTO security (url_id, flags) VALUES (?, ?)');
    for (const s of SECURITY) addSecurity.run(...s);
    const addHreflang = writer.prepare('INSERT INTO hreflang (url_id, target_id, lang, valid) VALUES (?, ?, ?, ?)');
    for (const h of HREFLANG) addHreflang.run(...h);
    const addRender = writer.prepare(`INSERT INTO renders (url_id, title, meta_description, canonical, meta_robots, rendered_links,
      js_redirect, console_errors, page_errors, blocked_resources, render_ms, error, raw_title, raw_meta_description, raw_canonical,
      raw_meta_robots) VALUES (@url_id, @title, @meta_description, @canonical, @meta_robots, @rendered_links, @js_redirect,
      @console_errors, @page_errors, @blocked_resources, 100, @error, @raw_title, @raw_meta_description, @raw_canonical, @raw_meta_robots)`);
    // The raw HTML's fields beside the rendered ones: the results row's here (the fixture's rows are what the raw HTML said).
    const rawOf = (id: unknown) => (ROWS.find((row) => row.id === id)?.r ?? {}) as Record<string, unknown>;
    for (const r of RENDERS)
      addRender.run({
        raw_title: rawOf(r.url_id).title ?? null,
        raw_meta_description: rawOf(r.url_id).meta_description ?? null,
        raw_canonical: rawOf(r.url_id).canonical ?? null,
        raw_meta_robots: rawOf(r.url_id).meta_robots ?? null,
        title: null,
        meta_description: null,
        canonical: null,
        meta_robots: null,
        rendered_links: 0,
        js_redirect: null,
        console_errors: null,
        page_errors: null,
        blocked_resources: null,
        error: null,
        ...r,
      });
  })();
  return { file, writer };
}

const ids = (rows: { url_id: number }[]) => rows.map((r) => r.url_id);
const page = (db: Db, filter: FilterId, extra: Partial<Parameters<typeof queryFiltered>[1]> = {}) =>
  queryFiltered(db, { filter, sort: 'seq', descending: false, offset: 0, limit: 100, ...extra });

describe('result filters', () => {
  it('lists every filter once, each in a known group', () => {
    expect(new Set(FILTER_IDS).size).toBe(FILTER_IDS.length);
    const groups = new Set(FILTER_GROUPS.map((g) => g.id));
    for (const f of RESULT_FILTERS) expect(groups.has(f.group)).toBe(true);
    expect(Object.keys(EXPECTED).sort()).toEqual([...FILTER_IDS].sort());
  });

  it('gives each filter its rows, in fetch order, and the same count as the tab badge', () => {
    const { file, writer } = buildFixture();
    writer.close();
    const db = openCrawlFile(file, { readonly: true });
    const counts = filterCounts(db);
    for (const id of FILTER_IDS) {
      const got = page(db, id);
      expect({ id, rows: ids(got.rows) }).toEqual({ id, rows: EXPECTED[id] });
      expect({ id, total: got.total }).toEqual({ id, total: EXPECTED[id].length });
      expect({ id, count: counts[id] }).toEqual({ id, count: EXPECTED[id].length });
    }
    // Only the passes asked for run.
    expect(filterCounts(db, ['h1-missing'])).toEqual({ 'h1-missing': 1, 'h1-multiple': 1 });
    db.close();
  });

  it('returns ResultRow columns with url_id and state; the external view lists URLs never fetched, with inlinks', () => {
    const { file, writer } = buildFixture();
    writer.close();
    const db = openCrawlFile(file, { readonly: true });
    const [a] = page(db, 'h1-multiple').rows;
    expect(a).toMatchObject({
      seq: 2,
      url: `${E}/a`,
      kind: 'page',
      status_code: 200,
      title: 'Same',
      h1_count: 2,
      inlinks: 4,
      url_id: 2,
      state: UrlState.done,
      attempts: 1,
    });
    const ext = page(db, 'external', { sort: 'url' });
    expect(ext.rows.map((r) => [r.url, r.seq, r.state, r.inlinks, r.status_code, r.kind])).toEqual([
      [`${O}/checked`, 12, UrlState.done, 0, 200, 'page'],
      [`${O}/img.png`, null, UrlState.outOfScope, 1, null, 'image'],
      [`${O}/x`, null, UrlState.outOfScope, 2, null, 'page'],
    ]);
    expect(ids(page(db, 'external', { sort: 'inlinks', descending: true }).rows)).toEqual([11, 14, 12]);
    db.close();
  });

  it('searches text in the URL, title or error literally, within the filter, and pages with offset and limit', () => {
    const { file, writer } = buildFixture();
    writer.close();
    const db = openCrawlFile(file, { readonly: true });
    expect(ids(page(db, 'html', { text: 'SAME' }).rows)).toEqual([2, 3]);
    expect(ids(page(db, 'all', { text: '100%' }).rows)).toEqual([9]); // % is matched, not a wildcard
    expect(ids(page(db, 'all', { text: '_' }).rows)).toEqual([]);
    expect(ids(page(db, 'external', { text: 'other.org/x' }).rows)).toEqual([11]);
    const p = page(db, 'non-indexable', { offset: 2, limit: 3 });
    expect({ total: p.total, offset: p.offset, rows: ids(p.rows) }).toEqual({ total: 7, offset: 2, rows: [5, 6, 7] });
    // The total is the same whether the page tells it (its last page, short) or the rows are counted (a full page, a
    // page past the end, a search that finds nothing).
    for (const [offset, limit, rows] of [
      [5, 3, 2],
      [4, 3, 3],
      [10, 3, 0],
      [0, 7, 7],
      [0, 100, 7],
    ] as const) {
      const q = page(db, 'non-indexable', { offset, limit });
      expect([q.total, q.rows.length], `${offset}/${limit}`).toEqual([7, rows]);
    }
    expect(page(db, 'all', { text: 'nothing like this' }).total).toBe(0);
    // A text within a filter holding most rows walks the table; within a small one, its index. Same answers.
    expect(textPlan(db, 'status-2xx')).toBe('scan');
    expect(textPlan(db, 'status-4xx')).toBe('index');
    expect(page(db, 'status-2xx', { text: 'example.com/a' }).total).toBe(1);
    expect(page(db, 'status-4xx', { text: 'gone' }).total).toBe(1);
    db.close();
  });

  it('sorts by any results column, empty cells last either way, ties in fetch order', () => {
    const { file, writer } = buildFixture();
    writer.close();
    const db = openCrawlFile(file, { readonly: true });
    expect(ids(page(db, 'html', { sort: 'title' }).rows)).toEqual([1, 4, 2, 3, 5, 6, 7, 12]);
    expect(ids(page(db, 'html', { sort: 'title', descending: true }).rows)).toEqual([2, 3, 4, 1, 5, 6, 7, 12]);
    expect(ids(page(db, 'status-2xx', { sort: 'inlinks', descending: true }).rows)).toEqual([2, 1, 3, 4, 5, 10, 12]);
    expect(ids(page(db, 'all', { sort: 'seq', descending: true, limit: 3 }).rows)).toEqual([12, 10, 9]);
    expect(ids(page(db, 'title-duplicate', { sort: 'url', descending: true }).rows)).toEqual([3, 2]);
    db.close();
  });

  it('lists image uses with the image, the page using it, its alt and dimensions, and the image\u2019s status only when checked', () => {
    const { file, writer } = buildFixture();
    writer.close();
    const db = openCrawlFile(file, { readonly: true });
    const rows = page(db, 'images-all').rows;
    expect(rows.map((r) => [r.url, r.kind, r.status_code, r.size_bytes, r.title, r.inlinks, r.image])).toEqual([
      [
        `${E}/img.png`,
        'image',
        200,
        200000,
        'Logo',
        2,
        { page_url: `${E}/`, page_id: 1, alt: 'Logo', alt_len: 4, width: '10', height: '10', checked: true },
      ],
      [
        `${E}/unchecked.png`,
        'image',
        null,
        null,
        null,
        2,
        { page_url: `${E}/`, page_id: 1, alt: null, alt_len: null, width: null, height: null, checked: false },
      ],
      [
        `${E}/unchecked.png`,
        'image',
        null,
        null,
        '',
        2,
        { page_url: `${E}/a`, page_id: 2, alt: '', alt_len: 0, width: '5', height: '5', checked: false },
      ],
      [`${E}/gone`, 'image', 404, null, 'x'.repeat(120), 1, expect.objectContaining({ page_url: `${E}/a`, alt_len: 120, checked: true })],
      [`${E}/img.png`, 'image', 200, 200000, null, 2, expect.objectContaining({ page_url: `${E}/b`, alt: null, checked: true })],
    ]);
    // An unchecked image has no results row: no seq (the explorer shows it as not fetched).
    expect(rows[1]!.seq).toBeNull();
    // Searched in the image URL, the page URL and the alt; sorted by image URL; a folder is the pages'.
    expect(ids(page(db, 'images-all', { text: 'logo' }).rows)).toEqual([-1]);
    expect(ids(page(db, 'images-all', { text: `${E}/b` }).rows)).toEqual([-5]);
    expect(ids(page(db, 'images-alt-missing', { sort: 'url', descending: true }).rows)).toEqual([-2, -5]);
    expect(ids(page(db, 'images-all', { prefix: `${E}/a` }).rows)).toEqual([-3, -4]);
    // Not results rows: a results export of these filters has none (the tab export writes the uses instead).
    expect(viewWhere(db, 'images-alt-missing')).toEqual({ sql: '0', params: {} });
    db.close();
  });

  it('refuses unknown filters, sorts and bad paging, naming them', () => {
    const { file, writer } = buildFixture();
    writer.close();
    const db = openCrawlFile(file, { readonly: true });
    expect(() => page(db, 'nope' as FilterId)).toThrow(/unknown filter "nope"/);
    expect(() => page(db, 'all', { sort: 'bogus' as never })).toThrow(/cannot sort results by "bogus"/);
    expect(() => page(db, 'all', { limit: 0 })).toThrow(/limit must be/);
    expect(() => page(db, 'all', { offset: -1 })).toThrow(/offset must be/);
    expect(() => filterCounts(db, ['nope' as FilterId])).toThrow(/unknown filter/);
    db.close();
  });

  it('gives the same answers on a file without the analysis indexes (made before they existed)', () => {
    const { file, writer } = buildFixture();
    for (const { name } of writer
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND (name LIKE 'results_%' OR name LIKE 'renders_%' OR name IN ('urls_external', 'links_redirect_to'))",
      )
      .all() as { name: string }[]) {
      writer.exec(`DROP INDEX ${name}`);
    }
    writer.close();
    const db = openCrawlFile(file, { readonly: true });
    const counts = filterCounts(db);
    for (const id of FILTER_IDS) {
      expect({ id, rows: ids(page(db, id).rows), count: counts[id] }).toEqual({ id, rows: EXPECTED[id], count: EXPECTED[id].length });
    }
    db.close();
  });

  it('answers the JavaScript filters from the renders indexes, and with none on a file older than renders (read as stored)', () => {
    const { file, writer } = buildFixture();
    const plans = countSql(writer).map((sql) =>
      (writer.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail),
    );
    const js = plans.filter((p) => p.some((d) => / j\b/.test(d))).flat();
    for (const index of ['renders_compared', 'renders_links', 'renders_js_errors', 'renders_blocked', 'renders_js_redirect'])
      expect(js.some((d) => d.includes(`INDEX ${index}`))).toBe(true);
    expect(js.filter((d) => /SCAN (j|r)\b(?! USING)/.test(d))).toEqual([]);
    // Searched and sorted like any other view.
    expect(ids(page(writer, 'js-errors', { text: 'example.com/b' }).rows)).toEqual([3]);
    expect(ids(page(writer, 'js-rendered', { sort: 'url', descending: true }).rows)).toEqual([4, 5, 3, 2, 1]);
    expect(ids(page(writer, 'js-rendered', { sort: 'title', offset: 1, limit: 2 }).rows)).toEqual([4, 2]);
    // A rendered page's filter as an export's condition on its results row.
    const where = viewWhere(writer, 'js-title-changed')!;
    expect(writer.prepare(`SELECT r.url_id FROM results r JOIN urls u ON u.id = r.url_id WHERE ${where.sql}`).all()).toEqual([
      { url_id: 2 },
    ]);
    downgradeToVersion2(writer);
    writer.close();
    const db = openCrawlFile(file, { readonly: true, asStored: true });
    try {
      expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'renders'").get()).toEqual({ n: 0 });
      const counts = filterCounts(db);
      for (const id of FILTER_IDS) {
        // A version 2 file has neither renders nor the sitemap tables (version 5) nor version 6's tables.
        const old = ['js-', 'sitemap-', 'images-', 'structured-', 'security-', 'hreflang-'].some((p) => id.startsWith(p));
        const want = old ? [] : EXPECTED[id];
        expect({ id, rows: ids(page(db, id).rows), count: counts[id] }).toEqual({ id, rows: want, count: want.length });
      }
      expect(page(db, 'js-errors', { text: 'example' }).total).toBe(0);
      expect(viewWhere(db, 'js-blocked')).toEqual({ sql: '0', params: {} });
    } finally {
      db.close();
    }
  });

  it('sees rows a crawl writes after the reader opened (WAL), each answer from one state of the file', () => {
    const { file, writer } = buildFixture();
    const db = openCrawlFile(file, { readonly: true });
    expect(filterCounts(db, ['status-4xx'])['status-4xx']).toBe(1);
    writer
      .prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (20, ?, ?, 1, 1, 2, 0)')
      .run(`${E}/gone2`, urlKey(`${E}/gone2`));
    writer
      .prepare(
        "INSERT INTO results (seq, url_id, status_code, content_type, crawl_depth, fetched_at) VALUES (20, 20, 410, 'text/html', 1, 0)",
      )
      .run();
    const after = page(db, 'status-4xx');
    expect({ total: after.total, rows: ids(after.rows) }).toEqual({ total: 2, rows: [7, 20] });
    expect(filterCounts(db).all).toBe(12);
    db.close();
    writer.close();
  });
});
