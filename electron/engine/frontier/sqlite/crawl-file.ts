// A crawl is one SQLite file: settings, frontier, results and link graph, readable with any SQLite tool.
import fs from 'node:fs';
import os from 'node:os';
import nodePath from 'node:path';
import Database from 'better-sqlite3';
import { hasSecrets, splitSecrets, type CrawlSecrets } from '../../../../shared/credentials.ts';
import { englishText } from '../../../../shared/messages.ts';
import type { CrawlSettings } from '../../../../shared/settings.ts';
import { serpPixelWidth } from '../../../../shared/serp-width.ts';
import { openSecrets, plainSecretStore, sealSecrets, type SecretStore } from '../../secrets/secret-store.ts';
import { RENDER_COLUMNS } from '../page-outcome.ts';

export type Db = Database.Database;

let nativeBinding: string | undefined;

/**
 * Where better-sqlite3's native addon is loaded from. The CLI and tests use the one npm built for Node; the
 * Electron app points this at a copy built for Electron's ABI (scripts/electron-native.mjs), so neither build
 * breaks the other.
 */
export function useSqliteNativeBinding(path: string | undefined): void {
  nativeBinding = path;
}

/** The native addon path set with useSqliteNativeBinding (a worker thread opening a crawl file uses the same). */
export function sqliteNativeBinding(): string | undefined {
  return nativeBinding;
}

/**
 * Link Score (electron/engine/analysis/link-score.ts) per URL, on each connection: empty until a reader fills it
 * from the computed arrays (link-score-cache.ts), so the results' SQL can always name it.
 */
export const LINK_SCORES_TEMP_TABLE =
  'CREATE TEMP TABLE IF NOT EXISTS link_scores (url_id INTEGER PRIMARY KEY, link_score REAL NOT NULL, unique_inlinks INTEGER NOT NULL)';

/**
 * Duplicate content (issue 18.1, analysis/near-duplicates.ts) per URL the content filters list, on each connection:
 * empty until a reader fills it, so the filters' SQL can always name it.
 */
export const CONTENT_DUPS_TEMP_TABLE = `CREATE TEMP TABLE IF NOT EXISTS content_dups (
  url_id INTEGER PRIMARY KEY,
  exact_count INTEGER NOT NULL,
  match_id INTEGER,
  similarity REAL,
  low INTEGER NOT NULL
)`;

/** Opens a SQLite connection with the native binding in use; every crawl-file connection goes through here. */
function openSqlite(path: string, options: Database.Options = {}): Db {
  const db = new Database(path, nativeBinding ? { ...options, nativeBinding } : options);
  // serp_px(text, font px): a title's or description's width in a search result (the explorer's pixel filters).
  db.function('serp_px', { deterministic: true }, (text: unknown, fontPx: unknown) =>
    typeof text === 'string' ? serpPixelWidth(text, Number(fontPx)) : null,
  );
  return db;
}

const FILE_FORMAT = 'trawl-crawl';
export const SCHEMA_VERSION = 7;

