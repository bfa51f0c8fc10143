// The PostgreSQL store's tables. One database holds any number of crawls: a registry (schema `trawl`, table
// `crawls`: one row per crawl with its settings and the cluster's commands) and, per crawl, a schema of its own
// (`trawl_<crawl id>`) with the same tables as a SQLite crawl file (hosts, urls, results, links, unfetchable_links,
// extracted, renders, the crawl_results view) plus what a cluster needs: leases on urls and robots.txt fetches, and the
// nodes working on the crawl. Column names and meanings follow sqlite/crawl-file.ts (states: model.ts), so the same queries read both.
import { RENDER_COLUMNS, SECURITY_COLUMNS } from '../page-outcome.ts';

/** The version of the tables below; a node refuses a crawl made with another. */
export const PG_SCHEMA_VERSION = 1;

/** Crawl IDs are part of a schema name: lower-case letters, digits and underscores, starting with a letter. */
export const CRAWL_ID_PATTERN = /^[a-z][a-z0-9_]{0,39}$/;

export function crawlSchema(crawlId: string): string {
  const problem = crawlIdProblem(crawlId);
  if (problem !== null) throw new Error(problem);
  return `trawl_${crawlId}`;
}

/** What is wrong with a crawl ID, or null when it has the form of one. */
export function crawlIdProblem(crawlId: string): string | null {
  return CRAWL_ID_PATTERN.test(crawlId)
    ? null
    : `invalid crawl ID "${crawlId}": use lower-case letters, digits and _ (starting with a letter, at most 40)`;
}

/** The NOTIFY channel of a crawl: nodes and observers LISTEN on it for work, commands and the end. */
export function crawlChannel(crawlId: string): string {
  return `trawl_${crawlId}`;
}

/** Serialises registry creation between nodes starting at the same moment (CREATE ... IF NOT EXISTS can race). */
export const REGISTRY_LOCK = 0x7472_6177; // "traw"

/** The registry's columns added since its first version: additive and idempotent, run by nodes and observers. */
export const REGISTRY_UPGRADE_DDL = `ALTER TABLE trawl.crawls ADD COLUMN IF NOT EXISTS secrets text;
ALTER TABLE trawl.crawls ADD COLUMN IF NOT EXISTS live_excludes text NOT NULL DEFAULT '[]';`;

export const REGISTRY_DDL = `
CREATE SCHEMA IF NOT EXISTS trawl;
CREATE TABLE IF NOT EXISTS trawl.crawls (
  id             text PRIMARY KEY,
  schema_version integer NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  -- The crawl's settings as JSON (CrawlSettings), with what was changed live (URLs/s cap, excludes), without the
  -- credentials (basic authentication, custom headers): those are in secrets.
  settings       text NOT NULL,
  -- The credentials sealed with the cluster key (secrets/cluster-key.ts), or NULL when the crawl has none.
  secrets        text,
  -- What the cluster is told to do: running, paused, stopped (nodes leave; --join continues it) or finished.
  state          text NOT NULL DEFAULT 'running',
  -- Crawl threads of the whole cluster, shared out over the live nodes.
  threads        integer NOT NULL,
  -- How long a claimed URL stays a node's without the node renewing it; after that any node may take it.
  lease_ms       integer NOT NULL,
  finish_reason  text,
  finished_at    timestamptz,
  finished_by    text,
  -- Patterns pushed to the back of their host's queue (JSON array), as the SQLite file's meta 'deprioritised'.
  deprioritised  text NOT NULL DEFAULT '[]',
  -- Exclude patterns added while the crawl ran (JSON array; settings.exclude has them too), for observers to show.
  live_excludes  text NOT NULL DEFAULT '[]'
);
-- A registry made before credentials were sealed apart, or before live excludes were kept apart.
${REGISTRY_UPGRADE_DDL}`;

// JavaScript rendering (settings.render), as the crawl file's version 4: a rendered page's rendered fields beside the
// raw HTML's (its results row shows the rendered ones), script errors and resources; the lists are JSON text, as in
// the file. The columns are RENDER_COLUMNS', which both stores write.
const renderColumnDdl = ([name, type]: (typeof RENDER_COLUMNS)[number]): string =>
  name === 'url_id'
    ? 'url_id bigint PRIMARY KEY'
    : name === 'rendered_links'
      ? 'rendered_links integer NOT NULL DEFAULT 0'
      : `${name} ${type === 'int' ? 'integer' : type}`;
const RENDERS_TABLE = `CREATE TABLE IF NOT EXISTS renders (
  ${RENDER_COLUMNS.map(renderColumnDdl).join(',\n  ')}
);`;
/** The raw HTML's columns, which a renders table of a build before them lacks. */
const RENDERS_RAW_DDL = RENDER_COLUMNS.filter(([name]) => name.startsWith('raw_') && name !== 'raw_indexability')
  .map((c) => `ALTER TABLE renders ADD COLUMN IF NOT EXISTS ${renderColumnDdl(c)};`)
  .join('\n');
