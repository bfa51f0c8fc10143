// What a comparison reads of a crawl in the PostgreSQL store, copied into a crawl file of its own, so that a cluster
// crawl is compared with another (or with a crawl file) by the one comparison there is (compare.ts, SQLite's ATTACH
// of two files) rather than by a second one in PostgreSQL's dialect. The copy holds the crawl's settings, hosts, URLs
// (every one, for the state that says why a URL is gone) and of its results the columns compared (COMPARED_COLUMNS,
// with what a results row cannot be without); not its links or the rest. It is read in pages by key, so a crawl of a
// million URLs is never in memory, and it is the crawl as it was when each page was read (a running crawl goes on).
// The file is a real crawl file (any SQLite tool opens it), with the columns not copied empty.
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { createCrawlFile, URLS_KEY_INDEX } from '../frontier/sqlite/crawl-file.ts';
import { connect, type PgClient } from '../frontier/postgres/pg-client.ts';
import { readCrawl } from '../frontier/postgres/pg-control.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';
import { parseSettings } from '../../../shared/settings.ts';
import { urlKey } from '../../../shared/url/url-key.ts';
import { COMPARED_COLUMNS } from './compare.ts';

/** Rows read from the store and written to the file at a time. */
const PAGE_ROWS = 20_000;

/**
 * The columns copied of each table, its key first: what the comparison reads, and what a row cannot be without (the
 * file's NOT NULL columns without a default). The file's url_key, which the store does not keep, is made here.
 */
const COPIED = {
  hosts: ['id', 'origin'],
  urls: ['id', 'url', 'host_id', 'depth', 'state', 'discovered_at', 'kind', 'check_only'],
  results: ['seq', 'url_id', 'crawl_depth', 'fetched_at', ...COMPARED_COLUMNS],
} as const;

const URL_COLUMN = COPIED.urls.indexOf('url');

export interface StoreCopyCounts {
  hosts: number;
  urls: number;
  results: number;
}

/** Copies crawl `crawlId` of the store at `storeUrl` into a new crawl file at `file` (which must not exist). */
export async function copyStoreCrawlForCompare(storeUrl: string, crawlId: string, file: string): Promise<StoreCopyCounts> {
  const client = await connect(storeUrl, { applicationName: 'trawl compare' });
  try {
    const crawl = await readCrawl(client, crawlId);
    // Its settings without credentials (the store keeps those sealed apart; a comparison never reads them).
    const db = createCrawlFile(file, parseSettings(crawl.settings));
    try {
      const schema = crawlSchema(crawlId);
      // The file says what it is a copy of, for whoever opens it later.
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('copied_from', ?)").run(`crawl ${crawlId} of a PostgreSQL store`);
      // A copy to compare, thrown away after: no index the comparison does not use is kept up row by row (they were
      // two thirds of the copy's time), its own is made once the rows are in, and nothing waits for the disk.
      db.pragma('synchronous = OFF');
      const unused = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('urls', 'results')")
        .pluck()
        .all() as string[];
      for (const name of unused) db.exec(`DROP INDEX ${name}`);
      // Each table up to what the one before it holds, so a crawl that goes on meanwhile copies no row whose host or
      // URL is not in the file.
      const hosts = await copyTable(client, db, schema, 'hosts', COPIED.hosts, null);
      const lastHost = db.prepare('SELECT coalesce(max(id), 0) AS n FROM hosts').pluck().get() as number;
      const urls = await copyTable(client, db, schema, 'urls', COPIED.urls, `host_id <= ${lastHost}`, (row) =>
        urlKey(row[URL_COLUMN] as string),
      );
      const lastUrl = db.prepare('SELECT coalesce(max(id), 0) AS n FROM urls').pluck().get() as number;
      const results = await copyTable(client, db, schema, 'results', COPIED.results, `url_id <= ${lastUrl}`);
      db.exec(URLS_KEY_INDEX);
      db.prepare("UPDATE meta SET value = 'finished' WHERE key = 'state'").run();
      return { hosts, urls, results };
    } finally {
      db.close();
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Copies `columns` of `table` (keyed by the first) from the store's crawl schema into the file (the file's url_key,
 * which the store does not keep, is made by `complete`), the rows that meet `where`, in pages of PAGE_ROWS by key.
 */
async function copyTable(
  client: PgClient,
  db: Db,
  schema: string,
  table: string,
  columns: readonly string[],
  where: string | null,
  complete?: (row: unknown[]) => unknown,
): Promise<number> {
  const key = columns[0]!;
  const written = complete ? [...columns, 'url_key'] : columns;
  const insert = db.prepare(`INSERT INTO ${table} (${written.join(', ')}) VALUES (${written.map(() => '?').join(', ')})`);
  const writePage = db.transaction((rows: unknown[][]) => {
    for (const row of rows) insert.run(complete ? [...row, complete(row)] : row);
  });
  const text = `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM ${schema}.${table} WHERE ${key} > $1${where ? ` AND ${where}` : ''} ORDER BY ${key} LIMIT ${PAGE_ROWS}`;
  let after = 0;
  let copied = 0;
  while (true) {
    const { rows } = await client.query<unknown[]>({ text, values: [after], rowMode: 'array' });
    if (rows.length === 0) return copied;
    writePage(rows);
    copied += rows.length;
    after = rows[rows.length - 1]![0] as number;
    if (rows.length < PAGE_ROWS) return copied;
  }
}