// Added in version 2 (files of version 1 are upgraded in place when opened: see upgradeSchema).
const RESULTS_V2_COLUMNS = [
  'h1_count INTEGER',
  'h2 TEXT',
  'h2_count INTEGER',
  // <html lang>.
  'lang TEXT',
  // hreflang alternates as "en=https://…; de=https://…".
  'hreflang TEXT',
  // Target of <meta http-equiv="refresh">, in normal form.
  'meta_refresh TEXT',
  // "indexable" or "non-indexable"; null for resources and rows without a response.
  'indexability TEXT',
  // Why not indexable: noindex, canonicalised, redirected, client error, server error, blocked by robots.txt...
  'indexability_reason TEXT',
  // The response head as a JSON object of lower-case names (bounded), for the URL's detail view.
  'response_headers TEXT',
];
const LINKS_V2_COLUMNS = [
  // a, area, canonical, next, prev, alternate, hreflang, refresh, redirect, image, script, stylesheet.
  "kind TEXT NOT NULL DEFAULT 'a'",
  'nofollow INTEGER NOT NULL DEFAULT 0',
];
// Links that can never be fetched (mailto:, tel:, javascript:, data:, other schemes), per page, as written.
const UNFETCHABLE_LINKS_TABLE = `CREATE TABLE unfetchable_links (
  from_id INTEGER NOT NULL,
  href    TEXT NOT NULL,
  scheme  TEXT NOT NULL,
  anchor  TEXT,
  PRIMARY KEY (from_id, href)
) WITHOUT ROWID;`;
// Custom extraction: the values each rule (settings.extraction, by name) found on a page, in document order.
const EXTRACTED_TABLE = `CREATE TABLE extracted (
  url_id INTEGER NOT NULL,
  rule   TEXT NOT NULL,
  n      INTEGER NOT NULL,
  value  TEXT NOT NULL,
  PRIMARY KEY (url_id, rule, n)
) WITHOUT ROWID;`;
// Per-host fetch counters kept by the frontier as it records rows, for the hosts report (electron/engine/analysis):
// a GROUP BY over results took 0.4 s at 300,000 rows and grows with the crawl.
const HOSTS_V2_COLUMNS = [
  // results rows of the host's URLs with a response, and without one.
  'crawled INTEGER NOT NULL DEFAULT 0',
  'failed INTEGER NOT NULL DEFAULT 0',
  // results rows with a status of 400 or more.
  'http_errors INTEGER NOT NULL DEFAULT 0',
  // Sum of results.size_bytes.
  'bytes INTEGER NOT NULL DEFAULT 0',
];
// What the analysis views (electron/engine/analysis) filter, count and chart by, so they read index entries rather
// than the wide results rows. Few, since each costs every recorded page a write: results_status also answers the
// media type (HTML or not), depth and response-time charts as a covering scan; the partial ones hold only the rows
// their filter can match: parsed HTML pages (h1_count is set for those only), pages with more or fewer than one h1,
// pages whose robots directives say "no...", URLs outside the scope or only checked, redirect links. Expressions
// are repeated word for word in the queries that use them (SQLite matches an indexed expression by its text).
const ANALYSIS_INDEXES = [
  "CREATE INDEX IF NOT EXISTS results_status ON results(status_code, lower(trim(substr(content_type, 1, instr(content_type || ';', ';') - 1))), crawl_depth, response_time_ms);",
  'CREATE INDEX IF NOT EXISTS results_fetched_at ON results(fetched_at, status_code);',
  'CREATE INDEX IF NOT EXISTS results_title ON results(title) WHERE h1_count IS NOT NULL;',
  'CREATE INDEX IF NOT EXISTS results_description ON results(meta_description) WHERE h1_count IS NOT NULL;',
  'CREATE INDEX IF NOT EXISTS results_canonical ON results(url_id, canonical) WHERE h1_count IS NOT NULL;',
  'CREATE INDEX IF NOT EXISTS results_h1_count ON results(h1_count) WHERE h1_count <> 1;',
  "CREATE INDEX IF NOT EXISTS results_directives ON results(meta_robots, x_robots_tag) WHERE instr(lower(coalesce(meta_robots, '') || ' ' || coalesce(x_robots_tag, '')), 'no') > 0;",
  'CREATE INDEX IF NOT EXISTS results_indexability ON results(indexability, indexability_reason);',
  "CREATE INDEX IF NOT EXISTS urls_external ON urls(id) WHERE state = 4 OR (check_only = 1 AND kind = 'page');",
  "CREATE INDEX IF NOT EXISTS links_redirect_to ON links(to_id) WHERE kind = 'redirect';",
];
// The order claims take from a host's queue: deprioritised URLs last, then first discovered first. urls_queue
// (host_id, id) stays for the queue inspector, which pages through a host's queue in discovery order.
const URLS_CLAIM_ORDER_INDEX = 'CREATE INDEX IF NOT EXISTS urls_claim_order ON urls(host_id, priority, id) WHERE state = 0;';
// Added in version 3: what the analyst calls the crawl (a name, a description) and its tags, kept in the file so they
// travel with it. One row at most in crawl_label; tags compared case-insensitively. Readers check that the tables
// exist (a file of version 2 differs only by them and is read as stored).
const LABEL_TABLES = `CREATE TABLE IF NOT EXISTS crawl_label (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  name        TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  updated_at  TEXT NOT NULL
);
-- In the order the analyst gave them (by rowid).
CREATE TABLE IF NOT EXISTS crawl_tags (
  tag TEXT NOT NULL UNIQUE COLLATE NOCASE
);`;
// Added in version 4: JavaScript rendering (settings.render). A link only the rendered DOM has is marked; a rendered
// page's rendered fields, script errors and resources are kept beside its results row (which keeps the raw fields).
const LINKS_V4_COLUMNS = ['rendered INTEGER NOT NULL DEFAULT 0'];
/** The raw HTML's fields of a rendered page, beside the rendered ones (a results row shows the rendered ones). */
export const RENDERS_RAW_COLUMNS = RENDER_COLUMNS.filter(([name]) => name.startsWith('raw_') && name !== 'raw_indexability').map(
  ([name, type]) => `${name} ${type === 'int' ? 'INTEGER' : 'TEXT'}`,
);
const RENDERS_TABLE = `CREATE TABLE IF NOT EXISTS renders (
  url_id            INTEGER PRIMARY KEY,
  title             TEXT,
  meta_description  TEXT,
  h1                TEXT,
  h1_count          INTEGER,
  h2                TEXT,
  h2_count          INTEGER,
  canonical         TEXT,
  meta_robots       TEXT,
  lang              TEXT,
  -- As results.hreflang: "en=https://…; de=https://…".
  hreflang          TEXT,
  word_count        INTEGER,
  -- Links the rendered DOM has that the raw HTML had not (links.rendered = 1).
  rendered_links    INTEGER NOT NULL DEFAULT 0,
  -- Where a script sent the page (a location change), in normal form.
  js_redirect       TEXT,
  -- JSON lists: console errors and uncaught exceptions (strings), failed and blocked resources ({url, reason}).
  console_errors    TEXT,
  page_errors       TEXT,
  failed_resources  TEXT,
  blocked_resources TEXT,
  render_ms         INTEGER,
  -- Why the render failed or was cut, or null.
  error             TEXT,
  -- The raw HTML's indexability ("indexable" or "non-indexable: reason") when the rendered one differs.
  raw_indexability  TEXT,
  -- The raw HTML's fields (the results row shows the rendered ones when the render succeeded).
  ${RENDERS_RAW_COLUMNS.join(',\n  ')}
);`;
// What the explorer's JavaScript filters (electron/engine/analysis/result-filters.ts) count and list, so they read index
// entries rather than the renders rows (which hold the JSON lists): renders_compared covers the comparisons of rendered
// with raw fields (by render error, then url_id, so a failed render or a successful one is a range); the partial ones
// hold only the pages their filter lists. They cost only rendered pages a write, and a render takes far longer.
const RENDERS_INDEXES = [
  'CREATE INDEX IF NOT EXISTS renders_compared ON renders(error, url_id, title, raw_title, meta_description, raw_meta_description, canonical, raw_canonical, meta_robots, raw_meta_robots);',
  'CREATE INDEX IF NOT EXISTS renders_links ON renders(url_id) WHERE rendered_links > 0;',
  'CREATE INDEX IF NOT EXISTS renders_js_errors ON renders(url_id) WHERE console_errors IS NOT NULL OR page_errors IS NOT NULL;',
  'CREATE INDEX IF NOT EXISTS renders_blocked ON renders(url_id) WHERE blocked_resources IS NOT NULL;',
  'CREATE INDEX IF NOT EXISTS renders_js_redirect ON renders(url_id) WHERE js_redirect IS NOT NULL;',
];
// Added in version 5: XML sitemaps (issue 17). A sitemap is queued, claimed and fetched like a page (through its host's
// politeness and robots.txt) but is not a crawled URL: it has no urls or results row, so no page filter counts it.
// sitemap_urls says which sitemap listed which URL (a urls row, crawled or not), with its lastmod and hreflang
// alternates. Readers check that the tables exist (a file of version 2 to 4 is read as stored).
const SITEMAP_TABLES = `CREATE TABLE IF NOT EXISTS sitemaps (
  id              INTEGER PRIMARY KEY,
  url             TEXT NOT NULL UNIQUE,
  host_id         INTEGER NOT NULL,
  -- robots (a Sitemap: line of robots.txt), guess (/sitemap.xml of a seed's host), given (settings.sitemaps), index
  -- (named by the sitemap index parent_id).
  source          TEXT NOT NULL,
  parent_id       INTEGER,
  -- Sitemap indexes above it (0 for one found directly).
  depth           INTEGER NOT NULL DEFAULT 0,
  -- 0 queued, 1 claimed, 2 read, 3 failed (SitemapState in frontier/model.ts).
  state           INTEGER NOT NULL DEFAULT 0,
  -- urlset, index or text; null when nothing was read.
  kind            TEXT,
  status_code     INTEGER,
  -- Entries read (URLs of a urlset or text sitemap, sitemaps of an index), and those that were not http(s) URLs.
  url_count       INTEGER NOT NULL DEFAULT 0,
  invalid_count   INTEGER NOT NULL DEFAULT 0,
  -- 1: past the protocol's 50,000 URLs, or 50 MB uncompressed; reading stopped there.
  over_url_limit  INTEGER NOT NULL DEFAULT 0,
  over_size_limit INTEGER NOT NULL DEFAULT 0,
  size_bytes      INTEGER,
  response_time_ms INTEGER,
  error           TEXT,
  crashes         INTEGER NOT NULL DEFAULT 0,
  discovered_at   INTEGER NOT NULL,
  fetched_at      INTEGER
);
CREATE INDEX IF NOT EXISTS sitemaps_queue ON sitemaps(host_id, id) WHERE state = 0;
CREATE TABLE IF NOT EXISTS sitemap_urls (
  url_id     INTEGER NOT NULL,
  sitemap_id INTEGER NOT NULL,
  lastmod    TEXT,
  -- As results.hreflang: "en=https://…; de=https://…" (the entry's xhtml:link alternates).
  hreflang   TEXT,
  PRIMARY KEY (url_id, sitemap_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS sitemap_urls_sitemap ON sitemap_urls(sitemap_id);`;
