// The Results explorer's tabs and filters, in the manner of Screaming Frog's: every filter is an SQL predicate
// answered from one index of the crawl file (see ANALYSIS_INDEXES in crawl-file.ts), so counts read narrow index
// entries, and a page of rows is found as seqs from the index first (the sort done on those), its full rows read
// afterwards for that page only. Works on a read-only connection while a crawl writes (WAL).
//
// What counts as what:
// - "HTML" is a response whose media type is text/html or application/xhtml+xml, whatever its status.
// - Title, meta description, h1 and canonical filters look at parsed pages only (h1_count is set): 2xx HTML pages
//   the crawl read. A redirect or an error page is never read, so it is not "missing" a title.
// - Directives read meta robots and X-Robots-Tag as comma-separated tokens ("googlebot: noindex" counts;
//   "max-image-preview:none" does not mean "none").
// - JavaScript (a rendered crawl): the renders table (j) beside each rendered page's results row (r), which keeps the
//   raw fields. "Changed by JavaScript" compares the rendered field with the raw one on pages whose render
//   succeeded; "noindex only in rendered HTML" is a rendered meta robots saying noindex (or none) where neither the
//   raw meta robots nor X-Robots-Tag does. Files older than version 4 have no renders table: these count 0.
// - Sitemaps (issue 17): sitemap_urls says which sitemap listed which URL. "In a sitemap", orphans, "in more than one",
//   "outside the scope" and hreflang list URLs (crawled or not); "not in a sitemap" lists indexable pages only once some
//   sitemap was read (a crawl without one would list every page); orphans leave out seeds (depth 0), URLs outside the
//   scope and links from a page to itself; "non-indexable in a sitemap" is the Indexability filter's rows a sitemap
//   lists. "Sitemaps over the limits" lists sitemaps, not URLs (rows of the sitemaps table, kind "sitemap", the reason
//   in the error column). Files older than version 5 have no sitemap tables: these count 0.
// - Images (issue 18.3): rows are uses of an image on a page (image_uses iu, its image im, the page's urls row pu), not
//   results: the image's URL, the page using it, its alt and dimensions; the image's own size and status come from
//   its urls and results rows (joined by url_key and url) when the crawl checked it, and "over 100 KB" and "broken"
//   list checked images only. Missing alt is no alt attribute; empty is alt="" (or whitespace). Files older than
//   version 6 have no image tables: these count 0.
// - "Outside the scope" lists URLs rather than results: links out of the crawl's scope (urls.state 4: other
//   hosts, excluded or too long, never fetched) and out-of-scope links fetched for their status only.
import type { ResultRow, ResultSortColumn } from '../../../shared/crawler-api.ts';
import { FILTER_IDS, type FilterCounts, type FilterId, type ImageUse } from '../../../shared/analysis.ts';
import { X_DEFAULT } from '../../../shared/hreflang.ts';
import { urlKey } from '../../../shared/url/url-key.ts';
import { SECURITY_FLAG } from '../../../shared/security.ts';
import { SERP_FONT_PX, SERP_LIMITS } from '../../../shared/serp-width.ts';
import { TEXT_COUNTS_TABLE, TEXT_HASH_COLUMN } from '../frontier/postgres/pg-schema.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import {
  checkSort,
  orderSql,
  postgresResults,
  resultRowColumns,
  resultSortSql,
  SQLITE_RESULTS,
  STATUS_RANGES,
  isLinkScoreSort,
  type OrderedScores,
  orderedScoreKeysSql,
  textMatchSql,
  totalFromPage,
  type ResultsDialect,
} from './result-rows.ts';
import { checkLimit, checkOffset, hasRenders, hasTable, indexedBy, inOrder, prepared, readTransaction } from './sql.ts';

// The filters' ids, groups, labels and descriptions are the renderer's too: they live in shared/analysis.ts.
export { FILTER_GROUPS, FILTER_IDS, RESULT_FILTERS } from '../../../shared/analysis.ts';
export type { FilterCounts, FilterGroupId, FilterId, FilterInfo } from '../../../shared/analysis.ts';

/** A row of a filtered view: a results row with its URL's id and state; for "external", a URL maybe never fetched. */
export interface FilteredRow extends Omit<ResultRow, 'seq'> {
  /** results.seq; null for a URL outside the scope that was never fetched (only in the "external" view). */
  seq: number | null;
  url_id: number;
  /** urls.state (see UrlState in crawl-file.ts). */
  state: number;
  /** An Images filter's row (a use of an image on a page): the page and the use's attributes. */
  image?: ImageUse;
}

export interface FilterQuery {
  filter: FilterId;
  /** Case-insensitive text found in the URL, title or error. */
  text?: string | null;
  /** URLs starting with it, exactly (a folder of the site-structure view: "https://example.com/docs/"). */
  prefix?: string | null;
  sort: ResultSortColumn;
  descending: boolean;
  offset: number;
  limit: number;
}

export interface FilteredPage {
  filter: FilterId;
  /** Rows matching the filter and text, whatever the offset. */
  total: number;
  offset: number;
  rows: FilteredRow[];
}

export const IMAGE_OVER_BYTES = 100 * 1024;
export const IMAGE_ALT_LONG = 100;

interface FilterSql {
  /**
   * results: one row per results row; urls: the external view, one row per URL; renders: one row per rendered page,
   * its predicate over renders j and its results row r.
   */
  source: 'results' | 'urls' | 'renders' | 'sitemaps' | 'images';
  /** Reads the sitemap tables (version 5): on an older file its count is 0. */
  sitemaps?: boolean;
  /** Reads the structured data tables (version 6): on an older file its count is 0. */
  structured?: boolean;
  /**
   * Reads this table (security or hreflang, version 6): on an older file its count is 0. Duplicate content's
   * content_dups is a crawl-file connection's TEMP table (near-duplicates.ts): a crawl in the store has none.
   */
  table?: 'security' | 'hreflang' | 'content_dups';
  /** The index the filter is answered from (hinted with INDEXED BY), or null for a plain table walk. */
  index: string | null;
  /**
   * The predicate over `r` (results) or `u` (urls); null for every row. `hint(index)` gives an index hint; `ownUrl`,
   * the page's own URL where the predicate compares with it (a lookup by key unless the statement joins urls).
   */
  where: ((hint: (index: string) => string, has?: (table: string) => boolean, ownUrl?: string) => string) | null;
  /**
   * The predicate reads the page's own URL: where the dialect counts by join (the store), the count joins urls. At a
   * million URLs a lookup a page took the canonical filters' counts 1.2-1.6 s, a hash join 0.6-0.8 s; the first page
   * of a filter with many rows looks up only the URLs it reads (1 ms).
   */
  readsOwnUrl?: boolean;
}

/** One SQL pass over one index that counts several filters at once. */
interface CountPass {
  ids: readonly FilterId[];
  /** Reads the renders table: on a file without it (older than version 4) its counts are 0. */
  needsRenders?: boolean;
  /** Reads the sitemap tables: on a file without them (older than version 5) its counts are 0. */
  needsSitemaps?: boolean;
  /** Reads the image tables: on a file without them (older than version 6) its counts are 0. */
  needsImages?: boolean;
  /** Reads the structured data tables: on a file without them (older than version 6) its counts are 0. */
  needsStructured?: boolean;
  /** Reads this table (version 6; content_dups: a crawl file's TEMP table): on a crawl without it its counts are 0. */
  needsTable?: 'security' | 'hreflang' | 'content_dups';
  sql: (t: FilterTarget) => string;
}

/**
 * Where SQLite's SQL and PostgreSQL's part in the filters (issue 19): the filters' SQL below is written once, with
 * these for what the two say differently. The tables are named bare: a crawl in the store is read with its schema
 * on the search_path (pg-explorer.ts).
 */
export interface FilterDialect {
  /** The result rows' dialect (result-rows.ts): text without case, case-insensitive LIKE, key lists, Link Score. */
  rows: ResultsDialect;
  /** Where `needle` first occurs in `text`, from 1; 0 when it does not. */
  instr(text: string, needle: string): string;
  /** The character with this code. */
  chr(code: number): string;
  /**
   * A join whose left side stays outermost. SQLite keeps a CROSS JOIN's order (a crawl file has no statistics);
   * PostgreSQL, which has statistics and no CROSS JOIN ... ON, plans a plain JOIN.
   */
  crossJoin: string;
  /** Whether `a`'s URL is `b`'s (urls and images rows): the crawl file's url_key and text, the store's md5. */
  sameUrl(a: string, b: string): string;
  /** A results row's title or description width in a search result, in pixels (shared/serp-width.ts); `r`: its alias. */
  rowWidth(field: SerpField, r: string): string;
  /**
   * The width in a pass over distinct titles or descriptions (grouped from results r): an aggregate of the group's
   * rows when the widths were recorded with them (inGroup), else each distinct text measured once (ofText).
   */
  groupWidth(field: SerpField): { inGroup: string | null; ofText(text: string): string };
  /**
   * Parsed results rows r whose title (or description) another parsed page has too, when the store keeps hashes of
   * them (pg-schema.ts): their duplicated hashes found once, from the hash index alone. Null: the texts are grouped
   * (through `hint`'s index on a crawl file).
   */
  duplicatedByHash(column: 'title' | 'meta_description'): string | null;
  /**
   * How many parsed rows have a non-empty title (or description) another parsed page has too, counted from the
   * store's hash index alone (a scalar subquery); null: the count pass groups the texts (in a crawl file's index order).
   */
  duplicateCount(column: 'title' | 'meta_description'): string | null;
  /**
   * Whether a count pass joins the tables it checks each parsed page against, rather than probing them by key once a
   * page. SQLite's probes are calls within the process and follow the index the pass walks; PostgreSQL's cost about
   * a microsecond each, and three a page took 0.9 s at a million URLs where a hash or merge join takes 0.1-0.5 s.
   */
  countByJoin: boolean;
  /** Finding a URL (urls or images) by its text through an index: the key column, its parameter's form, its value. */
  urlKey: { column: string; param(p: string): string; value(url: string): unknown };
  /**
   * What keeps a subquery from being merged into the query around it, so a column computed once per row there is
   * not computed again at each use outside (PostgreSQL inlines it: a canonical's own-URL lookup ran three times a
   * row). SQLite's plans are checked as they are (test/scale): nothing.
   */
  fence: string;
  /**
   * The crawl indexes its canonical links apart (the store's links_canonical): pages canonicalised to a URL that cannot
   * be indexed are found as one set from it. A crawl file has no such index; its pages are checked one by one.
   */
  canonicalLinksIndexed: boolean;
  /**
   * Whether a parsed row's canonical names its own page (`self` true) or another URL (false), or it has none (null),
   * as SQL over `r`, where the crawl recorded it with the row (the store's results.canonical_self, set by the node
   * that had the page's URL); null where the filters compare the canonical with the page's own URL (a crawl file, a
   * crawl in the store made before).
   */
  canonicalSelf: ((self: boolean | null) => string) | null;
  /** A condition that holds for no row, and one that holds for every row. */
  never: string;
  always: string;
}

/** The fields whose width in a search result the filters measure, and their results columns. */
export type SerpField = keyof typeof SERP_FONT_PX;
const SERP_COLUMN = { title: 'title', description: 'meta_description' } as const satisfies Record<SerpField, string>;
/** The store's recorded widths of those columns (pg-schema.ts). */
const SERP_WIDTH_COLUMN: Record<SerpField, string> = { title: 'title_px', description: 'description_px' };
/** The store session's serp_px (pg-explorer.ts) of a text at a field's font size. */
const storeSerpPx = (text: string, field: SerpField) => `pg_temp.serp_px(${text}, ${SERP_FONT_PX[field]})`;