/** A column the renders table has only since the raw HTML's fields were kept (upgradeCrawlTables checks for it). */
export const RENDERS_NEWEST_COLUMN = RENDER_COLUMNS[RENDER_COLUMNS.length - 1]![0];

// Images (issue 18.3), as the crawl file's version 6 (sqlite/crawl-file.ts IMAGE_TABLES): one row per image URL
// (deduplicated by md5, as urls), one per use on a page with its alt (NULL: none; '': empty), alt length and dimensions.
export const PG_IMAGE_TABLES = `CREATE TABLE IF NOT EXISTS images (
  id      bigserial PRIMARY KEY,
  url     text NOT NULL,
  url_md5 uuid GENERATED ALWAYS AS (md5(url)::uuid) STORED UNIQUE
);
CREATE TABLE IF NOT EXISTS image_uses (
  id       bigserial PRIMARY KEY,
  page_id  bigint NOT NULL,
  image_id bigint NOT NULL,
  alt      text,
  alt_len  integer,
  width    text,
  height   text
);
CREATE INDEX IF NOT EXISTS image_uses_page ON image_uses(page_id);
CREATE INDEX IF NOT EXISTS image_uses_image ON image_uses(image_id);`;

// Issue 18.4: structured data and social tags, as the crawl file's version 6 (types a JSON array as text).
const STRUCTURED_DATA_TABLES = `CREATE TABLE IF NOT EXISTS structured_data (
  url_id bigint NOT NULL,
  n      integer NOT NULL,
  format text NOT NULL,
  types  text NOT NULL DEFAULT '[]',
  error  text,
  PRIMARY KEY (url_id, n)
);
CREATE INDEX IF NOT EXISTS structured_data_format ON structured_data(format, url_id);
CREATE TABLE IF NOT EXISTS social_tags (
  url_id   bigint NOT NULL,
  n        integer NOT NULL,
  property text NOT NULL,
  content  text NOT NULL,
  PRIMARY KEY (url_id, n)
);`;

// XML sitemaps (issue 17) in a cluster crawl (issue 19), as the crawl file's version 5 (sqlite/crawl-file.ts
// SITEMAP_TABLES): its queue of sitemaps and the URLs each listed. A sitemap being read is leased to its node as a
// URL is (lease_node, lease_until), so a node that dies loses none. hosts.queued counts a host's queued sitemaps with
// its URLs, as the file's does (the crawl is not complete while one waits); hosts.sitemaps_queued counts them alone, so
// a claim looks in this table only at the hosts that have some.
const SITEMAP_TABLES = `CREATE TABLE IF NOT EXISTS sitemaps (
  id               bigserial PRIMARY KEY,
  url              text NOT NULL,
  url_md5          uuid GENERATED ALWAYS AS (md5(url)::uuid) STORED UNIQUE,
  host_id          bigint NOT NULL,
  source           text NOT NULL,
  parent_id        bigint,
  depth            integer NOT NULL DEFAULT 0,
  state            smallint NOT NULL DEFAULT 0,
  kind             text,
  status_code      integer,
  url_count        integer NOT NULL DEFAULT 0,
  invalid_count    integer NOT NULL DEFAULT 0,
  over_url_limit   integer NOT NULL DEFAULT 0,
  over_size_limit  integer NOT NULL DEFAULT 0,
  size_bytes       bigint,
  response_time_ms integer,
  error            text,
  crashes          integer NOT NULL DEFAULT 0,
  discovered_at    bigint NOT NULL,
  fetched_at       bigint,
  lease_node       text,
  lease_until      bigint
);
CREATE INDEX IF NOT EXISTS sitemaps_queue ON sitemaps(host_id, id) WHERE state = 0;
CREATE INDEX IF NOT EXISTS sitemaps_leased ON sitemaps(lease_until) WHERE state = 1;
CREATE TABLE IF NOT EXISTS sitemap_urls (
  url_id     bigint NOT NULL,
  sitemap_id bigint NOT NULL,
  lastmod    text,
  hreflang   text,
  PRIMARY KEY (url_id, sitemap_id)
);
CREATE INDEX IF NOT EXISTS sitemap_urls_sitemap ON sitemap_urls(sitemap_id);
ALTER TABLE hosts ADD COLUMN IF NOT EXISTS sitemaps_queued integer NOT NULL DEFAULT 0;`;
/** A table a crawl's schema has only since sitemaps were read into the store (upgradeCrawlTables checks for it). */
export const NEWEST_CRAWL_TABLE = 'sitemap_urls';

