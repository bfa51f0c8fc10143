// Duplicate content (issue 18.1) of a crawl in the PostgreSQL store (issue 19): the crawl file's computation
// (near-duplicates.ts analyseContent, the same banding and thresholds) over the store's content rows, read here by key
// pages, and its outcome in a TEMP table content_dups of the reading connection, as a crawl file's connection has it:
// the content filters' SQL (result-filters.ts), their counts and the rows' content columns are then the crawl file's.
// The computation's options are the crawl's (near-duplicates.ts contentOptions, under the crawl's key here).
// An outcome computed while no node adds results is kept in the crawl (pg-schema.ts KEPT_CONTENT_DUPS_DDL): a later
// reader's content filters, counts and columns read it through a TEMP view, rather than waiting for the computation
// (16 s at 713,888 pages). A URL's duplicates in its detail pane still need the computation, made in the background.
import type { ContentDetail } from '../../../shared/analysis.ts';
import { diffTexts, type TextDiff } from '../../../shared/text-diff.ts';
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import { crawlSchema, KEPT_CONTENT_DUPS_DDL } from '../frontier/postgres/pg-schema.ts';
import {
  adoptContentAnalysis,
  contentAnalysisDueAt,
  contentColumnsSql,
  contentOptions,
  contentMatchesOf,
  contentOptionsKey,
  flaggedPages,
  lastContentAnalysis,
  type ContentAnalysisResult,
  type FlaggedPage,
} from './near-duplicates.ts';
import { AnalysisRuns, analyseOffThread, analysisRunKey } from './near-duplicates-thread.ts';
import { hasStoreTable, inSchema } from './pg-content-read.ts';
import { inKeptWrite } from './pg-kept-answers.ts';
import { settledSql } from './pg-settled.ts';

/** content_dups as crawl-file.ts's CONTENT_DUPS_TEMP_TABLE, in PostgreSQL's types. */
export const PG_CONTENT_DUPS_TEMP_TABLE = `CREATE TEMP TABLE IF NOT EXISTS content_dups (
  url_id bigint PRIMARY KEY,
  exact_count integer NOT NULL,
  match_id bigint,
  similarity double precision,
  low integer NOT NULL
)`;

/** The analyses under way per crawl and options, and those that failed last. */
const runs = new AnalysisRuns();
/** Flagged pages written into the TEMP table a statement at a time. */
const INSERT_ROWS = 5_000;

/**
 * What each connection's content_dups holds (the crawl's key, a computation's stamp and options), and whether it is a
 * view of the outcome kept in the crawl rather than a table of the connection's own.
 */
const filled = new WeakMap<PgQuerier, { tag: string; view: boolean }>();
/**
 * The outcomes this process kept in their crawl, found kept there, or could not keep (schema, stamp and options): not
 * tried again.
 */
const keepTried = new Set<string>();

/** What a connection's content_dups is of: the crawl's state and the analysis's options (ContentAnalysisResult's). */
export interface ContentState {
  stamp: string;
  key: string;
}

/** The key a crawl in the store has among the content analyses' and Link Scores' options and results: its server and ID. */
export function storeCrawlKey(server: string, crawlId: string): string {
  return `postgres://${server}#${crawlId}`;
}

/**
 * Makes this connection's content_dups current for the crawl (none of the connection's transactions may be open:
 * the table is created outside them). Recomputed when the crawl has new results or other options; `writing`: while
 * nodes add results, new results alone recompute no sooner than the crawl file's rule allows (contentAnalysisDueAt).
 * A crawl whose results are still being committed is recomputed once they are (its stamp says so). An outcome kept in
 * the crawl for its present state and these options is read where it is, without the computation; one computed here
 * for a settled state is kept in it.
 */
export async function refreshStoreContent(
  c: PgQuerier,
  storeUrl: string,
  crawlId: string,
  key: string,
  options: { writing?: boolean } = {},
): Promise<ContentState> {
  const stamp = await storeResultsStamp(c, crawlId);
  const schema = crawlSchema(crawlId);
  const settled = !stamp.endsWith('+');
  if (settled && contentAnalysisDueAt(key, stamp, options)) {
    const wanted = contentOptionsKey(key);
    if (await keptContentIs(c, schema, stamp, wanted)) {
      await fillContentDups(c, `${key}|${stamp}|${wanted}`, { schema, options: wanted });
      return { stamp, key: wanted };
    }
  }
  const r = await analysedContent(storeUrl, crawlId, key, stamp, options);
  await fillContentDups(c, `${key}|${r.stamp}|${r.key}`, r);
  if (settled && r.stamp === stamp) await keepContent(c, schema, r);
  return r;
}

/**
 * The crawl's duplicate content analysis at `stamp` for its current options, computed off this thread
 * (near-duplicates-thread.ts) through a connection of the worker's own when it is not current here: one computation
 * per crawl and options at a time, callers meanwhile waiting for it.
 */