/** A crawl file: SQLite's functions, and serp_px registered on every crawl-file connection (crawl-file.ts). */
export const SQLITE_FILTERS: FilterDialect = {
  rows: SQLITE_RESULTS,
  instr: (text, needle) => `instr(${text}, ${needle})`,
  chr: (code) => `char(${code})`,
  crossJoin: 'CROSS JOIN',
  sameUrl: (a, b) => `${a}.url_key = ${b}.url_key AND ${a}.url = ${b}.url`,
  rowWidth: (field, r) => `serp_px(${r}.${SERP_COLUMN[field]}, ${SERP_FONT_PX[field]})`,
  groupWidth: (field) => ({ inGroup: null, ofText: (text) => `serp_px(${text}, ${SERP_FONT_PX[field]})` }),
  duplicatedByHash: () => null,
  duplicateCount: () => null,
  countByJoin: false,
  urlKey: { column: 'url_key', param: (p) => p, value: (url) => urlKey(url) },
  fence: '',
  canonicalLinksIndexed: false,
  canonicalSelf: null,
  never: '0',
  always: '1',
};

/**
 * A crawl in the PostgreSQL store. Text sorts without case in code point order (COLLATE "C"), as SQLite's NOCASE
 * does, whatever the database's collation; serp_px is the session function pg-explorer.ts creates.
 */
export const POSTGRES_FILTERS: FilterDialect = {
  rows: { ...postgresResults(''), table: (name) => name },
  instr: (text, needle) => `strpos(${text}, ${needle})`,
  chr: (code) => `chr(${code})`,
  crossJoin: 'JOIN',
  sameUrl: (a, b) => `${a}.url_md5 = ${b}.url_md5`,
  // A node records each page's widths (title_px, description_px: pg-writes.ts); a row recorded before the columns
  // came (a crawl upgraded when a node joined it) is measured by the session's serp_px.
  rowWidth: (field, r) => `coalesce(${r}.${SERP_WIDTH_COLUMN[field]}, ${storeSerpPx(`${r}.${SERP_COLUMN[field]}`, field)})`,
  groupWidth: (field) => ({
    inGroup: `max(coalesce(r.${SERP_WIDTH_COLUMN[field]}, ${storeSerpPx(`r.${SERP_COLUMN[field]}`, field)}))`,
    ofText: (text) => storeSerpPx(text, field),
  }),
  // The hashes of more than one parsed page, from the counts PostgreSQL keeps of them (pg-schema.ts,
  // TEXT_COUNTS_TABLE): a partial index of those hashes alone. An array, not IN (subquery): an array's elements
  // PostgreSQL looks up in the hash index of the rows.
  duplicatedByHash: (column) =>
    `r.${TEXT_HASH_COLUMN[column]} = ANY(ARRAY(SELECT c.hash FROM ${TEXT_COUNTS_TABLE[column]} c WHERE c.n > 1))`,
  // The hash of '' (a page whose title is empty) is left out, as the grouped pass leaves the empty text out.
  duplicateCount: (column) =>
    `(SELECT coalesce(sum(c.n), 0) FROM ${TEXT_COUNTS_TABLE[column]} c WHERE c.n > 1 AND c.hash <> hashtextextended('', 0))`,
  countByJoin: true,
  urlKey: { column: 'url_md5', param: (p) => `md5(CAST(${p} AS text))::uuid`, value: (url) => url },
  fence: ' OFFSET 0',
  canonicalLinksIndexed: true,
  canonicalSelf: (self) => (self === null ? 'r.canonical_self IS NULL' : `r.canonical_self = ${self ? 1 : 0}`),
  never: 'false',
  always: 'true',
};

/**
 * A crawl made with the hash columns but before their counts (until a node joins it and adds them): the duplicated
 * hashes grouped from the hash index. An array, not IN (subquery): PostgreSQL cannot estimate how many groups pass
 * HAVING, and planned the rows' side as a walk of every result.
 */
const GROUPED_HASHES: Pick<FilterDialect, 'duplicatedByHash' | 'duplicateCount'> = {
  duplicatedByHash: (column) => {
    const hash = TEXT_HASH_COLUMN[column];
    return `r.${hash} = ANY(ARRAY(SELECT d.${hash} FROM results d WHERE d.h1_count IS NOT NULL AND d.${hash} IS NOT NULL
      GROUP BY d.${hash} HAVING count(*) > 1))`;
  },
  duplicateCount: (column) => {
    const hash = TEXT_HASH_COLUMN[column];
    return `(SELECT coalesce(sum(g.n), 0) FROM (SELECT d.${hash} AS h, count(*) AS n FROM results d
      WHERE d.h1_count IS NOT NULL AND d.${hash} IS NOT NULL GROUP BY d.${hash} HAVING count(*) > 1) g
      WHERE g.h <> hashtextextended('', 0))`;
  },
};

/** What a crawl in the store keeps beside its rows: the widths a node records, the hashes PostgreSQL computes. */
export interface StoreColumns {
  /** title_px and description_px (a crawl made before them lacks them: every width is then measured in SQL). */
  widths: boolean;
  /** title_hash and description_hash (a crawl made before them lacks them: its duplicate filters group the texts). */
  hashes: boolean;
  /**
   * The counts of each hash (TEXT_COUNTS_TABLE; a crawl made with the hashes before them lacks them until a node joins
   * it: its duplicate filters group the hashes).
   */
  hashCounts: boolean;
  /** The reading connection has the crawl's Link Scores in its TEMP table (pg-link-score.ts); without, none shown. */
  linkScores?: boolean;
  /**
   * Every parsed row's canonical_self (a crawl made with it: results_canonical_self; one made before gets the column
   * from a node joining it, but not on the rows it has already, and its canonical filters compare URLs).
   */
  canonicalSelf: boolean;
}

/** The store's dialect for a crawl with these columns. */
export function postgresFilters(columns: StoreColumns): FilterDialect {
  return {
    ...POSTGRES_FILTERS,
    ...(columns.widths
      ? {}
      : {
          rowWidth: (field: SerpField, r: string) => storeSerpPx(`${r}.${SERP_COLUMN[field]}`, field),
          groupWidth: (field: SerpField) => ({ inGroup: null, ofText: (text: string) => storeSerpPx(text, field) }),
        }),
    ...(columns.hashes ? (columns.hashCounts ? {} : GROUPED_HASHES) : { duplicatedByHash: () => null, duplicateCount: () => null }),
    ...(columns.canonicalSelf ? {} : { canonicalSelf: null }),
    ...(columns.linkScores ? { rows: { ...postgresResults('', true), table: (name: string) => name } } : {}),
  };
}

/** Where the filters are asked: a crawl file (its index hints, the tables its version has) or a crawl in the store. */
export interface FilterTarget {
  sql: DialectSql;
  /** The hint naming an index the filter's plan is built on ('' where there is none to give). */
  hint(index: string): string;
  has(table: string): boolean;
  /** Whether the renders table is there as this version reads it. */
  renders(): boolean;
  /** Link Scores kept in their order, which a sort by them walks (a crawl in the store: pg-link-score.ts). */
  orderedScores?: OrderedScores;
}

