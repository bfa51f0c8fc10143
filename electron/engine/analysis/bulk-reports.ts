// The bulk reports over a crawl file (shared/bulk-reports.ts names them): every link to a 4xx, 5xx or no-response URL,
// every link to a non-indexable page, every redirect chain and every canonical chain, as tables written a page at a
// time (CSV or XLSX, through the export writers), so memory does not grow with the crawl.
//
// No statement walks a table: the report's subjects come from one range of an index the explorer's filters use
// (results_status, results_indexability, results_canonical), and from there every step is a look-up by key: a
// target's links by links_to (to_id, then from_id, the table's key: pages of one target's inlinks by keyset), a
// URL by its id or by url_key, a redirect's target by the links table's key (from_id). The subjects' ids are read
// first (integers, in discovery order); the rows are then read a subject at a time, each statement on its own, so a
// crawl writing to the file meanwhile is never held up by one long read.
import type { BulkReportId } from '../../../shared/bulk-reports.ts';
import type { ExportFormat } from '../../../shared/analysis.ts';
import { urlKey } from '../../../shared/url/url-key.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { writeCsvTable } from '../export/csv-writer.ts';
import { writeXlsxTable } from '../export/xlsx-writer.ts';
import { IMAGE_USE_COLUMNS, imageUsePages, imageUsesSql } from './images.ts';
import { filterPredicate } from './result-filters.ts';
import { ALTERNATES_SQL, hreflangDetail } from './security-detail.ts';
import { STATUS_RANGES } from './result-rows.ts';
import { hasTable, indexedBy, prepared } from './sql.ts';

/** Columns of the reports that list links: one row per link (source page, target). */
export const LINK_REPORT_COLUMNS = ['source', 'target', 'anchor', 'link_kind', 'nofollow', 'status_code', 'indexability_reason', 'error'];
/** Columns of the redirect chains: one row per hop, with its chain's start, length, end and loop. */
export const REDIRECT_CHAIN_COLUMNS = [
  'source',
  'hop',
  'url',
  'status_code',
  'redirects_to',
  'redirects',
  'final_url',
  'final_status',
  'loop',
];
/** Columns of the canonical chains: one row per hop, with its chain's start, length, end and loop. */
export const CANONICAL_CHAIN_COLUMNS = [
  'source',
  'hop',
  'url',
  'status_code',
  'canonical',
  'canonicals',
  'final_url',
  'final_status',
  'loop',
];

/** Columns of the structured data types (issue 18.4): one row per type and format, most used first. */
export const STRUCTURED_TYPES_COLUMNS = ['type', 'format', 'pages', 'items'];
/** Columns of the hreflang report: one row per alternate a page names, with its problems and its set's. */
export const HREFLANG_COLUMNS = [
  'page',
  'lang',
  'target',
  'crawled',
  'status_code',
  'problems',
  'set_missing_x_default',
  'set_missing_self',
];

/** Hops followed in one chain at most (the frontier cuts redirects at 10; a report never loops forever). */
export const MAX_CHAIN_HOPS = 20;
const PAGE_ROWS = 1000;

export interface BulkTable {
  header: readonly string[];
  /** The rows, a page at a time. */
  pages: Iterable<unknown[][]>;
}

/** The statements each report runs, for plan checks: the subjects' range, then the look-ups by key. */
export function bulkReportSql(db: Db, id: BulkReportId): string[] {
  const look = lookups(db);
  switch (id) {
    case 'images-missing-alt': {
      // The uses' ids from a range of image_uses_alt, each use's image, page and checked rows by key (images.ts).
      const sql = imageUsesSql(db, 'images-alt-missing');
      return sql ? [sql.ids, sql.row] : [];
    }
    case 'redirect-chains':
      return [subjectSql(db, id), look.hop, look.redirectTarget];
    case 'canonical-chains':
      return [subjectSql(db, id), look.hop, look.byKey];
    case 'structured-data-types':
      return [subjectSql(db, id), look.structured];
    case 'hreflang-alternates':
      return [subjectSql(db, id), look.pageUrl, ALTERNATES_SQL];
    default:
      return [subjectSql(db, id), look.target, look.inlinks];
  }
}