async function analysedContent(
  storeUrl: string,
  crawlId: string,
  key: string,
  stamp: string,
  options: { writing?: boolean },
): Promise<ContentAnalysisResult> {
  for (let round = 0; round < 3 && contentAnalysisDueAt(key, stamp, options); round++) {
    adoptContentAnalysis(key, await runs.run(analysisRunKey(key), analyse(storeUrl, crawlId, key, stamp)));
  }
  return lastContentAnalysis(key)!;
}

/**
 * Makes the connection's content_dups hold the outcome tagged `tag`, unless it does: the one kept in the crawl in a
 * schema for some options, as a view of it, or a computation's, in a table of the connection's own.
 */
async function fillContentDups(
  c: PgQuerier,
  tag: string,
  from: { schema: string; options: string } | ContentAnalysisResult,
): Promise<void> {
  const view = 'schema' in from;
  const had = filled.get(c);
  if (had?.tag === tag) return;
  await c.query('BEGIN');
  try {
    if ('schema' in from) {
      await c.query(had && !had.view ? 'DROP TABLE pg_temp.content_dups' : 'DROP VIEW IF EXISTS pg_temp.content_dups');
      // The options' own rows: a reader with other options keeps its outcome beside them.
      await c.query(
        `CREATE TEMP VIEW content_dups AS SELECT url_id, exact_count, match_id, similarity, low FROM ${from.schema}.content_dups_kept
         WHERE options = ${sqlText(from.options)}`,
      );
    } else {
      if (had?.view) await c.query('DROP VIEW pg_temp.content_dups');
      await c.query(PG_CONTENT_DUPS_TEMP_TABLE);
      await c.query('DELETE FROM pg_temp.content_dups');
      let batch: FlaggedPage[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const column = (i: number) => batch.map((row) => row[i]);
        await c.query(
          `INSERT INTO pg_temp.content_dups (url_id, exact_count, match_id, similarity, low)
           SELECT * FROM unnest($1::bigint[], $2::integer[], $3::bigint[], $4::double precision[], $5::integer[])`,
          [column(0), column(1), column(2), column(3), column(4)],
        );
        batch = [];
      };
      for (const row of flaggedPages(from)) {
        batch.push(row);
        if (batch.length >= INSERT_ROWS) await flush();
      }
      await flush();
    }
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  filled.set(c, { tag, view });
}

/** Whether an outcome for the options `optionsKey` is kept in the crawl in `schema` for its state `stamp`. */
async function keptContentIs(c: PgQuerier, schema: string, stamp: string, optionsKey: string): Promise<boolean> {
  const { rows } = await c.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`${schema}.content_dups_stamp`]);
  if (!rows[0]!.ok) return false;
  return (await keptStampOf(c, schema, optionsKey)) === stamp;
}

/** The stamp of the outcome kept in the crawl in `schema` for the options `optionsKey`, if any. */
async function keptStampOf(c: PgQuerier, schema: string, optionsKey: string): Promise<string | undefined> {
  const { rows } = await c.query<{ stamp: string }>(`SELECT stamp FROM ${schema}.content_dups_stamp WHERE options = $1`, [optionsKey]);
  return rows[0]?.stamp;
}

/** A text as an SQL literal. */
const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Keeps the outcome in the connection's content_dups (the computation `r`, of the crawl's settled state) in the crawl,
 * unless it is kept there already: one writer at a time per crawl, whatever the process. A role that may only read
 * keeps nothing (and this process does not try again for that outcome).
 */
async function keepContent(c: PgQuerier, schema: string, r: ContentAnalysisResult): Promise<void> {
  const kept = `${schema}|${r.stamp}|${r.key}`;
  if (keepTried.has(kept)) return;
  keepTried.add(kept);
  await inKeptWrite(
    c,
    schema,
    KEPT_CONTENT_DUPS_DDL,
    async () => {
      if ((await keptStampOf(c, schema, r.key)) === r.stamp) return;
      // DELETE, not TRUNCATE: a reader of the outcome kept before goes on until this commits, and other options' stay.
      await c.query(`DELETE FROM ${schema}.content_dups_kept WHERE options = $1`, [r.key]);
      await c.query(
        `INSERT INTO ${schema}.content_dups_kept (options, url_id, exact_count, match_id, similarity, low)
         SELECT $1, url_id, exact_count, match_id, similarity, low FROM pg_temp.content_dups`,
        [r.key],
      );
      await c.query(`DELETE FROM ${schema}.content_dups_stamp WHERE options = $1`, [r.key]);
      await c.query(`INSERT INTO ${schema}.content_dups_stamp (options, stamp) VALUES ($1, $2)`, [r.key, r.stamp]);
    },
    'trawl content dups',
  );
}

/** The computation of the crawl's analysis for its current options at `stamp`, in a worker thread. */
const analyse = (storeUrl: string, crawlId: string, key: string, stamp: string) => () =>
  analyseOffThread({ store: storeUrl, crawlId, stamp }, contentOptions(key));

