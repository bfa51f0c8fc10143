// Small helpers the analysis modules share: prepared statements kept per connection, index hints that degrade to
// nothing on a file without the index, LIKE patterns and paging checks.
import type Database from 'better-sqlite3';
import type { Db } from '../frontier/sqlite/crawl-file.ts';

const statements = new WeakMap<Db, Map<string, Database.Statement>>();
const MAX_STATEMENTS = 500;

/** The statement for `sql` on this connection, prepared once. */
export function prepared(db: Db, sql: string): Database.Statement {
  let map = statements.get(db);
  if (!map) statements.set(db, (map = new Map()));
  let st = map.get(sql);
  if (!st) {
    // SQL built from parameters (chart bounds, bucket widths) could otherwise pile up statements without end.
    if (map.size >= MAX_STATEMENTS) map.clear();
    map.set(sql, (st = db.prepare(sql)));
  }
  return st;
}

const indexNames = new WeakMap<Db, Map<string, Set<string>>>();

/** Whether the index exists in `schema` (main, or an attached database's name). Read once per connection. */
export function hasIndex(db: Db, name: string, schema = 'main'): boolean {
  let bySchema = indexNames.get(db);
  if (!bySchema) indexNames.set(db, (bySchema = new Map()));
  let names = bySchema.get(schema);
  if (!names) {
    const rows = db.prepare(`SELECT name FROM "${schema.replace(/"/g, '""')}".sqlite_master WHERE type = 'index'`).all() as {
      name: string;
    }[];
    bySchema.set(schema, (names = new Set(rows.map((r) => r.name))));
  }
  return names.has(name);
}

const tableNames = new WeakMap<Db, Set<string>>();

/** Whether the table exists (a file read as stored may be older than the table: renders came in version 4). */
export function hasTable(db: Db, name: string): boolean {
  let names = tableNames.get(db);
  if (!names) {
    const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    tableNames.set(db, (names = new Set(rows.map((r) => r.name))));
  }
  return names.has(name);
}

const rendersReadable = new WeakMap<Db, boolean>();
/**
 * Whether the file has renders as this version reads them (the raw HTML's columns beside the rendered ones). A
 * version 4 file made before those columns is read as having rendered nothing until it is opened to crawl, which
 * upgrades it.
 */
export function hasRenders(db: Db): boolean {
  let yes = rendersReadable.get(db);
  if (yes === undefined) {
    yes = hasTable(db, 'renders') && (db.pragma('table_info(renders)') as { name: string }[]).some((c) => c.name === 'raw_title');
    rendersReadable.set(db, yes);
  }
  return yes;
}

/**
 * `INDEXED BY name` when the file has the index: the analysis queries name the index their plan is built on, so
 * SQLite (which has no statistics in a crawl file) never prefers a smaller partial index that is not covering.
 * A file without the index (made before it existed) gets no hint: the same answer, found more slowly.
 */
export function indexedBy(db: Db, name: string, schema = 'main'): string {
  return hasIndex(db, name, schema) ? `INDEXED BY ${name}` : '';
}

/** A LIKE pattern matching `text` anywhere, its wildcards escaped (use with ESCAPE '\'). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `text` with its ASCII letters lower-cased, and only those: what PostgreSQL's lower() makes of it in the C collation
 * (String.prototype.toLowerCase would also fold "É").
 */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The most rows one page may ask for. */
export const MAX_PAGE = 5000;

export function checkLimit(limit: number, name = 'limit'): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    throw new RangeError(`${name} must be a whole number from 1 to ${MAX_PAGE} (got ${String(limit)})`);
  }
}

export function checkOffset(offset: number, name = 'offset'): void {
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`${name} must be a whole number of at least 0 (got ${String(offset)})`);
}

/** Rows of `rows` put in the order of `ids` (a page fetched by `IN (…)` comes back in any order). */
export function inOrder<T>(ids: readonly number[], rows: readonly T[], key: (row: T) => number): T[] {
  const byId = new Map(rows.map((r) => [key(r), r]));
  const out: T[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row !== undefined) out.push(row);
  }
  return out;
}

/**
 * The row with the named columns as numbers: PostgreSQL returns bigint (and counts and sums of it) as text, which
 * the views read from the store convert once here.
 */
export function withNumbers<T extends object>(row: T, keys: readonly string[]): T {
  const out = { ...row } as Record<string, unknown>;
  for (const k of keys) if (out[k] !== null && out[k] !== undefined) out[k] = Number(out[k]);
  return out as T;
}

/** Runs `fn` in one read transaction: every query in it sees the same state of the file, even mid-crawl. */
export function readTransaction<T>(db: Db, fn: () => T): T {
  if (db.inTransaction) return fn();
  return db.transaction(fn)();
}

/**
 * Below this, a whole number is exact in a double: the whole-crawl walks that pack a row's fields in one number
 * (crawl-map.ts, site-structure.ts, link-score.ts) keep their numbers under it.
 */
export const PACKED_MAX = 2 ** 53;

/**
 * Reads `sql`, one number a row (pluck: no array made per row), handing each to `take`. False at the first row `take`
 * refuses (one its packing could not hold), the rest unread: the caller then reads that walk as rows.
 */
export function pluckWalk(db: Db, sql: string, params: Record<string, number>, take: (v: number) => boolean): boolean {
  for (const v of prepared(db, sql).pluck(true).iterate(params) as Iterable<number>) if (!take(v)) return false;
  return true;
}
