// Up to which results.seq a crawl in the PostgreSQL store is settled: every row at or below it that will ever be
// committed is committed, so a read after this bound sees each of them. What the live charts and the site structure
// need to add "the rows since the last answer" (charts-data.ts, site-structure.ts) without losing any.
//
// On a crawl file seq is that bound already: one writer commits its rows in seq order, and the highest seq seen
// settles everything below it. In the store several nodes insert at once and PostgreSQL hands out seq values before
// commit: a node may commit rows 126-150 while another's 101-125 are still open. A chart that took 150 as its last
// seq would never count 101-125 (they come after the answer but below the bound).
//
// How the bound is found: the sequence's value V is read first, then the transactions holding an insert lock on
// results (a node takes it for the statement that draws its seq values and keeps it until commit or rollback). Any
// open transaction holding a seq at or below V is among them; once none of them holds the lock any more, V is
// settled, and a snapshot taken after that sees all of V's rows. Both are read before the caller's snapshot, in
// that order. No writer at all (a crawl that is not running): V is settled at once. While nodes write, each answer
// notes (V, its writers), and an answer takes the highest noted V whose writers have all finished since: the charts
// lag the crawl by one answer (about a second), never by a lost row.
import type { PgQuerier } from '../frontier/postgres/pg-client.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';

interface Noted {
  seq: number;
  /** The virtual transaction ids that held an insert lock on results when seq was read. */
  writers: readonly string[];
}

interface Progress {
  /** The highest seq known settled. */
  settled: number;
  /** Sequence values noted while nodes wrote, oldest first, not yet settled. */
  noted: Noted[];
}

/** Noted values kept while a writer stays open (each answer adds one); past this the oldest go (a later one covers them). */
const MAX_NOTED = 64;
/** A first answer while nodes write waits this long at most for the writers it saw (a batch commits in milliseconds). */
const FIRST_WAIT_MS = 2_000;
const POLL_MS = 20;

const progress = new WeakMap<PgQuerier, Map<string, Progress>>();

function progressOf(c: PgQuerier, crawlId: string): Progress {
  let byCrawl = progress.get(c);
  if (!byCrawl) progress.set(c, (byCrawl = new Map()));
  let p = byCrawl.get(crawlId);
  if (!p) byCrawl.set(crawlId, (p = { settled: 0, noted: [] }));
  return p;
}

/** The statements, for plan checks: the sequence's value, then the transactions holding an insert lock on results. */
export function settledSql(crawlId: string) {
  const schema = crawlSchema(crawlId);
  return {
    // The sequence a bigserial makes (results_seq_seq); 0 before its first value.
    sequence: `SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS v FROM ${schema}.results_seq_seq`,
    // Fast-path locks are listed too; a prepared transaction has no pid (IS DISTINCT FROM keeps it).
    writers: `SELECT virtualtransaction AS vx FROM pg_locks
      WHERE locktype = 'relation' AND relation = to_regclass('${schema}.results') AND mode = 'RowExclusiveLock'
        AND pid IS DISTINCT FROM pg_backend_pid()`,
  };
}

async function writersNow(c: PgQuerier, sql: string): Promise<Set<string>> {
  return new Set((await c.query<{ vx: string }>(sql)).rows.map((r) => r.vx));
}

/**
 * The highest results.seq of the crawl below which every row is settled. Call it outside a transaction, then take
 * the snapshot that reads up to it. Never goes down on one connection.
 */
export async function settledSeq(c: PgQuerier, crawlId: string): Promise<number> {
  const sql = settledSql(crawlId);
  const p = progressOf(c, crawlId);
  const seq = Number((await c.query<{ v: string | number }>(sql.sequence)).rows[0]!.v);
  let writers = await writersNow(c, sql.writers);
  if (writers.size > 0 && seq > 0 && p.settled === 0 && p.noted.length === 0) {
    // Nothing known yet: wait for the writers that may hold a seq at or below this one, rather than answer empty.
    const mine = [...writers];
    const until = Date.now() + FIRST_WAIT_MS;
    while (mine.some((w) => writers.has(w)) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      writers = await writersNow(c, sql.writers);
    }
    if (!mine.some((w) => writers.has(w))) p.settled = Math.max(p.settled, seq);
    else p.noted.push({ seq, writers: mine });
    return p.settled;
  }
  for (const n of p.noted) if (!n.writers.some((w) => writers.has(w))) p.settled = Math.max(p.settled, n.seq);
  if (writers.size === 0) p.settled = Math.max(p.settled, seq);
  p.noted = p.noted.filter((n) => n.seq > p.settled);
  if (writers.size > 0 && seq > p.settled) {
    p.noted.push({ seq, writers: [...writers] });
    if (p.noted.length > MAX_NOTED) p.noted.splice(0, p.noted.length - MAX_NOTED);
  }
  return p.settled;
}
