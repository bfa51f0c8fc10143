// The bulk reports (shared/bulk-reports.ts names them): every link to a 4xx, 5xx or no-response URL, every link to a
// non-indexable page, every redirect chain and every canonical chain, as tables written a page at a time (CSV or XLSX,
// through the export writers), so memory does not grow with the crawl.
//
// Written once for both stores (issue 19): a report is code that asks its queries one after another (queries.ts) and
// yields its records, run at once on a crawl file's connection (bulkReport) or awaited on a crawl in the PostgreSQL
// store (pg-explorer.ts recordsOnStore, export/pg-view-export.ts); the SQL is the filters' dialect's (FilterTarget).
//
// No statement walks a table: the report's subjects come from one range of an index the explorer's filters use
// (results_status, results_indexability, results_canonical), and from there every step is a look-up by key: a
// target's links by links_to (to_id, then from_id, the table's key: pages of one target's inlinks by keyset), a
// URL by its id or by its key (url_key; the store's md5), a redirect's target by the links table's key (from_id). The
// subjects' ids are read first (integers, in discovery order); the rows are then read in short statements, so a
// crawl writing meanwhile is never held up by one long read. The link reports read REPORT_BATCH subjects' rows, and
// a page of their inlinks, in one statement each: on the store each statement is a round trip, and one a subject
// made a report of 66,668 links at a million URLs take 16-25 s.
import type { BulkReportId } from '../../../shared/bulk-reports.ts';
import type { ExportFormat } from '../../../shared/analysis.ts';
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { writeCsvTable } from '../export/csv-writer.ts';
import { writeXlsxTable } from '../export/xlsx-writer.ts';
import { IMAGE_USE_COLUMNS, imageUsePages, imageUsesSql } from './images.ts';
import { all, answerOnFile, get, type Ask } from './queries.ts';
import { fileTarget, filterPredicate, type FilterTarget } from './result-filters.ts';
import { ALTERNATES_SQL, hreflangDetailQ } from './security-detail.ts';
import { STATUS_RANGES } from './result-rows.ts';

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
/** Records written a page at a time. */
export const REPORT_PAGE_ROWS = 1000;
/** Subjects a link report looks up in one statement (the list padded to this length: one statement, one plan). */
export const REPORT_BATCH = 100;

export interface BulkTable {
  header: readonly string[];
  /** The rows, a page at a time. */
  pages: Iterable<unknown[][]>;
}

/** A record of a report, or a query it asks (queries.ts): what report code yields. */
export type ReportStep = Ask | { record: unknown[] };
/** A report's code: it asks its queries, gets each answer back, and yields its records as it goes. */
export type ReportCode = Generator<ReportStep, void, unknown>;

/** The statements each report runs on a crawl file, for plan checks: the subjects' range, then the look-ups by key. */
export function bulkReportSql(db: Db, id: BulkReportId): string[] {
  const t = fileTarget(db);
  const look = lookups(t);
  switch (id) {
    case 'images-missing-alt': {
      // The uses' ids from a range of image_uses_alt, each use's image, page and checked rows by key (images.ts).
      const sql = imageUsesSql(db, 'images-alt-missing');
      return sql ? [sql.ids, sql.row] : [];
    }
    case 'redirect-chains':
      return [subjectSql(t, id), look.hops, look.redirectTargets];
    case 'canonical-chains':
      return [subjectSql(t, id), look.hops, look.byKeys];
    case 'structured-data-types':
      return [subjectSql(t, id), look.structured];
    case 'hreflang-alternates':
      return [subjectSql(t, id), look.pageUrl, ALTERNATES_SQL];
    default:
      return [subjectSql(t, id), look.targets, look.batchInlinks, look.inlinks];
  }
}

