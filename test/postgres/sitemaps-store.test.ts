// XML sitemaps in a cluster crawl (issue 19): the site of test/helpers/sitemap-site.ts crawled by the CLI into a crawl
// file and into the PostgreSQL store, with one node and with two. The store reads the same sitemaps (found through
// /sitemap.xml, robots.txt and an index; gzip and text), each once across the cluster, records what they list, and
// its sitemap filters count and list what the crawl file's do.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ExplorerQuery, FilterId } from '../../shared/analysis.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { crawlIntoBoth } from '../helpers/both-stores.ts';
import { withClient } from '../helpers/cluster-crawl.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';
import { FETCHED_ONCE, SITEMAP_FILTER_URLS, SITEMAP_ROWS, startSitemapSite } from '../helpers/sitemap-site.ts';

const withPg = await pgSuite();

const query = <T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> =>
  withClient(url, async (c) => (await c.query<T>(sql)).rows);

withPg.describe('XML sitemaps in a crawl of the PostgreSQL store', () => {
  let db: FreshDatabase;
  let site: FixtureSite;
  let dir: string;
  let fileX: CrawlSession;
  let storeX: CrawlSession;
  let crawlId: string;
  let fileOf: string;
  /** How many times the store's crawl fetched each path. */
  const storeFetches = new Map<string, number>();

  const args = () => [site.url('/'), '--threads', '3', '--quiet', '--max-attempts', '1'];

  beforeAll(async () => {
    db = await freshDatabase('sitemaps_store');
    site = await startSitemapSite();
    dir = tempDir('trawl-sitemaps-store-');
    let before = 0;
    fileOf = path.join(dir, 'sitemaps.trawl');
    ({
      fileSession: fileX,
      storeSession: storeX,
      crawlId,
    } = await crawlIntoBoth(db.url, dir, fileOf, args(), () => (before = site.log.length)));
    for (const e of site.log.slice(before)) storeFetches.set(e.path, (storeFetches.get(e.path) ?? 0) + 1);
  }, 120_000);

  afterAll(async () => {
    await fileX?.close();
    await storeX?.close();
    await site?.close();
    await db?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads the sitemaps a crawl file reads, each once, and crawls what only they list', async () => {
    const rows = await query<{ url: string; source: string; kind: string | null; status: number | null; n: number; error: string | null }>(
      db.url,
      `SELECT url, source, kind, status_code AS status, url_count AS n, error FROM trawl_${crawlId}.sitemaps ORDER BY id`,
    );
    expect(rows.map((s) => ({ ...s, url: s.url.replace(site.origin, '') }))).toEqual(SITEMAP_ROWS);
    // Every other column as the crawl file has it (all but ids and times: whether there is a fetch time).
    const columns = `s.url, s.source, p.url AS parent, s.depth, s.state, s.kind, s.status_code, s.url_count, s.invalid_count,
      s.over_url_limit, s.over_size_limit, s.size_bytes, s.error, s.crashes, s.fetched_at IS NOT NULL AS fetched`;
    const whole = await query<Record<string, unknown>>(
      db.url,
      `SELECT ${columns} FROM trawl_${crawlId}.sitemaps s LEFT JOIN trawl_${crawlId}.sitemaps p ON p.id = s.parent_id ORDER BY s.id`,
    );
    const file = new Database(fileOf, { readonly: true });
    try {
      const fromFile = file
        .prepare(`SELECT ${columns} FROM sitemaps s LEFT JOIN sitemaps p ON p.id = s.parent_id ORDER BY s.id`)
        .all() as Record<string, unknown>[];
      expect(whole.map((r) => ({ ...r, size_bytes: Number(r.size_bytes) }))).toEqual(
        fromFile.map((r) => ({ ...r, fetched: r.fetched === 1 })),
      );
    } finally {
      file.close();
    }
    for (const p of FETCHED_ONCE) expect({ p, n: storeFetches.get(p) ?? 0 }).toEqual({ p, n: 1 });
    const [orphan] = await query<{ lastmod: string; state: number }>(
      db.url,
      `SELECT s.lastmod, u.state FROM trawl_${crawlId}.sitemap_urls s JOIN trawl_${crawlId}.urls u ON u.id = s.url_id
       WHERE u.url LIKE '%/orphan'`,
    );
    expect(orphan).toEqual({ lastmod: '2026-01-08', state: 2 });
    // Nothing left queued or leased: the sitemaps' queue counts on the hosts went back to 0 with the URLs'.
    const [hosts] = await query<{ queued: number; sitemaps: number; in_flight: number }>(
      db.url,
      `SELECT sum(queued)::int AS queued, sum(sitemaps_queued)::int AS sitemaps, sum(in_flight)::int AS in_flight FROM trawl_${crawlId}.hosts`,
    );
    expect(hosts).toEqual({ queued: 0, sitemaps: 0, in_flight: 0 });
  });

  it('counts and lists each sitemap filter as the crawl file does', async () => {
    const [fileCounts, storeCounts] = await Promise.all([fileX.filterCounts(), storeX.filterCounts()]);
    const list = async (x: CrawlSession, filter: FilterId) => {
      const q: ExplorerQuery = { filter, text: '', sort: 'url', descending: false, offset: 0, limit: 100 };
      return (await x.queryFiltered(q)).rows.map((r) => r.url.replace(site.origin, '')).sort();
    };
    for (const [id, urls] of Object.entries(SITEMAP_FILTER_URLS) as [FilterId, readonly string[]][]) {
      expect({ id, file: fileCounts[id], store: storeCounts[id] }).toEqual({ id, file: urls.length, store: urls.length });
      const [file, store] = await Promise.all([list(fileX, id), list(storeX, id)]);
      expect({ id, store }).toEqual({ id, store: [...urls].sort() });
      expect({ id, store }).toEqual({ id, store: file });
    }
  });

  it('reads each sitemap once across two nodes, and none with --no-sitemaps', async () => {
    // Each response 200 ms late, one thread on the first node: its crawl takes seconds, long after the second joins.
    const slow = await startSitemapSite(200);
    const before = slow.log.length;
    const a = startCli(['--store', db.url, slow.url('/'), '--quiet', '--max-attempts', '1', '--threads', '1', '--node-name', 'first']);
    let stderr = '';
    a.child.stderr!.on('data', (d) => (stderr += d));
    // The second node joins as soon as the crawl exists.
    let id = '';
    for (let i = 0; i < 600 && id === ''; i++) {
      id = /Crawl (c[a-z0-9_]+) in /.exec(stderr)?.[1] ?? '';
      if (id === '') await new Promise((r) => setTimeout(r, 25));
    }
    expect(id).not.toBe('');
    const b = await runCli(['--store', db.url, '--join', id, '--node-name', 'second', '--quiet']);
    expect(b.code, b.stderr).toBe(0);
    const first = await a.done;
    expect(first.code, first.stderr).toBe(0);
    await slow.close();
    const fetched = slow.log.slice(before).map((e) => e.path);
    for (const p of FETCHED_ONCE) expect({ p, n: fetched.filter((f) => f === p).length }).toEqual({ p, n: 1 });
    const [two] = await query<{ read: number; listed: number }>(
      db.url,
      `SELECT (SELECT count(*)::int FROM trawl_${id}.sitemaps WHERE state = 2) AS read,
              (SELECT count(*)::int FROM trawl_${id}.sitemap_urls) AS listed`,
    );
    // The index and its three sitemaps read (the guessed /sitemap.xml is a 404); eleven entries listed, /twice twice.
    expect(two).toEqual({ read: 4, listed: 11 });
    // Both nodes fetched.
    const byNode = await query<{ node: string }>(db.url, `SELECT DISTINCT node FROM trawl_${id}.results ORDER BY node`);
    expect(byNode.map((r) => r.node)).toEqual(['first', 'second']);

    const none = site.log.length;
    const off = await runCli(['--store', db.url, ...args(), '--no-sitemaps']);
    expect(off.code, off.stderr).toBe(0);
    expect(site.log.slice(none).filter((e) => /sitemap/.test(e.path))).toEqual([]);
  }, 120_000);
});
