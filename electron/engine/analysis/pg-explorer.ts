// The Results explorer on a crawl in the PostgreSQL store (issue 19): the filters' counts and pages of their rows with
// the same SQL as a crawl file's (result-filters.ts, in POSTGRES_FILTERS' dialect), read in one snapshot of the store
// with the crawl's schema on the search_path, so the filters name their tables bare as on a crawl file.
import { createHash } from 'node:crypto';
import type {
  ExplorerPage,
  ExplorerQuery,
  FilterCounts,
  FilterId,
  Inlink,
  LinkPage,
  Outlink,
  UrlDetail,
  UrlRef,
} from '../../../shared/analysis.ts';
import { ASCII_WIDTHS, DEFAULT_WIDTH, FULL_WIDTH, WIDE_RANGES } from '../../../shared/serp-width.ts';
import { extractionColumnsOf } from '../export/csv-writer.ts';
import { loadPg, type PgQuerier } from '../frontier/postgres/pg-client.ts';
import { readCrawl } from '../frontier/postgres/pg-control.ts';
import { CANONICAL_SELF_INDEX, crawlSchema, TEXT_COUNTS_TABLE } from '../frontier/postgres/pg-schema.ts';
import { orderedLinkScores } from './pg-link-score.ts';
import { positional } from './queue-inspector.ts';
import {
  countPasses,
  type FilteredRow,
  type FilterTarget,
  filteredStatements,
  imageRow,
  imageUsesCountSql,
  pageInOrder,
  storeTarget,
} from './result-filters.ts';
import { addExtracted, type ExtractedOfRow, extractedSql, totalFromPage } from './result-rows.ts';
import { withNumbers } from './sql.ts';
import type { Ask, Q } from './queries.ts';
import type { ReportCode } from './bulk-reports.ts';
import { linksQ, stripQueryParamsOf, urlDetailQ } from './url-detail.ts';

/** JavaScript's \s, which serpPixelWidth reads as a space, as a class of PostgreSQL's regular expressions. */
const SPACE_CLASS = String.raw`[\u0009-\u000d\u0020\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]`;

/**
 * serpPixelWidth (shared/serp-width.ts) as a function of this session: whitespace runs as one space and none at
 * either end, each character's advance from the same table (a code point outside the BMP counts as its high
 * surrogate does there: an average letter), rounded to a tenth of a pixel as Math.round does.
 */
export const SERP_PX_FUNCTION = `CREATE OR REPLACE FUNCTION pg_temp.serp_px(t text, font_px integer) RETURNS double precision
LANGUAGE sql IMMUTABLE STRICT AS $serp$
SELECT (floor(coalesce(sum(CASE
    WHEN c BETWEEN 32 AND 126 THEN (ARRAY[${ASCII_WIDTHS.join(',')}])[c - 31]
    WHEN ${WIDE_RANGES.map(([a, b]) => `c BETWEEN ${a} AND ${b}`).join(' OR ')} THEN ${FULL_WIDTH}
    ELSE ${DEFAULT_WIDTH} END), 0) * font_px / 100.0 + 0.5) / 10)::double precision
FROM (SELECT ascii(ch) AS c
      FROM regexp_split_to_table(regexp_replace(regexp_replace(t, '^${SPACE_CLASS}+|${SPACE_CLASS}+$', '', 'g'), '${SPACE_CLASS}+', ' ', 'g'), '') AS ch
      WHERE ch <> '') x
$serp$`;

const prepared = new WeakSet<PgQuerier>();

/**
 * Makes the session's serp_px once per connection (a temporary function: nothing is written to the store), and
 * turns PostgreSQL's JIT off for it: the count passes cost above its threshold, and compiling them took 400 ms of a
 * 650 ms pass on a 20,000-URL crawl (the canonical pass: 646 -> 172 ms without it); the explorer's reads are many
 * short statements that compiling never pays back.
 */
async function prepareSession(c: PgQuerier): Promise<void> {
  if (prepared.has(c)) return;
  await c.query('SET jit = off');
  await c.query(SERP_PX_FUNCTION);
  prepared.add(c);
}

/**
 * Runs `work` in one read-only snapshot of the store with the crawl's schema first on the search_path, on a target
 * that knows which tables the crawl has (a crawl made by an older build may lack some: their filters count 0).
 */