// Security and hreflang (issue 18.5), as the crawl file's version 6 (sqlite/crawl-file.ts): a parsed page's security
// flags, headers and JSON lists; the alternates each page names, by target id.
const SECURITY_HREFLANG_TABLES = `CREATE TABLE IF NOT EXISTS security (
  ${SECURITY_COLUMNS.map(([name, type]) => (name === 'url_id' ? 'url_id bigint PRIMARY KEY' : name === 'flags' ? 'flags integer NOT NULL' : `${name} ${type}`)).join(',\n  ')}
);
CREATE INDEX IF NOT EXISTS security_flags ON security(flags) WHERE flags <> 0;
CREATE TABLE IF NOT EXISTS hreflang (
  url_id    bigint NOT NULL,
  target_id bigint NOT NULL,
  lang      text NOT NULL,
  valid     integer NOT NULL,
  PRIMARY KEY (url_id, target_id, lang)
);
CREATE INDEX IF NOT EXISTS hreflang_target ON hreflang(target_id);
CREATE INDEX IF NOT EXISTS hreflang_invalid ON hreflang(url_id) WHERE valid = 0;`;

// Duplicate content (issue 18.1), as the crawl file's version 7: a parsed page's main-text fingerprint and text.
const CONTENT_TABLE = `CREATE TABLE IF NOT EXISTS content (
  url_id     bigint PRIMARY KEY,
  main_words integer NOT NULL,
  text_hash  text,
  minhash    bytea,
  text       text
);`;

// Issue 19.3, the store's plans at a million URLs (BENCHMARKS.md, "PostgreSQL store at a million URLs"): the queue
// index carries the columns the queue inspector shows, so grouping a host's queue by prefix and searching the queue
// read the index alone (the queued rows are scattered over the whole urls table: 50,000 of one host touched 20,000 of
// its pages). It replaces urls_queue (same key, same rows: no more entries to write); a store made before it gets it
// when a node joins (CRAWL_UPGRADE_DDL), which builds it from the queued rows, and loses the narrower one; so does
// results_status, replaced by results_status_seq (PG_ANALYSIS_INDEXES).
const QUEUE_INDEX = `CREATE INDEX IF NOT EXISTS urls_queue_rows ON urls(host_id, id)
  INCLUDE (url, priority, depth, kind, check_only, attempts, discovered_at) WHERE state = 0;`;
/** The index a crawl's schema has only since issue 19.3's plan checks (upgradeCrawlTables checks for it). */
export const NEWEST_CRAWL_INDEX = 'urls_queue_rows';
const PLAN_INDEXES_UPGRADE = `${QUEUE_INDEX}
DROP INDEX IF EXISTS urls_queue;
DROP INDEX IF EXISTS results_status;`;

/**
 * How many characters of a URL the store's index of URLs in sort order holds (urls_url_order: the explorer's and the
 * Results table's sort by URL, result-rows.ts): a btree entry has a size limit, and a URL may be longer.
 */
export const URL_ORDER_PREFIX = 512;

// Issue 19, the charts and the site structure on the store (h-charts): every chart counts results rows up to a seq
// (their status, depth, response time, fetch time) and the structure's first fold joins each URL to its row's status,
// depth and indexability. The crawl file reads those from its narrow results_status and results_fetched_at; here one
// index carries them all, keyed by url_id so the structure reads urls and it in the same order, a page at a time.
// Without it each chart read the whole results table, response headers and all (half a gigabyte at a million URLs).
const CHARTS_INDEX = `CREATE INDEX IF NOT EXISTS results_charts ON results(url_id)
  INCLUDE (seq, status_code, crawl_depth, response_time_ms, fetched_at, indexability);`;

// The broken internal links filter (result-filters.ts, BROKEN_STATUS and BROKEN_INTERNAL): the results rows with an
// error status or none, and the out-of-scope pages only checked, each a partial index of the rows it is about, whose
// predicate is the filter's. Without them its count read the status index's range and then each row (15,000 pages
// of results at a million URLs), and every external URL's row to find the few checked pages: 0.7-1.1 s, now 46-53 ms.
const BROKEN_INDEXES = `CREATE INDEX IF NOT EXISTS results_broken ON results(url_id) WHERE status_code >= 400 OR status_code IS NULL;
CREATE INDEX IF NOT EXISTS urls_checked_pages ON urls(id) WHERE check_only = 1 AND kind = 'page';`;

// The canonical links, at most one a page (result-filters.ts, CANONICAL_NON_INDEXABLE): the pages canonicalised to a
// URL that cannot be indexed are found from them as one set, not by a check of every parsed page.
const CANONICAL_LINKS_INDEX = "CREATE INDEX IF NOT EXISTS links_canonical ON links(from_id) INCLUDE (to_id) WHERE kind = 'canonical';";

// The HTML filter (result-filters.ts, MEDIA_TYPE_SQL and HTML_SQL: keep the two the same), most of a crawl's rows: its
// count walked the narrow index and computed each row's media type, 308-329 ms at a million URLs; from this one
// alone, 48-49 ms.
const HTML_INDEX = `CREATE INDEX IF NOT EXISTS results_html ON results(seq)
  WHERE lower(trim(substr(content_type, 1, strpos(content_type || ';', ';') - 1))) IN ('text/html', 'application/xhtml+xml');`;

