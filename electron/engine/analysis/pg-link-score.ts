// Link Score of a crawl in the PostgreSQL store (issue 19), as a crawl file's is shown (link-score-thread.ts): computed
// in a worker thread (pg-link-score-read.ts), kept per crawl here, and put in a TEMP table link_scores of each reading
// connection, which the store's dialect then reads (result-rows.ts postgresResults, result-filters.ts StoreColumns)
// for the explorer's columns and sort, the URL detail and the views' exports. Recomputed when the crawl has new
// results: while nodes add them, no sooner than ten times the last computation's time (at least 2 s), the previous
// scores serving meanwhile, as for a crawl file. Scores computed while no node added results are kept in the crawl
// (pg-schema.ts KEPT_LINK_SCORES_DDL): a finished crawl's scores are computed once, not by every process that reads
// it (8 s at a million URLs). A connection then reads them through a TEMP view of the kept table, and a page sorted by
// them walks the results in their order (pg-schema.ts LINK_SCORES_ORDER_DDL), which a reader keeps in the background
// (keepLinkScoreOrder); until then, or where it cannot, a sort reads a copy the server makes into the connection's
// TEMP table (0.7 s at a million URLs).
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import type { LinkScores } from './link-score.ts';
import type { OrderedScores } from './result-rows.ts';
import { type CrawlScores, currentScores, linkScoresOffThread, newScores, type RefreshOptions, scoresBehind } from './link-score-thread.ts';
import { storeResultsStamp } from './pg-content.ts';
import { inKeptWrite } from './pg-kept-answers.ts';
import { crawlSchema, KEPT_LINK_SCORES_DDL, KEPT_LINK_SCORES_UPGRADE, LINK_SCORES_ORDER_DDL } from '../frontier/postgres/pg-schema.ts';

/** link_scores as crawl-file.ts's LINK_SCORES_TEMP_TABLE, in PostgreSQL's types. */
export const PG_LINK_SCORES_TEMP_TABLE =
  'CREATE TEMP TABLE IF NOT EXISTS link_scores (url_id bigint PRIMARY KEY, link_score double precision NOT NULL, unique_inlinks integer NOT NULL)';

/** Rows written into the TEMP table a statement at a time. */
const INSERT_ROWS = 20_000;

/** Computed scores per crawl (its store's server and ID), shared by the connections reading it. */
const byCrawl = new Map<string, CrawlScores>();
/**
 * What each connection's link_scores holds (the crawl and the scores' stamp), whether it is a view of the scores
 * kept in the crawl rather than a table of the connection's own, and, when those are of the crawl's present state
 * and the results are kept in their order, that order (which a sort by them walks).
 */
const filled = new WeakMap<PgQuerier, { tag: string; view: boolean; ordered: OrderedScores | null }>();

/**
 * The stamp of the scores kept in a crawl and, when the results are kept in their order too (LINK_SCORES_ORDER_DDL),
 * the highest seq that order has (null: none kept).
 */
interface KeptStamp {
  stamp: string;
  through: number | null;
}

/**
 * Makes this connection's link_scores current for the crawl named `key` (none of the connection's transactions may
 * be open: the table is created outside them). Scores kept in the crawl for its present state are read as they are,
 * through a view; else the crawl's scores are computed (once per process), and kept in the crawl when no node added
 * results meanwhile. `sorted`: the reads will sort rows by the scores. With the results kept in their order, a
 * sort walks that (orderedLinkScores); else PostgreSQL sorts well only from a table of the connection's own with its
 * statistics (0.29 s at 800,000 results, through the view 0.6 s), so kept scores are copied into one (0.7 s there).
 * A page's or a detail's few lookups read the view: a new connection's first page does not wait for that copy.
 * Resolves to whether link_scores holds scores (not while the first are computed and the caller did not wait: never,
 * as for a crawl file, the first scores are always waited for; scores kept for an earlier state serve meanwhile).
 */
