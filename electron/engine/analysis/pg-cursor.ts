// Whole-crawl reads of the PostgreSQL store (Link Score's graph, the crawl map's tree): a statement's rows through a
// cursor, a page at a time, inside the caller's transaction, so millions of rows are never held as results at once.
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';

/** Rows fetched from a cursor at a time. */
const FETCH_ROWS = 50_000;

/** Hands each row of `sql` (as an array of its columns) to `row`; must run inside a transaction. */
export async function eachRow<Row extends unknown[]>(c: PgQuerier, sql: string, row: (r: Row) => void): Promise<void> {
  await c.query(`DECLARE rows NO SCROLL CURSOR FOR ${sql}`);
  while (true) {
    const { rows } = await c.query<Row>({ text: `FETCH ${FETCH_ROWS} FROM rows`, rowMode: 'array' });
    for (const r of rows) row(r);
    if (rows.length < FETCH_ROWS) break;
  }
  await c.query('CLOSE rows');
}
