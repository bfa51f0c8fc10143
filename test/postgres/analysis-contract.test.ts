// The analysis views answer the same on both stores over the same crawl (issue 19): two fixture sites crawled by the
// CLI twice, into a crawl file and into the PostgreSQL store, then each view asked the same questions through a
// session that opened the file and one attached to the store. So far: the hosts report (its rows, totals and
// windows, every sort, the text filter, idle hosts) and the queue inspector (hosts, prefixes, URLs, search).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostReportRow, HostSortColumn, HostsReport, HostsReportQuery, QueueScreen, QueueSearchPage } from '../../shared/analysis.ts';
import { HOST_SORT_COLUMNS } from '../../shared/analysis.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { runCli } from '../helpers/cli.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { freshDatabase, pgSuite } from '../helpers/postgres.ts';
import type { FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();

/** What both stores must agree on: everything but the times of the crawl itself (when each host was last fetched). */
function comparable(r: HostReportRow) {
  return {
    origin: r.origin,
    crawled: r.crawled,
    failed: r.failed,
    http_errors: r.http_errors,
    errors: r.errors,
    bytes: r.bytes,
    queued: r.queued,
    in_flight: r.in_flight,
    politeness: { state: r.politeness.state, crawl_delay_ms: r.politeness.crawl_delay_ms },
    robots: r.robots,
  };
}
const view = (report: HostsReport) => ({
  total: report.total,
  offset: report.offset,
  totals: report.totals,
  rows: report.rows.map(comparable),
});

withPg.describe('analysis views on a crawl file and on the PostgreSQL store', () => {
  let db: FreshDatabase;
  let shop: FixtureSite;
  let blog: FixtureSite;
  let dir: string;
  let fileSession: CrawlSession;
  let storeSession: CrawlSession;

  beforeAll(async () => {
    db = await freshDatabase('analysis_contract');
    dir = tempDir('trawl-analysis-contract-');
    // Two hosts of different sizes, one with robots.txt rules and a page that fails, so sorts and totals differ.
    shop = await startFixtureSite({ pages: 40, linksPerPage: 3 });
    blog = await startFixtureSite({
      pages: 12,
      linksPerPage: 2,
      robotsTxt: 'User-agent: *\nDisallow: /p/11\n',
      routes: { '/p/7': (_req, res) => void res.writeHead(500).end('broken') },
    });
    const file = path.join(dir, 'two.trawl');
    const args = [shop.url('/p/0'), blog.url('/p/0'), '--threads', '4', '--quiet', '--no-sitemaps'];
    const toFile = await runCli([...args, '--db', file]);
    expect(toFile.code, toFile.stderr).toBe(0);
    const toStore = await runCli(['--store', db.url, ...args]);
    expect(toStore.code, toStore.stderr).toBe(0);
    const crawlId = /Crawl (c[a-z0-9_]+) in /.exec(toStore.stderr)![1]!;
    fileSession = new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 2 });
    await fileSession.openCrawl(file);
    storeSession = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 2 });
    await storeSession.attachStore(db.url, crawlId);
  }, 120_000);

  afterAll(async () => {
    await fileSession?.close();
    await storeSession?.close();
    await shop?.close();
    await blog?.close();
    await db?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives the same hosts report: every sort both ways, the text filter, idle hosts and windows', async () => {
    const both = async (q: HostsReportQuery) => {
      const [file, store] = await Promise.all([fileSession.hostsReport(q), storeSession.hostsReport(q)]);
      return { file: view(file), store: view(store) };
    };
    const base: HostsReportQuery = { sort: 'crawled', descending: true, offset: 0, limit: 10, text: '', includeIdle: false };
    const first = await both(base);
    // The crawl as it happened: the shop's 40 pages; the blog's 11 fetched (one a 500) and one blocked by robots.txt.
    expect(first.file.rows.map((r) => [r.origin, r.crawled])).toEqual([
      [shop.origin, 40],
      [blog.origin, 11],
    ]);
    expect(first.file.rows[1]).toMatchObject({ http_errors: 1, failed: 1 });
    expect(first.store).toEqual(first.file);
    // next_fetch_at sorts by when each host was last free, which differs between two crawls: left out.
    for (const sort of HOST_SORT_COLUMNS.filter((c): c is Exclude<HostSortColumn, 'next_fetch_at'> => c !== 'next_fetch_at')) {
      for (const descending of [true, false]) {
        const got = await both({ ...base, sort, descending });
        expect(got.store, `${sort} ${descending ? 'desc' : 'asc'}`).toEqual(got.file);
      }
    }
    const byText = await both({ ...base, text: new URL(blog.origin).port });
    expect(byText.file.rows.map((r) => r.origin)).toEqual([blog.origin]);
    expect(byText.store).toEqual(byText.file);
    const window = await both({ ...base, sort: 'origin', descending: false, offset: 1, limit: 1 });
    expect(window.file.rows).toHaveLength(1);
    expect(window.store).toEqual(window.file);
    const idle = await both({ ...base, includeIdle: true });
    expect(idle.store).toEqual(idle.file);
  });

  describe('the queue', () => {
    let fileQueue: CrawlSession;
    let storeQueue: CrawlSession;
    beforeAll(async () => {
      // Both seeds fetched and nothing else (one thread, two pages): what they link to stays queued, the same in both.
      const file = path.join(dir, 'queue.trawl');
      const args = [shop.url('/p/0'), blog.url('/p/0'), '--threads', '1', '--max-pages', '2', '--quiet', '--no-sitemaps'];
      const toFile = await runCli([...args, '--db', file]);
      expect(toFile.code, toFile.stderr).toBe(0);
      const toStore = await runCli(['--store', db.url, ...args]);
      expect(toStore.code, toStore.stderr).toBe(0);
      fileQueue = new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 2 });
      await fileQueue.openCrawl(file);
      storeQueue = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 2 });
      await storeQueue.attachStore(db.url, /Crawl (c[a-z0-9_]+) in /.exec(toStore.stderr)![1]!);
    }, 120_000);
    afterAll(async () => {
      await fileQueue?.close();
      await storeQueue?.close();
    });

    /**
     * A screen without what each store numbers its own way: row ids and discovery times, and so the order of URLs
     * found together (the store inserts a page's links sorted by URL, so that nodes lock them in one order; a crawl
     * file in document order) and of hosts with as many queued: those are compared as sets.
     */
    const byUrl = (a: { url: string }, b: { url: string }) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);
    const screenView = (s: QueueScreen) => ({
      hosts: {
        ...s.hosts,
        rows: s.hosts.rows
          .map(({ origin, queued, in_flight }) => ({ origin, queued, in_flight }))
          .sort((a, b) => b.queued - a.queued || (a.origin < b.origin ? -1 : 1)),
      },
      prefixes: s.prefixes && { ...s.prefixes, host_id: undefined },
      urls: s.urls.rows
        .map(({ url, depth, kind, check_only, attempts, later }) => ({ url, depth, kind, check_only, attempts, later }))
        .sort(byUrl),
      more: s.urls.next !== null,
      matching: s.matching,
    });

    it('shows the same queue: by host, by prefix, its URLs and a search', async () => {
      const screen = { hostId: null, under: null, text: '', limit: 50 };
      const [f, st] = await Promise.all([fileQueue.queueScreen(screen), storeQueue.queueScreen(screen)]);
      expect(f.matching).toBeGreaterThan(2);
      expect(f.hosts.rows.map((r) => r.origin).sort()).toEqual([shop.origin, blog.origin].sort());
      expect(screenView(st)).toEqual(screenView(f));
      // One host chosen (each store's own id for it), then one of its prefixes, then a text search within it.
      const idOf = (s: QueueScreen, origin: string) => s.hosts.rows.find((r) => r.origin === origin)!.host_id;
      for (const q of [
        { under: null, text: '' },
        { under: '/p/', text: '' },
        { under: '/p/', text: '/P/1' },
        { under: '/nothing/', text: '' },
      ]) {
        const [a, b] = await Promise.all([
          fileQueue.queueScreen({ ...screen, ...q, hostId: idOf(f, shop.origin) }),
          storeQueue.queueScreen({ ...screen, ...q, hostId: idOf(st, shop.origin) }),
        ]);
        expect(screenView(b), JSON.stringify(q)).toEqual(screenView(a));
      }
      // The search pages by key: page after page, every queued URL once, the same in both.
      const search = async (s: CrawlSession) => {
        const urls: string[] = [];
        let after: QueueSearchPage['next'] = null;
        do {
          const page: QueueSearchPage = await s.queueSearch({ text: '', hostId: null, under: null, after, limit: 2 });
          urls.push(...page.rows.map((r) => r.url));
          after = page.next;
        } while (after !== null);
        return urls;
      };
      const [fromFile, fromStore] = [await search(fileQueue), await search(storeQueue)];
      expect(fromFile).toHaveLength(f.matching);
      expect(new Set(fromFile).size).toBe(fromFile.length);
      expect([...fromStore].sort()).toEqual([...fromFile].sort());
    });
  });
});
