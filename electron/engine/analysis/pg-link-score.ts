// Link Score of a crawl in the PostgreSQL store (issue 19), as a crawl file's is shown (link-score-thread.ts): computed
// in a worker thread (pg-link-score-read.ts), kept per crawl here, and put in a TEMP table link_scores of each reading
// connection, which the store's dialect then reads (result-rows.ts postgresResults, result-filters.ts StoreColumns)
// for the explorer's columns and sort, the URL detail and the views' exports. Recomputed when the crawl has new
// results: while nodes add them, no sooner than ten times the last computation's time (at least 2 s), the previous
// scores serving meanwhile, as for a crawl file. Scores computed while no node added results are kept in the crawl
// (pg-schema.ts KEPT_LINK_SCORES_DDL), and a connection's TEMP table is then filled from them by the server: a
// finished crawl's scores are computed once, not by every process that reads it (8 s at a million URLs), and a
// connection's copy takes 0.7 s there instead of 2.5 s from this process.
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import type { LinkScores } from './link-score.ts';
import { type CrawlScores, currentScores, linkScoresOffThread, newScores, type RefreshOptions, scoresBehind } from './link-score-thread.ts';
import { storeResultsStamp } from './pg-content.ts';
import { crawlSchema, KEPT_LINK_SCORES_DDL } from '../frontier/postgres/pg-schema.ts';

/** link_scores as crawl-file.ts's LINK_SCORES_TEMP_TABLE, in PostgreSQL's types. */
export const PG_LINK_SCORES_TEMP_TABLE =
  'CREATE TEMP TABLE IF NOT EXISTS link_scores (url_id bigint PRIMARY KEY, link_score double precision NOT NULL, unique_inlinks integer NOT NULL)';

/** Rows written into the TEMP table a statement at a time. */
const INSERT_ROWS = 20_000;

/** Computed scores per crawl (its store's server and ID), shared by the connections reading it. */
const byCrawl = new Map<string, CrawlScores>();
/** What each connection's TEMP table holds (the crawl and the scores' stamp). */
const filled = new WeakMap<PgQuerier, string>();

/**
 * Makes this connection's link_scores current for the crawl named `key` (none of the connection's transactions may
 * be open: the table is created outside them). Scores kept in the crawl for its present state are copied as they are;
 * else the crawl's scores are computed (once per process), and kept in the crawl when no node added results
 * meanwhile. Resolves to whether the table holds scores (not while the first are computed and the caller did not
 * wait: never, as for a crawl file, the first scores are always waited for; scores kept for an earlier state serve
 * meanwhile).
 */
export async function refreshStoreLinkScores(
  c: PgQuerier,
  storeUrl: string,
  crawlId: string,
  key: string,
  options: RefreshOptions = {},
): Promise<boolean> {
  await c.query(PG_LINK_SCORES_TEMP_TABLE);
  const stamp = await storeResultsStamp(c, crawlId);
  if (filled.get(c) === `${key}|${stamp}`) return true;
  const schema = crawlSchema(crawlId);
  // A stamp with a node's rows uncommitted ("+") names no state that stays: no scores are kept for it.
  const settled = !stamp.endsWith('+');
  const kept = await keptStamp(c, schema);
  if (settled && kept === stamp) {
    await fillTempTable(c, `${key}|${stamp}`, schema);
    return true;
  }
  const s = await scoresAt(storeUrl, crawlId, key, stamp, options);
  if (!s) {
    if (kept !== null) await fillTempTable(c, `${key}|${kept}`, schema);
    return kept !== null;
  }
  const inCrawl = settled && s.stamp === stamp && (await keep(c, schema, s));
  await fillTempTable(c, `${key}|${s.stamp}`, inCrawl ? schema : s);
  return true;
}

/** The stamp of the scores kept in the crawl in `schema`; null when none are (or the crawl was made before them). */
async function keptStamp(c: PgQuerier, schema: string): Promise<string | null> {
  const { rows } = await c.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`${schema}.link_scores_stamp`]);
  if (!rows[0]!.ok) return null;
  return (await c.query<{ stamp: string }>(`SELECT stamp FROM ${schema}.link_scores_stamp`)).rows[0]?.stamp ?? null;
}

/**
 * Keeps computed scores in the crawl: true once its kept scores are these (written here, or by another reader that
 * computed the same state); false when they cannot be written (a role that may only read).
 */