export async function refreshStoreLinkScores(
  c: PgQuerier,
  storeUrl: string,
  crawlId: string,
  key: string,
  options: RefreshOptions = {},
  sorted = false,
): Promise<boolean> {
  const stamp = await storeResultsStamp(c, crawlId);
  const had = filled.get(c);
  if (had?.tag === `${key}|${stamp}` && !(sorted && had.view && !had.ordered)) return true;
  const schema = crawlSchema(crawlId);
  // A stamp with a node's rows uncommitted ("+") names no state that stays: no scores are kept for it.
  const settled = !stamp.endsWith('+');
  const kept = await keptStamp(c, schema);
  if (settled && kept?.stamp === stamp) {
    await fillTempTable(c, `${key}|${stamp}`, schema, sorted && kept.through === null, kept.through);
    return true;
  }
  const s = await scoresAt(storeUrl, crawlId, key, stamp, options);
  if (!s) {
    // Scores kept for an earlier state: a sort copies them (a walk of them would not have the rows since in order).
    if (kept !== null) await fillTempTable(c, `${key}|${kept.stamp}`, schema, sorted, null);
    // The reads name link_scores whether or not it holds scores: an empty table until the first are computed.
    else if (!had) {
      await c.query(PG_LINK_SCORES_TEMP_TABLE);
      filled.set(c, { tag: '', view: false, ordered: null });
    }
    return kept !== null;
  }
  const inCrawl = settled && s.stamp === stamp ? await keep(c, schema, s) : null;
  if (inCrawl) await fillTempTable(c, `${key}|${s.stamp}`, schema, sorted && inCrawl.through === null, inCrawl.through);
  else await fillTempTable(c, `${key}|${s.stamp}`, s, sorted, null);
  return true;
}

/**
 * The scores a page of this connection sorted by Link Score or unique inlinks walks in order: those kept in the
 * crawl, ordered, for the state its link_scores was last made current for (refreshStoreLinkScores); null when it
 * holds other scores, and a sort reads its link_scores as a crawl file's.
 */
export function orderedLinkScores(c: PgQuerier): OrderedScores | null {
  return filled.get(c)?.ordered ?? null;
}

/**
 * Readies this connection for pages sorted by the scores kept in the crawl, when they are of its present state: with
 * the results kept in their order, its link_scores is a view of the scores and a sort walks that order ('walk'); else
 * the scores are copied into a table of the connection's own ('copy', 0.7 s at a million URLs). Null when there is
 * nothing to ready yet: scores to be computed, or computed for a crawl nodes are adding to, are left to the sort that
 * asks for them.
 */
export async function readyKeptLinkScores(c: PgQuerier, crawlId: string, key: string): Promise<'walk' | 'copy' | null> {
  const stamp = await storeResultsStamp(c, crawlId);
  const schema = crawlSchema(crawlId);
  const kept = await keptCurrent(c, schema, stamp);
  if (!kept) return null;
  await fillTempTable(c, `${key}|${stamp}`, schema, kept.through === null, kept.through);
  return kept.through === null ? 'copy' : 'walk';
}

/**
 * Keeps the crawl's results in the order of its kept scores (LINK_SCORES_ORDER_DDL) when those are of its present
 * state and the order is not kept yet: once for every reader, 2.5 s at a million URLs, on a connection nothing waits
 * for. Whether the order is kept now (false: the scores are not of this state, or the role may only read).
 */
export async function keepLinkScoreOrder(c: PgQuerier, crawlId: string): Promise<boolean> {
  const stamp = await storeResultsStamp(c, crawlId);
  const schema = crawlSchema(crawlId);
  const kept = await keptCurrent(c, schema, stamp);
  if (!kept) return false;
  if (kept.through !== null) return true;
  const through = await inKeepTransaction(c, schema, async () => {
    // Another reader may have kept the order meanwhile (or other scores: then no order is kept here).
    const now = await keptStamp(c, schema);
    return now?.stamp === stamp ? (now.through ?? (await orderKept(c, schema))) : null;
  });
  return through !== null;
}

/** The scores kept in the crawl in `schema`, when they are of its state `stamp` (never one with rows uncommitted). */
async function keptCurrent(c: PgQuerier, schema: string, stamp: string): Promise<KeptStamp | null> {
  if (stamp.endsWith('+')) return null;
  const kept = await keptStamp(c, schema);
  return kept?.stamp === stamp ? kept : null;
}

/** The stamp of the scores kept in the crawl in `schema`; null when none are (or the crawl was made before them). */
async function keptStamp(c: PgQuerier, schema: string): Promise<KeptStamp | null> {
  const { rows } = await c.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`${schema}.link_scores_stamp`]);
  if (!rows[0]!.ok) return null;
  // As JSON: a crawl kept by a build before lacks the column ordered_through.
  const kept = await c.query<{ j: { stamp: string; ordered_through?: number | null } }>(
    `SELECT to_jsonb(s) AS j FROM ${schema}.link_scores_stamp s`,
  );
  const j = kept.rows[0]?.j;
  return j ? { stamp: j.stamp, through: j.ordered_through ?? null } : null;
}