// Added in version 6 (issue 18.3, images): every image a page uses, in every crawl. images holds one row per image URL
// (in normal form, url_key as urls'), whether or not the crawl checks it: its status and size are its urls/results row's
// when it was checked (joined by url_key and url). image_uses holds one row per use on a page (img src, each srcset
// candidate, picture sources; at most MAX_PAGE_IMAGES per page): alt as found (NULL: no alt attribute; '': empty),
// collapsed and cut to IMAGE_ALT_MAX, alt_len its real length, width and height attributes as written (NULL when not
// given). The partial and alt indexes answer the explorer's Images filters from index entries.
export const IMAGE_TABLES = `CREATE TABLE IF NOT EXISTS images (
  id      INTEGER PRIMARY KEY,
  url     TEXT NOT NULL,
  url_key INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS images_key ON images(url_key);
CREATE TABLE IF NOT EXISTS image_uses (
  id       INTEGER PRIMARY KEY,
  page_id  INTEGER NOT NULL,
  image_id INTEGER NOT NULL,
  alt      TEXT,
  alt_len  INTEGER,
  width    TEXT,
  height   TEXT
);
CREATE INDEX IF NOT EXISTS image_uses_page ON image_uses(page_id);
CREATE INDEX IF NOT EXISTS image_uses_image ON image_uses(image_id);
CREATE INDEX IF NOT EXISTS image_uses_alt ON image_uses(alt_len, image_id);
CREATE INDEX IF NOT EXISTS image_uses_no_size ON image_uses(image_id) WHERE width IS NULL OR height IS NULL;`;
// Added in version 6 (issue 18.4, structured data and social tags): per parsed page, one structured_data row per JSON-LD
// block (its error when it could not be parsed) and one for its microdata and its RDFa, with the types found as a JSON
// array; the og:* and twitter:* <meta> tags in social_tags. A page without any has no rows. Readers check that the
// tables exist (a file of version 2 to 5 is read as stored).
const STRUCTURED_DATA_TABLES = `CREATE TABLE IF NOT EXISTS structured_data (
  url_id INTEGER NOT NULL,
  n      INTEGER NOT NULL,
  -- json-ld, microdata or rdfa.
  format TEXT NOT NULL,
  -- JSON array of the types named (schema.org ones by their short name).
  types  TEXT NOT NULL DEFAULT '[]',
  error  TEXT,
  PRIMARY KEY (url_id, n)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS structured_data_format ON structured_data(format, url_id);
CREATE INDEX IF NOT EXISTS structured_data_errors ON structured_data(url_id) WHERE error IS NOT NULL;
CREATE TABLE IF NOT EXISTS social_tags (
  url_id   INTEGER NOT NULL,
  n        INTEGER NOT NULL,
  property TEXT NOT NULL,
  content  TEXT NOT NULL,
  PRIMARY KEY (url_id, n)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS social_tags_property ON social_tags(property, url_id);`;