// Issue 19, the explorer on the store (h-s19views): the crawl file's analysis indexes (sqlite/crawl-file.ts
// ANALYSIS_INDEXES and friends) that the explorer's filters read, on columns whose entries stay small. Titles,
// descriptions and canonicals are not indexed here: a btree entry has a size limit a page's text may pass (the
// crawl file has none), and a failed insert would stop a node. Additive and idempotent: CRAWL_UPGRADE_DDL adds them
// to a crawl made before them.
// results_status_seq is keyed by status and seq, the order the explorer and the Results table sort by status in (ties
// by seq): their first page by status walks 100 entries of it. Keyed by status alone (results_status, which it
// replaces), PostgreSQL had to read and sort every row of the largest status to find the first 100 (0.53-0.71 s at
// a million URLs). It still answers every status range the filters and reports read.
export const PG_ANALYSIS_INDEXES = `CREATE INDEX IF NOT EXISTS results_status_seq ON results(status_code, seq);
CREATE INDEX IF NOT EXISTS results_parsed ON results(url_id) WHERE h1_count IS NOT NULL;
CREATE INDEX IF NOT EXISTS results_h1_count ON results(h1_count) WHERE h1_count <> 1;
CREATE INDEX IF NOT EXISTS results_directives ON results(url_id)
  WHERE strpos(lower(coalesce(meta_robots, '') || ' ' || coalesce(x_robots_tag, '')), 'no') > 0;
CREATE INDEX IF NOT EXISTS results_indexability ON results(indexability);
CREATE INDEX IF NOT EXISTS urls_external ON urls(id) WHERE state = 4 OR (check_only = 1 AND kind = 'page');
${BROKEN_INDEXES}
${CANONICAL_LINKS_INDEX}
${HTML_INDEX}
CREATE INDEX IF NOT EXISTS image_uses_alt ON image_uses(alt_len, image_id);
CREATE INDEX IF NOT EXISTS image_uses_no_size ON image_uses(image_id) WHERE width IS NULL OR height IS NULL;
CREATE INDEX IF NOT EXISTS structured_data_errors ON structured_data(url_id) WHERE error IS NOT NULL;
CREATE INDEX IF NOT EXISTS social_tags_property ON social_tags(property, url_id);
CREATE INDEX IF NOT EXISTS renders_links ON renders(url_id) WHERE rendered_links > 0;
CREATE INDEX IF NOT EXISTS renders_js_errors ON renders(url_id) WHERE console_errors IS NOT NULL OR page_errors IS NOT NULL;
CREATE INDEX IF NOT EXISTS renders_blocked ON renders(url_id) WHERE blocked_resources IS NOT NULL;
CREATE INDEX IF NOT EXISTS renders_js_redirect ON renders(url_id) WHERE js_redirect IS NOT NULL;
${CHARTS_INDEX}
CREATE INDEX IF NOT EXISTS urls_url_order ON urls ((left(lower(url), ${URL_ORDER_PREFIX}) COLLATE "C"));`;
// Issue 19.3, the store's sorts and text search at a million URLs: a sort by title, size, words, outlinks or attempts,
// a search of titles and errors, the title and description filters and the badges' passes over them read every
// results row, and the rows are wide (the response headers are most of their 650 bytes: half a gigabyte at 800,000
// rows). These indexes keep a narrow copy of those columns in fetch order (78 MB and 61 MB there), which they read
// instead: first pages by size 240-290 ms -> 114-119 ms, by title 300-410 -> 220-240 ms, a rare text's search
// 600-860 -> 290-350 ms, a title filter's 250-520 -> 70-180 ms (BENCHMARKS.md). Their entries fit a btree's 2,704
// bytes because a results row's texts are bounded (shared/stored-text.ts, cut in page-outcome.ts). A crawl recorded
// before the bound may hold a longer text: its upgrade leaves that index out (NARROW_INDEXES_UPGRADE) rather than
// refuse the node, and its reads stay as they were.
const NARROW_INDEXES = {
  results_narrow: 'url_id, size_bytes, word_count, outlinks, attempts, h1_count, title_px, title, error, content_type',
  results_descriptions: 'h1_count, description_px, meta_description',
} as const;
const narrowIndex = (name: keyof typeof NARROW_INDEXES) =>
  `CREATE INDEX IF NOT EXISTS ${name} ON results(seq) INCLUDE (${NARROW_INDEXES[name]});`;
const NARROW_INDEX_NAMES = Object.keys(NARROW_INDEXES) as (keyof typeof NARROW_INDEXES)[];
const NARROW_INDEXES_DDL = NARROW_INDEX_NAMES.map(narrowIndex).join('\n');
const NARROW_INDEXES_UPGRADE = NARROW_INDEX_NAMES.map(
  (name) => `DO $$ BEGIN
  ${narrowIndex(name)}
EXCEPTION WHEN program_limit_exceeded THEN NULL;
END $$;`,
).join('\n');

/**
 * The indexes upgradeCrawlTables checks for one by one: PG_ANALYSIS_INDEXES' and the narrow ones (a crawl whose long
 * texts keep one out is upgraded again, finding them again, at each join).
 */
