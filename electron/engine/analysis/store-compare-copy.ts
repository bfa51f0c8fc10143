// What a comparison reads of a crawl in the PostgreSQL store, copied into a crawl file of its own, so that a cluster
// crawl is compared with another (or with a crawl file) by the one comparison there is (compare.ts, SQLite's ATTACH
// of two files) rather than by a second one in PostgreSQL's dialect. The copy holds the crawl's settings, hosts, URLs
// (every one, for the state that says why a URL is gone) and results (every column the two stores share); not its
// links or the rest. It is read in pages by key, so a crawl of a million URLs is never in memory, and it is the crawl
// as it was when each page was read (a running crawl goes on). The file is a real crawl file: any SQLite tool opens it.
import type { Db } from '../frontier/sqlite/crawl-file.ts';
import { createCrawlFile } from '../frontier/sqlite/crawl-file.ts';
import { connect, type PgClient } from '../frontier/postgres/pg-client.ts';
import { readCrawl } from '../frontier/postgres/pg-control.ts';
import { crawlSchema } from '../frontier/postgres/pg-schema.ts';
import { parseSettings } from '../../../shared/settings.ts';
import { urlKey } from '../../../shared/url/url-key.ts';

/** Rows read from the store and written to the file at a time. */
const PAGE_ROWS = 20_000;

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
      // Each table up to what the one before it holds, so a crawl that goes on meanwhile copies no row whose host or
      // URL is not in the file.
      const hosts = await copyTable(client, db, schema, 'hosts', 'id', null);
      const lastHost = db.prepare('SELECT coalesce(max(id), 0) AS n FROM hosts').pluck().get() as number;
      const urls = await copyTable(client, db, schema, 'urls', 'id', `host_id <= ${lastHost}`, (row) => {
        row.url_key = urlKey(row.url as string);
      });
      const lastUrl = db.prepare('SELECT coalesce(max(id), 0) AS n FROM urls').pluck().get() as number;
      const results = await copyTable(client, db, schema, 'results', 'seq', `url_id <= ${lastUrl}`);
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
 * Copies `table` (keyed by `key`) from the store's crawl schema into the file: the columns both have (the file's
 * url_key, which the store does not keep, is made by `complete`), the rows that meet `where`, in pages of PAGE_ROWS
 * by key.
 */
async function copyTable(
  client: PgClient,
  db: Db,
  schema: string,
  table: string,
  key: string,
  where: string | null,
  complete?: (row: Record<string, unknown>) => void,
): Promise<number> {
  const fileColumns = (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name);
  const { rows: storeColumns } = await client.query<{ name: string }>(
    'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
    [schema, table],
  );
  const inStore = new Set(storeColumns.map((c) => c.name));
  const read = fileColumns.filter((c) => inStore.has(c));
  const written = complete ? fileColumns.filter((c) => inStore.has(c) || c === 'url_key') : read;
  const insert = db.prepare(`INSERT INTO ${table} (${written.join(', ')}) VALUES (${written.map((c) => `@${c}`).join(', ')})`);
  const writePage = db.transaction((rows: Record<string, unknown>[]) => {
    for (const row of rows) {
      complete?.(row);
      insert.run(row);
    }
  });
  const select = `SELECT ${read.map((c) => `"${c}"`).join(', ')} FROM ${schema}.${table} WHERE ${key} > $1${where ? ` AND ${where}` : ''} ORDER BY ${key} LIMIT ${PAGE_ROWS}`;
  let after = 0;
  let copied = 0;
  while (true) {
    const { rows } = await client.query<Record<string, unknown>>(select, [after]);
    if (rows.length === 0) return copied;
    writePage(rows);
    copied += rows.length;
    after = rows[rows.length - 1]![key] as number;
    if (rows.length < PAGE_ROWS) return copied;
  }
}