/** The SQL of a report's subjects: the ids of the URLs it starts from, from one index range. */
function subjectSql(db: Db, id: BulkReportId): string {
  const status = (cls: keyof typeof STATUS_RANGES) =>
    `SELECT r.url_id AS id FROM results r ${indexedBy(db, 'results_status')} WHERE r.status_code BETWEEN ${STATUS_RANGES[cls][0]} AND ${STATUS_RANGES[cls][1]}`;
  switch (id) {
    case 'client-error-inlinks':
      return status('4xx');
    case 'server-error-inlinks':
      return status('5xx');
    case 'no-response-inlinks':
      return `SELECT r.url_id AS id FROM results r ${indexedBy(db, 'results_status')} WHERE r.status_code IS NULL`;
    case 'non-indexable-inlinks':
      return `SELECT r.url_id AS id FROM results r ${indexedBy(db, 'results_indexability')} WHERE r.indexability = 'non-indexable'`;
    case 'redirect-chains':
      // A chain starts at a redirect found as a link or seed (redirect_hops 0); the URLs it leads to are its hops.
      return `SELECT r.url_id AS id FROM results r ${indexedBy(db, 'results_status')} CROSS JOIN urls u ON u.id = r.url_id
        WHERE r.status_code BETWEEN ${STATUS_RANGES['3xx'][0]} AND ${STATUS_RANGES['3xx'][1]} AND r.redirect_url IS NOT NULL AND u.redirect_hops = 0`;
    case 'images-missing-alt':
      throw new Error('images-missing-alt has no URL subjects: its rows are image uses (images.ts)');
    case 'canonical-chains':
      // The explorer's "Canonicalised" pages, word for word.
      return `SELECT r.url_id AS id FROM results r ${indexedBy(db, 'results_canonical')} WHERE ${filterPredicate(db, 'canonical-elsewhere')}`;
    case 'structured-data-types':
      // The parsed pages with structured data: the explorer's "no structured data" filter turned round.
      return `SELECT r.url_id AS id FROM results r ${indexedBy(db, 'results_canonical')} WHERE r.h1_count IS NOT NULL
        AND EXISTS (SELECT 1 FROM structured_data sd WHERE sd.url_id = r.url_id)`;
    case 'hreflang-alternates':
      // The pages naming alternates, from the table's key (url_id first).
      return 'SELECT DISTINCT h.url_id AS id FROM hreflang h';
  }
}

const lookups = (db: Db) => ({
  target: 'SELECT u.url, r.status_code, r.indexability_reason, r.error FROM urls u JOIN results r ON r.url_id = u.id WHERE u.id = ?',
  inlinks: `SELECT l.from_id AS k, s.url, l.anchor, l.kind, l.nofollow FROM links l ${indexedBy(db, 'links_to')}
    CROSS JOIN urls s ON s.id = l.from_id WHERE l.to_id = ? AND l.from_id > ? ORDER BY l.from_id LIMIT ?`,
  hop: `SELECT u.id, u.url, r.status_code, r.redirect_url, r.error, r.canonical, r.h1_count
    FROM urls u LEFT JOIN results r ON r.url_id = u.id WHERE u.id = ?`,
  redirectTarget: "SELECT to_id FROM links WHERE from_id = ? AND kind = 'redirect' LIMIT 1",
  byKey: 'SELECT id FROM urls WHERE url_key = ? AND url = ? LIMIT 1',
  structured: 'SELECT format, types FROM structured_data WHERE url_id = ?',
  pageUrl: 'SELECT url FROM urls WHERE id = ?',
});

function subjects(db: Db, id: BulkReportId): number[] {
  // A file older than version 6 has no structured data.
  if (id === 'structured-data-types' && !hasTable(db, 'structured_data')) return [];
  if (id === 'hreflang-alternates' && !hasTable(db, 'hreflang')) return [];
  const ids = (prepared(db, subjectSql(db, id)).raw(true).all() as [number][]).map((r) => r[0]);
  return ids.sort((a, b) => a - b);
}

