// Crawl files as an older Trawl wrote them, for the upgrade tests: today's schema with what a later version added
// taken away again. One downgrade for every test that opens, resumes or reads an old file.
import type { Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';

/** Turns a file made by createCrawlFile into schema version 6: version 7's content table (duplicate content) goes. */
export function downgradeToVersion6(db: Db): void {
  db.exec(`DROP TABLE content; UPDATE meta SET value = '6' WHERE key = 'schema_version'`);
}

/** Turns a file made by createCrawlFile into schema version 5: version 6's tables (images, structured data, security, hreflang) go (and version 7's). */
export function downgradeToVersion5(db: Db): void {
  downgradeToVersion6(db);
  db.exec(`DROP TABLE image_uses; DROP TABLE images; DROP TABLE structured_data; DROP TABLE social_tags;
    DROP TABLE IF EXISTS security; DROP TABLE IF EXISTS hreflang; UPDATE meta SET value = '5' WHERE key = 'schema_version'`);
}

/** Turns a file made by createCrawlFile into schema version 4: version 5's sitemap tables go (and version 6's). */
export function downgradeToVersion4(db: Db): void {
  downgradeToVersion5(db);
  db.exec(`DROP TABLE sitemap_urls; DROP TABLE sitemaps; UPDATE meta SET value = '4' WHERE key = 'schema_version'`);
}

/** Turns a file made by createCrawlFile into schema version 3: version 4's renders table and rendered links go (and version 5's sitemaps). */
export function downgradeToVersion3(db: Db): void {
  downgradeToVersion4(db);
  db.exec(`DROP TABLE renders; ALTER TABLE links DROP COLUMN rendered; UPDATE meta SET value = '3' WHERE key = 'schema_version'`);
}

/** Turns a file made by createCrawlFile into schema version 2: version 3's label tables go (and version 4's renders). */
export function downgradeToVersion2(db: Db): void {
  downgradeToVersion3(db);
  db.exec(`DROP TABLE crawl_label; DROP TABLE crawl_tags; UPDATE meta SET value = '2' WHERE key = 'schema_version'`);
}

/** Turns a file made by createCrawlFile into schema version 1: version 2's indexes, tables, view and columns go. */
export function downgradeToVersion1(db: Db): void {
  downgradeToVersion2(db);
  // Version 2's own indexes first: some cover the columns dropped below.
  const v2Indexes = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND name NOT IN ('hosts_ready', 'urls_key', 'urls_queue', 'urls_claimed', 'links_to')",
    )
    .all() as { name: string }[];
  for (const { name } of v2Indexes) db.exec(`DROP INDEX ${name}`);
  db.exec(`DROP VIEW crawl_results; DROP TABLE unfetchable_links; DROP TABLE extracted;
    ALTER TABLE urls DROP COLUMN kind; ALTER TABLE urls DROP COLUMN check_only; ALTER TABLE urls DROP COLUMN priority;
    ALTER TABLE links DROP COLUMN kind; ALTER TABLE links DROP COLUMN nofollow;`);
  const v2Results = [
    'h1_count',
    'h2',
    'h2_count',
    'lang',
    'hreflang',
    'meta_refresh',
    'indexability',
    'indexability_reason',
    'response_headers',
  ];
  for (const c of v2Results) db.exec(`ALTER TABLE results DROP COLUMN ${c}`);
  for (const c of ['crawled', 'failed', 'http_errors', 'bytes']) db.exec(`ALTER TABLE hosts DROP COLUMN ${c}`);
  db.exec(`UPDATE meta SET value = '1' WHERE key = 'schema_version'`);
}