export async function inCrawl<T>(c: PgQuerier, crawlId: string, work: (t: FilterTarget) => Promise<T>): Promise<T> {
  const schema = crawlSchema(crawlId);
  await prepareSession(c);
  await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    await c.query(`SET LOCAL search_path TO ${schema}`);
    const out = await work(await targetOf(c, schema));
    await c.query('COMMIT');
    return out;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/** The crawl in `schema` as a target of the filters: its tables, and whether its results rows carry the widths a node records (a crawl made before lacks them). */
async function targetOf(c: PgQuerier, schema: string): Promise<FilterTarget> {
  // Its tables, and whether its results rows carry the widths a node records and the hashes PostgreSQL computes (a
  // crawl made before either lacks it).
  const column = (name: string) =>
    `EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($2) AND attname = '${name}' AND NOT attisdropped)`;
  // With duplicate content's and Link Score's TEMP tables, once this connection has made them (pg-content.ts,
  // pg-link-score.ts): the content filters and the Link Score columns read them. One statement: a round trip a call.
  // A crawl made with results.canonical_self has its index (pg-schema.ts); one given the column later lacks it.
  const { rows } = await c.query<{ name: string; widths: boolean; hashes: boolean; selves: boolean; content: boolean; scores: boolean }>(
    `SELECT tablename AS name, ${column('title_px')} AS widths, ${column('title_hash')} AS hashes,
       to_regclass($3) IS NOT NULL AS selves,
       to_regclass('pg_temp.content_dups') IS NOT NULL AS content, to_regclass('pg_temp.link_scores') IS NOT NULL AS scores
     FROM pg_tables WHERE schemaname = $1`,
    [schema, `${schema}.results`, `${schema}.${CANONICAL_SELF_INDEX}`],
  );
  const tables = new Set(rows.map((r) => r.name));
  if (rows[0]?.content) tables.add('content_dups');
  return storeTarget(
    tables,
    {
      widths: rows[0]?.widths ?? false,
      hashes: rows[0]?.hashes ?? false,
      hashCounts: tables.has(TEXT_COUNTS_TABLE.title),
      canonicalSelf: rows[0]?.selves ?? false,
      linkScores: rows[0]?.scores ?? false,
    },
    orderedLinkScores(c),
  );
}

/**
 * Readies a connection of its own (an export's, which reads a page at a time in statements of their own rather than
 * in one snapshot) for the filters' SQL: the session's serp_px, and the crawl's schema first on its search_path for
 * the rest of the session. The crawl's target; an unknown crawl is a StoreError.
 */
export async function enterCrawl(c: PgQuerier, crawlId: string): Promise<FilterTarget> {
  await readCrawl(c, crawlId);
  const schema = crawlSchema(crawlId);
  await prepareSession(c);
  await c.query(`SET search_path TO ${schema}`);
  return targetOf(c, schema);
}

/** A statement with @named parameters, run in PostgreSQL's $n form. */
export async function pgRows<T extends object>(c: PgQuerier, sql: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const { text, values } = positional(sql, params);
  return (await c.query<T>(text, values)).rows;
}

let countsBuild: string | null = null;

/**
 * This build's count passes, as a digest of their SQL for a crawl that has every table and column: counts kept in a
 * crawl (pg-kept-answers.ts) by a build that counts otherwise (another filter, another definition) are not this one's.
 */
export function filterCountsBuild(): string {
  countsBuild ??= createHash('sha1')
    .update(JSON.stringify(countPasses({ ...storeTarget(new Set()), has: () => true, renders: () => true })))
    .digest('hex')
    .slice(0, 16);
  return countsBuild;
}

/** The filters' counts of a crawl in the store: the same passes as a crawl file's, bigint counts as numbers. */
export function postgresFilterCounts(c: PgQuerier, crawlId: string, only?: readonly FilterId[]): Promise<Partial<FilterCounts>> {
  return inCrawl(c, crawlId, async (t) => {
    const out: Partial<FilterCounts> = {};
    for (const pass of countPasses(t, only)) {
      if (pass.sql === null) for (const id of pass.ids) out[id] = 0;
      else {
        const [row] = await pgRows<Record<string, unknown>>(c, pass.sql);
        Object.assign(out, withNumbers(row!, Object.keys(row!)));
      }
    }
    return out;
  });
}

/** The columns of a filtered row PostgreSQL returns as bigint (text), and an image use's extra ones. */
const ROW_NUMBERS = ['seq', 'size_bytes', 'inlinks', 'url_id', 'state', 'page_id', 'image_id', 'checked'];

/**
 * A page of a filter's rows of a crawl in the store, with their custom extraction values (as CrawlAnalysis.queryFiltered).
 * `knownTotal`: how many rows the filter has, known to the caller for the crawl as this page reads it (its badge), so
 * not counted again.
 */
export async function postgresQueryFiltered(c: PgQuerier, crawlId: string, q: ExplorerQuery, knownTotal?: number): Promise<ExplorerPage> {
  const rules = extractionColumnsOf((await readCrawl(c, crawlId)).settings);
  const page = await inCrawl(c, crawlId, async (t) => {
    const st = filteredStatements(t, q);
    if (st === null) return { total: 0, rows: [] as FilteredRow[] };
    const keys = (await pgRows<{ k: string }>(c, st.ids, { ...st.params, limit: q.limit, offset: q.offset })).map((r) => Number(r.k));
    const total =
      totalFromPage(q.offset, q.limit, keys.length) ??
      knownTotal ??
      Number((await pgRows<{ total: string }>(c, st.count, st.params))[0]!.total);
    let rows = keys.length
      ? (await pgRows<FilteredRow>(c, st.rows, { keys: t.sql.d.rows.keysValue(keys) })).map((r) => withNumbers(r, ROW_NUMBERS))
      : [];
    if (st.source === 'images') rows = await imageRows(c, t, rows);
    rows = pageInOrder(keys, rows, st.source);
    const withValues = rows.map((r) => ({ ...r, extracted: {} as Record<string, string[]> }));
    if (rules.length && withValues.length) {
      const columnOf = new Map(rules.map((r) => [r.name, r.column]));
      const keys = t.sql.d.rows.keysValue(withValues.map((r) => r.url_id));
      const { rows: found } = await c.query<ExtractedOfRow>(extractedSql(t.sql.d.rows, 'url_id'), [keys]);
      addExtracted(
        new Map(withValues.map((r) => [r.url_id, r])),
        found.map((f) => withNumbers(f, ['key'])),
        (rule) => columnOf.get(rule),
      );
    }
    return { total, rows: withValues };
  });
  return {
    filter: q.filter,
    total: page.total,
    offset: q.offset,
    rows: page.rows as ExplorerPage['rows'],
    extractionRules: rules.map((r) => r.column),
  };
}

/** Image uses' rows, each with its image's uses counted once per image (as the crawl file's imageRows). */
async function imageRows(c: PgQuerier, t: FilterTarget, read: FilteredRow[]): Promise<FilteredRow[]> {
  const uses = new Map<number, number>();
  const out: FilteredRow[] = [];
  for (const raw of read) {
    const imageId = (raw as unknown as { image_id: number }).image_id;
    let n = uses.get(imageId);
    if (n === undefined) uses.set(imageId, (n = Number((await pgRows<{ n: string }>(c, imageUsesCountSql(t), { image: imageId }))[0]!.n)));
    const { image_id: _, ...rest } = raw as FilteredRow & { image_id: number };
    out.push(imageRow({ ...rest, inlinks: n }));
  }
  return out;
}

/** `?` placeholders (outside quoted text) as PostgreSQL's $1, $2... */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/'(?:[^']|'')*'|\?/g, (m) => (m === '?' ? `$${++n}` : m));
}