/** A report's header and rows, read from `db` as they are iterated. */
export function bulkReport(db: Db, id: BulkReportId, pageRows = PAGE_ROWS): BulkTable {
  switch (id) {
    case 'redirect-chains':
      return { header: REDIRECT_CHAIN_COLUMNS, pages: inPagesOf(redirectChainRows(db), pageRows) };
    case 'canonical-chains':
      return { header: CANONICAL_CHAIN_COLUMNS, pages: inPagesOf(canonicalChainRows(db), pageRows) };
    case 'images-missing-alt':
      return { header: IMAGE_USE_COLUMNS, pages: imageUsePages(db, 'images-alt-missing', pageRows) };
    case 'structured-data-types':
      return { header: STRUCTURED_TYPES_COLUMNS, pages: inPagesOf(structuredTypeRows(db), pageRows) };
    case 'hreflang-alternates':
      return { header: HREFLANG_COLUMNS, pages: inPagesOf(hreflangRows(db), pageRows) };
    default:
      return { header: LINK_REPORT_COLUMNS, pages: linkRows(db, id, pageRows) };
  }
}

/** Every link to each subject, in target then source order: a target's inlinks a page at a time by keyset. */
function* linkRows(db: Db, id: BulkReportId, pageRows: number): Generator<unknown[][]> {
  const look = lookups(db);
  const target = prepared(db, look.target).raw(true);
  const inlinks = prepared(db, look.inlinks).raw(true);
  let page: unknown[][] = [];
  for (const targetId of subjects(db, id)) {
    const t = target.get(targetId) as [string, number | null, string | null, string | null] | undefined;
    if (!t) continue;
    const [url, status, reason, error] = t;
    for (let after = 0; ; ) {
      const links = inlinks.all(targetId, after, pageRows) as [number, string, string | null, string, number][];
      for (const [, source, anchor, kind, nofollow] of links) page.push([source, url, anchor, kind, nofollow, status, reason, error]);
      if (page.length >= pageRows) {
        yield page;
        page = [];
      }
      if (links.length < pageRows) break;
      after = links[links.length - 1]![0];
    }
  }
  if (page.length) yield page;
}

interface Hop {
  id: number;
  url: string;
  status_code: number | null;
  redirect_url: string | null;
  error: string | null;
  canonical: string | null;
  h1_count: number | null;
}

/** A chain as the reports write it: its hops, where it ends, and whether it came back on itself. */
interface Chain {
  hops: Hop[];
  finalUrl: string | null;
  finalStatus: number | null;
  loop: boolean;
}

const isRedirect = (h: Hop) => h.redirect_url !== null && h.status_code !== null && h.status_code >= 300 && h.status_code <= 399;

/** Follows `next` from `start` while `goesOn` says the URL reached leads further; stops at a loop or MAX_CHAIN_HOPS. */
function walk(
  start: Hop,
  next: (h: Hop) => { id: number | null; url: string | null },
  goesOn: (h: Hop) => boolean,
  hop: (id: number) => Hop,
): Chain {
  const hops = [start];
  const seen = new Set([start.id]);
  for (let cur = start; ; ) {
    const to = next(cur);
    if (to.id === null) return { hops, finalUrl: to.url, finalStatus: null, loop: false };
    const reached = hop(to.id);
    if (seen.has(to.id)) return { hops, finalUrl: reached.url, finalStatus: reached.status_code, loop: true };
    if (!goesOn(reached) || hops.length >= MAX_CHAIN_HOPS)
      return { hops, finalUrl: reached.url, finalStatus: reached.status_code, loop: false };
    seen.add(to.id);
    hops.push(reached);
    cur = reached;
  }
}

function* chainRecords(chain: Chain, field: 'redirect_url' | 'canonical'): Generator<unknown[]> {
  const source = chain.hops[0]!.url;
  const loop = chain.loop ? 'yes' : 'no';
  for (const [i, h] of chain.hops.entries()) {
    yield [source, i + 1, h.url, h.status_code, h[field], chain.hops.length, chain.finalUrl, chain.finalStatus, loop];
  }
}

function hopReader(db: Db): (id: number) => Hop {
  const stmt = prepared(db, lookups(db).hop);
  return (id) => stmt.get(id) as Hop;
}

