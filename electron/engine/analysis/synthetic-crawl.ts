// A large synthetic crawl file, written straight into SQLite (no crawl is run): what the analysis scale test and
// the timing script (measure.ts) read. Rows look like a real crawl's: mostly 200 HTML pages with titles,
// descriptions and headings (some missing, duplicated or too long), redirects with their hop in the link graph,
// client and server errors, rows without a response, checked images, out-of-scope links, URLs still queued,
// custom extraction values and response headers of a realistic size. Deterministic for a given size.
import { parseSettings } from '../../../shared/settings.ts';
import { urlKey } from '../../../shared/url/url-key.ts';
import { createCrawlFile, type Db } from '../frontier/sqlite/crawl-file.ts';
import { UrlState } from '../frontier/model.ts';
import { indexabilityOf } from '../frontier/indexability.ts';
import { fingerprint, signatureBytes } from '../../../shared/content.ts';

export interface SyntheticCrawlOptions {
  /** Rows in results (URLs fetched, errors included). */
  results: number;
  /** Links per fetched page (the link graph grows with this). Default 4. */
  linksPerPage?: number;
  /** URLs still queued, spread over the site's path prefixes. Default results / 10. */
  queued?: number;
  /** Other hosts that out-of-scope links go to. Default 200. */
  externalHosts?: number;
  /** fetched_at of the first row; rows follow 2 ms apart. */
  startAt?: number;
  /**
   * 1: the same site crawled again later, changed: every 53rd URL gone, results / 50 new URLs, every 37th title
   * changed, every 101st page now a 404, every 41st word count doubled (for the comparison).
   */
  variant?: 0 | 1;
  /**
   * Every 5th parsed page rendered with JavaScript (a renders row), some with their title, description, canonical or
   * robots changed by script, links only in the rendered DOM, errors, blocked resources, a script redirect or a
   * failed render; the results row indexed by the rendered directives. Default false.
   */
  rendered?: boolean;
  /**
   * Two XML sitemaps read (issue 17): the first lists every 7th page, every 3rd queued URL (never linked: orphans) and
   * every 5th out-of-scope URL, with hreflang alternates on every 91st entry; the second, over the URL limit, lists
   * every 49th page again (in two sitemaps). Default false.
   */
  sitemaps?: boolean;
  /**
   * Images (issue 18.3): every parsed page uses the site's logo (alt, dimensions) and one of 997 photos (every 10th
   * without alt, every 10th with an empty one, every 10th with one of 130 characters; every 7th without dimensions),
   * every 5th page the last checked image before it (every 2nd checked image over 100 KB), every 50th page the last
   * 404 before it as an image (broken). Default false.
   */
  images?: boolean;
  /**
   * Structured data and social tags (issue 18.4) on parsed pages: JSON-LD on every 3rd (a Product with an Offer on
   * every 6th, a broken block beside it on every 97th), microdata on every 11th, RDFa on every 13th; og:title on every
   * 2nd, og:image on every 4th, twitter:card on every 5th. Default false.
   */
  structuredData?: boolean;
  /**
   * Main texts (issue 18.1) for the first `content` parsed pages (all of them: Infinity): every 20th an exact copy of
   * the page 7 before it, every 13th a near copy of the page 5 before it (every 97th word changed), the others distinct
   * texts of 150 to 900 words (those under 200 words low content). Default 0.
   */
  content?: number;
}

export interface SyntheticCrawl {
  db: Db;
  origin: string;
  /** Counts by construction, for tests to compare with. */
  counts: { results: number; urls: number; links: number; queued: number; external: number };
}

export const SYNTHETIC_ORIGIN = 'https://site.test';
/** The site's plain-HTTP origin, and an image on it that some HTTPS pages load (mixed content). */
const MIXED_ORIGIN = 'http://site.test';
const MIXED_URL = `${MIXED_ORIGIN}/legacy/logo.png`;
const LONG_DESCRIPTION =
  'a description that goes on and on about everything the page holds, well past the hundred and fifty-five characters a search result shows before it is cut.';