/** The SQL of the filters, their counts and their rows in a dialect: written once, built once per dialect. */
function dialectSql(d: FilterDialect) {
  // ---- the SQL of each filter ----

  /** The media type of results.content_type, lower-cased without parameters: the expression results_status holds. */
  const MEDIA_TYPE_SQL = `lower(trim(substr(r.content_type, 1, ${d.instr("r.content_type || ';'", "';'")} - 1)))`;
  // The store's index of HTML rows has this for its predicate (pg-schema.ts, results_html): keep the two the same.
  const HTML_SQL = `${MEDIA_TYPE_SQL} IN ('text/html', 'application/xhtml+xml')`;
  /** The condition of the partial index results_directives: some directive starting with "no". */
  const HAS_NO_DIRECTIVE = `${d.instr("lower(coalesce(r.meta_robots, '') || ' ' || coalesce(r.x_robots_tag, ''))", "'no'")} > 0`;
  /** Meta robots and X-Robots-Tag as one space-separated token list, padded with spaces: ' noindex follow '. */
  const directiveTokens = (metaRobots: string) => `(' ' || replace(replace(replace(replace(replace(replace(
  lower(coalesce(${metaRobots}, '') || ',' || coalesce(r.x_robots_tag, '')),
  'max-image-preview:none', ''), 'max-image-preview: none', ''), ',', ' '), ':', ' '), ${d.chr(9)}, ' '), ${d.chr(10)}, ' ') || ' ')`;
  const DIRECTIVE_TOKENS = directiveTokens('r.meta_robots');
  const saysDirective = (word: 'noindex' | 'nofollow', tokens = DIRECTIVE_TOKENS) =>
    `(${tokens} LIKE '% ${word} %' OR ${tokens} LIKE '% none %')`;
  const PARSED = 'r.h1_count IS NOT NULL';
  const OWN_URL = '(SELECT cu.url FROM urls cu WHERE cu.id = r.url_id)';
  const duplicated = (column: 'title' | 'meta_description', hint: string) =>
    d.duplicatedByHash(column) ??
    `r.${column} IN (SELECT d.${column} FROM results d ${hint} WHERE d.h1_count IS NOT NULL AND d.${column} IS NOT NULL GROUP BY d.${column} HAVING count(*) > 1)`;
  const EXTERNAL_SQL = "(u.state = 4 OR (u.check_only = 1 AND u.kind = 'page'))";
  /** Results rows the content_dups TEMP table flags (duplicate content, issue 18.1). */
  const contentDups = (flag: string) => `r.url_id IN (SELECT cd.url_id FROM content_dups cd WHERE cd.${flag})`;

  // The issues overview's filters (shared/issues.ts counts them).
  // Broken internal links: a URL of the scope (not an out-of-scope link checked) with an error status or no response,
  // and at least one inlink. Two ranges of results_status, the URL's row and one inlink read by key. On the store,
  // two partial indexes hold these predicates' rows (pg-schema.ts, results_broken and urls_checked_pages): change
  // them there too.
  const BROKEN_STATUS = '(r.status_code >= 400 OR r.status_code IS NULL)';
  const BROKEN_INTERNAL = `EXISTS (SELECT 1 FROM links bl WHERE bl.to_id = r.url_id)
  AND NOT EXISTS (SELECT 1 FROM urls bu WHERE bu.id = r.url_id AND bu.check_only = 1 AND bu.kind = 'page')`;
  // A redirect whose own redirect link leads to a URL that redirects again (has a redirect link of its own): every hop
  // of a chain of two or more but the last. Both links are read from the link graph's primary key (from_id, to_id,
  // kind), never a results row.
  const REDIRECT_TO_REDIRECT = `EXISTS (SELECT 1 FROM links rl ${d.crossJoin} links rn ON rn.from_id = rl.to_id
  WHERE rl.from_id = r.url_id AND rl.kind = 'redirect' AND rn.kind = 'redirect')`;
  // The frontier records a redirect back into its own chain as the source's error (frontier/redirect-chain.ts).
  const REDIRECT_LOOP = "r.error = 'redirect loop'";
  // A canonical link (links.kind 'canonical') to another URL whose row says it cannot be indexed (or has no answer).
  // On the store, the set of such pages from its index of canonical links: checked page by page, the filter's first
  // page read every parsed page's own URL first, 1.3-1.4 s at a million URLs where no canonical pointed elsewhere.
  // A parsed page's canonical is the page's own URL `own` (self) or another: as the crawl recorded it, where it did.
  const canonicalIs = (self: boolean, own: string) => d.canonicalSelf?.(self) ?? `r.canonical ${self ? '=' : '<>'} ${own}`;
  const CANONICAL_NON_INDEXABLE = d.canonicalLinksIndexed
    ? `r.url_id IN (SELECT cl.from_id FROM links cl JOIN results ct ON ct.url_id = cl.to_id
  WHERE cl.kind = 'canonical' AND cl.to_id <> cl.from_id AND coalesce(ct.indexability, '') <> 'indexable')`
    : `EXISTS (SELECT 1 FROM links cl ${d.crossJoin} results ct ON ct.url_id = cl.to_id
  WHERE cl.from_id = r.url_id AND cl.kind = 'canonical' AND cl.to_id <> r.url_id AND coalesce(ct.indexability, '') <> 'indexable')`;
  // Pixel widths (shared/serp-width.ts): the crawl file connections' serp_px function (crawl-file.ts), the store's
  // recorded widths.
  const TITLE = SERP_LIMITS.title;
  const DESCRIPTION = SERP_LIMITS.description;
  // Mixed content: the plain-HTTP URLs of the crawl (a walk of urls reading the URL text only: no index orders URLs by
  // their text), the image, script and stylesheet links to them, and the HTTPS pages those come from. The walk's cost
  // grows with the URLs, not with the links; the links are read by key.
  const MIXED_CONTENT_LINKS = `SELECT ml.from_id FROM urls mt ${d.crossJoin} links ml ON ml.to_id = mt.id ${d.crossJoin} urls mf ON mf.id = ml.from_id
  WHERE substr(mt.url, 1, 5) = 'http:' AND ml.kind IN ('image', 'script', 'stylesheet') AND substr(mf.url, 1, 6) = 'https:'`;
  const MIXED_CONTENT = `r.url_id IN (${MIXED_CONTENT_LINKS})`;

  // Security (issue 18.5): each filter is one bit of security.flags (shared/security.ts), read from the partial index
  // security_flags (the flagged pages' flags and url_ids); mixed content is also what the worker saw in the HTML
  // (whether or not the crawl checked resources), with the links to plain-HTTP resources of older files.
  const securityFlag = (bit: number, hint: (index: string) => string) =>
    `r.url_id IN (SELECT s.url_id FROM security s ${hint('security_flags')} WHERE s.flags <> 0 AND s.flags & ${bit} <> 0)`;
  const mixedContent = (hint: (index: string) => string, has?: (table: string) => boolean) =>
    has?.('security')
      ? `r.url_id IN (${MIXED_CONTENT_LINKS} UNION SELECT s.url_id FROM security s ${hint('security_flags')} WHERE s.flags <> 0 AND s.flags & ${SECURITY_FLAG.mixedContent} <> 0)`
      : MIXED_CONTENT;
  const SECURITY_FILTERS = {
    'security-http': SECURITY_FLAG.http,
    'security-no-hsts': SECURITY_FLAG.noHsts,
    'security-no-csp': SECURITY_FLAG.noCsp,
    'security-no-nosniff': SECURITY_FLAG.noNosniff,
    'security-no-frame-options': SECURITY_FLAG.noFrameOptions,
    'security-unsafe-links': SECURITY_FLAG.unsafeBlankLinks,
  } as const satisfies Partial<Record<FilterId, number>>;

  // Hreflang (issue 18.5): the hreflang table (page url_id, target_id, lang, valid), keyed by page then target. A target
  // is judged only when it was crawled (its results row); "read" is a parsed page, found in results_canonical (a covering
  // index of parsed pages by url_id), so neither the return-link nor the read test reads a results row.
  /** The pages (url_id) with an alternate (h) matching `cond`, which may read the target's results row t. */
  const withAlternate = (cond: string) => `SELECT DISTINCT h.url_id FROM hreflang h WHERE h.target_id <> h.url_id AND ${cond}`;
  const targetRead = (hint: (index: string) => string) =>
    `EXISTS (SELECT 1 FROM results t ${hint('results_canonical')} WHERE t.url_id = h.target_id AND t.h1_count IS NOT NULL)`;
  const NO_RETURN = 'NOT EXISTS (SELECT 1 FROM hreflang b WHERE b.url_id = h.target_id AND b.target_id = h.url_id)';
  // Non-200 and non-indexable targets from the other side: the crawled URLs that answered other than 200 (a range walk of
  // results_status; rows read only for those) or that answered 200 but cannot be indexed (results_indexability), then the
  // pages naming each (hreflang_target): the cost grows with the bad targets, not with the alternates.
  const namingBadTarget = (hint: (index: string) => string, index: string, cond: string) =>
    `SELECT DISTINCT h.url_id FROM results t ${hint(index)} ${d.crossJoin} hreflang h ${hint('hreflang_target')} ON h.target_id = t.url_id
  WHERE ${cond} AND h.target_id <> h.url_id`;
  const namingNot200 = (hint: (index: string) => string) =>
    namingBadTarget(hint, 'results_status', '(t.status_code IS NULL OR t.status_code < 200 OR t.status_code > 200)');
  const namingNonIndexable = (hint: (index: string) => string) =>
    namingBadTarget(hint, 'results_indexability', "t.indexability = 'non-indexable' AND t.status_code = 200");
  /** Per page with alternates: whether one is x-default and whether one is the page itself (one walk of the key). */
  const HREFLANG_PAGES = `SELECT url_id, max(CASE WHEN lower(lang) = '${X_DEFAULT}' THEN 1 ELSE 0 END) AS has_default, max(CASE WHEN target_id = url_id THEN 1 ELSE 0 END) AS has_self FROM hreflang GROUP BY url_id`;
  const HREFLANG_SQL_OF = {
    'hreflang-pages': () => 'r.url_id IN (SELECT DISTINCT url_id FROM hreflang)',
    'hreflang-missing-return': (hint: (index: string) => string) =>
      `r.url_id IN (${withAlternate(`${targetRead(hint)} AND ${NO_RETURN}`)})`,
    'hreflang-non-200': (hint: (index: string) => string) => `r.url_id IN (${namingNot200(hint)})`,
    'hreflang-invalid': (hint: (index: string) => string) =>
      `r.url_id IN (SELECT DISTINCT url_id FROM hreflang ${hint('hreflang_invalid')} WHERE valid = 0)`,
    'hreflang-no-x-default': () => `r.url_id IN (SELECT url_id FROM (${HREFLANG_PAGES}) hp WHERE has_default = 0)`,
    'hreflang-no-self': () => `r.url_id IN (SELECT url_id FROM (${HREFLANG_PAGES}) hp WHERE has_self = 0)`,
    'hreflang-non-indexable': (hint: (index: string) => string) => `r.url_id IN (${namingNonIndexable(hint)})`,
  } as const satisfies Partial<Record<FilterId, (hint: (index: string) => string) => string>>;

  // The JavaScript filters, over renders j (its rendered fields beside its raw_ ones; renders_compared covers them) and
  // the page's results row r.
  const RENDERED_OK = 'j.error IS NULL';
  const changed = (column: 'title' | 'meta_description' | 'canonical') => `coalesce(j.${column}, '') <> coalesce(j.raw_${column}, '')`;
  const ROBOTS_CHANGED = "lower(trim(coalesce(j.meta_robots, ''))) <> lower(trim(coalesce(j.raw_meta_robots, '')))";
  // The cheap test first (noindex and none both hold "no"): the token lists are built only for the pages it lets through.
  const NOINDEX_RENDERED_ONLY = `${d.instr("lower(coalesce(j.meta_robots, '') || ' ' || coalesce(r.x_robots_tag, ''))", "'no'")} > 0
  AND ${saysDirective('noindex', directiveTokens('j.meta_robots'))} AND NOT ${saysDirective('noindex', directiveTokens('j.raw_meta_robots'))}`;
  /** The JavaScript filters answered from a partial index of renders alone, with its condition (word for word). */
  const RENDER_FLAGS = {
    'js-rendered-links': { index: 'renders_links', where: 'j.rendered_links > 0' },
    'js-errors': { index: 'renders_js_errors', where: 'j.console_errors IS NOT NULL OR j.page_errors IS NOT NULL' },
    'js-blocked': { index: 'renders_blocked', where: 'j.blocked_resources IS NOT NULL' },
    'js-redirect': { index: 'renders_js_redirect', where: 'j.js_redirect IS NOT NULL' },
  } as const satisfies Partial<Record<FilterId, { index: string; where: string }>>;

  // The sitemap filters (sitemap_urls' key is (url_id, sitemap_id): "which URLs" and "how many sitemaps" read its keys).
  const inSitemap = (id: string) => `${id} IN (SELECT url_id FROM sitemap_urls)`;
  const SITEMAPS_READ = "EXISTS (SELECT 1 FROM sitemaps WHERE kind IN ('urlset', 'text'))";
  const ORPHAN_SQL = `${inSitemap('u.id')} AND u.depth > 0 AND NOT ${EXTERNAL_SQL} AND NOT EXISTS (SELECT 1 FROM links l WHERE l.to_id = u.id AND l.from_id <> u.id)`;
  const MULTIPLE_SQL = 'u.id IN (SELECT url_id FROM sitemap_urls GROUP BY url_id HAVING count(*) > 1)';
  const HREFLANG_SQL = 'u.id IN (SELECT url_id FROM sitemap_urls WHERE hreflang IS NOT NULL)';
  const OVER_LIMIT_SQL = '(sm.over_url_limit = 1 OR sm.over_size_limit = 1)';
  /** A sitemap as a row of the explorer: its URL, status and size; kind "sitemap"; why it is over the limits as its error. */
  const SITEMAP_ROW_COLUMNS = `${resultRowColumns(d.rows, {
    seq: 'NULL',
    url: 'sm.url',
    kind: "'sitemap'",
    status_code: 'sm.status_code',
    content_type: 'NULL',
    size_bytes: 'sm.size_bytes',
    response_time_ms: 'sm.response_time_ms',
    crawl_depth: 'sm.depth',
    indexability: 'NULL',
    indexability_reason: 'NULL',
    title: 'NULL',
    meta_description: 'NULL',
    h1: 'NULL',
    h1_count: 'NULL',
    h2: 'NULL',
    h2_count: 'NULL',
    canonical: 'NULL',
    lang: 'NULL',
    hreflang: 'NULL',
    meta_robots: 'NULL',
    x_robots_tag: 'NULL',
    meta_refresh: 'NULL',
    word_count: 'sm.url_count',
    inlinks: '0',
    link_score: 'NULL',
    unique_inlinks: 'NULL',
    outlinks: 'sm.url_count',
    redirect_url: 'NULL',
    attempts: '1',
    robots_disallowed: '0',
    error: `trim(CASE WHEN sm.over_url_limit = 1 THEN 'over 50,000 URLs ' ELSE '' END || CASE WHEN sm.over_size_limit = 1 THEN 'over 50 MB ' ELSE '' END || coalesce(sm.error, ''))`,
  })}, -sm.id AS url_id, NULL AS state`;

  // The Images filters (issue 18.3): over image_uses iu. An image's own row (when checked) by its key, then its results row.
  const IMAGE_RESULT_JOIN = `LEFT JOIN urls iuu ON ${d.sameUrl('iuu', 'im')} LEFT JOIN results ir ON ir.url_id = iuu.id`;
  /** Checked images (a results row) whose row says `cond`: a walk of images (far fewer than their uses), each looked up by key. */
  const checkedImages = (cond: string) =>
    `iu.image_id IN (SELECT im.id FROM images im ${d.crossJoin} urls iuu ON ${d.sameUrl('iuu', 'im')} ${d.crossJoin} results ir ON ir.url_id = iuu.id WHERE ${cond})`;
  const IMAGE_OVER_SIZE = checkedImages(`ir.size_bytes > ${IMAGE_OVER_BYTES}`);
  const IMAGE_BROKEN = checkedImages('(ir.status_code >= 400 OR ir.status_code IS NULL)');
  const IMAGE_NO_SIZE = '(iu.width IS NULL OR iu.height IS NULL)';
  /** An image use as a row of the explorer: the image's URL and (when checked) its status, size and type; the alt as title. */
  const IMAGE_ROW_COLUMNS = `${resultRowColumns(d.rows, {
    seq: 'ir.seq',
    url: 'im.url',
    kind: "'image'",
    status_code: 'ir.status_code',
    content_type: 'ir.content_type',
    size_bytes: 'ir.size_bytes',
    response_time_ms: 'ir.response_time_ms',
    crawl_depth: 'coalesce(ir.crawl_depth, iuu.depth, 0)',
    indexability: 'NULL',
    indexability_reason: 'NULL',
    title: 'iu.alt',
    meta_description: 'NULL',
    h1: 'NULL',
    h1_count: 'NULL',
    h2: 'NULL',
    h2_count: 'NULL',
    canonical: 'NULL',
    lang: 'NULL',
    hreflang: 'NULL',
    meta_robots: 'NULL',
    x_robots_tag: 'NULL',
    meta_refresh: 'NULL',
    word_count: 'NULL',
    // The image's uses, counted once per image of the page (imageRows): a logo on every page is counted once, not per row.
    inlinks: '0',
    link_score: 'NULL',
    unique_inlinks: 'NULL',
    outlinks: '0',
    redirect_url: 'NULL',
    attempts: 'coalesce(ir.attempts, 0)',
    robots_disallowed: '0',
    error: 'ir.error',
  })}, -iu.id AS url_id, iuu.state AS state, pu.url AS page_url, iu.page_id AS page_id, iu.alt AS alt, iu.alt_len AS alt_len,
  iu.width AS width, iu.height AS height, CASE WHEN ir.url_id IS NOT NULL THEN 1 ELSE 0 END AS checked, iu.image_id AS image_id`;
  const IMAGE_ROWS_FROM = `image_uses iu JOIN images im ON im.id = iu.image_id JOIN urls pu ON pu.id = iu.page_id ${IMAGE_RESULT_JOIN}`;
  /** How the Images rows sort (by use, in record order, for the columns they lack). */
  const IMAGE_SORT_SQL: Partial<Record<ResultSortColumn, string>> = {
    url: 'im.url',
    title: 'iu.alt',
    status_code: 'ir.status_code',
    size_bytes: 'ir.size_bytes',
    content_type: 'ir.content_type',
    response_time_ms: 'ir.response_time_ms',
  };
  const IMAGE_TEXT_SQL = `(${['im.url', 'pu.url', 'iu.alt'].map((column) => d.rows.search.contains(column, '@text')).join(' OR ')})`;

  // Structured data and social tags (issue 18.4): parsed pages walked in results_canonical (which holds url_id for every
  // parsed page), each page's structured_data or social_tags rows probed by key. The counts read the tables themselves.
  const hasStructured = (where: string) =>
    `EXISTS (SELECT 1 FROM structured_data sd WHERE sd.url_id = r.url_id${where ? ` AND ${where}` : ''})`;
  const hasSocial = (property: string) =>
    `EXISTS (SELECT 1 FROM social_tags st WHERE st.url_id = r.url_id AND st.property = '${property}')`;
  const OG_MISSING = `(NOT ${hasSocial('og:title')} OR NOT ${hasSocial('og:image')})`;
  // The structured data pass's counts of parsed pages without structured data or social tags, and the table they
  // read: a probe by key a page on a crawl file (in results_canonical's order), joins on the store (countByJoin).
  const structuredPageCounts = (canonicalHint: string) => `count(*) FILTER (WHERE NOT ${hasStructured('')}) AS "structured-none",
      count(*) FILTER (WHERE ${OG_MISSING}) AS "structured-og-missing",
      count(*) FILTER (WHERE NOT ${hasSocial('twitter:card')}) AS "structured-twitter-missing"
      FROM results r ${canonicalHint}`;
  const STRUCTURED_PAGE_COUNTS_BY_JOIN = `count(*) FILTER (WHERE sdp.url_id IS NULL) AS "structured-none",
      count(*) FILTER (WHERE coalesce(stp.og, 0) <> 3) AS "structured-og-missing",
      count(*) FILTER (WHERE stp.twitter IS NOT TRUE) AS "structured-twitter-missing"
      FROM results r
      LEFT JOIN (SELECT DISTINCT sd.url_id FROM structured_data sd) sdp ON sdp.url_id = r.url_id
      LEFT JOIN (SELECT st.url_id, max(CASE st.property WHEN 'og:title' THEN 1 ELSE 0 END) + max(CASE st.property WHEN 'og:image' THEN 2 ELSE 0 END) AS og,
          bool_or(st.property = 'twitter:card') AS twitter
        FROM social_tags st WHERE st.property IN ('og:title', 'og:image', 'twitter:card') GROUP BY st.url_id) stp ON stp.url_id = r.url_id`;
  const structured = (where: string): FilterSql => ({
    source: 'results',
    structured: true,
    index: 'results_canonical',
    where: () => `${PARSED} AND ${where}`,
  });

  const renderFlag = (id: keyof typeof RENDER_FLAGS): FilterSql => ({
    source: 'renders',
    index: RENDER_FLAGS[id].index,
    where: () => `(${RENDER_FLAGS[id].where})`,
  });

  const status = ([min, max]: readonly [number, number]): FilterSql => ({
    source: 'results',
    index: 'results_status',
    where: () => `r.status_code BETWEEN ${min} AND ${max}`,
  });

  const FILTER_SQL: Record<FilterId, FilterSql> = {
    all: { source: 'results', index: null, where: null },
    html: { source: 'results', index: 'results_status', where: () => HTML_SQL },
    'status-2xx': status(STATUS_RANGES['2xx']),
    'status-3xx': status(STATUS_RANGES['3xx']),
    'status-4xx': status(STATUS_RANGES['4xx']),
    'status-5xx': status(STATUS_RANGES['5xx']),
    'status-none': { source: 'results', index: 'results_status', where: () => 'r.status_code IS NULL' },
    'broken-internal': { source: 'results', index: 'results_status', where: () => `${BROKEN_STATUS} AND ${BROKEN_INTERNAL}` },
    'redirect-chain': {
      source: 'results',
      index: 'results_status',
      where: () => `r.status_code BETWEEN 300 AND 399 AND ${REDIRECT_TO_REDIRECT}`,
    },
    'redirect-loop': { source: 'results', index: 'results_status', where: () => `r.status_code BETWEEN 300 AND 399 AND ${REDIRECT_LOOP}` },
    'title-missing': { source: 'results', index: 'results_title', where: () => `${PARSED} AND (r.title IS NULL OR r.title = '')` },
    'title-duplicate': {
      source: 'results',
      index: 'results_title',
      where: (hint) => `${PARSED} AND ${duplicated('title', hint('results_title'))}`,
    },
    'title-over-60': { source: 'results', index: 'results_title', where: () => `${PARSED} AND length(r.title) > 60` },
    'title-under-30': {
      source: 'results',
      index: 'results_title',
      where: () => `${PARSED} AND r.title <> '' AND length(r.title) < ${TITLE.minChars}`,
    },
    'title-over-561px': {
      source: 'results',
      index: 'results_title',
      where: () => `${PARSED} AND r.title <> '' AND ${d.rowWidth('title', 'r')} > ${TITLE.maxPx}`,
    },
    'title-under-200px': {
      source: 'results',
      index: 'results_title',
      where: () => `${PARSED} AND r.title <> '' AND ${d.rowWidth('title', 'r')} < ${TITLE.minPx}`,
    },
    'description-missing': {
      source: 'results',
      index: 'results_description',
      where: () => `${PARSED} AND (r.meta_description IS NULL OR r.meta_description = '')`,
    },
    'description-duplicate': {
      source: 'results',
      index: 'results_description',
      where: (hint) => `${PARSED} AND ${duplicated('meta_description', hint('results_description'))}`,
    },
    'description-over-155': {
      source: 'results',
      index: 'results_description',
      where: () => `${PARSED} AND length(r.meta_description) > ${DESCRIPTION.maxChars}`,
    },
    'description-under-70': {
      source: 'results',
      index: 'results_description',
      where: () => `${PARSED} AND r.meta_description <> '' AND length(r.meta_description) < ${DESCRIPTION.minChars}`,
    },
    'description-over-985px': {
      source: 'results',
      index: 'results_description',
      where: () => `${PARSED} AND r.meta_description <> '' AND ${d.rowWidth('description', 'r')} > ${DESCRIPTION.maxPx}`,
    },
    'description-under-400px': {
      source: 'results',
      index: 'results_description',
      where: () => `${PARSED} AND r.meta_description <> '' AND ${d.rowWidth('description', 'r')} < ${DESCRIPTION.minPx}`,
    },
    'h1-missing': { source: 'results', index: 'results_h1_count', where: () => 'r.h1_count <> 1 AND r.h1_count = 0' },
    'h1-multiple': { source: 'results', index: 'results_h1_count', where: () => 'r.h1_count <> 1 AND r.h1_count > 1' },
    'canonical-self': {
      source: 'results',
      index: 'results_canonical',
      readsOwnUrl: d.canonicalSelf === null,
      where: (_hint, _has, own = OWN_URL) => `${PARSED} AND ${canonicalIs(true, own)}`,
    },
    'canonical-elsewhere': {
      source: 'results',
      index: 'results_canonical',
      readsOwnUrl: d.canonicalSelf === null,
      where: (_hint, _has, own = OWN_URL) => `${PARSED} AND ${canonicalIs(false, own)}`,
    },
    'canonical-missing': {
      source: 'results',
      index: 'results_canonical',
      where: () => `${PARSED} AND ${d.canonicalSelf?.(null) ?? 'r.canonical IS NULL'}`,
    },
    'canonical-non-indexable': {
      source: 'results',
      index: 'results_canonical',
      // The store finds its few pages from the canonical links first, then reads their own URLs by key (or nothing
      // more, where it recorded which canonicals are the page's own).
      readsOwnUrl: !d.canonicalLinksIndexed,
      where: (_hint, _has, own = OWN_URL) => `${PARSED} AND ${canonicalIs(false, own)} AND ${CANONICAL_NON_INDEXABLE}`,
    },
    'directive-noindex': {
      source: 'results',
      index: 'results_directives',
      where: () => `${HAS_NO_DIRECTIVE} AND ${saysDirective('noindex')}`,
    },
    'directive-nofollow': {
      source: 'results',
      index: 'results_directives',
      where: () => `${HAS_NO_DIRECTIVE} AND ${saysDirective('nofollow')}`,
    },
    indexable: { source: 'results', index: 'results_indexability', where: () => "r.indexability = 'indexable'" },
    'non-indexable': { source: 'results', index: 'results_indexability', where: () => "r.indexability = 'non-indexable'" },
    external: { source: 'urls', index: 'urls_external', where: () => EXTERNAL_SQL },
    'mixed-content': { source: 'results', index: null, where: mixedContent },
    ...(Object.fromEntries(
      Object.entries(SECURITY_FILTERS).map(([id, bit]) => [
        id,
        { source: 'results', table: 'security', index: null, where: (hint: (index: string) => string) => securityFlag(bit, hint) },
      ]),
    ) as unknown as Record<keyof typeof SECURITY_FILTERS, FilterSql>),
    ...(Object.fromEntries(
      Object.entries(HREFLANG_SQL_OF).map(([id, where]) => [id, { source: 'results', table: 'hreflang', index: null, where }]),
    ) as unknown as Record<keyof typeof HREFLANG_SQL_OF, FilterSql>),
    'js-rendered': { source: 'renders', index: 'renders_compared', where: null },
    'js-rendered-links': renderFlag('js-rendered-links'),
    'js-errors': renderFlag('js-errors'),
    'js-blocked': renderFlag('js-blocked'),
    'js-redirect': renderFlag('js-redirect'),
    'js-title-changed': { source: 'renders', index: 'renders_compared', where: () => `${RENDERED_OK} AND ${changed('title')}` },
    'js-description-changed': {
      source: 'renders',
      index: 'renders_compared',
      where: () => `${RENDERED_OK} AND ${changed('meta_description')}`,
    },
    'js-canonical-changed': { source: 'renders', index: 'renders_compared', where: () => `${RENDERED_OK} AND ${changed('canonical')}` },
    'js-robots-changed': { source: 'renders', index: 'renders_compared', where: () => `${RENDERED_OK} AND ${ROBOTS_CHANGED}` },
    'js-noindex-rendered': { source: 'renders', index: 'renders_compared', where: () => `${RENDERED_OK} AND ${NOINDEX_RENDERED_ONLY}` },
    'js-render-failed': { source: 'renders', index: 'renders_compared', where: () => 'j.error IS NOT NULL' },
    'sitemap-urls': { source: 'urls', sitemaps: true, index: null, where: () => inSitemap('u.id') },
    'sitemap-missing': {
      source: 'results',
      sitemaps: true,
      index: 'results_indexability',
      where: () => `r.indexability = 'indexable' AND ${SITEMAPS_READ} AND NOT ${inSitemap('r.url_id')}`,
    },
    'sitemap-orphans': { source: 'urls', sitemaps: true, index: null, where: () => ORPHAN_SQL },
    'sitemap-non-indexable': {
      source: 'results',
      sitemaps: true,
      index: 'results_indexability',
      where: () => `r.indexability = 'non-indexable' AND ${inSitemap('r.url_id')}`,
    },
    'sitemap-multiple': { source: 'urls', sitemaps: true, index: null, where: () => MULTIPLE_SQL },
    'sitemap-over-limit': { source: 'sitemaps', sitemaps: true, index: null, where: () => OVER_LIMIT_SQL },
    'sitemap-outside-scope': { source: 'urls', sitemaps: true, index: null, where: () => `${inSitemap('u.id')} AND ${EXTERNAL_SQL}` },
    'sitemap-hreflang': { source: 'urls', sitemaps: true, index: null, where: () => HREFLANG_SQL },
    'images-all': { source: 'images', index: null, where: null },
    'images-alt-missing': { source: 'images', index: 'image_uses_alt', where: () => 'iu.alt_len IS NULL' },
    'images-alt-empty': { source: 'images', index: 'image_uses_alt', where: () => 'iu.alt_len = 0' },
    'images-alt-over-100': { source: 'images', index: 'image_uses_alt', where: () => `iu.alt_len > ${IMAGE_ALT_LONG}` },
    'images-over-100kb': { source: 'images', index: 'image_uses_image', where: () => IMAGE_OVER_SIZE },
    'images-broken': { source: 'images', index: 'image_uses_image', where: () => IMAGE_BROKEN },
    'images-no-dimensions': { source: 'images', index: 'image_uses_no_size', where: () => IMAGE_NO_SIZE },
    'structured-jsonld-errors': structured(hasStructured("sd.format = 'json-ld' AND sd.error IS NOT NULL")),
    'structured-none': structured(`NOT ${hasStructured('')}`),
    'structured-jsonld': structured(hasStructured("sd.format = 'json-ld'")),
    'structured-microdata': structured(hasStructured("sd.format = 'microdata'")),
    'structured-rdfa': structured(hasStructured("sd.format = 'rdfa'")),
    'structured-og-missing': structured(OG_MISSING),
    'structured-twitter-missing': structured(`NOT ${hasSocial('twitter:card')}`),
    // Duplicate content (issue 18.1): the connection's TEMP table content_dups (analysis/near-duplicates.ts) lists the
    // pages each filter holds; the reader fills it before counting or listing (refreshContentAnalysis).
    'content-exact-duplicates': { source: 'results', table: 'content_dups', index: null, where: () => contentDups('exact_count > 1') },
    'content-near-duplicates': { source: 'results', table: 'content_dups', index: null, where: () => contentDups('match_id IS NOT NULL') },
    'content-low': { source: 'results', table: 'content_dups', index: null, where: () => contentDups('low = 1') },
  };

  /**
   * The count pass of titles (or descriptions): missing, duplicated, too long or short in characters and in pixels.
   * On a crawl file the texts are grouped in index order, the pixel widths measured once per distinct text and the
   * duplicates read from the group sizes. On the store, whose texts no index orders (grouping 800,000 of them took 1-2
   * s at a million URLs), each parsed row is counted as it is read, with its recorded width, and the duplicates come
   * from the hash index (duplicateCount).
   */
  function textPass(field: SerpField): CountPass {
    const column = SERP_COLUMN[field];
    const limits = SERP_LIMITS[field];
    const ids = [
      `${field}-missing`,
      `${field}-duplicate`,
      `${field}-over-${limits.maxChars}`,
      `${field}-under-${limits.minChars}`,
      `${field}-over-${limits.maxPx}px`,
      `${field}-under-${limits.minPx}px`,
    ] as FilterId[];
    const [missing, duplicate, overChars, underChars, overPx, underPx] = ids;
    const duplicates = d.duplicateCount(column);
    if (duplicates !== null) {
      const text = `r.${column}`;
      const width = d.rowWidth(field, 'r');
      return {
        ids,
        sql: () => `SELECT count(*) FILTER (WHERE ${text} IS NULL OR ${text} = '') AS "${missing}",
      ${duplicates} AS "${duplicate}",
      count(*) FILTER (WHERE length(${text}) > ${limits.maxChars}) AS "${overChars}",
      count(*) FILTER (WHERE ${text} <> '' AND length(${text}) < ${limits.minChars}) AS "${underChars}",
      count(*) FILTER (WHERE ${text} <> '' AND ${width} > ${limits.maxPx}) AS "${overPx}",
      count(*) FILTER (WHERE ${text} <> '' AND ${width} < ${limits.minPx}) AS "${underPx}"
      FROM results r WHERE ${PARSED}`,
      };
    }
    const width = d.groupWidth(field);
    return {
      ids,
      sql: (t) => `SELECT coalesce(sum(n) FILTER (WHERE x IS NULL OR x = ''), 0) AS "${missing}",
      coalesce(sum(n) FILTER (WHERE x <> '' AND n > 1), 0) AS "${duplicate}",
      coalesce(sum(n) FILTER (WHERE length(x) > ${limits.maxChars}), 0) AS "${overChars}",
      coalesce(sum(n) FILTER (WHERE x <> '' AND length(x) < ${limits.minChars}), 0) AS "${underChars}",
      coalesce(sum(n) FILTER (WHERE x <> '' AND w > ${limits.maxPx}), 0) AS "${overPx}",
      coalesce(sum(n) FILTER (WHERE x <> '' AND w < ${limits.minPx}), 0) AS "${underPx}"
      FROM (SELECT x, n, ${width.inGroup ? 'w' : width.ofText('x')} AS w
            FROM (SELECT r.${column} AS x, count(*) AS n${width.inGroup ? `, ${width.inGroup} AS w` : ''}
                  FROM results r ${t.hint(`results_${field}`)} WHERE ${PARSED} GROUP BY r.${column}) g) w`,
    };
  }

  const COUNT_PASSES: readonly CountPass[] = [
    { ids: ['all'], sql: () => 'SELECT count(*) AS "all" FROM results' },
    {
      // One covering scan of results_status: the classes and the media type.
      ids: ['html', 'status-2xx', 'status-3xx', 'status-4xx', 'status-5xx', 'status-none'],
      sql: (t) => `SELECT count(*) FILTER (WHERE ${HTML_SQL}) AS "html",
      ${Object.entries(STATUS_RANGES)
        .map(([c, [min, max]]) => `count(*) FILTER (WHERE r.status_code BETWEEN ${min} AND ${max}) AS "status-${c}",`)
        .join('\n      ')}
      count(*) FILTER (WHERE r.status_code IS NULL) AS "status-none"
      FROM results r ${t.hint('results_status')}`,
    },
    textPass('title'),
    textPass('description'),
    {
      ids: ['h1-missing', 'h1-multiple'],
      sql: (t) => `SELECT count(*) FILTER (WHERE r.h1_count = 0) AS "h1-missing", count(*) FILTER (WHERE r.h1_count > 1) AS "h1-multiple"
      FROM results r ${t.hint('results_h1_count')} WHERE r.h1_count <> 1`,
    },
    {
      // The page's own URL is looked up (by id, in id order) only for pages that have a canonical. The canonical target's
      // row is read (by key) only for canonicalised pages. Where the crawl recorded whether each canonical is the page's
      // own, the pass reads that alone (the store's results_canonical_self: no row, no URL).
      ids: ['canonical-self', 'canonical-elsewhere', 'canonical-missing', 'canonical-non-indexable'],
      sql: (t) => `SELECT coalesce(sum(self), 0) AS "canonical-self", count(r_canonical) - coalesce(sum(self), 0) AS "canonical-elsewhere",
      count(*) - count(r_canonical) AS "canonical-missing", coalesce(sum(bad), 0) AS "canonical-non-indexable"
      FROM (SELECT r_canonical, self, CASE WHEN self = 0 THEN CASE WHEN ${CANONICAL_NON_INDEXABLE} THEN 1 ELSE 0 END ELSE 0 END AS bad
            FROM (${
              d.canonicalSelf
                ? 'SELECT r.url_id AS url_id, r.canonical_self AS r_canonical, r.canonical_self AS self FROM results r'
                : `SELECT r.url_id AS url_id, r.canonical AS r_canonical,
                    CASE WHEN r.canonical IS NULL THEN NULL WHEN ${canonicalIs(true, d.countByJoin ? 'cu.url' : OWN_URL)} THEN 1 ELSE 0 END AS self
                  FROM results r ${t.hint('results_canonical')}${d.countByJoin ? ' JOIN urls cu ON cu.id = r.url_id' : ''}`
            }
                  WHERE ${PARSED}${d.fence}) r) c`,
    },
    {
      ids: ['directive-noindex', 'directive-nofollow'],
      sql: (t) => `SELECT count(*) FILTER (WHERE ${saysDirective('noindex')}) AS "directive-noindex",
      count(*) FILTER (WHERE ${saysDirective('nofollow')}) AS "directive-nofollow"
      FROM results r ${t.hint('results_directives')} WHERE ${HAS_NO_DIRECTIVE}`,
    },
    {
      ids: ['indexable', 'non-indexable'],
      sql: (
        t,
      ) => `SELECT (SELECT count(*) FROM results r ${t.hint('results_indexability')} WHERE r.indexability = 'indexable') AS "indexable",
      (SELECT count(*) FROM results r ${t.hint('results_indexability')} WHERE r.indexability = 'non-indexable') AS "non-indexable"`,
    },
    { ids: ['external'], sql: (t) => `SELECT count(*) AS "external" FROM urls u ${t.hint('urls_external')} WHERE ${EXTERNAL_SQL}` },
    {
      // The error statuses (two ranges of results_status) with an inlink; the redirects (one range) by what they lead to.
      ids: ['broken-internal', 'redirect-chain', 'redirect-loop'],
      sql: (t) => `SELECT
      (SELECT count(*) FROM results r ${t.hint('results_status')} WHERE r.status_code >= 400 AND ${BROKEN_INTERNAL})
      + (SELECT count(*) FROM results r ${t.hint('results_status')} WHERE r.status_code IS NULL AND ${BROKEN_INTERNAL}) AS "broken-internal",
      (SELECT count(*) FROM results r ${t.hint('results_status')} WHERE r.status_code BETWEEN 300 AND 399 AND ${REDIRECT_TO_REDIRECT}) AS "redirect-chain",
      (SELECT count(*) FROM results r ${t.hint('results_status')} WHERE r.status_code BETWEEN 300 AND 399 AND ${REDIRECT_LOOP}) AS "redirect-loop"`,
    },
    {
      ids: ['mixed-content'],
      sql: (t) =>
        `SELECT count(*) AS "mixed-content" FROM results r WHERE ${mixedContent(
          (index) => t.hint(index),
          (table) => t.has(table),
        )}`,
    },
    {
      // Security (issue 18.5): one walk of security_flags (flagged pages only), a count per bit.
      ids: Object.keys(SECURITY_FILTERS) as (keyof typeof SECURITY_FILTERS)[],
      needsTable: 'security',
      sql: (t) => `SELECT ${Object.entries(SECURITY_FILTERS)
        .map(([id, bit]) => `count(*) FILTER (WHERE s.flags & ${bit} <> 0) AS "${id}"`)
        .join(',\n      ')}
      FROM security s ${t.hint('security_flags')} WHERE s.flags <> 0`,
    },
    {
      // Hreflang (issue 18.5): each filter's page set counted (the same sets the filters list).
      ids: Object.keys(HREFLANG_SQL_OF) as (keyof typeof HREFLANG_SQL_OF)[],
      needsTable: 'hreflang',
      sql: (t) =>
        `SELECT ${Object.entries(HREFLANG_SQL_OF)
          .map(
            ([id, where]) =>
              `(SELECT count(*) FROM (${where((index) => t.hint(index))
                .replace(/^r\.url_id IN \(/, '')
                .replace(/\)$/, '')}) x) AS "${id}"`,
          )
          .join(',\n      ')}`,
    },
    {
      // The rendered pages and the failed renders: a covering walk of renders_compared, renders' rows never read.
      ids: ['js-rendered', 'js-render-failed'],
      needsRenders: true,
      sql: (t) => `SELECT count(*) AS "js-rendered", count(*) FILTER (WHERE j.error IS NOT NULL) AS "js-render-failed"
      FROM renders j ${t.hint('renders_compared')}`,
    },
    {
      // Each flag from its partial index: the cost grows with the pages flagged.
      ids: Object.keys(RENDER_FLAGS) as (keyof typeof RENDER_FLAGS)[],
      needsRenders: true,
      sql: (t) =>
        `SELECT ${Object.entries(RENDER_FLAGS)
          .map(([id, f]) => `(SELECT count(*) FROM renders j ${t.hint(f.index)} WHERE ${f.where}) AS "${id}"`)
          .join(',\n      ')}`,
    },
    {
      // Rendered against raw: the successful renders (a range of renders_compared), each with its results row by key.
      ids: ['js-title-changed', 'js-description-changed', 'js-canonical-changed', 'js-robots-changed', 'js-noindex-rendered'],
      needsRenders: true,
      sql: (t) => `SELECT count(*) FILTER (WHERE ${changed('title')}) AS "js-title-changed",
      count(*) FILTER (WHERE ${changed('meta_description')}) AS "js-description-changed",
      count(*) FILTER (WHERE ${changed('canonical')}) AS "js-canonical-changed",
      count(*) FILTER (WHERE ${ROBOTS_CHANGED}) AS "js-robots-changed",
      count(*) FILTER (WHERE ${NOINDEX_RENDERED_ONLY}) AS "js-noindex-rendered"
      FROM renders j ${t.hint('renders_compared')} ${d.crossJoin} results r ON r.url_id = j.url_id WHERE ${RENDERED_OK}`,
    },
    {
      // The sitemap filters: sitemap_urls' keys, each URL's row looked up only for those a sitemap lists.
      ids: [
        'sitemap-urls',
        'sitemap-missing',
        'sitemap-orphans',
        'sitemap-non-indexable',
        'sitemap-multiple',
        'sitemap-over-limit',
        'sitemap-outside-scope',
        'sitemap-hreflang',
      ],
      needsSitemaps: true,
      sql: (t) => `SELECT (SELECT count(DISTINCT url_id) FROM sitemap_urls) AS "sitemap-urls",
      (SELECT count(*) FROM results r ${t.hint('results_indexability')} WHERE ${FILTER_SQL['sitemap-missing'].where!(() => '')}) AS "sitemap-missing",
      (SELECT count(*) FROM urls u WHERE ${ORPHAN_SQL}) AS "sitemap-orphans",
      (SELECT count(*) FROM results r ${t.hint('results_indexability')} WHERE ${FILTER_SQL['sitemap-non-indexable'].where!(() => '')}) AS "sitemap-non-indexable",
      (SELECT count(*) FROM (SELECT url_id FROM sitemap_urls GROUP BY url_id HAVING count(*) > 1) m) AS "sitemap-multiple",
      (SELECT count(*) FROM sitemaps sm WHERE ${OVER_LIMIT_SQL}) AS "sitemap-over-limit",
      (SELECT count(*) FROM urls u WHERE ${inSitemap('u.id')} AND ${EXTERNAL_SQL}) AS "sitemap-outside-scope",
      (SELECT count(DISTINCT url_id) FROM sitemap_urls WHERE hreflang IS NOT NULL) AS "sitemap-hreflang"`,
    },
    {
      // The Images filters: the alt ones from ranges of image_uses_alt, dimensions from its partial index, size and status
      // from the checked images (a walk of images, each use then by image_uses_image).
      ids: [
        'images-all',
        'images-alt-missing',
        'images-alt-empty',
        'images-alt-over-100',
        'images-over-100kb',
        'images-broken',
        'images-no-dimensions',
      ],
      needsImages: true,
      sql: (t) => `SELECT (SELECT count(*) FROM image_uses) AS "images-all",
      (SELECT count(*) FROM image_uses iu ${t.hint('image_uses_alt')} WHERE iu.alt_len IS NULL) AS "images-alt-missing",
      (SELECT count(*) FROM image_uses iu ${t.hint('image_uses_alt')} WHERE iu.alt_len = 0) AS "images-alt-empty",
      (SELECT count(*) FROM image_uses iu ${t.hint('image_uses_alt')} WHERE iu.alt_len > ${IMAGE_ALT_LONG}) AS "images-alt-over-100",
      (SELECT count(*) FROM image_uses iu WHERE ${IMAGE_OVER_SIZE}) AS "images-over-100kb",
      (SELECT count(*) FROM image_uses iu WHERE ${IMAGE_BROKEN}) AS "images-broken",
      (SELECT count(*) FROM image_uses iu ${t.hint('image_uses_no_size')} WHERE ${IMAGE_NO_SIZE}) AS "images-no-dimensions"`,
    },
    {
      // Structured data (issue 18.4): the pages with each format from structured_data_format's keys, the parse errors from
      // its partial index; the pages without any, or without the social tags, as a walk of the parsed pages' url_ids
      // (results_canonical) with a probe by key each, or on the store joined (STRUCTURED_PAGE_COUNTS_BY_JOIN).
      ids: [
        'structured-jsonld-errors',
        'structured-none',
        'structured-jsonld',
        'structured-microdata',
        'structured-rdfa',
        'structured-og-missing',
        'structured-twitter-missing',
      ],
      needsStructured: true,
      sql: (t) => `SELECT
      (SELECT count(DISTINCT sd.url_id) FROM structured_data sd ${t.hint('structured_data_errors')} WHERE sd.error IS NOT NULL AND sd.format = 'json-ld') AS "structured-jsonld-errors",
      (SELECT count(DISTINCT sd.url_id) FROM structured_data sd ${t.hint('structured_data_format')} WHERE sd.format = 'json-ld') AS "structured-jsonld",
      (SELECT count(DISTINCT sd.url_id) FROM structured_data sd ${t.hint('structured_data_format')} WHERE sd.format = 'microdata') AS "structured-microdata",
      (SELECT count(DISTINCT sd.url_id) FROM structured_data sd ${t.hint('structured_data_format')} WHERE sd.format = 'rdfa') AS "structured-rdfa",
      ${d.countByJoin ? STRUCTURED_PAGE_COUNTS_BY_JOIN : structuredPageCounts(t.hint('results_canonical'))}
      WHERE ${PARSED}`,
    },
    {
      // Duplicate content (issue 18.1): the TEMP table holds only the pages some content filter lists.
      ids: ['content-exact-duplicates', 'content-near-duplicates', 'content-low'],
      needsTable: 'content_dups',
      sql: () => `SELECT count(*) FILTER (WHERE exact_count > 1) AS "content-exact-duplicates",
      count(*) FILTER (WHERE match_id IS NOT NULL) AS "content-near-duplicates",
      count(*) FILTER (WHERE low = 1) AS "content-low" FROM content_dups`,
    },
  ];

  /** The columns of a results-based view's rows: ResultRow's (result-rows.ts), with the URL's id and state. */
  const FILTERED_ROW_COLUMNS = `${resultRowColumns(d.rows)}, u.id AS url_id, u.state AS state`;

  /** The same columns for a URL that may have no results row (the external view). */
  const URL_ROW_COLUMNS = `${resultRowColumns(d.rows, {
    crawl_depth: 'coalesce(r.crawl_depth, u.depth)',
    outlinks: 'coalesce(r.outlinks, 0)',
    attempts: 'coalesce(r.attempts, u.attempts)',
    robots_disallowed: 'coalesce(r.robots_disallowed, 0)',
  })}, u.id AS url_id, u.state AS state`;

  /** SQL of each sortable column over results (r) and urls (u), as the Results table sorts; inlinks counted (the keys are sorted without the rows). */
  const SORT_SQL: Record<ResultSortColumn, string> = resultSortSql(d.rows, 'counted');
  /** Where the external view (URLs, maybe without a results row) sorts differently. */
  const URL_SORT_SQL: Partial<Record<ResultSortColumn, string>> = {
    seq: 'u.id',
    crawl_depth: 'coalesce(r.crawl_depth, u.depth)',
    attempts: 'coalesce(r.attempts, u.attempts)',
    outlinks: 'coalesce(r.outlinks, 0)',
    inlinks: '(SELECT count(*) FROM links l WHERE l.to_id = u.id)',
    link_score: d.rows.linkScore('link_score', 'u.id'),
    unique_inlinks: d.rows.linkScore('unique_inlinks', 'u.id'),
  };

  /** The text over a filter's rows: results rows (r), or URLs (u) with their results row when they have one. */
  const textOverResults = textMatchSql(d.rows, '@text');
  const textOverUrls = textMatchSql(d.rows, '@text', 'u.id');
  const textSql = (source: FilterSql['source']) => (source === 'urls' ? textOverUrls : textOverResults);
  /** URLs that start with @prefix, case and all (a URL's path is case-sensitive; LIKE would not be, and reads % and _). */
  const PREFIX_SQL = 'substr(u.url, 1, length(@prefix)) = @prefix';
  return {
    MEDIA_TYPE_SQL,
    FILTER_SQL,
    COUNT_PASSES,
    SITEMAP_ROW_COLUMNS,
    IMAGE_RESULT_JOIN,
    IMAGE_ROW_COLUMNS,
    IMAGE_ROWS_FROM,
    IMAGE_SORT_SQL,
    IMAGE_TEXT_SQL,
    FILTERED_ROW_COLUMNS,
    URL_ROW_COLUMNS,
    SORT_SQL,
    URL_SORT_SQL,
    textSql,
    PREFIX_SQL,
  };
}