// Added in version 6: security and hreflang (issue 18.5). security: one row per parsed HTML page, its problems as
// flags (shared/security.ts: one bit per explorer filter, counted from security_flags without reading the rows), the
// headers that protect it and, as JSON lists, its plain-HTTP resources and unsafe target=_blank links. hreflang: one
// row per alternate a page names (the page itself included), its target by urls id, valid = the code is a valid
// hreflang value; keyed by page then target, so "does B name A" is one key look-up, and by target for what names a
// URL. Readers check that the tables exist (a file of version 2 to 5 is read as stored).
const SECURITY_HREFLANG_TABLES = `CREATE TABLE IF NOT EXISTS security (
  url_id                 INTEGER PRIMARY KEY,
  flags                  INTEGER NOT NULL,
  hsts                   TEXT,
  csp                    TEXT,
  x_content_type_options TEXT,
  x_frame_options        TEXT,
  -- JSON [{url, kind}]: resources loaded over http: (at most 50).
  http_resources         TEXT,
  -- JSON [url]: target=_blank links to another origin without rel noopener or noreferrer (at most 50).
  unsafe_links           TEXT
);
CREATE INDEX IF NOT EXISTS security_flags ON security(flags) WHERE flags <> 0;
CREATE TABLE IF NOT EXISTS hreflang (
  url_id    INTEGER NOT NULL,
  target_id INTEGER NOT NULL,
  lang      TEXT NOT NULL,
  valid     INTEGER NOT NULL,
  PRIMARY KEY (url_id, target_id, lang)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS hreflang_target ON hreflang(target_id);
CREATE INDEX IF NOT EXISTS hreflang_invalid ON hreflang(url_id) WHERE valid = 0;`;
// Added in version 7 (issue 18.1, duplicate content): each parsed page's main text (main-content.ts in the worker): its
// words, exact hash (16 hex digits), MinHash signature (shared/content.ts: 128 little-endian 32-bit values) and the text
// itself as it is (the worker does not compress: it is the crawl's critical path), at most 32 K characters, for the detail pane's diff. Readers check that the table exists
// (a file of version 2 to 6 is read as stored: its content filters count 0).
const CONTENT_TABLES = `CREATE TABLE IF NOT EXISTS content (
  url_id     INTEGER PRIMARY KEY,
  main_words INTEGER NOT NULL,
  text_hash  TEXT,
  minhash    BLOB,
  text       TEXT
);
CREATE INDEX IF NOT EXISTS content_hash ON content(text_hash) WHERE text_hash IS NOT NULL;`;
/** The oldest version a read-only caller may read as stored: what it lacks (the label tables) is looked for first. */
const READ_AS_STORED_FROM = 2;
// What the CSV export writes, for anyone opening the file in another SQLite tool.
const CRAWL_RESULTS_VIEW = `CREATE VIEW crawl_results AS
SELECT r.seq AS seq, u.url AS url, u.kind AS kind, r.status_code, r.content_type, r.size_bytes, r.response_time_ms,
       r.crawl_depth, r.indexability, r.indexability_reason, r.title, r.meta_description, r.h1, r.h1_count, r.h2,
       r.h2_count, r.canonical, r.lang, r.hreflang, r.meta_robots, r.x_robots_tag, r.meta_refresh, r.word_count,
       (SELECT count(*) FROM links l WHERE l.to_id = u.id) AS inlinks,
       r.outlinks, r.redirect_url, r.attempts, r.robots_disallowed, r.error
FROM results r JOIN urls u ON u.id = r.url_id;`;