const SECTIONS = ['docs', 'blog', 'shop', 'news', 'help', 'about', 'forum', 'api'];
/** The response headers every generated page has (of realistic size), also the PostgreSQL store's generated crawl's. */
export const SYNTHETIC_HEADERS = JSON.stringify({
  'content-type': 'text/html; charset=utf-8',
  server: 'nginx/1.22.1',
  'cache-control': 'public, max-age=3600',
  'content-security-policy': "default-src 'self'; img-src 'self' data: https://cdn.site.test; script-src 'self' https://cdn.site.test",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  etag: '"5f1c-61a2b3c4d5e6f"',
  'last-modified': 'Tue, 01 Dec 2026 10:00:00 GMT',
  vary: 'Accept-Encoding',
});

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The URL of synthetic page i: /<section>/<group>/page-<i>. */
export function syntheticUrl(i: number): string {
  return `${SYNTHETIC_ORIGIN}/${SECTIONS[i % SECTIONS.length]}/g${i % 97}/page-${i}`;
}

/** The renders row of synthetic page i (a multiple of 5), from the raw fields: what its scripts changed, by i. */
function syntheticRender(
  i: number,
  raw: { title: string | null; description: string | null; canonical: string | null; metaRobots: string | null },
) {
  const failed = i % 55 === 0;
  const list = (on: boolean, items: unknown[]) => (on ? JSON.stringify(items) : null);
  return {
    title: failed ? null : i % 15 === 0 ? `Rendered page ${i}` : raw.title,
    description: failed ? null : i % 25 === 0 ? `Rendered description ${i}` : raw.description,
    canonical: failed ? null : i % 35 === 0 ? syntheticUrl(i + 1) : raw.canonical,
    metaRobots: failed ? null : i % 45 === 0 ? 'noindex' : raw.metaRobots,
    links: failed ? 0 : i % 10 === 0 ? 3 : 0,
    redirect: !failed && i % 85 === 0 ? syntheticUrl(i + 2) : null,
    console: list(!failed && i % 20 === 0, [`TypeError: cannot read properties of undefined (page ${i})`]),
    pageErrors: list(!failed && i % 30 === 15, [`ReferenceError: app is not defined`]),
    failed: list(i % 65 === 0, [{ url: `${SYNTHETIC_ORIGIN}/api/data-${i}.json`, reason: '404' }]),
    blocked: list(i % 40 === 0, [{ url: 'https://www.google-analytics.com/analytics.js', reason: 'blocked by pattern' }]),
    ms: 150 + (i % 900),
    error: failed ? 'render timed out after 30 s' : null,
  };
}