export const PG_ANALYSIS_INDEX_NAMES: readonly string[] = [
  ...[...PG_ANALYSIS_INDEXES.matchAll(/CREATE INDEX IF NOT EXISTS (\w+)/g)].map((m) => m[1]!),
  ...NARROW_INDEX_NAMES,
];

// The duplicate title and description filters (result-filters.ts, duplicatedByHash and duplicateCount): how many
// parsed pages have each hash, kept by PostgreSQL as results rows are inserted, whoever inserts them (a trigger on
// each statement's new rows; results rows are never updated or deleted). The filters read the hashes of more than one
// page from a partial index of those alone: at a million URLs the first page of duplicate titles grouped the 750,000
// hashes of results_title_hash twice (its rows and its count), 281-447 ms; from these, 12-32 ms. The upserts go in hash
// order, so two nodes recording pages with the same titles take the counts' row locks in one order. The function
// keeps the search_path it was made with (the crawl's schema), so it counts into its own crawl's tables whatever the
// session that inserts has on its path.
export const TEXT_COUNTS_TABLE = { title: 'title_counts', meta_description: 'description_counts' } as const;
/** The hash columns of the results table the counts are of (made with the table, below). */
export const TEXT_HASH_COLUMN = { title: 'title_hash', meta_description: 'description_hash' } as const;
const TEXT_COLUMNS = Object.keys(TEXT_COUNTS_TABLE) as (keyof typeof TEXT_COUNTS_TABLE)[];
/** The parsed rows' hashes of `from`, with how many rows have each. */
const hashCounts = (column: keyof typeof TEXT_COUNTS_TABLE, from: string) =>
  `SELECT ${TEXT_HASH_COLUMN[column]}, count(*) FROM ${from} WHERE h1_count IS NOT NULL AND ${TEXT_HASH_COLUMN[column]} IS NOT NULL GROUP BY 1`;
const TEXT_COUNTS_DDL = `${TEXT_COLUMNS.map(
  (column) => `CREATE TABLE ${TEXT_COUNTS_TABLE[column]} (hash bigint PRIMARY KEY, n integer NOT NULL);
CREATE INDEX ${TEXT_COUNTS_TABLE[column]}_dup ON ${TEXT_COUNTS_TABLE[column]}(hash) INCLUDE (n) WHERE n > 1;`,
).join('\n')}
CREATE FUNCTION count_text_hashes() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $f$
BEGIN
${TEXT_COLUMNS.map(
  (column) => `  INSERT INTO ${TEXT_COUNTS_TABLE[column]} AS c (hash, n) ${hashCounts(column, 'new_rows')} ORDER BY 1
    ON CONFLICT (hash) DO UPDATE SET n = c.n + excluded.n;`,
).join('\n')}
  RETURN NULL;
END $f$;
CREATE TRIGGER results_text_counts AFTER INSERT ON results REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION count_text_hashes();`;
// A crawl made with the hash columns but before their counts gets them when a node joins: the trigger first (it waits
// for the inserts under way and holds off new ones until the upgrade commits), then the counts of the rows there.
// A crawl made before the hashes has nothing to count; its duplicate filters group the texts.
const TEXT_COUNTS_UPGRADE = `DO $do$ BEGIN
  IF to_regclass('${TEXT_COUNTS_TABLE.title}') IS NULL AND EXISTS (SELECT 1 FROM pg_attribute
      WHERE attrelid = to_regclass('results') AND attname = '${TEXT_HASH_COLUMN.title}' AND NOT attisdropped) THEN
${TEXT_COUNTS_DDL}
${TEXT_COLUMNS.map((column) => `INSERT INTO ${TEXT_COUNTS_TABLE[column]} (hash, n) ${hashCounts(column, 'results')};`).join('\n')}
  END IF;
END $do$;`;

// A node of an older Trawl inserts results rows without canonical_self: PostgreSQL sets it on those rows, comparing the
// canonical with the page's URL as insertResults (pg-writes.ts) does, so the canonical filters stay true in a cluster
// being upgraded. The trigger's WHEN is checked without calling the function: a row whose node marked it costs nothing.
export const CANONICAL_SELF_TRIGGER = 'results_canonical_self_filled';
const CANONICAL_SELF_FILL = `CREATE OR REPLACE FUNCTION fill_canonical_self() RETURNS trigger LANGUAGE plpgsql
  SET search_path FROM CURRENT AS $f$
BEGIN
  NEW.canonical_self := CASE WHEN NEW.canonical = (SELECT u.url FROM urls u WHERE u.id = NEW.url_id) THEN 1 ELSE 0 END;
  RETURN NEW;
END $f$;
DROP TRIGGER IF EXISTS ${CANONICAL_SELF_TRIGGER} ON results;
CREATE TRIGGER ${CANONICAL_SELF_TRIGGER} BEFORE INSERT ON results FOR EACH ROW
  WHEN (NEW.canonical IS NOT NULL AND NEW.canonical_self IS NULL) EXECUTE FUNCTION fill_canonical_self();`;