/**
 * Keeps computed scores in the crawl: the stamp of the scores kept in it then (written here, or by another reader that
 * computed the same state); null when they cannot be written (a role that may only read). Without the results in
 * their order: keeping that takes 2.5 s at a million URLs, which keepLinkScoreOrder spends after, in the background
 * of the views.
 */
async function keep(c: PgQuerier, schema: string, s: LinkScores): Promise<KeptStamp | null> {
  return inKeepTransaction(c, schema, async () => {
    // Named with their schema: a bare link_scores is this connection's TEMP table, which PostgreSQL looks in first.
    const had = await keptStamp(c, schema);
    if (had?.stamp === s.stamp) return had;
    // DELETE, not TRUNCATE: a reader copying the scores kept before goes on until this commits.
    await c.query(`DELETE FROM ${schema}.link_scores`);
    await insertScores(c, `${schema}.link_scores`, s);
    await c.query(`DELETE FROM ${schema}.link_scores_stamp`);
    await c.query(`INSERT INTO ${schema}.link_scores_stamp (stamp) VALUES ($1)`, [s.stamp]);
    return { stamp: s.stamp, through: null };
  });
}

/**
 * Runs `work` in a transaction that may write the crawl's kept scores (inKeptWrite): one writer at a time per crawl,
 * whatever the process, with the kept tables as this build makes them. Null when it failed (a role that may only
 * read), rolled back.
 */
async function inKeepTransaction<T>(c: PgQuerier, schema: string, work: () => Promise<T>): Promise<T | null> {
  if (
    !(await upgradeKept(c, schema).then(
      () => true,
      () => false,
    ))
  )
    return null;
  return inKeptWrite(c, schema, KEPT_LINK_SCORES_DDL, work, 'trawl link scores');
}

/**
 * Gives the kept scores' stamp of a crawl made before they were ordered its column, in a transaction of its own:
 * ALTER TABLE locks out every reader of the stamp until it commits (at once; ordering, after, does not).
 */