/** Creates `file` and fills it, in one transaction of prepared inserts. */
export function buildSyntheticCrawl(file: string, options: SyntheticCrawlOptions): SyntheticCrawl {
  const n = options.results;
  const linksPerPage = options.linksPerPage ?? 4;
  const queuedCount = options.queued ?? Math.floor(n / 10);
  const externalHosts = options.externalHosts ?? 200;
  const startAt = options.startAt ?? 1_800_000_000_000;
  const variant = options.variant ?? 0;
  const rnd = random(n * 31 + 7);
  const db = createCrawlFile(
    file,
    parseSettings({ seeds: [`${SYNTHETIC_ORIGIN}/`], extraction: [{ name: 'price', type: 'regex', expression: '\\$\\d+' }] }),
  );
  const insertHost = db.prepare(
    'INSERT INTO hosts (id, origin, queued, crawl_delay_ms, robots_state, robots_status) VALUES (?, ?, ?, ?, 2, ?)',
  );
  const insertUrl = db.prepare(
    'INSERT INTO urls (id, url, url_key, host_id, depth, state, via_id, discovered_at, kind, check_only, attempts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertResult = db.prepare(`INSERT INTO results (url_id, status_code, content_type, size_bytes, response_time_ms, crawl_depth, title,
      meta_description, h1, h1_count, canonical, word_count, outlinks, redirect_url, error, attempts, meta_robots, x_robots_tag, fetched_at,
      indexability, indexability_reason, response_headers)
    VALUES (@urlId, @status, @contentType, @size, @time, @depth, @title, @description, @h1, @h1Count, @canonical, @words, @outlinks,
      @redirect, @error, 1, @metaRobots, @xRobots, @at, @indexability, @reason, @headers)`);
  const insertLink = db.prepare('INSERT OR IGNORE INTO links (from_id, to_id, anchor, kind, nofollow) VALUES (?, ?, ?, ?, ?)');
  const insertExtracted = db.prepare('INSERT INTO extracted (url_id, rule, n, value) VALUES (?, ?, ?, ?)');
  const insertUnfetchable = db.prepare('INSERT INTO unfetchable_links (from_id, href, scheme, anchor) VALUES (?, ?, ?, ?)');
  const insertStructured = db.prepare('INSERT INTO structured_data (url_id, n, format, types, error) VALUES (?, ?, ?, ?, ?)');
  const insertSocial = db.prepare('INSERT INTO social_tags (url_id, n, property, content) VALUES (?, ?, ?, ?)');
  const insertRender = db.prepare(`INSERT INTO renders (url_id, title, meta_description, h1, h1_count, canonical, meta_robots, word_count,
      rendered_links, js_redirect, console_errors, page_errors, failed_resources, blocked_resources, render_ms, error, raw_indexability,
      raw_title, raw_meta_description, raw_h1, raw_h1_count, raw_canonical, raw_meta_robots, raw_word_count)
    VALUES (@urlId, @title, @description, @h1, @h1Count, @canonical, @metaRobots, @words, @links, @redirect, @console, @pageErrors,
      @failed, @blocked, @ms, @error, @rawIndexability, @rawTitle, @rawDescription, @rawH1, @rawH1Count, @rawCanonical, @rawMetaRobots,
      @rawWords)`);

  // urls.id: 1..n the fetched URLs (page i is id i + 1), then the queued ones, then the out-of-scope ones.
  const queuedBase = n + 1;
  const externalBase = queuedBase + queuedCount;
  const externalCount = Math.max(1, Math.floor(n / 20));
  // An image on the site's plain-HTTP origin (out of the HTTPS scope), after every other URL: mixed content.
  const mixedId = externalBase + externalCount + (variant === 1 ? Math.floor(n / 50) : 0);
  let links = 0;
  // Images (options.images): image ids by URL, the last checked image and the last 404 seen.
  const imageIds = new Map<string, number>();
  const insertImage = db.prepare('INSERT INTO images (id, url, url_key) VALUES (?, ?, ?)');
  const insertImageUse = db.prepare('INSERT INTO image_uses (page_id, image_id, alt, alt_len, width, height) VALUES (?, ?, ?, ?, ?, ?)');
  const addImageUse = (page: number, url: string, alt: string | null, width: string | null, height: string | null) => {
    let id = imageIds.get(url);
    if (id === undefined) {
      id = imageIds.size + 1;
      imageIds.set(url, id);
      insertImage.run(id, url, urlKey(url));
    }
    insertImageUse.run(page, id, alt, alt === null ? null : alt.length, width, height);
  };
  let lastImage: string | null = null;
  let last404: string | null = null;
  db.transaction(() => {
    insertHost.run(1, SYNTHETIC_ORIGIN, queuedCount, 0, 404);
    for (let h = 0; h < externalHosts; h++) insertHost.run(h + 2, `https://ext${h}.example`, 0, 0, null);
    for (let i = 0; i < n; i++) {
      const r = rnd();
      const url = syntheticUrl(i);
      // 84% pages, 5% redirects, 3% not found, 1% server errors, 1% no response, 6% images checked.
      const kind = r < 0.94 ? 'page' : 'image';
      const gone = variant === 1 && i % 53 === 0 && i > 0;
      const status =
        variant === 1 && i % 101 === 0 && r < 0.84
          ? 404
          : r < 0.84
            ? 200
            : r < 0.89
              ? 301
              : r < 0.92
                ? 404
                : r < 0.93
                  ? 500
                  : r < 0.94
                    ? null
                    : 200;
      const parsed = kind === 'page' && status === 200;
      const depth = Math.min(12, Math.floor(Math.log2(i + 2)));
      if (!gone)
        insertUrl.run(
          i + 1,
          url,
          urlKey(url),
          1,
          depth,
          status === null ? UrlState.failed : UrlState.done,
          i === 0 ? null : Math.floor(i / 2) + 1,
          startAt,
          kind,
          kind === 'image' ? 1 : 0,
          1,
        );
      const t = rnd();
      const title0 = !parsed
        ? null
        : t < 0.02
          ? null
          : t < 0.07
            ? `Shared title ${i % 500}`
            : t < 0.17
              ? `A rather long page title for page number ${i} that goes on past sixty characters`
              : `Page ${i}`;
      const title = variant === 1 && parsed && i % 37 === 0 ? `Renamed page ${i}` : title0;
      const d = rnd();
      // Every 29th of the others is long: over 155 characters and 985 px (drawn from i, so the draws stay the same).
      const description = !parsed
        ? null
        : d < 0.03
          ? null
          : d < 0.08
            ? `Shared description ${i % 700}`
            : i % 29 === 0
              ? `About page ${i}: ${LONG_DESCRIPTION}`
              : `About page ${i}`;
      const h = rnd();
      const h1Count = parsed ? (h < 0.03 ? 0 : h < 0.1 ? 2 : 1) : null;
      const c = rnd();
      const canonical = !parsed ? null : c < 0.7 ? url : c < 0.75 ? syntheticUrl((i + 1) % n) : null;
      const m = rnd();
      const metaRobots = !parsed ? null : m < 0.02 ? 'noindex, follow' : m < 0.03 ? 'index, nofollow' : m < 0.3 ? 'index, follow' : null;
      const xRobots = parsed && m > 0.995 ? 'noindex' : null;
      const redirect = status === 301 ? syntheticUrl((i * 7 + 3) % n) : null;
      // Every 7th redirect closed a loop (the frontier records it as the redirect's error).
      const error = status === null ? 'connection reset' : status === 301 && i % 7 === 0 ? 'redirect loop' : null;
      // Drawn from i alone (no rnd()), so a rendered crawl's other rows are those of the same crawl unrendered.
      const render =
        options.rendered === true && parsed && i % 5 === 0 ? syntheticRender(i, { title, description, canonical, metaRobots }) : null;
      const indexOf = (robots: string | null, canonicalUrl: string | null) =>
        indexabilityOf({
          url,
          kind,
          checkOnly: kind === 'image',
          statusCode: status,
          error,
          robotsDisallowed: false,
          metaRobots: robots,
          xRobotsTag: xRobots,
          canonical: canonicalUrl,
        });
      const rawIndex = indexOf(metaRobots, canonical);
      const index = render && render.error === null ? indexOf(render.metaRobots, render.canonical) : rawIndex;
      const outlinks = parsed ? linksPerPage : 0;
      const w = rnd();
      const words = parsed ? Math.floor(50 + w * 2000) * (variant === 1 && i % 41 === 0 ? 2 : 1) : null;
      const size0 = status === null ? null : Math.floor(2000 + rnd() * 60_000);
      // With images, every 2nd checked image is over 100 KB.
      const size = size0 !== null && options.images === true && kind === 'image' && i % 2 === 0 ? size0 * 4 + 102_400 : size0;
      const time = status === null ? null : Math.floor(5 + rnd() * rnd() * 3000);
      // Drawn before a gone row is skipped, so the rows after it come out the same in both variants.
      const drawn = Array.from({ length: linksPerPage }, (_, k) => (k === 0 ? 1 : Math.floor(rnd() * n) + 1));
      const targets = parsed ? drawn : [];
      if (gone) continue;
      // A page that rendered shows its rendered fields (the raw ones are in its renders row).
      const shown = render && render.error === null ? render : { title, description, canonical, metaRobots };
      const shownWords = render && render.error === null && words !== null ? words + 40 : words;
      insertResult.run({
        urlId: i + 1,
        status,
        contentType: status === null ? null : kind === 'image' ? 'image/png' : i % 50 === 0 ? 'Text/HTML' : 'text/html; charset=utf-8',
        size,
        time,
        depth,
        title: shown.title,
        description: shown.description,
        h1: h1Count ? `Heading ${i}` : null,
        h1Count,
        canonical: shown.canonical,
        words: shownWords,
        outlinks,
        redirect,
        error,
        metaRobots: shown.metaRobots,
        xRobots,
        at: startAt + i * 2,
        indexability: index.status,
        reason: index.reason,
        headers: status === null ? null : SYNTHETIC_HEADERS,
      });
      if (render) {
        const differs = rawIndex.status !== index.status || rawIndex.reason !== index.reason;
        insertRender.run({
          ...render,
          urlId: i + 1,
          h1: h1Count ? `Heading ${i}` : null,
          h1Count,
          words: words === null ? null : words + 40,
          rawIndexability: differs ? [rawIndex.status, rawIndex.reason].filter(Boolean).join(': ') : null,
          rawTitle: title,
          rawDescription: description,
          rawH1: h1Count ? `Heading ${i}` : null,
          rawH1Count: h1Count,
          rawCanonical: canonical,
          rawMetaRobots: metaRobots,
          rawWords: words,
        });
      }
      if (parsed && options.structuredData === true) {
        let k = 0;
        if (i % 3 === 0) insertStructured.run(i + 1, k++, 'json-ld', i % 6 === 0 ? '["Product","Offer"]' : '["WebPage"]', null);
        if (i % 97 === 0) insertStructured.run(i + 1, k++, 'json-ld', '[]', 'Unexpected end of JSON input');
        if (i % 11 === 0) insertStructured.run(i + 1, k++, 'microdata', '["BreadcrumbList"]', null);
        if (i % 13 === 0) insertStructured.run(i + 1, k++, 'rdfa', '["Person"]', null);
        let t = 0;
        if (i % 2 === 0) insertSocial.run(i + 1, t++, 'og:title', `Page ${i}`);
        if (i % 4 === 0) insertSocial.run(i + 1, t++, 'og:image', `${SYNTHETIC_ORIGIN}/img/${i}.png`);
        if (i % 5 === 0) insertSocial.run(i + 1, t++, 'twitter:card', 'summary');
      }
      if (redirect) {
        insertLink.run(i + 1, ((i * 7 + 3) % n) + 1, null, 'redirect', 0);
        links++;
      }
      if (parsed) {
        targets.forEach((to, k) => (links += insertLink.run(i + 1, to, `Link ${to}`, 'a', k === 3 ? 1 : 0).changes));
        // A canonical to another page is a canonical link in the graph; every 100th page loads a logo over plain HTTP.
        if (canonical !== null && canonical !== url) links += insertLink.run(i + 1, ((i + 1) % n) + 1, null, 'canonical', 0).changes;
        if (i % 100 === 1) links += insertLink.run(i + 1, mixedId, null, 'image', 0).changes;
        if (i % 10 === 0) {
          links += insertLink.run(i + 1, externalBase + (i % externalCount), 'elsewhere', 'a', 0).changes;
          insertUnfetchable.run(i + 1, `mailto:page${i}@site.test`, 'mailto', 'Write to us');
        }
        if (i % 3 === 0) {
          insertExtracted.run(i + 1, 'price', 0, `$${i % 1000}`);
          insertExtracted.run(i + 1, 'price', 1, `$${(i % 1000) + 5}`);
        }
        if (options.images === true) {
          addImageUse(i + 1, `${SYNTHETIC_ORIGIN}/static/logo.svg`, 'Site logo', '120', '40');
          const a = i % 10;
          const alt = a === 0 ? null : a === 1 ? '' : a === 2 ? 'A'.repeat(130) : `Photo ${i % 997}`;
          const dims = i % 7 === 0 ? null : '300';
          addImageUse(i + 1, `${SYNTHETIC_ORIGIN}/media/photo-${i % 997}.jpg`, alt, dims, dims);
          if (i % 5 === 0 && lastImage !== null) addImageUse(i + 1, lastImage, 'Figure', '640', '480');
          if (i % 50 === 0 && last404 !== null) addImageUse(i + 1, last404, 'Gone', '10', '10');
        }
      }
      if (kind === 'image' && status === 200) lastImage = url;
      if (status === 404) last404 = url;
    }
    if (variant === 1) {
      // New pages, fetched after the others (ids after the out-of-scope URLs).
      const extraBase = externalBase + externalCount;
      for (let e = 0; e < Math.floor(n / 50); e++) {
        const url = `${SYNTHETIC_ORIGIN}/new/page-${e}`;
        insertUrl.run(extraBase + e, url, urlKey(url), 1, 3, UrlState.done, 1, startAt, 'page', 0, 1);
        insertResult.run({
          urlId: extraBase + e,
          status: 200,
          contentType: 'text/html',
          size: 5000,
          time: 40,
          depth: 3,
          title: `New page ${e}`,
          description: null,
          h1: 'New',
          h1Count: 1,
          canonical: url,
          words: 300,
          outlinks: 0,
          redirect: null,
          error: null,
          metaRobots: null,
          xRobots: null,
          at: startAt + (n + e) * 2,
          indexability: 'indexable',
          reason: null,
          headers: SYNTHETIC_HEADERS,
        });
      }
    }
    for (let q = 0; q < queuedCount; q++) {
      const url = `${SYNTHETIC_ORIGIN}/${SECTIONS[q % SECTIONS.length]}/q${q % 13}/queued-${q}`;
      insertUrl.run(queuedBase + q, url, urlKey(url), 1, 5, UrlState.queued, 1, startAt, 'page', 0, 0);
    }
    for (let e = 0; e < externalCount; e++) {
      const host = e % externalHosts;
      const url = `https://ext${host}.example/path/${e}`;
      insertUrl.run(externalBase + e, url, urlKey(url), host + 2, 1, UrlState.outOfScope, 1, startAt, 'page', 0, 0);
    }
    insertHost.run(externalHosts + 2, MIXED_ORIGIN, 0, 0, null);
    insertUrl.run(mixedId, MIXED_URL, urlKey(MIXED_URL), externalHosts + 2, 2, UrlState.outOfScope, 2, startAt, 'image', 0, 0);
    // Security and hreflang (issue 18.5): every parsed page a security row, its flags spread over the bits; hreflang
    // sets of three parsed pages, every fourth set without a return link, every fifth with an invalid code, every third
    // without x-default, every sixth naming an error page and a non-indexable 200 page too.
    {
      const parsed = (
        db.prepare('SELECT url_id FROM results WHERE h1_count IS NOT NULL ORDER BY url_id').all() as { url_id: number }[]
      ).map((r) => r.url_id);
      const bad = db.prepare('SELECT url_id FROM results WHERE coalesce(status_code, 0) <> 200 ORDER BY url_id LIMIT 1').get() as
        | { url_id: number }
        | undefined;
      const noindex = db
        .prepare("SELECT url_id FROM results WHERE status_code = 200 AND indexability = 'non-indexable' ORDER BY url_id LIMIT 1")
        .get() as { url_id: number } | undefined;
      const addSecurity = db.prepare('INSERT INTO security (url_id, flags) VALUES (?, ?)');
      parsed.forEach((id, i) => addSecurity.run(id, i % 5 === 0 ? 0 : (Math.imul(i + 1, 2654435761) >>> 25) & 127));
      const addHreflang = db.prepare('INSERT OR IGNORE INTO hreflang (url_id, target_id, lang, valid) VALUES (?, ?, ?, ?)');
      const LANGS = ['en', 'de', 'fr'];
      for (let g = 0, set = 0; g + 3 <= parsed.length && set < 2000; g += 9, set++) {
        const pages = parsed.slice(g, g + 3);
        pages.forEach((page, k) => {
          pages.forEach((target, j) => {
            if (set % 4 === 0 && k === 1 && j === 0) return;
            // Every seventh set's last page does not name itself.
            if (set % 7 === 0 && k === 2 && j === 2) return;
            const invalid = set % 5 === 0 && j === 2;
            addHreflang.run(page, target, invalid ? 'en-UK' : LANGS[j]!, invalid ? 0 : 1);
          });
          if (set % 3 !== 0) addHreflang.run(page, pages[0]!, 'x-default', 1);
          if (set % 6 === 0 && bad) addHreflang.run(page, bad.url_id, 'es', 1);
          if (set % 6 === 0 && noindex) addHreflang.run(page, noindex.url_id, 'pt', 1);
        });
      }
    }
    if (options.sitemaps === true) {
      const addSitemap = db.prepare(`INSERT INTO sitemaps (id, url, host_id, source, state, kind, status_code, url_count, over_url_limit,
        discovered_at, fetched_at) VALUES (?, ?, 1, 'robots', 2, 'urlset', 200, ?, ?, ?, ?)`);
      const addEntry = db.prepare('INSERT INTO sitemap_urls (url_id, sitemap_id, lastmod, hreflang) VALUES (?, ?, NULL, ?)');
      let listed = 0;
      let twice = 0;
      const entry = (urlId: number) => {
        addEntry.run(urlId, 1, listed % 91 === 0 ? `en=${SYNTHETIC_ORIGIN}/en/${urlId}; de=${SYNTHETIC_ORIGIN}/de/${urlId}` : null);
        listed++;
      };
      for (let i = 0; i < n; i += 7) entry(i + 1);
      for (let q = 0; q < queuedCount; q += 3) entry(queuedBase + q);
      for (let e = 0; e < externalCount; e += 5) entry(externalBase + e);
      for (let i = 0; i < n; i += 49) {
        addEntry.run(i + 1, 2, null);
        twice++;
      }
      addSitemap.run(1, `${SYNTHETIC_ORIGIN}/sitemap.xml`, listed, 0, startAt, startAt);
      addSitemap.run(2, `${SYNTHETIC_ORIGIN}/sitemap-big.xml`, twice, 1, startAt, startAt);
    }
    if ((options.content ?? 0) > 0) writeSyntheticContent(db, options.content!);
  })();
  return {
    db,
    origin: SYNTHETIC_ORIGIN,
    counts: { results: n, urls: n + queuedCount + externalCount + 1, links, queued: queuedCount, external: externalCount + 1 },
  };
}