/**
 * What a crawl's schema made before rendering was recorded lacks (links.rendered, the renders table and its raw
 * HTML columns), added in place when a node joins it: the same additive, idempotent upgrade as the registry's
 * secrets column. Run in a transaction holding REGISTRY_LOCK, with the crawl's schema on the search_path.
 */
export const CRAWL_UPGRADE_DDL = `
ALTER TABLE links ADD COLUMN IF NOT EXISTS rendered integer NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN IF NOT EXISTS title_px double precision, ADD COLUMN IF NOT EXISTS description_px double precision;
ALTER TABLE results ADD COLUMN IF NOT EXISTS canonical_self smallint;
${CANONICAL_SELF_FILL}
${RENDERS_TABLE}
${RENDERS_RAW_DDL}
${PG_IMAGE_TABLES}
${STRUCTURED_DATA_TABLES}
${SECURITY_HREFLANG_TABLES}
${CONTENT_TABLE}
${SITEMAP_TABLES}
${PLAN_INDEXES_UPGRADE}
${PG_ANALYSIS_INDEXES}
${NARROW_INDEXES_UPGRADE}
${TEXT_COUNTS_UPGRADE}`;

// The canonical filters: every parsed page's canonical_self (NULL: no canonical, the canonical-missing filter), with
// seq for their pages in crawl order. Made with the crawl only, as the hashes: a crawl made before has no column to
// say, and its filters compare the page's URL as before (pg-explorer.ts tells the two apart by this index). With
// url_id, which the filter of canonicals to non-indexable URLs joins to the canonical links: 262-267 -> 25-35 ms.
export const CANONICAL_SELF_INDEX = 'results_canonical_self';
export const CANONICAL_SELF_INDEX_DDL = `CREATE INDEX ${CANONICAL_SELF_INDEX} ON results(canonical_self, seq) INCLUDE (url_id)
  WHERE h1_count IS NOT NULL;`;

// Link Score kept in the crawl (pg-link-score.ts): the scores of the crawl as it was at `stamp` (the results' state,
// pg-content.ts storeResultsStamp), written by the first reader that computes them while no node adds results, so
// every later reader, in any process, reads them instead of computing them again (8 s at a million URLs). Made with
// the crawl; a reader of a crawl made before makes them. `ordered_through`: the results are kept in the order of the
// scores too (link_scores_order), up to this seq.
export const KEPT_LINK_SCORES_DDL = `CREATE TABLE IF NOT EXISTS link_scores (
  url_id         bigint PRIMARY KEY,
  link_score     double precision NOT NULL,
  unique_inlinks integer NOT NULL
);
CREATE TABLE IF NOT EXISTS link_scores_stamp (stamp text NOT NULL, ordered_through bigint);`;

/** The kept scores' stamp of a crawl made before they were ordered, given its column (KEPT_LINK_SCORES_DDL's). */
export const KEPT_LINK_SCORES_UPGRADE = 'ALTER TABLE link_scores_stamp ADD COLUMN IF NOT EXISTS ordered_through bigint;';

// The results in the order of their kept scores (pg-link-score.ts): every results row up to the stamp's
// ordered_through by seq, with its scores (NULL for a row without any), and indexed by each score and seq in either
// direction, so that a page sorted by a score walks an index in the explorer's order (the score, NULLs last, then
// seq) and reads only its rows. Sorting them instead took 0.23 s at 800,000 results from a copy of the scores in the
// connection's own table, itself 0.7 s to make in each connection. Made from the kept scores, once, by a reader in
// the background (2.5 s there), and made again when they are; a table of its own, so that a Trawl built before reads
// the kept scores as it wrote them.
export const LINK_SCORES_ORDER_DDL = `DROP TABLE IF EXISTS link_scores_order;
CREATE TABLE link_scores_order AS
  SELECT r.seq, ls.link_score, ls.unique_inlinks FROM results r LEFT JOIN link_scores ls ON ls.url_id = r.url_id;
ALTER TABLE link_scores_order ADD PRIMARY KEY (seq);
CREATE INDEX link_scores_order_score_up ON link_scores_order (link_score, seq);
CREATE INDEX link_scores_order_score_down ON link_scores_order (link_score DESC NULLS LAST, seq);
CREATE INDEX link_scores_order_inlinks_up ON link_scores_order (unique_inlinks, seq);
CREATE INDEX link_scores_order_inlinks_down ON link_scores_order (unique_inlinks DESC NULLS LAST, seq);
ANALYZE link_scores_order;`;