/** The SQL of a report's subjects: the ids of the URLs it starts from, from one index range. */
function subjectSql(t: FilterTarget, id: BulkReportId): string {
  const status = (cls: keyof typeof STATUS_RANGES) =>
    `SELECT r.url_id AS id FROM results r ${t.hint('results_status')} WHERE r.status_code BETWEEN ${STATUS_RANGES[cls][0]} AND ${STATUS_RANGES[cls][1]}`;
  switch (id) {
    case 'client-error-inlinks':
      return status('4xx');
    case 'server-error-inlinks':
      return status('5xx');
    case 'no-response-inlinks':
      return `SELECT r.url_id AS id FROM results r ${t.hint('results_status')} WHERE r.status_code IS NULL`;
    case 'non-indexable-inlinks':
      return `SELECT r.url_id AS id FROM results r ${t.hint('results_indexability')} WHERE r.indexability = 'non-indexable'`;
    case 'redirect-chains':
      // A chain starts at a redirect found as a link or seed (redirect_hops 0); the URLs it leads to are its hops.
      return `SELECT r.url_id AS id FROM results r ${t.hint('results_status')} ${t.sql.d.crossJoin} urls u ON u.id = r.url_id
        WHERE r.status_code BETWEEN ${STATUS_RANGES['3xx'][0]} AND ${STATUS_RANGES['3xx'][1]} AND r.redirect_url IS NOT NULL AND u.redirect_hops = 0`;
    case 'images-missing-alt':
      throw new Error('images-missing-alt has no URL subjects: its rows are image uses (images.ts)');
    case 'canonical-chains':
      // The explorer's "Canonicalised" pages, word for word.
      return `SELECT r.url_id AS id FROM results r ${t.hint('results_canonical')} WHERE ${filterPredicate(t, 'canonical-elsewhere')}`;
    case 'structured-data-types':
      // The parsed pages with structured data: the explorer's "no structured data" filter turned round.
      return `SELECT r.url_id AS id FROM results r ${t.hint('results_canonical')} WHERE r.h1_count IS NOT NULL
        AND EXISTS (SELECT 1 FROM structured_data sd WHERE sd.url_id = r.url_id)`;
    case 'hreflang-alternates':
      // The pages naming alternates, from the table's key (url_id first).
      return 'SELECT DISTINCT h.url_id AS id FROM hreflang h';
  }
}

/** `?, ?, ...`: REPORT_BATCH placeholders, for a list of subjects padded to that length (paddedBatch). */
const BATCH_LIST = Array(REPORT_BATCH).fill('?').join(', ');

/** Inlinks with their target (t), source id (k) and source URL, from the links_to index: the WHERE follows. */
const inlinksFrom = (t: FilterTarget) => `SELECT l.to_id AS t, l.from_id AS k, s.url AS source, l.anchor, l.kind, l.nofollow
    FROM links l ${t.hint('links_to')} ${t.sql.d.crossJoin} urls s ON s.id = l.from_id WHERE`;

/** The URL-key condition of a batch of URLs (padded to REPORT_BATCH): by url_key in a crawl file, url_md5 in the store. */
const keysIn = (t: FilterTarget) =>
  `${t.sql.d.urlKey.column} IN (${Array(REPORT_BATCH)
    .fill(0)
    .map(() => t.sql.d.urlKey.param('?'))
    .join(', ')})`;

const lookups = (t: FilterTarget) => ({
  targets: `SELECT u.id, u.url, r.status_code, r.indexability_reason, r.error FROM urls u JOIN results r ON r.url_id = u.id
    WHERE u.id IN (${BATCH_LIST})`,
  // A page of the inlinks of a batch of targets, in target then source order: the links_to index's order.
  batchInlinks: `${inlinksFrom(t)} l.to_id IN (${BATCH_LIST}) ORDER BY l.to_id, l.from_id LIMIT ?`,
  // The rest of one target's inlinks, after a source (keyset).
  inlinks: `${inlinksFrom(t)} l.to_id = ? AND l.from_id > ? ORDER BY l.from_id LIMIT ?`,
  // The chains' hops, a batch of URLs by id.
  hops: `SELECT u.id, u.url, r.status_code, r.redirect_url, r.error, r.canonical, r.h1_count
    FROM urls u LEFT JOIN results r ON r.url_id = u.id WHERE u.id IN (${BATCH_LIST})`,
  // Where a batch of redirects lead: each one's redirect link (the first by target, as the links key orders them).
  redirectTargets: `SELECT from_id AS id, min(to_id) AS to_id FROM links WHERE from_id IN (${BATCH_LIST}) AND kind = 'redirect' GROUP BY from_id`,
  // A batch of URLs by their text: by key, as the URL detail's look-up, then the text among the few sharing each.
  byKeys: `SELECT id, url FROM urls ${t.hint('urls_key')} WHERE ${keysIn(t)}`,
  structured: 'SELECT format, types FROM structured_data WHERE url_id = ?',
  pageUrl: 'SELECT url FROM urls WHERE id = ?',
});