/**
 * refreshStoreContent without waiting, for a URL's detail (its duplicates can wait, its row cannot: at a million
 * pages the analysis takes seconds): true when the crawl's analysis is current, or when computing it failed last
 * time (the detail then waits for it, as before); else its computation is started off the thread, or left running,
 * and taken as the crawl's when it ends; false.
 */
export async function storeContentReady(
  c: PgQuerier,
  storeUrl: string,
  crawlId: string,
  key: string,
  options: { writing?: boolean } = {},
): Promise<boolean> {
  const stamp = await storeResultsStamp(c, crawlId);
  if (!contentAnalysisDueAt(key, stamp, options)) return true;
  return !runs.inBackground(analysisRunKey(key), analyse(storeUrl, crawlId, key, stamp), (r) => void adoptContentAnalysis(key, r));
}

/**
 * What of the crawl a computation sees: the results sequence's value, marked while a node still holds rows of it
 * uncommitted (the next computation after they commit then differs: pg-settled.ts says why seq alone does not do).
 */
export async function storeResultsStamp(c: PgQuerier, crawlId: string): Promise<string> {
  const sql = settledSql(crawlId);
  const v = (await c.query<{ v: number }>(sql.sequence)).rows[0]!.v;
  const writers = (await c.query(sql.writers)).rows.length;
  return writers > 0 ? `${v}+` : String(v);
}

/**
 * The crawl's state when it is settled (storeResultsStamp), or null while a node still holds rows uncommitted: what
 * an answer kept for the crawl as it was is keyed by (read before the answer's snapshot, which then sees all of it).
 */
export async function storeSettledState(c: PgQuerier, crawlId: string): Promise<string | null> {
  const stamp = await storeResultsStamp(c, crawlId);
  return stamp.endsWith('+') ? null : stamp;
}

/** The content columns as an export's rows (csv-export.ts's content source), in contentColumnsSql's order. */
export async function storeContentRows(c: PgQuerier, crawlId: string, urlIds: readonly number[]): Promise<unknown[][]> {
  if (urlIds.length === 0) return [];
  const { rows } = await c.query<unknown[]>({
    text: contentColumnsSql('pg_temp', 'c.url_id = ANY($1::bigint[])', inSchema(crawlSchema(crawlId))),
    values: [urlIds],
    rowMode: 'array',
  });
  return rows;
}

/** The content columns of some URLs of the crawl by url id (ExplorerRow's), from this connection's content_dups. */
export async function storeContentColumns(
  c: PgQuerier,
  crawlId: string,
  urlIds: readonly number[],
): Promise<
  Map<number, { main_words: number; exact_duplicates: number | null; near_match_url: string | null; near_similarity: number | null }>
> {
  const rows = (await storeContentRows(c, crawlId, urlIds)) as [number, number, number | null, string | null, number | null][];
  return new Map(
    rows.map(([urlId, main_words, exact_duplicates, near_match_url, near_similarity]) => [
      urlId,
      { main_words, exact_duplicates, near_match_url, near_similarity },
    ]),
  );
}

/**
 * A page's duplicate content for its detail pane, as a crawl file's (near-duplicates.ts contentDetailOf): its
 * main-text words, the compared pages with the same text and those at or above the threshold; null for a page
 * without a content row. Makes the connection's content_dups current first.
 */
export async function storeContentDetail(
  c: PgQuerier,
  storeUrl: string,
  crawlId: string,
  key: string,
  urlId: number,
): Promise<ContentDetail | null> {
  const schema = crawlSchema(crawlId);
  if (!(await hasStoreTable(c, schema, 'content'))) return null;
  const row = (await c.query<{ main_words: number }>(`SELECT main_words FROM ${schema}.content WHERE url_id = $1`, [urlId])).rows[0];
  if (!row) return null;
  const stamp = await storeResultsStamp(c, crawlId);
  const matches = contentMatchesOf(key, await analysedContent(storeUrl, crawlId, key, stamp, { writing: true }), urlId);
  const { rows } = await c.query<{ id: number; url: string }>(`SELECT id, url FROM ${schema}.urls WHERE id = ANY($1::bigint[])`, [
    matches.urlIds,
  ]);
  return matches.detail(row.main_words, new Map(rows.map((u) => [u.id, u.url])));
}

/** What differs between two pages' main texts in the store (null when either has none), as a crawl file's contentDiff. */
export async function storeContentDiff(c: PgQuerier, crawlId: string, urlId: number, otherId: number): Promise<TextDiff | null> {
  const schema = crawlSchema(crawlId);
  if (!(await hasStoreTable(c, schema, 'content'))) return null;
  const { rows } = await c.query<{ url_id: number; text: string | null }>(
    `SELECT url_id, text FROM ${schema}.content WHERE url_id = ANY($1::bigint[])`,
    [[urlId, otherId]],
  );
  const text = (id: number) => {
    const t = rows.find((r) => r.url_id === id)?.text;
    return typeof t === 'string' && t !== '' ? t : null;
  };
  const [a, b] = [text(urlId), text(otherId)];
  return a === null || b === null ? null : diffTexts(a, b);
}