async function upgradeKept(c: PgQuerier, schema: string): Promise<void> {
  const { rows } = await c.query<{ old: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'ordered_through'
       AND NOT attisdropped) AND to_regclass($1) IS NOT NULL AS old`,
    [`${schema}.link_scores_stamp`],
  );
  if (!rows[0]!.old) return;
  await c.query('BEGIN');
  try {
    await c.query(`SET LOCAL search_path TO ${schema}, pg_temp; ${KEPT_LINK_SCORES_UPGRADE}`);
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * Keeps the crawl's results in the order of the scores kept in `schema` (LINK_SCORES_ORDER_DDL). In inKeepTransaction;
 * the highest seq it has: the rows a node adds later sort after every one it has, by their seq. A walk of it reads only
 * the crawl's state the scores were kept for (the kept stamp is the crawl's): rows a node committed while it was made
 * leave it of no state a reader sees.
 */
async function orderKept(c: PgQuerier, schema: string): Promise<number> {
  await c.query(LINK_SCORES_ORDER_DDL);
  const { rows } = await c.query<{ through: string }>(
    `UPDATE ${schema}.link_scores_stamp SET ordered_through = (SELECT coalesce(max(seq), 0) FROM ${schema}.link_scores_order)
     RETURNING ordered_through AS through`,
  );
  return Number(rows[0]!.through);
}

/**
 * Makes the connection's link_scores hold the scores tagged `tag` (the crawl's key and the scores' stamp), unless it
 * does: those kept in the crawl in a schema, as a view of them (or, `sorted`, copied by the server into a table of
 * the connection's), or computed scores. `through`: the kept scores are of the crawl's present state, and the results
 * kept in their order up to this seq.
 */
async function fillTempTable(c: PgQuerier, tag: string, from: string | LinkScores, sorted: boolean, through: number | null): Promise<void> {
  const view = typeof from === 'string' && !sorted;
  const walk = typeof from === 'string' && through !== null ? { schema: from, through } : null;
  const had = filled.get(c);
  if (had?.tag === tag && had.view === view) {
    filled.set(c, { tag, view, ordered: walk });
    return;
  }
  await c.query('BEGIN');
  try {
    if (view) {
      await c.query(had && !had.view ? 'DROP TABLE pg_temp.link_scores' : 'DROP VIEW IF EXISTS pg_temp.link_scores');
      // The kept table by its schema's name: the view reads whatever scores are kept there now (newer ones at most).
      await c.query(`CREATE TEMP VIEW link_scores AS SELECT url_id, link_score, unique_inlinks FROM ${from}.link_scores`);
    } else {
      if (had?.view) await c.query('DROP VIEW pg_temp.link_scores');
      await c.query(PG_LINK_SCORES_TEMP_TABLE);
      // TRUNCATE: the table is this connection's alone, and a DELETE left a million dead rows to the next fill.
      await c.query('TRUNCATE pg_temp.link_scores');
      if (typeof from === 'string') {
        await c.query(`INSERT INTO pg_temp.link_scores SELECT url_id, link_score, unique_inlinks FROM ${from}.link_scores`);
      } else {
        await insertScores(c, 'pg_temp.link_scores', from);
      }
      // A TEMP table is never analysed by autovacuum: without its statistics PostgreSQL hashed it whole to sort the
      // explorer by Link Score (0.7-1.2 s at 800,000 results), with them it merges it with results in URL id order
      // (0.25-0.36 s). 0.1 s, once per fill.
      await c.query('ANALYZE pg_temp.link_scores');
    }
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
  filled.set(c, { tag, view, ordered: walk });
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
 * second filling a table it does not read. Scores kept in the crawl for its present state are read from it (0.3 s
 * at a million URLs, where computing them takes 8 s of a core), and serve this process's later asks too.
 */
export async function storeLinkScores(
  c: PgQuerier,
  storeUrl: string,
  crawlId: string,
  key: string,
  options: RefreshOptions = {},
): Promise<LinkScores | null> {
  const stamp = await storeResultsStamp(c, crawlId);
  const entry = entryOf(key);
  const schema = crawlSchema(crawlId);
  if (entry.scores?.stamp !== stamp && (await keptCurrent(c, schema, stamp))) {
    entry.scores = await readKeptScores(c, schema, stamp);
    entry.finishedAt = Date.now();
  }
  return scoresAt(storeUrl, crawlId, key, stamp, options);
}

/**
 * The scores kept in the crawl in `schema`, as arrays. Each column comes as one bytea of its values (big-endian, as
 * int4send and float8send write them): a million rows in one value each rather than a million rows to parse. The
 * three aggregates read the rows in the same order, whatever it is.
 */
async function readKeptScores(c: PgQuerier, schema: string, stamp: string): Promise<LinkScores> {
  const started = performance.now();
  const { rows } = await c.query<{ ids: Buffer | null; scores: Buffer | null; inlinks: Buffer | null }>(
    `SELECT string_agg(int4send(url_id::integer), '') AS ids, string_agg(float8send(link_score), '') AS scores,
            string_agg(int4send(unique_inlinks), '') AS inlinks
     FROM ${schema}.link_scores`,
  );
  const [ids, scores, inlinks] = [rows[0]!.ids, rows[0]!.scores, rows[0]!.inlinks].map((b) => b ?? Buffer.alloc(0)) as [
    Buffer,
    Buffer,
    Buffer,
  ];
  const n = ids.length / 4;
  const out: LinkScores = {
    urlIds: new Int32Array(n),
    scores: new Float64Array(n),
    // Not kept: nothing that reads a crawl in the store uses the raw PageRank.
    ranks: new Float64Array(n),
    uniqueInlinks: new Int32Array(n),
    iterations: 0,
    converged: true,
    stamp,
    ms: 0,
  };
  for (let i = 0; i < n; i++) {
    out.urlIds[i] = ids.readInt32BE(i * 4);
    out.scores[i] = scores.readDoubleBE(i * 8);
    out.uniqueInlinks[i] = inlinks.readInt32BE(i * 4);
  }
  out.ms = performance.now() - started;
  return out;
}

function entryOf(key: string): CrawlScores {
  let entry = byCrawl.get(key);
  if (!entry) byCrawl.set(key, (entry = newScores()));
  return entry;
}

/** The crawl's scores in use (currentScores) when its results are at `stamp`. */
function scoresAt(storeUrl: string, crawlId: string, key: string, stamp: string, options: RefreshOptions): Promise<LinkScores | null> {
  const entry = entryOf(key);
  return currentScores(entry, stamp, options, () => linkScoresOffThread({ store: storeUrl, crawlId, stamp }));
}

/** Whether the scores of the crawl named `key` lack a computation under way that `options` would have waited for (scoresBehind). */
export function storeLinkScoresBehind(key: string, options: RefreshOptions): boolean {
  const e = byCrawl.get(key);
  return e !== undefined && scoresBehind(e, options);
}