// Duplicate content's outcome kept in the crawl (pg-content.ts): the TEMP table content_dups of a reader that computed
// it while no node added results, for the crawl as it was at `stamp` and the analysis's options, so that a later
// reader's content filters, counts and columns read it rather than computing it again (16 s at 713,888 pages). Each
// set of options has its own rows. Made by the first reader that keeps one.
export const KEPT_CONTENT_DUPS_DDL = `CREATE TABLE IF NOT EXISTS content_dups_kept (
  options     text NOT NULL,
  url_id      bigint NOT NULL,
  exact_count integer NOT NULL,
  match_id    bigint,
  similarity  double precision,
  low         integer NOT NULL,
  PRIMARY KEY (options, url_id)
);
CREATE TABLE IF NOT EXISTS content_dups_stamp (options text PRIMARY KEY, stamp text NOT NULL);`;

// Answers about the whole crawl kept in it (pg-kept-answers.ts): each named answer as it was computed for `stamp` (the
// crawl's settled state and what else the answer depends on), by the first reader that computes it while no node adds
// results, so a later reader, in any process, reads it instead of computing it again (the explorer's badges: 2-4 s
// at a million URLs, after duplicate content's analysis). `data`: an answer's arrays, as their bytes (the site
// structure's folders). Made with the crawl; a reader of a crawl made before makes it.
export const KEPT_ANSWERS_DDL = `CREATE TABLE IF NOT EXISTS kept_answers (
  name   text PRIMARY KEY,
  stamp  text NOT NULL,
  answer jsonb NOT NULL,
  data   bytea
);`;

