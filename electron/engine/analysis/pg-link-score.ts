// Link Score of a crawl in the PostgreSQL store (issue 19), as a crawl file's is shown (link-score-thread.ts): computed
// in a worker thread (pg-link-score-read.ts), kept per crawl here, and put in a TEMP table link_scores of each reading
// connection, which the store's dialect then reads (result-rows.ts postgresResults, result-filters.ts StoreColumns)
// for the explorer's columns and sort, the URL detail and the views' exports. Recomputed when the crawl has new
// results: while nodes add them, no sooner than ten times the last computation's time (at least 2 s), the previous
// scores serving meanwhile, as for a crawl file.
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import type { LinkScores } from './link-score.ts';
import { type CrawlScores, currentScores, linkScoresOffThread, newScores, type RefreshOptions, scoresBehind } from './link-score-thread.ts';
import { storeResultsStamp } from './pg-content.ts';

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
 * be open: the table is created outside them). Resolves to the scores in use (null while the first are computed and
 * the caller did not wait: never, as for a crawl file, the first scores are always waited for).
 */
export async function refreshStoreLinkScores(
  c: PgQuerier,
  storeUrl: string,
  crawlId: string,
  key: string,
  options: RefreshOptions = {},
): Promise<LinkScores | null> {
  await c.query(PG_LINK_SCORES_TEMP_TABLE);
  const s = await storeLinkScores(c, storeUrl, crawlId, key, options);
  const tag = s ? `${key}|${s.stamp}` : null;
  if (s && filled.get(c) !== tag) {
    await c.query('BEGIN');
    try {
      await c.query('DELETE FROM pg_temp.link_scores');
      for (let from = 0; from < s.urlIds.length; from += INSERT_ROWS) {
        const to = Math.min(s.urlIds.length, from + INSERT_ROWS);
        await c.query(
          `INSERT INTO pg_temp.link_scores (url_id, link_score, unique_inlinks)
           SELECT * FROM unnest($1::bigint[], $2::double precision[], $3::integer[])`,
          [
            Array.from(s.urlIds.subarray(from, to)),
            Array.from(s.scores.subarray(from, to)),
            Array.from(s.uniqueInlinks.subarray(from, to)),
          ],
        );
      }
      // A TEMP table is never analysed by autovacuum: without its statistics PostgreSQL hashed it whole to sort the
      // explorer by Link Score (0.7-1.2 s at 800,000 results), with them it merges it with results in URL id order
      // (0.25-0.36 s). 0.1 s, once per fill.
      await c.query('ANALYZE pg_temp.link_scores');
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    filled.set(c, tag!);
  }
  return s;
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
  let entry = byCrawl.get(key);
  if (!entry) byCrawl.set(key, (entry = newScores()));
  const stamp = await storeResultsStamp(c, crawlId);
  return currentScores(entry, stamp, options, () => linkScoresOffThread({ store: storeUrl, crawlId, stamp }));
}

/** Whether the scores of the crawl named `key` lack a computation under way that `options` would have waited for (scoresBehind). */
export function storeLinkScoresBehind(key: string, options: RefreshOptions): boolean {
  const e = byCrawl.get(key);
  return e !== undefined && scoresBehind(e, options);
}
