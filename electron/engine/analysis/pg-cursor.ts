// Whole-crawl reads of the PostgreSQL store (Link Score's graph, the crawl map's tree, a sitemap's pages): a
// statement's rows through a cursor, a page at a time, inside the caller's transaction, so millions of rows are never
// held as results at once.
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';

/** Rows fetched from a cursor at a time. */
const FETCH_ROWS = 50_000;

/**
 * The rows of `sql` (each an array of its columns) a page at a time; must be read inside a transaction, to its end.
 * The next page is asked for before this one is handed on, so the server reads it while the caller works: at a
 * million URLs the crawl map waited on the server for half its time.
 */
export async function* cursorPages<Row extends unknown[]>(c: PgQuerier, sql: string, pageRows = FETCH_ROWS): AsyncGenerator<Row[]> {
  await c.query(`DECLARE rows NO SCROLL CURSOR FOR ${sql}`);
  const fetch = () => c.query<Row>({ text: `FETCH ${pageRows} FROM rows`, rowMode: 'array' }).then((r) => r.rows);
  for (let next: Promise<Row[]> | null = fetch(); next !== null; ) {
    const rows: Row[] = await next;
    next = rows.length < pageRows ? null : fetch();
    // A caller that stops early leaves the page asked for ahead unread: its failure is the transaction's.
    next?.catch(() => undefined);
    if (rows.length) yield rows;
  }
  await c.query('CLOSE rows');
}

/** Hands each row of `sql` to `row` (cursorPages, read whole); must run inside a transaction. */
export async function eachRow<Row extends unknown[]>(c: PgQuerier, sql: string, row: (r: Row) => void): Promise<void> {
  for await (const page of cursorPages<Row>(c, sql)) for (const r of page) row(r);
}