/** A report's subjects, in id order; none on a crawl without the tables it reads (a file older than version 6). */
function* subjects(t: FilterTarget, id: BulkReportId): Generator<Ask, number[], unknown> {
  if (id === 'structured-data-types' && !t.has('structured_data')) return [];
  if (id === 'hreflang-alternates' && !t.has('hreflang')) return [];
  const ids = (yield* all<{ id: number }>(subjectSql(t, id))).map((r) => r.id);
  return ids.sort((a, b) => a - b);
}

/** Up to REPORT_BATCH ids, with the last repeated to that length (an id twice in an IN list finds its rows once). */
function paddedBatch<T>(ids: readonly T[]): T[] {
  const out = ids.slice(0, REPORT_BATCH);
  while (out.length < REPORT_BATCH) out.push(out[out.length - 1]!);
  return out;
}

/**
 * The code of a report of URLs and links (every report but images-missing-alt, whose rows are image uses: images.ts).
 * A link report reads a target's inlinks `pageRows` at a time.
 */
export function reportCode(
  t: FilterTarget,
  id: Exclude<BulkReportId, 'images-missing-alt'>,
  pageRows = REPORT_PAGE_ROWS,
): { header: readonly string[]; code: ReportCode } {
  switch (id) {
    case 'redirect-chains':
      return { header: REDIRECT_CHAIN_COLUMNS, code: redirectChainRows(t) };
    case 'canonical-chains':
      return { header: CANONICAL_CHAIN_COLUMNS, code: canonicalChainRows(t) };
    case 'structured-data-types':
      return { header: STRUCTURED_TYPES_COLUMNS, code: structuredTypeRows(t) };
    case 'hreflang-alternates':
      return { header: HREFLANG_COLUMNS, code: hreflangRows(t) };
    default:
      return { header: LINK_REPORT_COLUMNS, code: linkRows(t, id, pageRows) };
  }
}

/** A report's header and rows, read from a crawl file's `db` as they are iterated. */
export function bulkReport(db: Db, id: BulkReportId, pageRows = REPORT_PAGE_ROWS): BulkTable {
  if (id === 'images-missing-alt') return { header: IMAGE_USE_COLUMNS, pages: imageUsePages(db, 'images-alt-missing', pageRows) };
  const { header, code } = reportCode(fileTarget(db), id, pageRows);
  return { header, pages: inPagesOf(recordsOnFile(db, code), pageRows) };
}

/** A report's records, its queries run at once on a crawl file's connection. */
function* recordsOnFile(db: Db, code: ReportCode): Generator<unknown[]> {
  let step = code.next();
  while (!step.done) {
    const v = step.value;
    if ('record' in v) {
      yield v.record;
      step = code.next();
    } else step = code.next(answerOnFile(db, v));
  }
}

/**
 * Every link to each subject, in target then source order. The subjects go REPORT_BATCH at a time: their rows in one
 * statement, then a page of all their inlinks in one; when a page fills, its last target's other inlinks are read by
 * keyset and the batch goes on from the target after it.
 */