/** Dedup looks URLs up by key (and compare matches them by it). */
export const URLS_KEY_INDEX = 'CREATE INDEX urls_key ON urls(url_key)';

const SCHEMA = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE hosts (
  id             INTEGER PRIMARY KEY,
  origin         TEXT NOT NULL UNIQUE,
  queued         INTEGER NOT NULL DEFAULT 0,
  in_flight      INTEGER NOT NULL DEFAULT 0,
  next_fetch_at  INTEGER NOT NULL DEFAULT 0,
  robots_state   INTEGER NOT NULL DEFAULT 0,
  robots_status  INTEGER,
  robots_txt     TEXT,
  robots_error   TEXT,
  -- robots.txt fetches that failed (5xx or no response) so far; retried before the host is given up.
  robots_failures INTEGER NOT NULL DEFAULT 0,
  crawl_delay_ms INTEGER NOT NULL DEFAULT 0,
  last_fetch_ms  INTEGER,
${HOSTS_V2_COLUMNS.map((c) => `  ${c}`).join(',\n')}
);
-- Claiming walks only hosts that have queued URLs, earliest allowed fetch first.
CREATE INDEX hosts_ready ON hosts(next_fetch_at, id) WHERE queued > 0;
CREATE TABLE urls (
  id            INTEGER PRIMARY KEY,
  url           TEXT NOT NULL,
  -- urlKey(url): dedup looks rows up by this small number and then compares the text.
  url_key       INTEGER NOT NULL,
  host_id       INTEGER NOT NULL REFERENCES hosts(id),
  depth         INTEGER NOT NULL,
  state         INTEGER NOT NULL,
  via_id        INTEGER,
  crashes       INTEGER NOT NULL DEFAULT 0,
  -- Fetches made so far (retries included).
  attempts      INTEGER NOT NULL DEFAULT 0,
  -- Redirects that led here from the last URL found as a link (0 for links and seeds).
  redirect_hops INTEGER NOT NULL DEFAULT 0,
  discovered_at INTEGER NOT NULL,
  -- page, image, script or stylesheet: how it was first linked (a page link wins over a resource).
  kind          TEXT NOT NULL DEFAULT 'page',
  -- 1: fetched for its status only (a resource, or an out-of-scope link checked), never parsed for links.
  check_only    INTEGER NOT NULL DEFAULT 0,
  -- 0 normal; 1 deprioritised (matched a pattern the analyst pushed back): claimed after its host's others.
  priority      INTEGER NOT NULL DEFAULT 0
);
${URLS_KEY_INDEX};
-- The queue: per host, first discovered first (breadth-first). Partial, so claiming costs the same at any size.
CREATE INDEX urls_queue ON urls(host_id, id) WHERE state = 0;
${URLS_CLAIM_ORDER_INDEX}
CREATE INDEX urls_claimed ON urls(id) WHERE state = 1;
CREATE TABLE results (
  seq              INTEGER PRIMARY KEY,
  url_id           INTEGER NOT NULL UNIQUE REFERENCES urls(id),
  status_code      INTEGER,
  content_type     TEXT,
  size_bytes       INTEGER,
  response_time_ms INTEGER,
  crawl_depth      INTEGER NOT NULL,
  title            TEXT,
  meta_description TEXT,
  h1               TEXT,
  canonical        TEXT,
  word_count       INTEGER,
  outlinks         INTEGER NOT NULL DEFAULT 0,
  redirect_url     TEXT,
  error            TEXT,
  -- Fetches it took to reach this row (1 unless retried).
  attempts         INTEGER NOT NULL DEFAULT 1,
  meta_robots      TEXT,
  x_robots_tag     TEXT,
  -- 1 when robots.txt disallows the URL and it was fetched anyway (robots mode "report").
  robots_disallowed INTEGER NOT NULL DEFAULT 0,
  fetched_at       INTEGER NOT NULL,
${RESULTS_V2_COLUMNS.map((c) => `  ${c}`).join(',\n')}
);
-- The link graph: one row per linking page and target, with the first anchor text seen.
CREATE TABLE links (
  from_id INTEGER NOT NULL,
  to_id   INTEGER NOT NULL,
  anchor  TEXT,
  ${LINKS_V2_COLUMNS.join(',\n  ')},
  ${LINKS_V4_COLUMNS.join(',\n  ')},
  PRIMARY KEY (from_id, to_id)
) WITHOUT ROWID;
CREATE INDEX links_to ON links(to_id);
${UNFETCHABLE_LINKS_TABLE}
${EXTRACTED_TABLE}
${CRAWL_RESULTS_VIEW}
${ANALYSIS_INDEXES.join('\n')}
${LABEL_TABLES}
${RENDERS_TABLE}
${RENDERS_INDEXES.join('\n')}
${SITEMAP_TABLES}
${IMAGE_TABLES}
${STRUCTURED_DATA_TABLES}
${SECURITY_HREFLANG_TABLES}
${CONTENT_TABLES}
`;

/** A crawl file that cannot be opened or is not a Trawl crawl: the message says which and why. */
export class CrawlFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CrawlFileError';
  }
}

function tune(db: Db): void {
  db.pragma('journal_mode = WAL');
  // In WAL mode NORMAL loses nothing on a process crash (only on power loss), and commits without fsync.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -32000');
}

/** A crawl file and its -wal and -shm are readable by their owner only: they hold the crawl (and its credentials). */
export const CRAWL_FILE_MODE = 0o600;

/**
 * Sets a crawl file, and its -wal and -shm when there are any, to CRAWL_FILE_MODE, whatever the umask made them
 * (files of older versions were 0644). Best effort: a file of another user is left as it is.
 */
export function restrictCrawlFile(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      fs.chmodSync(file, CRAWL_FILE_MODE);
    } catch {
      // missing (no -wal yet), or not ours
    }
  }
}

/**
 * Creates a new crawl file; refuses to overwrite an existing one. The file is created 0600 before SQLite opens it
 * (SQLite then gives its -wal and -shm the same mode), and its credentials are sealed by `secrets`, apart from the
 * other settings (writeSettings).
 */
export function createCrawlFile(path: string, settings: CrawlSettings, secrets: SecretStore = plainSecretStore): Db {
  try {
    fs.closeSync(fs.openSync(path, 'wx', CRAWL_FILE_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new CrawlFileError(`${path} already exists; use --resume to continue that crawl, or choose another file`);
    }
    throw err;
  }
  fs.chmodSync(path, CRAWL_FILE_MODE); // the mode given to open is masked by the umask
  const db = openSqlite(path);
  try {
    tune(db);
    db.transaction(() => {
      db.exec(SCHEMA);
      const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      put.run('format', FILE_FORMAT);
      put.run('schema_version', String(SCHEMA_VERSION));
      writeSettings(db, settings, secrets);
      put.run('created_at', new Date().toISOString());
      put.run('state', 'preparing');
    })();
    db.exec(LINK_SCORES_TEMP_TABLE);
    db.exec(CONTENT_DUPS_TEMP_TABLE);
  } catch (err) {
    db.close();
    throw err;
  }
  restrictCrawlFile(path);
  return db;
}

export interface OpenCrawlFileOptions {
  /** Only to read: the file is never written (an older version's file is read through an upgraded copy). */
  readonly?: boolean;
  /**
   * With readonly: an older version's file is read as it is, not through an upgraded copy, by a caller that reads
   * only what every version has (meta, urls.state, hosts.queued), such as the crawls list.
   */
  asStored?: boolean;
}

/** Opens an existing crawl file, checking that it is one and that this version can read it. */
export function openCrawlFile(path: string, options: OpenCrawlFileOptions = {}): Db {
  if (!fs.existsSync(path)) throw new CrawlFileError(`${path} does not exist`);
  if (!options.readonly) restrictCrawlFile(path);
  let db: Db;
  try {
    db = openSqlite(path, { readonly: options.readonly ?? false, fileMustExist: true });
  } catch (err) {
    throw new CrawlFileError(`${path} cannot be opened: ${(err as Error).message}`);
  }
  try {
    const format = readMeta(db, 'format');
    if (format !== FILE_FORMAT) throw new CrawlFileError(englishText('notCrawlFile', { file: path }));
    let version = Number(readMeta(db, 'schema_version'));
    if (version < SCHEMA_VERSION && version >= 1) {
      // An older file opened to crawl is upgraded in place (columns added, nothing removed). One opened only to
      // read (view, export, compare) is never written: it is read through an upgraded temporary copy.
      if (!options.readonly) upgradeSchema(db, version);
      else if (!options.asStored && version < READ_AS_STORED_FROM) db = upgradedCopy(db, version);
      version = SCHEMA_VERSION;
    }
    if (version !== SCHEMA_VERSION) {
      throw new CrawlFileError(`${path} has crawl file version ${version}; this Trawl reads version ${SCHEMA_VERSION}`);
    }
    if (!options.readonly) tune(db);
    db.exec(LINK_SCORES_TEMP_TABLE);
    db.exec(CONTENT_DUPS_TEMP_TABLE);
  } catch (err) {
    db.close();
    if (err instanceof CrawlFileError) throw err;
    throw new CrawlFileError(englishText('notCrawlFileWhy', { file: path, error: (err as Error).message }));
  }
  return db;
}

/**
 * A read-only connection to an upgraded copy of `db` (an older version's file, opened read-only; closed here), in a
 * private temporary folder that goes when the connection is closed (or the process exits).
 */
function upgradedCopy(db: Db, version: number): Db {
  const { dir, remove } = temporaryCrawlFolder('trawl-upgraded-');
  const copy = nodePath.join(dir, nodePath.basename(db.name));
  try {
    db.exec(`VACUUM INTO ${sqlString(copy)}`);
    db.close();
    const rw = openSqlite(copy);
    try {
      upgradeSchema(rw, version, db.name);
    } finally {
      rw.close();
    }
    const upgraded = openSqlite(copy, { readonly: true, fileMustExist: true });
    const close = upgraded.close.bind(upgraded);
    upgraded.close = () => {
      close();
      remove();
      return upgraded;
    };
    return upgraded;
  } catch (err) {
    if (db.open) db.close();
    remove();
    throw err;
  }
}

/**
 * A private folder (mode 0700) in the system's temporary folder for a copy of a crawl: removed by `remove()`, or when
 * the process exits if it is still there (a copy holds the crawl's data).
 */
export function temporaryCrawlFolder(prefix: string): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), prefix));
  temporaryCopies.add(dir);
  return {
    dir,
    remove() {
      temporaryCopies.delete(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const temporaryCopies = new Set<string>();
process.once('exit', () => {
  for (const dir of temporaryCopies) fs.rmSync(dir, { recursive: true, force: true });
});

function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** Brings a file of an older schema version up to SCHEMA_VERSION in one transaction: all or nothing. */
function upgradeSchema(db: Db, from: number, name: string = db.name): void {
  try {
    upgradeSteps(db, from);
  } catch (err) {
    throw new CrawlFileError(
      `${name} has crawl file version ${from} and could not be upgraded to ${SCHEMA_VERSION} (nothing was changed): ${(err as Error).message}`,
    );
  }
}

function upgradeSteps(db: Db, from: number): void {
  db.transaction(() => {
    if (from < 2) {
      addColumns(db, 'urls', [
        "kind TEXT NOT NULL DEFAULT 'page'",
        'check_only INTEGER NOT NULL DEFAULT 0',
        'priority INTEGER NOT NULL DEFAULT 0',
      ]);
      db.exec(URLS_CLAIM_ORDER_INDEX);
      addColumns(db, 'results', RESULTS_V2_COLUMNS);
      addColumns(db, 'links', LINKS_V2_COLUMNS);
      db.exec(UNFETCHABLE_LINKS_TABLE.replace('CREATE TABLE', 'CREATE TABLE IF NOT EXISTS'));
      db.exec(EXTRACTED_TABLE.replace('CREATE TABLE', 'CREATE TABLE IF NOT EXISTS'));
      db.exec('DROP VIEW IF EXISTS crawl_results');
      db.exec(CRAWL_RESULTS_VIEW);
      addColumns(db, 'hosts', HOSTS_V2_COLUMNS);
      db.exec(`UPDATE hosts SET crawled = t.crawled, failed = t.failed, http_errors = t.http_errors, bytes = t.bytes
        FROM (SELECT u.host_id, count(r.status_code) AS crawled, count(*) - count(r.status_code) AS failed,
                     coalesce(sum(r.status_code >= 400), 0) AS http_errors, coalesce(sum(r.size_bytes), 0) AS bytes
              FROM results r JOIN urls u ON u.id = r.url_id GROUP BY u.host_id) AS t
        WHERE hosts.id = t.host_id`);
      for (const index of ANALYSIS_INDEXES) db.exec(index);
    }
    if (from < 3) db.exec(LABEL_TABLES);
    if (from < 4) {
      addColumns(db, 'links', LINKS_V4_COLUMNS);
      db.exec(RENDERS_TABLE);
    }
    if (from < 5) db.exec(SITEMAP_TABLES);
    // Issue 18.3: images (an older crawl has none recorded; its Images filters are empty).
    if (from < 6) db.exec(IMAGE_TABLES);
    if (from < 6) db.exec(STRUCTURED_DATA_TABLES);
    if (from < 6) db.exec(SECURITY_HREFLANG_TABLES);
    // Issue 18.1: duplicate content (an older crawl has no main texts recorded; its Content filters are empty).
    if (from < 7) db.exec(CONTENT_TABLES);
    // A version 4 file of a build before the raw fields were kept beside the rendered ones has them added (empty).
    addColumns(db, 'renders', RENDERS_RAW_COLUMNS);
    db.exec('DROP INDEX IF EXISTS renders_fields');
    for (const index of RENDERS_INDEXES) db.exec(index);
    writeMeta(db, 'schema_version', String(SCHEMA_VERSION));
    writeMeta(db, `upgraded_from_v${from}_at`, new Date().toISOString());
  })();
}

/** Adds the columns a table lacks (a file may hold some already, from a build between two versions). */
function addColumns(db: Db, table: string, columns: readonly string[]): void {
  const have = new Set((db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name));
  for (const column of columns) if (!have.has(column.split(' ')[0]!)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column}`);
}