type DialectSql = ReturnType<typeof dialectSql> & { d: FilterDialect };
const SQLITE_SQL: DialectSql = { ...dialectSql(SQLITE_FILTERS), d: SQLITE_FILTERS };
/** The store's SQL for each set of columns a crawl may have, made when first asked. */
const postgresSql = new Map<string, DialectSql>();
function postgresSqlFor(columns: StoreColumns): DialectSql {
  const key = `${columns.widths}/${columns.hashes}/${columns.hashCounts}/${columns.linkScores === true}/${columns.canonicalSelf}`;
  let sql = postgresSql.get(key);
  if (!sql) {
    const d = postgresFilters(columns);
    sql = { ...dialectSql(d), d };
    postgresSql.set(key, sql);
  }
  return sql;
}

/** The filters' SQL as written for SQLite (FILTER_SQL is read by tests and benches). */
export const { MEDIA_TYPE_SQL, FILTER_SQL } = SQLITE_SQL;

const fileTargets = new WeakMap<Db, FilterTarget>();
/** A crawl file's connection as a target of the filters. */
export function fileTarget(db: Db): FilterTarget {
  let t = fileTargets.get(db);
  if (!t) {
    t = {
      sql: SQLITE_SQL,
      hint: (index) => indexedBy(db, index),
      // Duplicate content's content_dups is a TEMP table (every crawl-file connection makes it: crawl-file.ts).
      has: (table) => (table === 'content_dups' ? hasTempTable(db, table) : hasTable(db, table)),
      renders: () => hasRenders(db),
    };
    fileTargets.set(db, t);
  }
  return t;
}