export function crawlDdl(schema: string): string {
  return `
CREATE SCHEMA ${schema};
SET LOCAL search_path TO ${schema};
CREATE TABLE hosts (
  id              bigserial PRIMARY KEY,
  origin          text NOT NULL UNIQUE,
  queued          integer NOT NULL DEFAULT 0,
  in_flight       integer NOT NULL DEFAULT 0,
  -- Epoch ms (the database's clock) before which no node fetches from the host: politeness is the cluster's.
  next_fetch_at   bigint NOT NULL DEFAULT 0,
  -- The earliest start of the host's next fetch as the fetches started so far allow (page claims and a render's
  -- sub-resource slots), kept while next_fetch_at is held: a host given back waits for it too.
  fetch_due       bigint NOT NULL DEFAULT 0,
  robots_state    smallint NOT NULL DEFAULT 0,
  robots_status   integer,
  robots_txt      text,
  robots_error    text,
  robots_failures integer NOT NULL DEFAULT 0,
  crawl_delay_ms  integer NOT NULL DEFAULT 0,
  last_fetch_ms   integer,
  crawled         integer NOT NULL DEFAULT 0,
  failed          integer NOT NULL DEFAULT 0,
  http_errors     integer NOT NULL DEFAULT 0,
  bytes           bigint NOT NULL DEFAULT 0,
  -- The node fetching robots.txt (robots_state 1) and until when its lease holds.
  robots_node     text,
  robots_lease_until bigint
);
CREATE INDEX hosts_ready ON hosts(next_fetch_at, id) WHERE queued > 0;
CREATE INDEX hosts_robots_leased ON hosts(robots_lease_until) WHERE robots_state = 1;
CREATE TABLE urls (
  id            bigserial PRIMARY KEY,
  url           text NOT NULL,
  -- Dedup across every node: one row per URL in normal form (md5, since a URL may be longer than a btree entry).
  url_md5       uuid GENERATED ALWAYS AS (md5(url)::uuid) STORED UNIQUE,
  host_id       bigint NOT NULL REFERENCES hosts(id),
  depth         integer NOT NULL,
  state         smallint NOT NULL,
  via_id        bigint,
  crashes       integer NOT NULL DEFAULT 0,
  attempts      integer NOT NULL DEFAULT 0,
  redirect_hops integer NOT NULL DEFAULT 0,
  discovered_at bigint NOT NULL,
  kind          text NOT NULL DEFAULT 'page',
  check_only    smallint NOT NULL DEFAULT 0,
  priority      smallint NOT NULL DEFAULT 0,
  -- A claimed URL (state 1) belongs to lease_node until lease_until (epoch ms); the node renews it while it works.
  lease_node    text,
  lease_until   bigint
);
CREATE INDEX urls_claim_order ON urls(host_id, priority, id) WHERE state = 0;
${QUEUE_INDEX}
CREATE INDEX urls_leased ON urls(lease_until) WHERE state = 1;
CREATE INDEX urls_lease_node ON urls(lease_node) WHERE state = 1;
CREATE TABLE results (
  seq               bigserial PRIMARY KEY,
  url_id            bigint NOT NULL UNIQUE REFERENCES urls(id),
  status_code       integer,
  content_type      text,
  size_bytes        bigint,
  response_time_ms  integer,
  crawl_depth       integer NOT NULL,
  title             text,
  meta_description  text,
  h1                text,
  canonical         text,
  word_count        integer,
  outlinks          integer NOT NULL DEFAULT 0,
  redirect_url      text,
  error             text,
  attempts          integer NOT NULL DEFAULT 1,
  meta_robots       text,
  x_robots_tag      text,
  robots_disallowed integer NOT NULL DEFAULT 0,
  fetched_at        bigint NOT NULL,
  h1_count          integer,
  h2                text,
  h2_count          integer,
  lang              text,
  hreflang          text,
  meta_refresh      text,
  indexability      text,
  indexability_reason text,
  response_headers  text,
  -- The node that fetched it.
  node              text,
  -- The title's and the description's widths in a search result (shared/serp-width.ts), measured by the node that
  -- recorded the page: the explorer's pixel filters read them rather than measure every title in SQL.
  title_px          double precision,
  description_px    double precision,
  -- 64-bit hashes of the title and the description, computed by PostgreSQL whoever writes the row: the explorer's
  -- duplicate filters read these through their indexes and counts (no btree can hold a long title; title_counts
  -- below), where grouping the texts read every row (5 s at a million URLs). Two texts with one hash would count as
  -- duplicates: at a million distinct titles, a chance of about one in 10^7.
  title_hash        bigint GENERATED ALWAYS AS (hashtextextended(title, 0)) STORED,
  description_hash  bigint GENERATED ALWAYS AS (hashtextextended(meta_description, 0)) STORED,
  -- Whether the canonical names the page itself (1) or another URL (0), NULL without one: set by the node that
  -- records the row (pg-writes.ts), which has the page's URL. The canonical filters read it rather than the page's
  -- own URL, which counting them took 0.5-0.9 s at a million URLs (a canonical is a URL: no btree holds it).
  canonical_self    smallint
);
-- Observers' pages/s: results of the last few seconds.
CREATE INDEX results_fetched_at ON results(fetched_at);
-- The duplicate filters: the parsed pages' hashes, with seq for their pages in crawl order (read from the index alone).
-- Made with the crawl only: a crawl made before has no hash columns (adding one rewrites the table under the lock
-- a joining node holds), and its duplicate filters group the texts as before.
CREATE INDEX results_title_hash ON results(title_hash, seq) WHERE h1_count IS NOT NULL;
CREATE INDEX results_description_hash ON results(description_hash, seq) WHERE h1_count IS NOT NULL;
${CANONICAL_SELF_INDEX_DDL}
${CANONICAL_SELF_FILL}
${TEXT_COUNTS_DDL}
CREATE TABLE links (
  from_id  bigint NOT NULL,
  to_id    bigint NOT NULL,
  anchor   text,
  kind     text NOT NULL DEFAULT 'a',
  nofollow integer NOT NULL DEFAULT 0,
  -- Only in the rendered DOM (the crawl file's links.rendered).
  rendered integer NOT NULL DEFAULT 0,
  PRIMARY KEY (from_id, to_id)
);
CREATE INDEX links_to ON links(to_id);
CREATE TABLE unfetchable_links (
  from_id bigint NOT NULL,
  href    text NOT NULL,
  scheme  text NOT NULL,
  anchor  text,
  PRIMARY KEY (from_id, href)
);
CREATE TABLE extracted (
  url_id bigint NOT NULL,
  rule   text NOT NULL,
  n      integer NOT NULL,
  value  text NOT NULL,
  PRIMARY KEY (url_id, rule, n)
);
-- The nodes working on the crawl: each writes its threads' live status here, which every observer reads.
CREATE TABLE nodes (
  name       text PRIMARY KEY,
  hostname   text NOT NULL,
  pid        integer NOT NULL,
  joined_at  bigint NOT NULL,
  -- Epoch ms of its last heartbeat; a node silent for longer than the crawl's lease is gone.
  last_seen  bigint NOT NULL,
  -- The node's own lifecycle state (running, paused, stopping, finished, left, store unavailable...).
  state      text NOT NULL,
  -- Its share of the cluster's threads.
  threads    integer NOT NULL DEFAULT 0,
  -- ThreadStatus[] as JSON.
  status     text NOT NULL DEFAULT '[]',
  pages_done integer NOT NULL DEFAULT 0
);
${RENDERS_TABLE}
${PG_IMAGE_TABLES}
${STRUCTURED_DATA_TABLES}
${SECURITY_HREFLANG_TABLES}
${CONTENT_TABLE}
${SITEMAP_TABLES}
${KEPT_LINK_SCORES_DDL}
${KEPT_ANSWERS_DDL}
${PG_ANALYSIS_INDEXES}
${NARROW_INDEXES_DDL}
CREATE VIEW crawl_results AS
SELECT r.seq AS seq, u.url AS url, u.kind AS kind, r.status_code, r.content_type, r.size_bytes, r.response_time_ms,
       r.crawl_depth, r.indexability, r.indexability_reason, r.title, r.meta_description, r.h1, r.h1_count, r.h2,
       r.h2_count, r.canonical, r.lang, r.hreflang, r.meta_robots, r.x_robots_tag, r.meta_refresh, r.word_count,
       (SELECT count(*) FROM links l WHERE l.to_id = u.id) AS inlinks,
       r.outlinks, r.redirect_url, r.attempts, r.robots_disallowed, r.error
FROM results r JOIN urls u ON u.id = r.url_id;
`;
}