async function keep(c: PgQuerier, schema: string, s: LinkScores): Promise<boolean> {
  try {
    await c.query('BEGIN');
    // One writer at a time per crawl, whatever the process: a second one finds the scores already kept.
    await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`trawl link scores ${schema}`]);
    await c.query(`SET LOCAL search_path TO ${schema}; ${KEPT_LINK_SCORES_DDL}`);
    // Named with their schema: a bare link_scores is this connection's TEMP table, which PostgreSQL looks in first.
    if ((await c.query<{ stamp: string }>(`SELECT stamp FROM ${schema}.link_scores_stamp`)).rows[0]?.stamp !== s.stamp) {
      // DELETE, not TRUNCATE: a reader copying the scores kept before goes on until this commits.
      await c.query(`DELETE FROM ${schema}.link_scores`);
      await insertScores(c, `${schema}.link_scores`, s);
      await c.query(`DELETE FROM ${schema}.link_scores_stamp`);
      await c.query(`INSERT INTO ${schema}.link_scores_stamp (stamp) VALUES ($1)`, [s.stamp]);
    }
    await c.query('COMMIT');
    return true;
  } catch {
    await c.query('ROLLBACK').catch(() => undefined);
    return false;
  }
}

/**
 * Fills the connection's TEMP table (tag: the crawl's key and the scores' stamp), unless it holds them: from the
 * scores kept in the crawl in a schema (copied by the server), or from computed scores.
 */
async function fillTempTable(c: PgQuerier, tag: string, from: string | LinkScores): Promise<void> {
  if (filled.get(c) === tag) return;
  await c.query('BEGIN');
  try {
    // TRUNCATE: the table is this connection's alone, and a DELETE left a million dead rows to the next fill.
    await c.query('TRUNCATE pg_temp.link_scores');
    if (typeof from === 'string') {
      await c.query(`INSERT INTO pg_temp.link_scores SELECT url_id, link_score, unique_inlinks FROM ${from}.link_scores`);
    } else {
      await insertScores(c, 'pg_temp.link_scores', from);
    }
    // A TEMP table is never analysed by autovacuum: without its statistics PostgreSQL hashed it whole to sort the
    // explorer by Link Score (0.7-1.2 s at 800,000 results), with them it merges it with results in URL id order
    // (0.25-0.36 s). 0.1 s, once per fill. (A view of the kept scores, without the copy, let PostgreSQL plan that sort
    // in parallel, a hash join over every results row: 0.6 s.)
    await c.query('ANALYZE pg_temp.link_scores');
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  filled.set(c, tag);
}

/** Inserts the scores into `table`, INSERT_ROWS a statement. */
async function insertScores(c: PgQuerier, table: string, s: LinkScores): Promise<void> {
  for (let from = 0; from < s.urlIds.length; from += INSERT_ROWS) {
    const to = Math.min(s.urlIds.length, from + INSERT_ROWS);
    await c.query(
      `INSERT INTO ${table} (url_id, link_score, unique_inlinks)
       SELECT * FROM unnest($1::bigint[], $2::double precision[], $3::integer[])`,
      [Array.from(s.urlIds.subarray(from, to)), Array.from(s.scores.subarray(from, to)), Array.from(s.uniqueInlinks.subarray(from, to))],
    );
  }
}

/**
 * The scores of the crawl named `key` as refreshStoreLinkScores brings them up to date, without putting them in the
 * connection's TEMP table: for a reader that takes them as arrays (the crawl map), whose connection then spends no
 * second filling a table it does not read.
 */
export async function storeLinkScores(
  c: PgQuerier,
  storeUrl: string,
  crawlId: string,
  key: string,
  options: RefreshOptions = {},
): Promise<LinkScores | null> {
  return scoresAt(storeUrl, crawlId, key, await storeResultsStamp(c, crawlId), options);
}

/** The crawl's scores in use (currentScores) when its results are at `stamp`. */
function scoresAt(storeUrl: string, crawlId: string, key: string, stamp: string, options: RefreshOptions): Promise<LinkScores | null> {
  let entry = byCrawl.get(key);
  if (!entry) byCrawl.set(key, (entry = newScores()));
  return currentScores(entry, stamp, options, () => linkScoresOffThread({ store: storeUrl, crawlId, stamp }));
}

/** Whether the scores of the crawl named `key` lack a computation under way that `options` would have waited for (scoresBehind). */
export function storeLinkScoresBehind(key: string, options: RefreshOptions): boolean {
  const e = byCrawl.get(key);
  return e !== undefined && scoresBehind(e, options);
}