/** Whether the connection has this TEMP table. */
function hasTempTable(db: Db, name: string): boolean {
  return prepared(db, "SELECT 1 FROM sqlite_temp_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/**
 * A crawl in the PostgreSQL store with these tables in its schema (one made before a table came lacks it) and these
 * columns beside its results (one made before them lacks them).
 */
export function storeTarget(
  tables: ReadonlySet<string>,
  columns: StoreColumns = { widths: true, hashes: true, hashCounts: true, canonicalSelf: true },
  orderedScores: OrderedScores | null = null,
): FilterTarget {
  return {
    sql: postgresSqlFor(columns),
    ...(orderedScores && columns.linkScores ? { orderedScores } : {}),
    hint: () => '',
    has: (table) => tables.has(table),
    renders: () => tables.has('renders'),
  };
}

function targetOf(x: Db | FilterTarget): FilterTarget {
  return 'sql' in x && 'hint' in x ? x : fileTarget(x as Db);
}

/** Where a view export's rows come from: results, or for the external view (URLs, most never fetched) urls. */
export function viewRowsFrom(id: FilterId): 'results' | 'urls' {
  return filterSql(id).source === 'urls' ? 'urls' : 'results';
}

/** The Images filters (issue 18.3): their rows are image uses, exported by writeImageUses rather than as results. */
export function isImageFilter(id: FilterId): boolean {
  return filterSql(id).source === 'images';
}

/**
 * An Images filter's index hint and predicate over image_uses iu (its rows' source), with the SQL of the rows a table of
 * its uses reads in the target's dialect (images.ts): the search over a use's image, page and alt (@text), and the
 * join of an image's own results row. Null on a crawl without the tables.
 */
export function imageUsesWhere(
  db: Db | FilterTarget,
  id: FilterId,
): { hint: string; where: string; text: string; resultJoin: string; d: FilterDialect } | null {
  const t = targetOf(db);
  const f = filterOf(t, id);
  if (f.source !== 'images') throw new Error(`"${id}" is not an Images filter`);
  if (!available(t, f)) return null;
  return {
    hint: f.index ? t.hint(f.index) : '',
    where: f.where ? f.where(() => '') : t.sql.d.always,
    text: t.sql.IMAGE_TEXT_SQL,
    resultJoin: t.sql.IMAGE_RESULT_JOIN,
    d: t.sql.d,
  };
}

/** Whether the filter's rows can exist in this crawl: the JavaScript ones need the renders table (version 4). */
function available(t: FilterTarget, f: FilterSql): boolean {
  if (f.sitemaps) return t.has('sitemap_urls');
  if (f.source === 'images') return t.has('image_uses');
  if (f.structured) return t.has('structured_data');
  if (f.table) return t.has(f.table);
  return f.source !== 'renders' || t.renders();
}

function filterSql(id: unknown): FilterSql {
  const f = typeof id === 'string' && Object.hasOwn(SQLITE_SQL.FILTER_SQL, id) ? SQLITE_SQL.FILTER_SQL[id as FilterId] : undefined;
  if (!f) throw new Error(`unknown filter "${String(id)}"; filters: ${FILTER_IDS.join(', ')}`);
  return f;
}

/** A filter's SQL in the target's dialect (the id checked). */
function filterOf(t: FilterTarget, id: unknown): FilterSql {
  filterSql(id);
  return t.sql.FILTER_SQL[id as FilterId];
}

/** The WHERE predicate of a filter on this connection (index hints only where the file has the index). */
export function filterPredicate(db: Db | FilterTarget, id: FilterId): string | null {
  const t = targetOf(db);
  const f = filterOf(t, id);
  if (!available(t, f)) return t.sql.d.never;
  const where = f.where
    ? f.where(
        (index) => t.hint(index),
        (table) => t.has(table),
      )
    : null;
  // A rendered page's filter as a condition on its results row: its renders row, looked up by key.
  if (f.source === 'renders') return `EXISTS (SELECT 1 FROM renders j WHERE j.url_id = r.url_id${where ? ` AND ${where}` : ''})`;
  // Sitemaps have no results rows: a view of results has none of them. Nor have image uses (writeImageUses exports them).
  if (f.source === 'sitemaps' || f.source === 'images') return t.sql.d.never;
  return where;
}

/**
 * The SQL condition of a results view (a filter and a text, as queryFiltered takes them) over results r and urls u,
 * with its parameters: exportCsv's `where`. Null for every row. ("external" exports the out-of-scope URLs that
 * have a results row, i.e. those checked for their status; links never fetched have no row to export.)
 */
export function viewWhere(
  db: Db | FilterTarget,
  filter: FilterId,
  text?: string | null,
): { sql: string; params: Record<string, unknown> } | null {
  const t = targetOf(db);
  const terms = [filterPredicate(t, filter)];
  const params: Record<string, unknown> = {};
  if (typeof text === 'string' && text.length > 0) {
    terms.push(t.sql.textSql(filterOf(t, filter).source));
    params.text = t.sql.d.rows.search.value(text);
  }
  const sql = terms.filter((term): term is string => !!term).join(' AND ');
  return sql ? { sql, params } : null;
}

// ---- counts ----

/** Whether a count pass can run on this crawl (the tables it reads exist). */
function passAvailable(t: FilterTarget, p: CountPass): boolean {
  return (
    (!p.needsRenders || t.renders()) &&
    (!p.needsSitemaps || t.has('sitemap_urls')) &&
    (!p.needsImages || t.has('image_uses')) &&
    (!p.needsStructured || t.has('structured_data')) &&
    (!p.needsTable || t.has(p.needsTable))
  );
}

/** The SQL of every count pass on this connection, for plan checks. */
export function countSql(db: Db | FilterTarget): string[] {
  const t = targetOf(db);
  return t.sql.COUNT_PASSES.filter((p) => passAvailable(t, p)).map((p) => p.sql(t));
}

/**
 * The count passes that answer `only` (every filter without it): each with the filters it counts and its SQL, or
 * null when the crawl lacks a table it reads (its counts are then 0).
 */
export function countPasses(t: FilterTarget, only?: readonly FilterId[]): { ids: readonly FilterId[]; sql: string | null }[] {
  if (only) for (const id of only) filterSql(id);
  const passes = only ? t.sql.COUNT_PASSES.filter((p) => p.ids.some((id) => only.includes(id))) : t.sql.COUNT_PASSES;
  return passes.map((p) => ({ ids: p.ids, sql: passAvailable(t, p) ? p.sql(t) : null }));
}

/**
 * The number of rows of each filter (for the tabs' badges), in one read transaction. `only` limits the work to the
 * filters named (passes that count several filters at once still return all of theirs). Each pass reads one index:
 * its cost grows with the rows of that index, never with the size of the results rows.
 */
export function filterCounts(db: Db): FilterCounts;
export function filterCounts(db: Db, only: readonly FilterId[]): Partial<FilterCounts>;
export function filterCounts(db: Db, only?: readonly FilterId[]): Partial<FilterCounts> {
  const passes = countPasses(fileTarget(db), only);
  return readTransaction(db, () => {
    const out: Partial<FilterCounts> = {};
    for (const pass of passes) {
      if (pass.sql === null) for (const id of pass.ids) out[id] = 0;
      else Object.assign(out, prepared(db, pass.sql).get() as Partial<FilterCounts>);
    }
    return out;
  });
}

// ---- pages of rows ----

/** The columns of a results-based view's rows: ResultRow's (result-rows.ts), with the URL's id and state. */
export const FILTERED_ROW_COLUMNS = SQLITE_SQL.FILTERED_ROW_COLUMNS;
/** The same columns for a URL that may have no results row (the external view). */
export const URL_ROW_COLUMNS = SQLITE_SQL.URL_ROW_COLUMNS;
/** SQL of each sortable column over results (r) and urls (u), as the Results table sorts; inlinks counted (the keys are sorted without the rows). */
export const SORT_SQL: Record<ResultSortColumn, string> = SQLITE_SQL.SORT_SQL;

interface PageSql {
  count: string;
  ids: string;
  rows: string;
}

/**
 * How a results-based filter is read: `index` walks the filter's index and reads the rows it names (the rows are
 * read only for a page, or to match a text, or to sort by a column the index lacks); `scan` walks results in seq
 * order, reading every row: what a text search over a filter holding most of the crawl costs least (a row read
 * in index order is a random read, about ten times the cost of one read in table order).
 */
export type FilterPlan = 'index' | 'scan';

/** The three statements of a filtered page: its total, the keys of the page (sorted), and their rows. */
export function pageSql(
  target: Db | FilterTarget,
  filter: FilterId,
  sort: ResultSortColumn,
  descending: boolean,
  hasText: boolean,
  plan: FilterPlan = 'index',
  hasPrefix = false,
): PageSql {
  const t = targetOf(target);
  const f = filterOf(t, filter);
  checkSort(sort);
  const { d, SORT_SQL, textSql, PREFIX_SQL, FILTERED_ROW_COLUMNS, URL_ROW_COLUMNS, URL_SORT_SQL } = t.sql;
  const { IMAGE_TEXT_SQL, IMAGE_SORT_SQL, IMAGE_RESULT_JOIN, IMAGE_ROW_COLUMNS, IMAGE_ROWS_FROM, SITEMAP_ROW_COLUMNS } = t.sql;
  const hint = !f.index ? '' : plan === 'scan' && f.source === 'results' ? 'NOT INDEXED' : t.hint(f.index);
  const condWith = (ownUrl?: string) => {
    const terms = [
      f.where?.(
        (index) => t.hint(index),
        (table) => t.has(table),
        ownUrl,
      ),
      hasText ? textSql(f.source) : undefined,
      hasPrefix ? PREFIX_SQL : undefined,
    ].filter((term): term is string => !!term);
    return terms.length ? terms.join(' AND ') : null;
  };
  const whereWith = (ownUrl?: string) => {
    const cond = condWith(ownUrl);
    return cond ? `WHERE ${cond}` : '';
  };
  // The URL row is read for the prefix (the text reads the URLs in a subquery of its own).
  const needsUrl = hasPrefix;
  const where = whereWith();
  if (f.source === 'renders') {
    // The rendered pages from the filter's index of renders, each with its results row by key (CROSS JOIN keeps
    // renders outermost: never a walk of results looking each row up in renders).
    const order = orderSql(sort, SORT_SQL[sort], descending, 'r.seq', d.rows.urlOrder);
    const joined = `FROM renders j ${hint} ${d.crossJoin} results r ON r.url_id = j.url_id`;
    const from = `${joined}${needsUrl || sort === 'url' ? ' JOIN urls u ON u.id = r.url_id' : ''}`;
    return {
      count: `SELECT count(*) AS total ${needsUrl ? `${joined} JOIN urls u ON u.id = r.url_id` : /\br\./.test(where) ? joined : `FROM renders j ${hint}`} ${where}`,
      ids: `SELECT r.seq AS k ${from} ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
      rows: `SELECT ${FILTERED_ROW_COLUMNS} FROM results r JOIN urls u ON u.id = r.url_id WHERE ${d.rows.inKeys('r.seq', '@keys')}`,
    };
  }
  if (f.source === 'images') {
    // Image uses, from the filter's index of image_uses; the image, its page and its checked row read by key for a page.
    const text = hasText ? ` AND ${IMAGE_TEXT_SQL}` : '';
    const pre = hasPrefix ? ' AND substr(pu.url, 1, length(@prefix)) = @prefix' : '';
    const sortSql = IMAGE_SORT_SQL[sort];
    const order = sortSql ? orderSql(sort, sortSql, descending, 'iu.id') : `iu.id ${descending && sort === 'seq' ? 'DESC' : 'ASC'}`;
    const cond = `WHERE ${f.where ? f.where(() => '') : d.always}${text}${pre}`;
    const narrow = !hasText && !hasPrefix && !sortSql;
    const from = narrow
      ? `FROM image_uses iu ${hint}`
      : `FROM image_uses iu ${hint} JOIN images im ON im.id = iu.image_id JOIN urls pu ON pu.id = iu.page_id ${IMAGE_RESULT_JOIN}`;
    const countFrom = hasText || hasPrefix ? from.replace(IMAGE_RESULT_JOIN, '') : `FROM image_uses iu ${hint}`;
    return {
      count: `SELECT count(*) AS total ${countFrom} ${cond}`,
      ids: `SELECT iu.id AS k ${from} ${cond} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
      rows: `SELECT ${IMAGE_ROW_COLUMNS} FROM ${IMAGE_ROWS_FROM} WHERE ${d.rows.inKeys('iu.id', '@keys')}`,
    };
  }
  if (f.source === 'sitemaps') {
    // Sitemaps, not URLs: sorted by URL or in discovery order.
    const text = hasText ? ` AND ${d.rows.search.contains('sm.url', '@text')}` : '';
    const order =
      sort === 'url' ? `${d.rows.noCase('sm.url')} ${descending ? 'DESC' : 'ASC'}, sm.id` : `sm.id ${descending ? 'DESC' : 'ASC'}`;
    const cond = `WHERE ${f.where!(() => '')}${text}`;
    return {
      count: `SELECT count(*) AS total FROM sitemaps sm ${cond}`,
      ids: `SELECT sm.id AS k FROM sitemaps sm ${cond} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
      rows: `SELECT ${SITEMAP_ROW_COLUMNS} FROM sitemaps sm WHERE ${d.rows.inKeys('sm.id', '@keys')}`,
    };
  }
  if (f.source === 'urls') {
    const sortSql = URL_SORT_SQL[sort] ?? SORT_SQL[sort];
    const order = orderSql(sort, sortSql, descending, 'u.id', d.rows.urlOrder);
    // The results row is joined only when the text or the sort reads it.
    const from = `FROM urls u ${hint}${hasText || /\br\./.test(sortSql) ? ' LEFT JOIN results r ON r.url_id = u.id' : ''}`;
    return {
      count: `SELECT count(*) AS total ${hasText ? `FROM urls u ${hint} LEFT JOIN results r ON r.url_id = u.id` : `FROM urls u ${hint}`} ${where}`,
      ids: `SELECT u.id AS k ${from} ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
      rows: `SELECT ${URL_ROW_COLUMNS} FROM urls u LEFT JOIN results r ON r.url_id = u.id WHERE ${d.rows.inKeys('u.id', '@keys')}`,
    };
  }
  const byScore = isLinkScoreSort(sort) ? d.rows.linkScoreSort(sort) : null;
  const order = orderSql(sort, byScore?.order ?? SORT_SQL[sort], descending, 'r.seq', d.rows.urlOrder);
  // The URL row is joined only when the prefix or the sort reads it.
  const joined = `results r ${hint}${needsUrl || sort === 'url' ? ' JOIN urls u ON u.id = r.url_id' : ''}`;
  const from = `FROM ${joined}${byScore ? ` ${byScore.join}` : ''}`;
  // Scores kept in their order are walked in it (orderedScoreKeysSql), and the page's keys ordered as they come.
  const walk = byScore && t.orderedScores && isLinkScoreSort(sort) ? { o: t.orderedScores, column: sort } : null;
  const ids = walk
    ? `SELECT x.k FROM (${orderedScoreKeysSql(walk.o, walk.column, descending, joined, condWith(), '@limit', '@offset', hasText)}) x
       ORDER BY ${orderSql(sort, 'x.o', descending, 'x.k')}`
    : `SELECT r.seq AS k ${from} ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset`;
  // A page reads its own URL by key for its first rows only; the count reads every row's (FilterSql.readsOwnUrl).
  const countJoinsUrl = f.readsOwnUrl === true && d.countByJoin;
  return {
    count: `SELECT count(*) AS total ${needsUrl || countJoinsUrl ? `FROM results r ${hint} JOIN urls u ON u.id = r.url_id` : `FROM results r ${hint}`} ${countJoinsUrl ? whereWith('u.url') : where}`,
    ids,
    rows: `SELECT ${FILTERED_ROW_COLUMNS} FROM results r JOIN urls u ON u.id = r.url_id WHERE ${d.rows.inKeys('r.seq', '@keys')}`,
  };
}

/** A filtered page's statements and their parameters, ready to run; null when the crawl cannot hold the filter's rows. */
export interface FilteredStatements extends PageSql {
  /** The count's and the keys' parameters (the keys' also take limit and offset). */
  params: Record<string, unknown>;
  source: FilterSql['source'];
}

export function filteredStatements(
  t: FilterTarget,
  q: FilterQuery,
  plan?: (hasTextOrPrefix: boolean) => FilterPlan,
): FilteredStatements | null {
  checkOffset(q.offset);
  checkLimit(q.limit);
  const hasText = typeof q.text === 'string' && q.text.length > 0;
  const hasPrefix = typeof q.prefix === 'string' && q.prefix.length > 0;
  const params: Record<string, unknown> = {};
  if (hasText) params.text = t.sql.d.rows.search.value(q.text as string);
  if (hasPrefix) params.prefix = q.prefix;
  const f = filterOf(t, q.filter);
  if (!available(t, f)) return null;
  const sqls = pageSql(t, q.filter, q.sort, q.descending === true, hasText, plan?.(hasText || hasPrefix) ?? 'index', hasPrefix);
  return { ...sqls, params, source: f.source };
}

/** The rows of a page in the order of its keys (results.seq, urls.id, or for sitemaps and image uses their negated ids). */
export function pageInOrder(keys: readonly number[], rows: readonly FilteredRow[], source: FilterSql['source']): FilteredRow[] {
  return inOrder(keys, rows, (r) =>
    source === 'urls' ? r.url_id : source === 'sitemaps' || source === 'images' ? -r.url_id : (r.seq as number),
  );
}

/** How many pages use an image (an image use row's inlinks): from image_uses_image. */
export function imageUsesCountSql(t: FilterTarget): string {
  return `SELECT count(*) AS n FROM image_uses ${t.hint('image_uses_image')} WHERE image_id = @image`;
}

/**
 * A page of a filter's rows, sorted and searched by SQLite, with the filter's total; in one read transaction.
 * The sort is done on the keys the filter's index yields (results.seq, or urls.id for "external"); only the page's
 * rows are read whole. Rows have ResultRow's columns plus url_id and state.
 */
export function queryFiltered(db: Db, q: FilterQuery): FilteredPage {
  const t = fileTarget(db);
  const empty = { filter: q.filter, total: 0, offset: q.offset, rows: [] };
  // A prefix, like a text, is matched row by row: the cheaper walk for either is the text's.
  const plan = (rowByRow: boolean) => (rowByRow ? textPlan(db, q.filter) : 'index');
  const first = filteredStatements(t, { ...q, text: null, prefix: null });
  if (first === null) return empty;
  return readTransaction(db, () => {
    const st = filteredStatements(t, q, plan)!;
    const keys = (prepared(db, st.ids).all({ ...st.params, limit: q.limit, offset: q.offset }) as { k: number }[]).map((r) => r.k);
    const total = totalFromPage(q.offset, q.limit, keys.length) ?? (prepared(db, st.count).get(st.params) as { total: number }).total;
    const read = keys.length ? (prepared(db, st.rows).all({ keys: JSON.stringify(keys) }) as FilteredRow[]) : [];
    const rows = st.source === 'images' ? imageRows(db, read) : read;
    return { filter: q.filter, total, offset: q.offset, rows: pageInOrder(keys, rows, st.source) };
  });
}

/** Image uses' rows as read, each with its image's uses (inlinks: the pages using it) counted once per image from its index. */
function imageRows(db: Db, read: FilteredRow[]): FilteredRow[] {
  const uses = new Map<number, number>();
  const count = prepared(db, imageUsesCountSql(fileTarget(db)));
  return read.map((raw) => {
    const imageId = (raw as unknown as { image_id: number }).image_id;
    let n = uses.get(imageId);
    if (n === undefined) uses.set(imageId, (n = (count.get({ image: imageId }) as { n: number }).n));
    const { image_id: _, ...rest } = raw as FilteredRow & { image_id: number };
    return imageRow({ ...rest, inlinks: n });
  });
}

/** An image use's row as read (its use's columns flat) with them gathered as `image`. */
export function imageRow(raw: FilteredRow): FilteredRow {
  const { page_url, page_id, alt, alt_len, width, height, checked, ...row } = raw as FilteredRow & {
    page_url: string;
    page_id: number;
    alt: string | null;
    alt_len: number | null;
    width: string | null;
    height: string | null;
    checked: number;
  };
  return { ...row, image: { page_url, page_id, alt, alt_len, width, height, checked: Number(checked) === 1 } };
}

/**
 * The cheaper way to match a text within a filter: through the filter's index when it holds under a tenth of the
 * results (its rows are then few enough to read in index order), else a walk of the table in seq order.
 */
export function textPlan(db: Db, filter: FilterId): FilterPlan {
  const f = filterSql(filter);
  if (f.source !== 'results' || !f.index) return 'index';
  const { total } = prepared(db, pageSql(db, filter, 'seq', false, false).count).get() as { total: number };
  const { all } = prepared(db, 'SELECT count(*) AS "all" FROM results').get() as { all: number };
  return total * 10 < all ? 'index' : 'scan';
}
