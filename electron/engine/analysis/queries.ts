// Analysis code written once for both stores when it asks many small queries, one after another, each depending on
// the last (the URL detail): the code is a generator that yields each query and gets its answer back, run at once on
// a crawl file's connection (runOnFile) or awaited on the PostgreSQL store (pg-explorer.ts runOnStore). Parameters
// are positional (?).
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { prepared } from './sql.ts';

/** One query: its SQL, its parameters, and whether its first row (or undefined) or all its rows are wanted. */
export interface Ask {
  sql: string;
  params: unknown[];
  one: boolean;
}

/** Code that asks queries and returns a T. */
export type Q<T> = Generator<Ask, T, unknown>;

/** The first row of a query, or undefined. */
export function* get<T>(sql: string, ...params: unknown[]): Q<T | undefined> {
  return (yield { sql, params, one: true }) as T | undefined;
}

/** Every row of a query. */
export function* all<T>(sql: string, ...params: unknown[]): Q<T[]> {
  return (yield { sql, params, one: false }) as T[];
}

/** A crawl file's answer to one query: its first row (or undefined) or all its rows. */
export function answerOnFile(db: Db, { sql, params, one }: Ask): unknown {
  const st = prepared(db, sql);
  return one ? st.get(...params) : st.all(...params);
}

/** Runs the code on a crawl file's connection (the caller opens a read transaction when it needs one). */
export function runOnFile<T>(db: Db, code: Q<T>): T {
  let step = code.next();
  while (!step.done) step = code.next(answerOnFile(db, step.value));
  return step.value;
}