/**
 * Closes a crawl file's writing connection so that the `.trawl` alone is the whole crawl: the WAL is checkpointed
 * into it and truncated first. SQLite does that by itself only when the last connection closes, and a reader (the
 * results view, an analysis) is often still open then, so a copy of the file alone missed the last pages and its
 * final state. A checkpoint that fails loses nothing (the rows stay in the WAL, read with the file), so it does not
 * stop the close.
 */
export function closeCrawlFile(db: Db): void {
  if (!db.open) return;
  try {
    if (!db.readonly) db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // The WAL keeps what the checkpoint could not move.
  } finally {
    db.close();
  }
}

/** A value of the meta table (settings, state, format...), null when the file has none. */
export function readMeta(db: Db, key: string): string | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function writeMeta(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

/**
 * Writes the settings: meta 'settings' without the credentials, and meta 'secrets' with them, sealed by `secrets`
 * (removed when there are none). The credentials never change while a crawl runs, so a live change of settings
 * (saveSettings) writes the settings alone (writeSettings with no store).
 */
export function writeSettings(db: Db, settings: CrawlSettings, secrets?: SecretStore): void {
  const split = splitSecrets(settings);
  writeMeta(db, 'settings', JSON.stringify(split.settings));
  if (!secrets) return;
  if (hasSecrets(settings)) writeMeta(db, 'secrets', sealSecrets(secrets, split.secrets));
  else db.prepare("DELETE FROM meta WHERE key = 'secrets'").run();
}

/**
 * The crawl's credentials, opened with `secrets`: null when the file has none apart (a file of an older version
 * keeps them in its settings). Throws a CrawlFileError when `secrets` cannot open them.
 */
export function readSecrets(db: Db, secrets: SecretStore): CrawlSecrets | null {
  const raw = readMeta(db, 'secrets');
  if (raw === null) return null;
  try {
    return openSecrets(secrets, raw);
  } catch (err) {
    throw new CrawlFileError(err instanceof Error ? err.message : String(err));
  }
}

/** The settings stored in the file, without the credentials (see readSecrets). */
export function readStoredSettings(db: Db): unknown {
  const raw = readMeta(db, 'settings');
  if (raw === null) throw new CrawlFileError('the crawl file has no settings');
  return JSON.parse(raw);
}
