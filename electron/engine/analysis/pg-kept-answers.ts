// Answers about a whole crawl in the PostgreSQL store, kept in the crawl (pg-schema.ts KEPT_ANSWERS_DDL) for the state
// they were computed at: a finished cluster crawl's answers are computed by its first reader, not by every process
// that opens it (at a million URLs: the explorer's badges 2-4 s, after a duplicate content analysis of up to 16 s;
// the site structure's first fold 2-4 s; the crawl map 3-6 s). A reader's stamp says everything the answer depends
// on (the crawl's settled state, options, this build's SQL or format), so an answer computed otherwise is never taken
// for it.
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import { crawlSchema, KEPT_ANSWERS_DDL } from '../frontier/postgres/pg-schema.ts';

/** The answers kept: one row each in a crawl's kept_answers. */
export type KeptAnswerName = 'filter_counts' | 'structure_trie' | 'crawl_map';

/** An answer as kept: its JSON, and its arrays' bytes when it has any. */
export interface KeptAnswer<T> {
  answer: T;
  data: Buffer | null;
}

/**
 * The answer named `name` kept in the crawl for `stamp`; null when none is, or one for another stamp, or the crawl was
 * made before them.
 */
export async function keptAnswer<T>(c: PgQuerier, crawlId: string, name: KeptAnswerName, stamp: string): Promise<KeptAnswer<T> | null> {
  const table = `${crawlSchema(crawlId)}.kept_answers`;
  const { rows } = await c.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [table]);
  if (!rows[0]!.ok) return null;
  const kept = await c.query<KeptAnswer<T>>(`SELECT answer, data FROM ${table} WHERE name = $1 AND stamp = $2`, [name, stamp]);
  return kept.rows[0] ?? null;
}

/**
 * Keeps an answer computed for `stamp` in the crawl, in place of the one kept before (none of the connection's
 * transactions may be open). False when it cannot be written (a role that may only read, a crawl dropped meanwhile):
 * the answer then only costs its computation again, as before it was kept.
 */
export async function keepAnswer(
  c: PgQuerier,
  crawlId: string,
  name: KeptAnswerName,
  stamp: string,
  answer: unknown,
  data: Buffer | null = null,
): Promise<boolean> {
  const schema = crawlSchema(crawlId);
  const kept = await inKeptWrite(c, schema, KEPT_ANSWERS_DDL, async () => {
    await c.query(
      `INSERT INTO ${schema}.kept_answers (name, stamp, answer, data) VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (name) DO UPDATE SET stamp = excluded.stamp, answer = excluded.answer, data = excluded.data`,
      [name, stamp, JSON.stringify(answer), data],
    );
    return true;
  });
  return kept === true;
}

/**
 * Runs `work` in a transaction that writes what the crawl in `schema` keeps (none of the connection's transactions
 * may be open), after `ddl` makes its tables as this build has them; `lock`: one such writer at a time per crawl and
 * lock name, whatever the process. `ddl` names the tables bare: the crawl's schema comes first on the path, before
 * this connection's pg_temp, whose TEMP tables and views of the same names would otherwise be found. Null when it
 * cannot be written (a role that may only read, a crawl dropped meanwhile), rolled back: what was to be kept then only
 * costs its computation again.
 */
export async function inKeptWrite<T>(c: PgQuerier, schema: string, ddl: string, work: () => Promise<T>, lock?: string): Promise<T | null> {
  try {
    await c.query('BEGIN');
    if (lock) await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`${lock} ${schema}`]);
    await c.query(`SET LOCAL search_path TO ${schema}, pg_temp; ${ddl}`);
    const done = await work();
    await c.query('COMMIT');
    return done;
  } catch {
    await c.query('ROLLBACK').catch(() => undefined);
    return null;
  }
}
