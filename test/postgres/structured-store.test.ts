// Structured data and social tags in the PostgreSQL store (issue 18.4): the structured data site crawled through the
// CLI into a crawl file and into the store; the store keeps the same structured_data and social_tags rows. A crawl
// whose tables predate them gets them when a node joins it.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgCrawl, joinPgCrawl } from '../../electron/engine/frontier/postgres/pg-crawl.ts';
import { parseSettings } from '../../shared/settings.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';
import { startStructuredSite } from '../helpers/structured-site.ts';

const withPg = await pgSuite();

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

const STRUCTURED_SQL = (s: string) =>
  `SELECT u.url, d.n, d.format, d.types, d.error FROM ${s}structured_data d JOIN ${s}urls u ON u.id = d.url_id ORDER BY u.url, d.n`;
const SOCIAL_SQL = (s: string) =>
  `SELECT u.url, t.n, t.property, t.content FROM ${s}social_tags t JOIN ${s}urls u ON u.id = t.url_id ORDER BY u.url, t.n`;

withPg.describe('structured data in the PostgreSQL store', () => {
  let db: FreshDatabase;
  let site: Awaited<ReturnType<typeof startStructuredSite>>;
  let dir: string;
  let file: string;
  let crawlId: string;
  beforeAll(async () => {
    db = await freshDatabase('structured_store');
    dir = tempDir('trawl-structured-store-');
    site = await startStructuredSite();
    file = path.join(dir, 'structured.trawl');
    const args = [site.url('/'), '--threads', '1', '--quiet'];
    const [toFile, toStore] = [await runCli([...args, '--db', file]), await runCli(['--store', db.url, ...args])];
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toStore.code, toStore.stderr).toBe(0);
    crawlId = /Crawl (c[a-z0-9_]+) in /.exec(toStore.stderr)![1]!;
  }, 180_000);
  afterAll(async () => {
    await site?.close();
    await db?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the same structured data and social tags as a crawl file', async () => {
    const sqlite = new Database(file, { readonly: true });
    let fileItems: unknown[];
    let fileTags: unknown[];
    try {
      fileItems = sqlite.prepare(STRUCTURED_SQL('')).all();
      fileTags = sqlite.prepare(SOCIAL_SQL('')).all();
    } finally {
      sqlite.close();
    }
    expect(fileItems).toHaveLength(5);
    expect(fileItems).toContainEqual(
      expect.objectContaining({ url: site.url('/microdata'), format: 'microdata', types: '["Recipe","Person"]' }),
    );
    expect(fileTags).toHaveLength(11);
    const s = `trawl_${crawlId}.`;
    expect(await query(db.url, STRUCTURED_SQL(s))).toEqual(fileItems);
    expect(await query(db.url, SOCIAL_SQL(s))).toEqual(fileTags);
  });

  it('adds the structured data tables to a crawl made before the store kept them when a node joins it', async () => {
    const first = await createPgCrawl(db.url, parseSettings({ seeds: ['http://older.test/'] }), { name: 'old-a' });
    await first.store.close();
    const s = `trawl_${first.crawlId}`;
    await query(db.url, `DROP TABLE ${s}.structured_data; DROP TABLE ${s}.social_tags`);
    await query(db.url, `UPDATE trawl.crawls SET state = 'stopped' WHERE id = $1`, [first.crawlId]);
    const tables = () =>
      query<{ name: string }>(
        db.url,
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_name IN ('structured_data', 'social_tags') ORDER BY 1`,
        [s],
      ).then((rows) => rows.map((r) => r.name));
    expect(await tables()).toEqual([]);
    const node = await joinPgCrawl(db.url, first.crawlId, { name: 'old-b' });
    await node.store.close();
    expect(await tables()).toEqual(['social_tags', 'structured_data']);
  });
});