/** Every redirect chain from a URL found as a link or seed: its hops, its end, and whether it loops. */
function* redirectChainRows(db: Db): Generator<unknown[]> {
  const hop = hopReader(db);
  const targetOf = prepared(db, lookups(db).redirectTarget).pluck(true);
  const next = (h: Hop) => ({ id: (targetOf.get(h.id) as number | undefined) ?? null, url: h.redirect_url });
  for (const id of subjects(db, 'redirect-chains')) {
    const start = hop(id);
    const chain = walk(start, next, isRedirect, hop);
    // The frontier's own verdict (a redirect back into its chain is not followed, and says so) counts as a loop too.
    if (chain.hops.some((h) => h.error === 'redirect loop')) chain.loop = true;
    yield* chainRecords(chain, 'redirect_url');
  }
}

/** The canonical a parsed page names when it is not the page itself, else null. */
const canonicalElsewhere = (h: Hop) => (h.h1_count !== null && h.canonical !== null && h.canonical !== h.url ? h.canonical : null);

/** Every canonical chain: a canonicalised page whose canonical names a page canonicalised elsewhere in turn (or a loop). */
function* canonicalChainRows(db: Db): Generator<unknown[]> {
  const hop = hopReader(db);
  const byKey = prepared(db, lookups(db).byKey).pluck(true);
  const next = (h: Hop) => {
    const url = canonicalElsewhere(h);
    return { id: url === null ? null : ((byKey.get(urlKey(url), url) as number | undefined) ?? null), url };
  };
  for (const id of subjects(db, 'canonical-chains')) {
    const chain = walk(hop(id), next, (h) => canonicalElsewhere(h) !== null, hop);
    if (chain.hops.length > 1 || chain.loop) yield* chainRecords(chain, 'canonical');
  }
}

/**
 * Each type and format with the pages and items naming it, most pages first (then by type): every page with
 * structured data read by key, the counts kept per type (bounded by the crawl's distinct types, each at most 200
 * characters).
 */
function* structuredTypeRows(db: Db): Generator<unknown[]> {
  const read = prepared(db, lookups(db).structured).raw(true);
  const counts = new Map<string, { type: string; format: string; pages: number; items: number }>();
  for (const id of subjects(db, 'structured-data-types')) {
    const seen = new Set<string>();
    for (const [format, json] of read.all(id) as [string, string][]) {
      let types: unknown;
      try {
        types = JSON.parse(json);
      } catch {
        continue;
      }
      if (!Array.isArray(types)) continue;
      for (const type of types) {
        if (typeof type !== 'string') continue;
        const key = `${format}\n${type}`;
        let c = counts.get(key);
        if (!c) counts.set(key, (c = { type, format, pages: 0, items: 0 }));
        c.items++;
        if (!seen.has(key)) {
          seen.add(key);
          c.pages++;
        }
      }
    }
  }
  const rows = [...counts.values()].sort(
    (a, b) => b.pages - a.pages || (a.type < b.type ? -1 : a.type > b.type ? 1 : a.format < b.format ? -1 : 1),
  );
  for (const c of rows) yield [c.type, c.format, c.pages, c.items];
}

/** Every alternate of every page naming some, in page then language order, judged as the URL detail judges them. */
function* hreflangRows(db: Db): Generator<unknown[]> {
  const pageUrl = prepared(db, lookups(db).pageUrl).pluck(true);
  for (const id of subjects(db, 'hreflang-alternates')) {
    const detail = hreflangDetail(db, id);
    if (detail === null) continue;
    const page = pageUrl.get(id) as string;
    const xDefault = detail.missing_x_default ? 'yes' : 'no';
    const self = detail.missing_self ? 'yes' : 'no';
    for (const a of detail.alternates)
      yield [page, a.lang, a.target_url, a.crawled ? 'yes' : 'no', a.status_code, a.problems.join('; '), xDefault, self];
  }
}

function* inPagesOf(records: Iterable<unknown[]>, size: number): Generator<unknown[][]> {
  let page: unknown[][] = [];
  for (const r of records) {
    page.push(r);
    if (page.length >= size) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

/** A report as CSV (or XLSX) to a file path (through `<out>.part`) or a stream (ended when done). */
export function writeBulkReport(
  db: Db,
  id: BulkReportId,
  out: string | NodeJS.WritableStream,
  format: ExportFormat = 'csv',
): Promise<{ rows: number }> {
  const { header, pages } = bulkReport(db, id);
  return format === 'xlsx' ? writeXlsxTable(header, pages, out, { sheetName: id.slice(0, 31) }) : writeCsvTable(header, pages, out);
}