const INT8 = 20;

/** A query of analysis code (queries.ts) answered by the store, bigint columns (ids, counts) read as numbers. */
async function answer(c: PgQuerier, { sql, params, one }: Ask): Promise<unknown> {
  const { types } = await loadPg();
  const numbers = {
    getTypeParser: (oid: number, format?: string) => (oid === INT8 ? (v: string) => Number(v) : types.getTypeParser(oid, format as 'text')),
  };
  const { rows } = await c.query({ text: numbered(sql), values: params, types: numbers });
  return one ? rows[0] : rows;
}

/** Runs analysis code written as queries (queries.ts) on the store. */
export async function runOnStore<T>(c: PgQuerier, code: Q<T>): Promise<T> {
  let step = code.next();
  while (!step.done) step = code.next(await answer(c, step.value));
  return step.value;
}

/** A bulk report's records (bulk-reports.ts's code) as the store answers its queries, one after another. */
export async function* recordsOnStore(c: PgQuerier, code: ReportCode): AsyncGenerator<unknown[]> {
  let step = code.next();
  while (!step.done) {
    const v = step.value;
    if ('record' in v) {
      yield v.record;
      step = code.next();
    } else step = code.next(await answer(c, v));
  }
}

/** The URL detail of a crawl in the store (url-detail.ts's code), in one snapshot of it. */
export async function postgresUrlDetail(c: PgQuerier, crawlId: string, ref: UrlRef): Promise<UrlDetail | null> {
  const strip = stripQueryParamsOf((await readCrawl(c, crawlId)).settings);
  return inCrawl(c, crawlId, (t) => runOnStore(c, urlDetailQ(t, ref, strip)));
}

/** A page of a URL's inlinks or outlinks in the store, after the id `after` (keyset, as a crawl file's). */
export function postgresLinks(c: PgQuerier, crawlId: string, way: 'in', urlId: number, after: number | null): Promise<LinkPage<Inlink>>;
export function postgresLinks(c: PgQuerier, crawlId: string, way: 'out', urlId: number, after: number | null): Promise<LinkPage<Outlink>>;
export function postgresLinks(
  c: PgQuerier,
  crawlId: string,
  way: 'in' | 'out',
  urlId: number,
  after: number | null,
): Promise<LinkPage<Inlink> | LinkPage<Outlink>> {
  return inCrawl(c, crawlId, (t) =>
    way === 'in'
      ? runOnStore(c, linksQ(t, 'in', urlId, { after }))
      : runOnStore<LinkPage<Inlink> | LinkPage<Outlink>>(c, linksQ(t, 'out', urlId, { after })),
  );
}