function* linkRows(t: FilterTarget, id: BulkReportId, pageRows: number): ReportCode {
  const look = lookups(t);
  type Target = { id: number; url: string; status_code: number | null; indexability_reason: string | null; error: string | null };
  type Inlink = { t: number; k: number; source: string; anchor: string | null; kind: string; nofollow: number };
  const ids = yield* subjects(t, id);
  for (let i = 0; i < ids.length; i += REPORT_BATCH) {
    const batch = ids.slice(i, i + REPORT_BATCH);
    const targets = new Map((yield* all<Target>(look.targets, ...paddedBatch(batch))).map((r) => [r.id, r]));
    const records = function* (links: Inlink[]): ReportCode {
      for (const l of links) {
        const target = targets.get(l.t)!;
        yield {
          record: [l.source, target.url, l.anchor, l.kind, l.nofollow, target.status_code, target.indexability_reason, target.error],
        };
      }
    };
    // The batch's targets in id order (a subject without its row is no target), those not read yet.
    let rest = batch.filter((x) => targets.has(x));
    while (rest.length) {
      const links = yield* all<Inlink>(look.batchInlinks, ...paddedBatch(rest), pageRows);
      yield* records(links);
      if (links.length < pageRows) break;
      const last = links[links.length - 1]!;
      for (let after = last.k; ; ) {
        const more = yield* all<Inlink>(look.inlinks, last.t, after, pageRows);
        yield* records(more);
        if (more.length < pageRows) break;
        after = more[more.length - 1]!.k;
      }
      rest = rest.filter((x) => x > last.t);
    }
  }
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

/** Where a hop leads: the URL's id when the crawl knows it (null otherwise), and its text. */
type HopTarget = { id: number | null; url: string | null };

/**
 * Follows every chain of a batch from its start while `goesOn` says the URL reached leads further, each stopping at a
 * loop or MAX_CHAIN_HOPS: all of them a hop at a time together, so each level is one statement for where the chains'
 * ends lead (`next`) and one for the URLs reached (`hops`), not two for each chain. The chains come back in the order
 * of their starts, each as one walked alone would be.
 */
function* walkAll(
  starts: readonly Hop[],
  next: (ends: Hop[]) => Generator<Ask, Map<number, HopTarget>, unknown>,
  goesOn: (h: Hop) => boolean,
  hops: (ids: number[]) => Generator<Ask, Map<number, Hop>, unknown>,
): Generator<Ask, Chain[], unknown> {
  const walks = starts.map((start) => ({ hops: [start], seen: new Set([start.id]), chain: null as Chain | null }));
  for (;;) {
    const active = walks.filter((w) => w.chain === null);
    if (active.length === 0) return walks.map((w) => w.chain!);
    const to = yield* next(active.map((w) => w.hops[w.hops.length - 1]!));
    const ids = [...new Set(active.flatMap((w) => to.get(w.hops[w.hops.length - 1]!.id)?.id ?? []))];
    const reached = ids.length ? yield* hops(ids) : new Map<number, Hop>();
    for (const w of active) {
      const target = to.get(w.hops[w.hops.length - 1]!.id) ?? { id: null, url: null };
      if (target.id === null) {
        w.chain = { hops: w.hops, finalUrl: target.url, finalStatus: null, loop: false };
        continue;
      }
      const hop = reached.get(target.id)!;
      const loop = w.seen.has(target.id);
      if (loop || !goesOn(hop) || w.hops.length >= MAX_CHAIN_HOPS) {
        w.chain = { hops: w.hops, finalUrl: hop.url, finalStatus: hop.status_code, loop };
        continue;
      }
      w.seen.add(target.id);
      w.hops.push(hop);
    }
  }
}

function* chainRecords(chain: Chain, field: 'redirect_url' | 'canonical'): ReportCode {
  const source = chain.hops[0]!.url;
  const loop = chain.loop ? 'yes' : 'no';
  for (const [i, h] of chain.hops.entries()) {
    yield { record: [source, i + 1, h.url, h.status_code, h[field], chain.hops.length, chain.finalUrl, chain.finalStatus, loop] };
  }
}

/** Reads up to REPORT_BATCH URLs by id as hops, in one statement. */
function hopsReader(t: FilterTarget): (ids: number[]) => Generator<Ask, Map<number, Hop>, unknown> {
  const sql = lookups(t).hops;
  return function* (ids) {
    return new Map((yield* all<Hop>(sql, ...paddedBatch(ids))).map((h) => [h.id, h]));
  };
}

/** Each chain of a report's subjects, REPORT_BATCH chains walked together (walkAll), written by `write` in the subjects' order. */
function* chainsOf(
  t: FilterTarget,
  id: 'redirect-chains' | 'canonical-chains',
  next: (ends: Hop[]) => Generator<Ask, Map<number, HopTarget>, unknown>,
  goesOn: (h: Hop) => boolean,
  write: (chain: Chain) => ReportCode,
): ReportCode {
  const hops = hopsReader(t);
  const ids = yield* subjects(t, id);
  for (let i = 0; i < ids.length; i += REPORT_BATCH) {
    const batch = ids.slice(i, i + REPORT_BATCH);
    const starts = yield* hops(batch);
    const chains = yield* walkAll(
      batch.map((s) => starts.get(s)!),
      next,
      goesOn,
      hops,
    );
    for (const chain of chains) yield* write(chain);
  }
}

/** Every redirect chain from a URL found as a link or seed: its hops, its end, and whether it loops. */
function* redirectChainRows(t: FilterTarget): ReportCode {
  const targetsSql = lookups(t).redirectTargets;
  const next = function* (ends: Hop[]) {
    const to = new Map(
      (yield* all<{ id: number; to_id: number }>(targetsSql, ...paddedBatch(ends.map((h) => h.id)))).map((r) => [r.id, r.to_id]),
    );
    return new Map(ends.map((h): [number, HopTarget] => [h.id, { id: to.get(h.id) ?? null, url: h.redirect_url }]));
  };
  yield* chainsOf(t, 'redirect-chains', next, isRedirect, function* (chain) {
    // The frontier's own verdict (a redirect back into its chain is not followed, and says so) counts as a loop too.
    if (chain.hops.some((h) => h.error === 'redirect loop')) chain.loop = true;
    yield* chainRecords(chain, 'redirect_url');
  });
}

/** The canonical a parsed page names when it is not the page itself, else null. */
const canonicalElsewhere = (h: Hop) => (h.h1_count !== null && h.canonical !== null && h.canonical !== h.url ? h.canonical : null);

/** Every canonical chain: a canonicalised page whose canonical names a page canonicalised elsewhere in turn (or a loop). */
function* canonicalChainRows(t: FilterTarget): ReportCode {
  const { byKeys } = lookups(t);
  const key = t.sql.d.urlKey;
  const next = function* (ends: Hop[]) {
    const urls = [...new Set(ends.flatMap((h) => canonicalElsewhere(h) ?? []))];
    const ids = new Map<string, number>();
    if (urls.length) {
      // Keys can collide: the row whose text is the canonical's.
      const wanted = new Set(urls);
      for (const r of yield* all<{ id: number; url: string }>(byKeys, ...paddedBatch(urls.map((u) => key.value(u)))))
        if (wanted.has(r.url)) ids.set(r.url, r.id);
    }
    return new Map(
      ends.map((h): [number, HopTarget] => {
        const url = canonicalElsewhere(h);
        return [h.id, { id: url === null ? null : (ids.get(url) ?? null), url }];
      }),
    );
  };
  yield* chainsOf(
    t,
    'canonical-chains',
    next,
    (h) => canonicalElsewhere(h) !== null,
    function* (chain) {
      if (chain.hops.length > 1 || chain.loop) yield* chainRecords(chain, 'canonical');
    },
  );
}

/**
 * Each type and format with the pages and items naming it, most pages first (then by type): every page with
 * structured data read by key, the counts kept per type (bounded by the crawl's distinct types, each at most 200
 * characters).
 */
function* structuredTypeRows(t: FilterTarget): ReportCode {
  const sql = lookups(t).structured;
  const counts = new Map<string, { type: string; format: string; pages: number; items: number }>();
  for (const id of yield* subjects(t, 'structured-data-types')) {
    const seen = new Set<string>();
    for (const { format, types: json } of yield* all<{ format: string; types: string }>(sql, id)) {
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
  for (const c of rows) yield { record: [c.type, c.format, c.pages, c.items] };
}

/** Every alternate of every page naming some, in page then language order, judged as the URL detail judges them. */
function* hreflangRows(t: FilterTarget): ReportCode {
  const sql = lookups(t).pageUrl;
  for (const id of yield* subjects(t, 'hreflang-alternates')) {
    const detail = yield* hreflangDetailQ(t, id);
    if (detail === null) continue;
    const page = (yield* get<{ url: string }>(sql, id))!.url;
    const xDefault = detail.missing_x_default ? 'yes' : 'no';
    const self = detail.missing_self ? 'yes' : 'no';
    for (const a of detail.alternates)
      yield { record: [page, a.lang, a.target_url, a.crawled ? 'yes' : 'no', a.status_code, a.problems.join('; '), xDefault, self] };
  }
}

/** Records gathered into pages of `size`. */
export function* inPagesOf(records: Iterable<unknown[]>, size: number): Generator<unknown[][]> {
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

/** A report's pages as CSV (or XLSX) to a file path (through `<out>.part`) or a stream (ended when done). */
export function writeReportPages(
  id: BulkReportId,
  header: readonly string[],
  pages: Iterable<unknown[][]> | AsyncIterable<unknown[][]>,
  out: string | NodeJS.WritableStream,
  format: ExportFormat = 'csv',
): Promise<{ rows: number }> {
  return format === 'xlsx' ? writeXlsxTable(header, pages, out, { sheetName: id.slice(0, 31) }) : writeCsvTable(header, pages, out);
}

/** A crawl file's report as CSV (or XLSX) to a file path (through `<out>.part`) or a stream (ended when done). */
export function writeBulkReport(
  db: Db,
  id: BulkReportId,
  out: string | NodeJS.WritableStream,
  format: ExportFormat = 'csv',
): Promise<{ rows: number }> {
  const { header, pages } = bulkReport(db, id);
  return writeReportPages(id, header, pages, out, format);
}