/** Deterministic pseudo-words for synthetic main texts: `count` of them from `seed`, over a vocabulary of 50,000. */
function wordsOf(seed: number, count: number): string[] {
  const out: string[] = [];
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    out.push(`w${(x % 50_000).toString(36)}`);
  }
  return out;
}

/** The content rows of the first `limit` parsed pages (see SyntheticCrawlOptions.content), fingerprinted as a worker does. */
function writeSyntheticContent(db: Db, limit: number): void {
  const pages = (
    db
      .prepare('SELECT url_id FROM results WHERE h1_count IS NOT NULL ORDER BY url_id LIMIT ?')
      .all(Number.isFinite(limit) ? limit : -1) as {
      url_id: number;
    }[]
  ).map((r) => r.url_id);
  const insert = db.prepare('INSERT OR REPLACE INTO content (url_id, main_words, text_hash, minhash, text) VALUES (?, ?, ?, ?, ?)');
  const texts: string[][] = [];
  pages.forEach((id, i) => {
    let w: string[];
    if (i > 0 && i % 20 === 0) w = texts[i - 7]!;
    else if (i > 0 && i % 13 === 0) w = texts[i - 5]!.map((x, j) => (j % 97 === 3 ? `${x}z` : x));
    else w = wordsOf(i, 150 + ((i * 7919) % 750));
    texts.push(w);
    // Sentences of 12 words, a paragraph (a line) of 5 sentences.
    const lines: string[] = [];
    for (let s = 0; s < w.length; s += 60) {
      const line: string[] = [];
      for (let t = s; t < Math.min(w.length, s + 60); t += 12) line.push(`${w.slice(t, t + 12).join(' ')}.`);
      lines.push(line.join(' '));
    }
    const text = lines.join('\n');
    const f = fingerprint(text);
    insert.run(id, f.words, f.hash, Buffer.from(signatureBytes(f.signature!)), text);
  });
}
