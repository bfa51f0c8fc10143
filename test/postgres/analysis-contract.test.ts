// The analysis views answer the same on both stores over the same crawl (issue 19): two fixture sites crawled by the
// CLI twice, into a crawl file and into the PostgreSQL store, then each view asked the same questions through a
// session that opened the file and one attached to the store. So far: the hosts report (its rows, totals and
// windows, every sort, the text filter, idle hosts), the queue inspector (hosts, prefixes, URLs, search), the
// explorer (every filter's count and rows, search, sort and paging), its "Export this view" (every filter's file, byte
// for byte), the issues overview with its export, and the bulk reports.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ChartData,
  ChartKind,
  ChartQuery,
  DepthDistribution,
  ExplorerPage,
  ExplorerQuery,
  ExplorerRow,
  HostReportRow,
  HostSortColumn,
  HostsReport,
  HostsReportQuery,
  OverTime,
  QueueScreen,
  QueueSearchPage,
  ViewExport,
  ResponseTimeHistogram,
  SiteStructure,
  StatusDistribution,
} from '../../shared/analysis.ts';
import {
  CONTENT_EXPORT_COLUMNS,
  CONTENT_FILTERS,
  EXPORT_COLUMNS,
  FILTER_IDS,
  HOST_SORT_COLUMNS,
  isContentFilter,
} from '../../shared/analysis.ts';
import { isImageFilter } from '../../electron/engine/analysis/result-filters.ts';
import { BULK_REPORT_IDS } from '../../shared/bulk-reports.ts';
import { IMAGE_USE_COLUMNS } from '../../electron/engine/analysis/images.ts';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import Database from 'better-sqlite3';
import { chartCsv } from '../../electron/engine/analysis/charts-data.ts';
import { postgresSiteStructure } from '../../electron/engine/analysis/site-structure.ts';
import type { RouteHandler } from '../helpers/fixture-site.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { postgresFilterCounts, postgresQueryFiltered } from '../../electron/engine/analysis/pg-explorer.ts';
import { crawlIntoBoth } from '../helpers/both-stores.ts';
import { tempDir } from '../helpers/engine.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { freshDatabase, pgSuite } from '../helpers/postgres.ts';
import pg from 'pg';
import {
  CRAWL_UPGRADE_DDL,
  CANONICAL_SELF_INDEX,
  CANONICAL_SELF_INDEX_DDL,
  crawlSchema,
  TEXT_COUNTS_TABLE,
  TEXT_HASH_COLUMN,
} from '../../electron/engine/frontier/postgres/pg-schema.ts';
import { descriptionPixelWidth, titlePixelWidth } from '../../shared/serp-width.ts';

/** The explorer's filters of pages whose title or description another page has too. */
const DUPLICATE_FILTERS = ['title-duplicate', 'description-duplicate'] as const;
const CANONICAL_FILTERS = ['canonical-self', 'canonical-elsewhere', 'canonical-missing', 'canonical-non-indexable'] as const;
/** The explorer's filters that read a title's or description's width in a search result. */
const PIXEL_FILTERS = ['title-over-561px', 'title-under-200px', 'description-over-985px', 'description-under-400px'] as const;
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
    const args = [shop.url('/p/0'), blog.url('/p/0'), '--threads', '4', '--quiet', '--no-sitemaps'];
    ({ fileSession, storeSession } = await crawlIntoBoth(db.url, dir, path.join(dir, 'two.trawl'), args));
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
      // A host waits after each fetch (--delay), so the second page is the other host's seed whatever answers first:
      // without it, a seed whose robots.txt came late let the thread take its host's next page instead (a flaky queue).
      const file = path.join(dir, 'queue.trawl');
      const args = [
        shop.url('/p/0'),
        blog.url('/p/0'),
        '--threads',
        '1',
        '--max-pages',
        '2',
        '--delay',
        '5000',
        '--quiet',
        '--no-sitemaps',
      ];
      ({ fileSession: fileQueue, storeSession: storeQueue } = await crawlIntoBoth(db.url, dir, file, args));
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
  describe('the explorer', () => {
    let site: FixtureSite;
    let fileX: CrawlSession;
    let storeX: CrawlSession;
    let crawlId: string;
    const html =
      (head: string, body: string, headers: Record<string, string> = {}): RouteHandler =>
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers })
          .end(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
    beforeAll(async () => {
      // A small site with something for most filters: titles long, short and twice the same, descriptions missing,
      // h1s missing and doubled, directives in meta and in headers, canonicals, a redirect chain, broken links,
      // images with and without alt, hreflang with and without return links, JSON-LD and social tags; two pages of the
      // same main text and a third that differs from them in a word (duplicate content).
      const long = 'A title far too long for a search result, which cuts it off somewhere around here and more';
      // 400 words with few repeated five-word runs (the shingles the signatures are made of), so one changed word
      // leaves them about 99% alike.
      const article = Array.from({ length: 400 }, (_, i) => `w${(Math.imul(i + 1, 2654435761) >>> 0) % 997}`).join(' ');
      const copy = (title: string, text: string) => html(`<title>${title}</title>`, `<h1>${title}</h1><p>${text}</p>`);
      site = await startFixtureSite({
        pages: 4,
        linksPerPage: 2,
        routes: {
          '/': html(
            '<title>Home of the explorer contract site, welcome</title><meta name="description" content="The home page">',
            '<h1>Home</h1><a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a> <a href="/d">d</a> <a href="/r1">r</a> <a href="/gone">gone</a> <a href="/img">img</a> <a href="/p/0">p</a> <a href="/copy1">c1</a> <a href="/copy2">c2</a> <a href="/near">n</a> <a href="/e1">e1</a> <a href="/e2">e2</a> <a href="/accents">accents</a>',
          ),
          // A title past ASCII: a search ignores the case of ASCII letters only, on both stores.
          '/accents': html('<title>ÉCOLE d’été</title>', '<h1>Accents</h1>'),
          // Two pages whose title and description are there but empty: missing, never duplicates of each other.
          '/e1': html('<title></title><meta name="description" content="">', '<h1>E1</h1>'),
          '/e2': html('<title></title><meta name="description" content="">', '<h1>E2</h1>'),
          '/copy1': copy('Copied article', article),
          '/copy2': copy('Copied article', article),
          '/near': copy('Copied article', `${article} edited`),
          '/a': html(
            `<title>${long}</title><meta name="robots" content="noindex, follow"><link rel="canonical" href="/b">
             <link rel="alternate" hreflang="en" href="/b"><link rel="alternate" hreflang="de" href="/c">
             <script type="application/ld+json">{"@type": "Thing", </script>`,
            '<h1>One</h1><h1>Two</h1><p>Words here.</p><a href="/b">b</a>',
          ),
          '/b': html(
            `<title>Same title</title><meta name="description" content="${'A description long enough. '.repeat(8)}">
             <link rel="canonical" href="/b"><link rel="alternate" hreflang="de" href="/a"><link rel="alternate" hreflang="x-default" href="/b">
             <meta property="og:title" content="B"><meta property="og:image" content="/i1.png"><meta name="twitter:card" content="summary">
             <script type="application/ld+json">{"@context": "https://schema.org", "@type": "Article"}</script>`,
            '<h1>B</h1><a href="/a">a</a>',
          ),
          '/c': html('<title>Same title</title>', '<p>No heading, no description.</p>', { 'x-robots-tag': 'nofollow' }),
          '/d': html(
            // Canonicalised to a page that answers 410: a canonical that cannot be indexed.
            '<title>Hi</title><meta name="description" content="Short"><link rel="canonical" href="/gone">',
            '<div itemscope itemtype="https://schema.org/Person"><h1 itemprop="name">D</h1></div><a href="/p/9">broken</a>',
          ),
          '/r1': (_req, res) => void res.writeHead(301, { location: '/r2' }).end(),
          '/r2': (_req, res) => void res.writeHead(301, { location: '/b' }).end(),
          '/gone': (_req, res) => void res.writeHead(410, { 'content-type': 'text/html' }).end('<title>Gone</title>'),
          '/img': html(
            '<title>Images of the explorer contract site page</title><meta name="description" content="Images">',
            '<h1>Images</h1><img src="/i1.png"><img src="/i2.png" alt=""><img src="/i1.png" alt="One" width="1" height="1">',
          ),
          '/i1.png': (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(200)),
          '/i2.png': (_req, res) => void res.writeHead(404).end(),
        },
      });
      // One thread: both crawls discover every URL in the same order, so depths and inlinks are the same.
      const args = [site.url('/'), '--threads', '1', '--quiet', '--no-sitemaps', '--check', 'images'];
      ({ fileSession: fileX, storeSession: storeX, crawlId } = await crawlIntoBoth(db.url, dir, path.join(dir, 'explorer.trawl'), args));
    }, 120_000);
    afterAll(async () => {
      await fileX?.close();
      await storeX?.close();
      await site?.close();
    });

    /**
     * A row as both stores must give it: without what each numbers its own way (seq, url ids, an image's page id),
     * and the times of the crawl.
     */
    const comparableRow = (r: ExplorerRow) => {
      const {
        seq: _s,
        url_id: _u,
        response_time_ms: _t,
        image,
        ...rest
      } = r as ExplorerRow & {
        seq: unknown;
      };
      return { ...rest, ...(image ? { image: { ...image, page_id: undefined } } : {}) };
    };
    const rowSet = (page: ExplorerPage) => page.rows.map((r) => JSON.stringify(comparableRow(r))).sort();
    const base: ExplorerQuery = { filter: 'all', text: '', sort: 'url', descending: false, offset: 0, limit: 500 };
    const both = (q: ExplorerQuery) => Promise.all([fileX.queryFiltered(q), storeX.queryFiltered(q)]);

    it('counts every filter the same, and lists the same rows under each', async () => {
      const [counts, storeCounts] = await Promise.all([fileX.filterCounts(), storeX.filterCounts()]);
      // The site has rows for these (so the comparison below compares something).
      for (const id of [
        'html',
        'status-3xx',
        'status-4xx',
        'broken-internal',
        'redirect-chain',
        'title-duplicate',
        'title-over-60',
        'title-over-561px',
        'title-under-30',
        'title-under-200px',
        'description-missing',
        'description-over-155',
        'description-under-70',
        'h1-missing',
        'h1-multiple',
        'canonical-self',
        'canonical-elsewhere',
        'canonical-missing',
        'canonical-non-indexable',
        'directive-noindex',
        'directive-nofollow',
        'indexable',
        'non-indexable',
        'external',
        'hreflang-pages',
        'hreflang-missing-return',
        'hreflang-no-x-default',
        'images-all',
        'images-alt-missing',
        'images-alt-empty',
        'images-no-dimensions',
        'images-broken',
        'structured-jsonld',
        'structured-jsonld-errors',
        'structured-microdata',
        'structured-none',
        'structured-og-missing',
        'structured-twitter-missing',
      ] as const)
        expect(counts[id], id).toBeGreaterThan(0);
      // Duplicate content (issue 18.1): the store's computed here from its signatures, as the file's (pg-content.ts).
      for (const id of CONTENT_FILTERS) expect(counts[id], id).toBeGreaterThan(0);
      expect(storeCounts).toEqual(counts);
      // Link Score (computed for the store's crawl as for the file's, pg-link-score.ts): the rows carry it.
      const scored = (await storeX.queryFiltered({ ...base, filter: 'html' })).rows.map((r) => r.link_score);
      expect(scored.filter((x) => typeof x === 'number' && x > 0).length, 'Link Scores on the store').toBeGreaterThan(3);
      for (const filter of FILTER_IDS) {
        const [f, s] = await both({ ...base, filter });
        expect(f.total, filter).toBe(counts[filter]);
        expect(s.total, filter).toBe(f.total);
        expect(rowSet(s), filter).toEqual(rowSet(f));
      }
    });

    /**
     * Both sessions' "Export this view" of `view`, to files: what each said, and the bytes. The columns leave out what
     * each store has its own way (response times).
     */
    const exportBoth = async (view: Partial<ViewExport> & { filter: ViewExport['filter'] }, name: string) => {
      const full: ViewExport = { text: '', columns: [...SAME_COLUMNS], headerPreset: 'trawl', format: 'csv', ...view };
      const ext = full.format ?? 'csv';
      const [fileOut, storeOut] = [path.join(dir, `${name}-file.${ext}`), path.join(dir, `${name}-store.${ext}`)];
      const [f, s] = await Promise.all([fileX.exportView(full, fileOut), storeX.exportView(full, storeOut)]);
      expect(f, `${name}: file`).toMatchObject({ ok: true, file: fileOut });
      expect(s, `${name}: store`).toMatchObject({ ok: true, file: storeOut });
      return { view: full, f, s, fileBytes: fs.readFileSync(fileOut), storeBytes: fs.readFileSync(storeOut), fileOut, storeOut };
    };
    const SAME_COLUMNS = EXPORT_COLUMNS.filter((c) => c !== 'response_time_ms');
    /** A CSV's lines (its records here: no cell of this site holds a line break). */
    const lines = (bytes: Buffer) => bytes.toString('utf8').split('\r\n');

    /**
     * What a view's rows are, in its order, as the explorer lists them sorted by fetch (results.seq; urls.id for the
     * external view; an image use's id): the export's order. Its URL, and for an image use the page using it.
     */
    const explorerOrder = async (session: CrawlSession, view: ViewExport) => {
      const page = await session.queryFiltered({ ...base, filter: view.filter, text: view.text, sort: 'seq', limit: 5000 });
      return page.rows.map((r) => (r.image ? `${r.url} ${r.image.page_url}` : r.url));
    };

    /**
     * Both exports hold the same records, byte for byte, each in its store's fetch order. Two crawls of one site do not
     * fetch in one order (the store queues a page's links sorted by URL, a crawl file in document order; redirects are
     * followed as they come), so the records compare as sets and the order against each store's own explorer.
     */
    const expectSameExport = async (got: Awaited<ReturnType<typeof exportBoth>>) => {
      const label = JSON.stringify({ filter: got.view.filter, text: got.view.text });
      const [file, store] = [lines(got.fileBytes), lines(got.storeBytes)];
      expect(store[0], label).toBe(file[0]);
      expect(store.slice(1).sort(), label).toEqual(file.slice(1).sort());
      expect(store.at(-1), label).toBe('');
      const order = (rows: string[]) =>
        (parse(rows.join('\r\n'), { bom: true, relax_column_count: true }) as string[][])
          .slice(1)
          .map((r) => (isImageFilter(got.view.filter) ? `${r[0]} ${r[1]}` : r[0]));
      expect(order(file), label).toEqual(await explorerOrder(fileX, got.view));
      expect(order(store), label).toEqual(await explorerOrder(storeX, got.view));
    };

    it('exports every view the same: each filter\u2019s CSV, searched, in both header presets', async () => {
      const counts = await fileX.filterCounts();
      for (const filter of FILTER_IDS) {
        const content = isContentFilter(filter);
        const got = await exportBoth(
          { filter, columns: content ? [...SAME_COLUMNS, ...CONTENT_EXPORT_COLUMNS] : [...SAME_COLUMNS] },
          filter,
        );
        if (content) expect(got.f, filter).toMatchObject({ rows: counts[filter] });
        if (isImageFilter(filter)) expect(lines(got.storeBytes)[0], filter).toBe(`\ufeff${IMAGE_USE_COLUMNS.join(',')}`);
        else if (filter !== 'external') expect(got.f, filter).toMatchObject({ rows: counts[filter] });
        expect(got.s, filter).toMatchObject({ rows: (got.f as { rows: number }).rows });
        await expectSameExport(got);
      }
      // A search within a view, and the Screaming Frog preset (its headers, seconds and words).
      for (const view of [
        { filter: 'all', text: 'p/' },
        { filter: 'html', text: 'SAME', headerPreset: 'screaming-frog' },
        { filter: 'all', headerPreset: 'screaming-frog' },
        { filter: 'images-all', text: 'i1' },
        { filter: 'external', text: 'FROM/1' },
      ] as const) {
        const got = await exportBoth(view, `${view.filter}-searched`);
        expect((got.f as { rows: number }).rows, JSON.stringify(view)).toBeGreaterThan(0);
        await expectSameExport(got);
      }
    });

    it('exports a view as XLSX with the same cells', async () => {
      const cells = async (file: string) => {
        const book = new ExcelJS.Workbook();
        await book.xlsx.readFile(file);
        const out: unknown[][] = [];
        book.worksheets[0]!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
        return out;
      };
      for (const filter of ['html', 'images-alt-missing'] as const) {
        const { f, fileOut, storeOut } = await exportBoth({ filter, format: 'xlsx' }, `${filter}-book`);
        const [a, b] = [await cells(fileOut), await cells(storeOut)];
        expect(a).toHaveLength((f as { rows: number }).rows + 1);
        expect(a.length).toBeGreaterThan(1);
        // Typed cells (numbers as numbers); the rows in each store's fetch order, compared as sets (as the CSV's).
        expect(b[0], filter).toEqual(a[0]);
        const rows = (sheet: unknown[][]) =>
          sheet
            .slice(1)
            .map((r) => JSON.stringify(r))
            .sort();
        expect(rows(b), filter).toEqual(rows(a));
        expect(
          b.slice(1).some((r) => r.some((v) => typeof v === 'number')),
          filter,
        ).toBe(true);
      }
    });

    it('refuses a view export naming a column the crawl does not have, on either store', async () => {
      const view: ViewExport = { filter: 'all', text: '', columns: ['url', 'nope'], headerPreset: 'trawl', format: 'csv' };
      const out = path.join(dir, 'never.csv');
      for (const session of [fileX, storeX]) {
        expect(await session.viewExportProblem(view)).toBe('unknown column "nope"');
        expect(await session.exportView(view, out)).toEqual({ ok: false, error: 'unknown column "nope"' });
        expect(fs.existsSync(out)).toBe(false);
      }
    });

    it('gives the same issues overview, and exports it the same', async () => {
      const [f, s] = await Promise.all([fileX.issuesOverview(), storeX.issuesOverview()]);
      // Every issue the same, duplicate content's too.
      expect(f.issues.filter((i) => i.count > 0).length).toBeGreaterThan(5);
      expect(f.issues.filter((i) => isContentFilter(i.filter) && i.count > 0).length).toBeGreaterThan(0);
      expect(s).toEqual(f);
      expect(storeX.overviewExportProblem()).toBeNull();
      for (const format of ['csv', 'xlsx'] as const) {
        const [a, b] = [path.join(dir, `issues-file.${format}`), path.join(dir, `issues-store.${format}`)];
        const [ra, rb] = await Promise.all([fileX.exportOverview(a, format), storeX.exportOverview(b, format)]);
        expect(rb).toMatchObject({ ok: true, file: b });
        if (format === 'xlsx') continue;
        // Its rows are the issues found, each naming its filter last.
        expect(lines(fs.readFileSync(b))).toEqual(lines(fs.readFileSync(a)));
        expect(rb).toEqual({ ...ra, file: b });
      }
    });

    it('writes the same bulk reports: every record, as CSV and XLSX', async () => {
      expect(storeX.bulkReportProblem()).toBeNull();
      const written: Record<string, number> = {};
      for (const report of BULK_REPORT_IDS) {
        const [a, b] = [path.join(dir, `${report}-file.csv`), path.join(dir, `${report}-store.csv`)];
        const [ra, rb] = await Promise.all([fileX.exportBulkReport(report, a), storeX.exportBulkReport(report, b)]);
        expect(ra, report).toMatchObject({ ok: true, file: a });
        expect(rb, report).toEqual({ ...ra, file: b });
        written[report] = (ra as { rows: number }).rows;
        // Each store lists its subjects in its own id order (the URLs' discovery): the records compare as a set.
        const [file, store] = [lines(fs.readFileSync(a)), lines(fs.readFileSync(b))];
        expect(store[0], report).toBe(file[0]);
        expect(store.slice(1).sort(), report).toEqual(file.slice(1).sort());
      }
      // The site has rows for these (so the comparison compares something).
      for (const report of [
        'client-error-inlinks',
        'non-indexable-inlinks',
        'redirect-chains',
        'images-missing-alt',
        'structured-data-types',
        'hreflang-alternates',
      ] as const)
        expect(written[report], report).toBeGreaterThan(0);
      const [a, b] = [path.join(dir, 'chains-file.xlsx'), path.join(dir, 'chains-store.xlsx')];
      await Promise.all([fileX.exportBulkReport('redirect-chains', a, 'xlsx'), storeX.exportBulkReport('redirect-chains', b, 'xlsx')]);
      const cells = async (file: string) => {
        const book = new ExcelJS.Workbook();
        await book.xlsx.readFile(file);
        const out: string[] = [];
        book.worksheets[0]!.eachRow((row) => out.push(JSON.stringify((row.values as unknown[]).slice(1))));
        return [out[0], ...out.slice(1).sort()];
      };
      expect(await cells(b)).toEqual(await cells(a));
    });

    it('reads the widths a node recorded with each page, and measures them in SQL on a crawl made before', async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const schema = crawlSchema(crawlId);
        // Each parsed page's widths are the ones shared/serp-width.ts gives its title and description.
        const { rows } = await client.query<{ title: string | null; d: string | null; tpx: number | null; dpx: number | null }>(
          `SELECT title, meta_description AS d, title_px AS tpx, description_px AS dpx FROM ${schema}.results`,
        );
        expect(rows.filter((r) => r.title !== null).length).toBeGreaterThan(5);
        for (const r of rows) {
          expect(r.tpx).toBe(r.title === null ? null : titlePixelWidth(r.title));
          expect(r.dpx).toBe(r.d === null ? null : descriptionPixelWidth(r.d));
        }
        const pixelCounts = async () => {
          const c = await storeX.filterCounts();
          return PIXEL_FILTERS.map((id) => [id, c[id]]);
        };
        const recorded = await pixelCounts();
        const file = await fileX.filterCounts();
        expect(recorded).toEqual(PIXEL_FILTERS.map((id) => [id, file[id]]));
        // A crawl made before nodes recorded them: the columns absent, then added empty by a node joining it.
        await client.query(`ALTER TABLE ${schema}.results DROP COLUMN title_px, DROP COLUMN description_px`);
        expect(await pixelCounts()).toEqual(recorded);
        await client.query(`SET search_path TO ${schema}; ${CRAWL_UPGRADE_DDL}; RESET search_path`);
        expect(await pixelCounts()).toEqual(recorded);
        const { rows: empty } = await client.query(`SELECT count(*)::int AS n FROM ${schema}.results WHERE title_px IS NOT NULL`);
        expect(empty[0].n).toBe(0);
      } finally {
        await client.end();
      }
    });

    it('finds duplicate titles and descriptions by the hashes the store keeps, and by the texts on a crawl made before', async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const schema = crawlSchema(crawlId);
        // The hashes are PostgreSQL's own, of each row's texts.
        const { rows } = await client.query<{ same: boolean }>(
          `SELECT title_hash IS NOT DISTINCT FROM hashtextextended(title, 0)
             AND description_hash IS NOT DISTINCT FROM hashtextextended(meta_description, 0) AS same FROM ${schema}.results`,
        );
        expect(rows.length).toBeGreaterThan(5);
        expect(rows.every((r) => r.same)).toBe(true);
        const answers = async (x: CrawlSession) => {
          const counts = await x.filterCounts();
          const pages = await Promise.all(DUPLICATE_FILTERS.map((filter) => x.queryFiltered({ ...base, filter })));
          return DUPLICATE_FILTERS.map((id, i) => ({ id, count: counts[id], total: pages[i]!.total, rows: rowSet(pages[i]!) }));
        };
        // The counts PostgreSQL keeps of each hash, against the hashes grouped: the same, row for row.
        const countsWrong = async () => {
          let wrong = 0;
          for (const column of ['title', 'meta_description'] as const) {
            const hash = TEXT_HASH_COLUMN[column];
            const { rows: diff } = await client.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM ${schema}.${TEXT_COUNTS_TABLE[column]} c
               FULL JOIN (SELECT ${hash} AS hash, count(*)::int AS n FROM ${schema}.results
                          WHERE h1_count IS NOT NULL AND ${hash} IS NOT NULL GROUP BY 1) g ON g.hash = c.hash
               WHERE c.n IS DISTINCT FROM g.n`,
            );
            wrong += diff[0]!.n;
          }
          return wrong;
        };
        const { rows: duplicated } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${schema}.${TEXT_COUNTS_TABLE.title} WHERE n > 1`,
        );
        expect(duplicated[0]!.n).toBeGreaterThan(0);
        expect(await countsWrong()).toBe(0);
        const file = await answers(fileX);
        expect(file[0]!.total).toBeGreaterThan(0);
        expect(await answers(storeX)).toEqual(file);
        // The store's answers read afresh (the session keeps its last counts while the crawl is unchanged), by URL (a
        // session's rows also carry its Link Scores).
        const urlsOf = (rows: readonly { url: string }[]) => rows.map((r) => r.url).sort();
        const storeAnswers = async () => {
          const counts = await postgresFilterCounts(client, crawlId, DUPLICATE_FILTERS);
          const pages = await Promise.all(DUPLICATE_FILTERS.map((filter) => postgresQueryFiltered(client, crawlId, { ...base, filter })));
          return DUPLICATE_FILTERS.map((id, i) => ({ id, count: counts[id], total: pages[i]!.total, urls: urlsOf(pages[i]!.rows) }));
        };
        const fileUrls = await Promise.all(
          DUPLICATE_FILTERS.map(async (filter, i) => ({
            id: filter,
            count: file[i]!.count,
            total: file[i]!.total,
            urls: urlsOf((await fileX.queryFiltered({ ...base, filter })).rows),
          })),
        );
        expect(fileUrls[0]!.urls.length).toBeGreaterThan(1);
        expect(await storeAnswers()).toEqual(fileUrls);
        // A crawl made with the hashes before their counts: its filters group the hashes until a node joins it and
        // adds the counts (CRAWL_UPGRADE_DDL), of the rows there, then of each insert.
        const countsDdl = `results_text_counts ON ${schema}.results`;
        await client.query(
          `DROP TRIGGER ${countsDdl}; DROP FUNCTION ${schema}.count_text_hashes();
           DROP TABLE ${schema}.${TEXT_COUNTS_TABLE.title}, ${schema}.${TEXT_COUNTS_TABLE.meta_description}`,
        );
        expect(await storeAnswers()).toEqual(fileUrls);
        await client.query(`SET search_path TO ${schema}; ${CRAWL_UPGRADE_DDL}; RESET search_path`);
        expect(await countsWrong()).toBe(0);
        expect(await storeAnswers()).toEqual(fileUrls);
        // A row the insert leaves out (a page recorded already: ON CONFLICT DO NOTHING) is not counted, one it adds is,
        // and a session whose search_path is elsewhere counts into the crawl's own tables.
        const first = `(SELECT min(url_id) FROM ${schema}.results WHERE h1_count IS NOT NULL AND title <> '')`;
        await client.query(
          `SET search_path TO public;
           INSERT INTO ${schema}.results (url_id, fetched_at, crawl_depth, title, h1_count)
             SELECT url_id, fetched_at, crawl_depth, title, h1_count FROM ${schema}.results WHERE h1_count IS NOT NULL
             ON CONFLICT (url_id) DO NOTHING;
           INSERT INTO ${schema}.urls (url, host_id, depth, discovered_at, state)
             SELECT url || '#copy', host_id, depth, discovered_at, 2 FROM ${schema}.urls WHERE id = ${first};
           INSERT INTO ${schema}.results (url_id, fetched_at, crawl_depth, title, h1_count)
             SELECT currval(pg_get_serial_sequence('${schema}.urls', 'id')), r.fetched_at, r.crawl_depth, r.title, r.h1_count
             FROM ${schema}.results r WHERE r.url_id = ${first};
           RESET search_path`,
        );
        expect(await countsWrong()).toBe(0);
        const { rows: copied } = await client.query<{ n: number }>(
          `SELECT c.n FROM ${schema}.${TEXT_COUNTS_TABLE.title} c JOIN ${schema}.results r ON r.title_hash = c.hash
           WHERE r.url_id = ${first}`,
        );
        expect(copied[0]!.n).toBeGreaterThanOrEqual(2);
        await client.query(`DROP TRIGGER ${countsDdl}`);
        await client.query(`DELETE FROM ${schema}.results WHERE url_id IN (SELECT id FROM ${schema}.urls WHERE url LIKE '%#copy')`);
        await client.query(`DELETE FROM ${schema}.urls WHERE url LIKE '%#copy'`);
        // A crawl made before the store kept the hashes: its duplicate filters group the texts, with the same answers.
        await client.query(`ALTER TABLE ${schema}.results DROP COLUMN title_hash, DROP COLUMN description_hash`);
        expect(await answers(storeX)).toEqual(file);
      } finally {
        await client.end();
      }
    });

    it("answers the canonical filters from the canonical's kind each node recorded, and by URLs on a crawl made before", async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const schema = crawlSchema(crawlId);
      try {
        // What the node recorded is whether the canonical is the page's own URL.
        const { rows } = await client.query<{ wrong: number; self: number; elsewhere: number }>(
          `SELECT count(*) FILTER (WHERE r.canonical_self IS DISTINCT FROM
                    CASE WHEN r.canonical IS NULL THEN NULL WHEN r.canonical = u.url THEN 1 ELSE 0 END)::int AS wrong,
                  count(*) FILTER (WHERE r.canonical_self = 1)::int AS self, count(*) FILTER (WHERE r.canonical_self = 0)::int AS elsewhere
           FROM ${schema}.results r JOIN ${schema}.urls u ON u.id = r.url_id`,
        );
        expect(rows[0]!.wrong).toBe(0);
        expect(rows[0]!.self).toBeGreaterThan(0);
        expect(rows[0]!.elsewhere).toBeGreaterThan(0);
        const answers = async (x: CrawlSession) => {
          const counts = await x.filterCounts();
          const pages = await Promise.all(CANONICAL_FILTERS.map((filter) => x.queryFiltered({ ...base, filter })));
          return CANONICAL_FILTERS.map((id, i) => ({ id, count: counts[id], total: pages[i]!.total, rows: rowSet(pages[i]!) }));
        };
        const file = await answers(fileX);
        expect(file.map((f) => f.total).every((n) => n > 0)).toBe(true);
        expect(await answers(storeX)).toEqual(file);
        // A crawl made before (its rows have no canonical_self, and no index of it): the URLs are compared.
        await client.query(`DROP INDEX ${schema}.${CANONICAL_SELF_INDEX}; UPDATE ${schema}.results SET canonical_self = NULL`);
        expect(await answers(storeX)).toEqual(file);
      } finally {
        await client.query(`UPDATE ${schema}.results r SET canonical_self = CASE WHEN r.canonical = u.url THEN 1 ELSE 0 END
          FROM ${schema}.urls u WHERE u.id = r.url_id AND r.canonical IS NOT NULL; SET search_path TO ${schema}; ${CANONICAL_SELF_INDEX_DDL} RESET search_path`);
        await client.end();
      }
    });

    it('searches, sorts and pages the same', async () => {
      const urls = (p: ExplorerPage) => p.rows.map((r) => r.url);
      for (const q of [
        { filter: 'all', text: 'p/' },
        { filter: 'html', text: 'SAME' },
        { filter: 'all', sort: 'url', descending: true, offset: 2, limit: 3 },
        { filter: 'status-4xx', sort: 'url', descending: true },
        { filter: 'images-all', sort: 'url', text: 'i1' },
        { filter: 'all', prefix: site.url('/p/') },
      ] as Partial<ExplorerQuery>[]) {
        const [f, s] = await both({ ...base, ...q });
        expect(f.rows.length, JSON.stringify(q)).toBeGreaterThan(0);
        expect(s.total, JSON.stringify(q)).toBe(f.total);
        // Sorted by URL, which is unique among results: the order is defined, and the same.
        if (!q.filter?.startsWith('images')) expect(urls(s), JSON.stringify(q)).toEqual(urls(f));
        expect(rowSet(s), JSON.stringify(q)).toEqual(rowSet(f));
      }
      // The case of ASCII letters is ignored, and only theirs (SQLite's LIKE; in its own collation, PostgreSQL's ILIKE
      // would find "ÉCOLE" for "école" too).
      for (const [text, found] of [
        ['ÉCOLE', 1],
        ['cole D’été', 1],
        ['école', 0],
      ] as const) {
        const [f, s] = await both({ ...base, text });
        expect([f.total, s.total], text).toEqual([found, found]);
      }
      // Other sorts: ties fall back to each store's fetch order, so the rows compare as sets and the sorted column in order.
      for (const sort of ['title', 'status_code', 'word_count', 'inlinks', 'size_bytes', 'crawl_depth'] as const) {
        for (const descending of [false, true]) {
          const [f, s] = await both({ ...base, sort, descending });
          const column = (p: ExplorerPage) => p.rows.map((r) => (sort === 'title' ? r.title?.toLowerCase() : r[sort]) ?? null);
          expect(column(s), `${sort} ${descending}`).toEqual(column(f));
          expect(rowSet(s)).toEqual(rowSet(f));
        }
      }
    });
    it('shows the same URL detail: row, headers, redirect chain, links, images, structured data, hreflang', async () => {
      /** Without ids and times (each store's own), the Date header, and links sorted (each store pages them by its ids). */
      const IDS = new Set([
        'url_id',
        'from_id',
        'to_id',
        'target_id',
        'page_id',
        'discovered_at',
        'next',
        'seq',
        'response_time_ms',
        'date',
      ]);
      const strip = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.map(strip);
        if (v === null || typeof v !== 'object') return v;
        return Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !IDS.has(k))
            .map(([k, x]) => [k, strip(x)]),
        );
      };
      const comparable = (d: Awaited<ReturnType<CrawlSession['urlDetail']>>) => {
        const out = strip(d) as Record<string, { rows: unknown[] }> | null;
        if (out) for (const k of ['inlinks', 'outlinks']) out[k]!.rows = out[k]!.rows.map((r) => JSON.stringify(r)).sort();
        return out;
      };
      for (const p of ['/', '/a', '/b', '/c', '/r1', '/r2', '/img', '/i1.png', '/gone', '/p/9', '/nowhere', '/copy1', '/near']) {
        const [f, s] = await Promise.all([fileX.urlDetail({ url: site.url(p) }), storeX.urlDetail({ url: site.url(p) })]);
        if (p === '/nowhere') expect(f).toBeNull();
        else expect(f, p).not.toBeNull();
        expect(comparable(s), p).toEqual(comparable(f));
      }
      // Duplicate content (issue 18.1): the copy's twin and its near-copy listed, and what differs from the near-copy.
      const [copy, near] = await Promise.all(['/copy1', '/near'].map((p) => storeX.urlDetail({ url: site.url(p) })));
      expect(copy!.content!.exact.items.map((m) => m.url)).toEqual([site.url('/copy2')]);
      expect(copy!.content!.near.items.map((m) => m.url)).toEqual([site.url('/near')]);
      const [fileCopy, fileNear] = await Promise.all(['/copy1', '/near'].map((p) => fileX.urlDetail({ url: site.url(p) })));
      const [fd, sd] = await Promise.all([
        fileX.contentDiff(fileCopy!.url_id, fileNear!.url_id),
        storeX.contentDiff(copy!.url_id, near!.url_id),
      ]);
      expect(sd).not.toBeNull();
      expect(sd).toEqual(fd);
      // Things the pane shows, so the comparison compares them.
      const [a, r2, img, i1] = await Promise.all(['/a', '/r2', '/img', '/i1.png'].map((p) => storeX.urlDetail({ url: site.url(p) })));
      expect(a!.hreflang!.alternates.length).toBe(2);
      expect(a!.structured!.items[0]).toMatchObject({ format: 'json-ld' });
      expect(r2!.redirect_chain.hops.map((h) => h.url)).toEqual([site.url('/r1'), site.url('/r2'), site.url('/b')]);
      expect(img?.images?.total).toBe(3);
      expect(i1?.image_pages?.total).toBe(2);
      // The links pane's next page, by id, from each store's own id.
      const home = (await storeX.urlDetail({ url: site.url('/') }))!;
      const homeFile = (await fileX.urlDetail({ url: site.url('/') }))!;
      const [fo, so] = await Promise.all([fileX.urlOutlinks(homeFile.url_id, null), storeX.urlOutlinks(home.url_id, null)]);
      expect(so.total).toBe(fo.total);
      expect(so.rows.map((r) => r.to_url).sort()).toEqual(fo.rows.map((r) => r.to_url).sort());
      const b = (await storeX.urlDetail({ url: site.url('/b') }))!;
      const bFile = (await fileX.urlDetail({ url: site.url('/b') }))!;
      const [fi, si] = await Promise.all([fileX.urlInlinks(bFile.url_id, null), storeX.urlInlinks(b.url_id, null)]);
      expect(si.rows.map((r) => r.from_url).sort()).toEqual(fi.rows.map((r) => r.from_url).sort());
    });
  });
  // ---- the charts and the site structure (h-charts) ----
  describe('the charts and the site structure', () => {
    let docs: FixtureSite;
    let fileC: CrawlSession;
    let storeC: CrawlSession;
    let crawlIdC: string;
    let file: string;
    let schema: string;
    const page =
      (body: string, status = 200, head = ''): RouteHandler =>
      (_req, res) =>
        void res
          .writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
          .end(`<!doctype html><html><head><title>T</title>${head}</head><body>${body}</body></html>`);
    beforeAll(async () => {
      // Folders three deep, a query holding a "/" (not a folder), statuses of every class, a page that cannot be
      // indexed, and the shop's 40 pages as a second host.
      docs = await startFixtureSite({
        pages: 3,
        linksPerPage: 1,
        routes: {
          '/': page(
            [
              '/docs/',
              '/docs/intro',
              '/docs/api/',
              '/docs/api/a.html',
              '/docs/api/b.html?x=1',
              '/search?q=a/b',
              '/blog/',
              '/blog/2024/one',
              '/blog/2024/two',
              '/gone',
              '/moved',
              '/p/0',
            ]
              .map((h) => `<a href="${h}">x</a>`)
              .join(' '),
          ),
          '/docs/': page('<a href="/docs/intro">intro</a>'),
          '/docs/intro': page('intro'),
          '/docs/api/': page('<a href="/docs/api/v2/c">deeper</a>'),
          '/docs/api/a.html': page('not to be indexed', 200, '<meta name="robots" content="noindex">'),
          '/docs/api/b.html': page('b'),
          '/docs/api/v2/c': page('c'),
          '/search': page('results'),
          '/blog/': page('down', 500),
          '/blog/2024/one': page('one'),
          '/blog/2024/two': page('missing', 404),
          '/gone': page('gone', 410),
          '/moved': (_req, res) => void res.writeHead(301, { location: '/docs/' }).end(),
        },
      });
      // One thread: the same pages found at the same depths in both crawls.
      const args = [docs.url('/'), shop.url('/p/0'), '--threads', '1', '--quiet', '--no-sitemaps'];
      file = path.join(dir, 'charts.trawl');
      const both = await crawlIntoBoth(db.url, dir, file, args);
      ({ fileSession: fileC, storeSession: storeC } = both);
      crawlIdC = both.crawlId;
      schema = crawlSchema(both.crawlId);
    }, 120_000);
    afterAll(async () => {
      await fileC?.close();
      await storeC?.close();
      await docs?.close();
    });

    /** Each store's own results rows, as the charts read them: what the counts are checked against. */
    interface Raw {
      seq: number;
      status_code: number | null;
      crawl_depth: number;
      response_time_ms: number | null;
      fetched_at: number;
    }
    const RAW = 'SELECT seq, status_code, crawl_depth, response_time_ms, fetched_at FROM results ORDER BY seq';
    const rawRows = async (): Promise<{ file: Raw[]; store: Raw[] }> => {
      const sqlite = new Database(file, { readonly: true });
      const fromFile = sqlite.prepare(RAW).all() as Raw[];
      sqlite.close();
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query<Record<keyof Raw, string | null>>(RAW.replace('FROM results', `FROM ${schema}.results`));
        const num = (v: string | null) => (v === null ? null : Number(v));
        return {
          file: fromFile,
          store: rows.map((r) => ({
            seq: Number(r.seq),
            status_code: num(r.status_code),
            crawl_depth: Number(r.crawl_depth),
            response_time_ms: num(r.response_time_ms),
            fetched_at: Number(r.fetched_at),
          })),
        };
      } finally {
        await client.end();
      }
    };
    const ask = (kind: ChartKind, more: Partial<ChartQuery> = {}): ChartQuery => ({
      kind,
      afterSeq: null,
      fromMs: null,
      bucketMs: null,
      ...more,
    });
    const both = async <T extends ChartData>(q: ChartQuery) => (await Promise.all([fileC.chartData(q), storeC.chartData(q)])) as [T, T];
    type Counted = StatusDistribution | DepthDistribution;
    /** An answer without the seq it counted to: each store numbers its rows its own way (a seq a node drew and lost leaves a gap). */
    const counts = ({ last_seq: _, ...rest }: ChartData) => rest;

    it('draws the same status and depth charts, whole and as live updates after a last_seq', async () => {
      const raw = await rawRows();
      expect(raw.store).toHaveLength(raw.file.length);
      for (const kind of ['status', 'depth'] as const) {
        const [f, st] = await both<Counted>(ask(kind));
        expect(counts(st), kind).toEqual(counts(f));
        expect(f.total, kind).toBe(raw.file.length);
        // The seq each counted to is the last row's: every row of a crawl that no node writes any more is settled.
        expect(f.last_seq).toBe(raw.file.at(-1)!.seq);
        expect(st.last_seq).toBeGreaterThanOrEqual(raw.store.at(-1)!.seq);
        // Nothing since: empty, at the same seq.
        const [fNone, stNone] = (await Promise.all([
          fileC.chartData(ask(kind, { afterSeq: f.last_seq })),
          storeC.chartData(ask(kind, { afterSeq: st.last_seq })),
        ])) as [Counted, Counted];
        expect([fNone, stNone].map((a) => [a.total, a.rows.length])).toEqual([
          [0, 0],
          [0, 0],
        ]);
        expect([fNone.last_seq, stNone.last_seq]).toEqual([f.last_seq, st.last_seq]);
        // Everything after seq 0 (the live path: a range of the primary key) is the whole chart again.
        const [fAll, stAll] = await both<Counted>(ask(kind, { afterSeq: 0 }));
        expect(counts(fAll)).toEqual(counts(f));
        expect(counts(stAll)).toEqual(counts(f));
        // The rows after the sixth-last one of each store: the last five, counted from its own rows.
        for (const [store, rows, got] of [
          ['file', raw.file, fileC],
          ['store', raw.store, storeC],
        ] as const) {
          const after = rows.at(-6)!.seq;
          const since = (await got.chartData(ask(kind, { afterSeq: after }))) as Counted;
          const tail = rows.filter((r) => r.seq > after);
          const expected = new Map<number | null, number>();
          for (const r of tail) {
            const key = kind === 'status' ? r.status_code : r.crawl_depth;
            expected.set(key, (expected.get(key) ?? 0) + 1);
          }
          const key = (r: StatusDistribution['rows'][number] | DepthDistribution['rows'][number]) =>
            'depth' in r ? r.depth : r.status_code;
          expect(since.total, `${store} ${kind}`).toBe(5);
          expect(new Map(since.rows.map((r) => [key(r), r.count])), `${store} ${kind}`).toEqual(expected);
        }
      }
      // What the crawl holds, so the comparison compares something: every status class, and depths 0 to 3.
      const [status, depth] = await Promise.all([storeC.chartData(ask('status')), storeC.chartData(ask('depth'))]);
      expect((status as StatusDistribution).rows.map((r) => r.label)).toEqual(expect.arrayContaining(['200', '301', '404', '410', '500']));
      expect((depth as DepthDistribution).rows.map((r) => r.depth)).toEqual(expect.arrayContaining([0, 1, 2, 3]));
    });

    it('draws the same response-time and over-time charts, each counting its own crawl times', async () => {
      const raw = await rawRows();
      // The response times and fetch times are each crawl's own: the buckets are the same, the counts in them are
      // checked against each store's rows, and the totals against each other.
      const [f, st] = await both<ResponseTimeHistogram>(ask('response-time'));
      expect(st.rows.map(({ count: _, ...bucket }) => bucket)).toEqual(f.rows.map(({ count: _, ...bucket }) => bucket));
      expect([st.total, st.without_time]).toEqual([f.total, f.without_time]);
      for (const [answer, rows] of [
        [f, raw.file],
        [st, raw.store],
      ] as const) {
        expect(answer.rows.map((b) => b.count)).toEqual(
          answer.rows.map(
            (b) =>
              rows.filter(
                (r) => r.response_time_ms !== null && r.response_time_ms >= b.from_ms && (b.to_ms === null || r.response_time_ms < b.to_ms),
              ).length,
          ),
        );
        expect(answer.without_time).toBe(rows.filter((r) => r.response_time_ms === null).length);
      }
      const [fTime, stTime] = await both<OverTime>(ask('over-time', { bucketMs: 1000 }));
      for (const [answer, rows] of [
        [fTime, raw.file],
        [stTime, raw.store],
      ] as const) {
        expect(answer.bucket_ms).toBe(1000);
        const first = Math.floor(Math.min(...rows.map((r) => r.fetched_at)) / 1000);
        const last = Math.floor(Math.max(...rows.map((r) => r.fetched_at)) / 1000);
        expect(answer.rows.map((b) => [b.at, b.pages, b.errors])).toEqual(
          Array.from({ length: last - first + 1 }, (_, i) => {
            const inIt = rows.filter((r) => Math.floor(r.fetched_at / 1000) === first + i);
            return [(first + i) * 1000, inIt.length, inIt.filter((r) => r.status_code === null || r.status_code >= 400).length];
          }),
        );
        // Asked from its last bucket: that bucket alone, as the live chart replaces it.
        const lastBucket = answer.rows.at(-1)!;
        const from = await (answer === fTime ? fileC : storeC).chartData(ask('over-time', { bucketMs: 1000, fromMs: lastBucket.at }));
        expect((from as OverTime).rows).toEqual([lastBucket]);
      }
      const sum = (o: OverTime, k: 'pages' | 'errors') => o.rows.reduce((n, r) => n + r[k], 0);
      expect([sum(stTime, 'pages'), sum(stTime, 'errors')]).toEqual([sum(fTime, 'pages'), sum(fTime, 'errors')]);
      expect(sum(fTime, 'errors')).toBeGreaterThan(0);
    });

    it("exports the same charts: the status and depth CSV byte for byte, the others as each store's answer", async () => {
      const out = tempDir('trawl-contract-charts-');
      const bytes = async (s: CrawlSession, name: string, kind: ChartKind, format?: 'xlsx') => {
        const target = path.join(out, `${name}-${kind}.${format ?? 'csv'}`);
        expect(await s.exportChartCsv(kind, target, format)).toMatchObject({ ok: true, file: target });
        return fs.readFileSync(target);
      };
      for (const kind of ['status', 'depth'] as const) {
        const f = await bytes(fileC, 'file', kind);
        expect(f.toString('utf8')).toMatch(/^\uFEFF(status_code|depth),count\r\n/);
        expect((await bytes(storeC, 'store', kind)).equals(f), kind).toBe(true);
      }
      for (const kind of ['response-time', 'over-time'] as const) {
        const exported = (await bytes(storeC, 'store', kind)).toString('utf8');
        expect(exported).toBe(chartCsv(await storeC.chartData(ask(kind))));
      }
      const sheet = async (s: CrawlSession, name: string) => {
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(new Uint8Array(await bytes(s, name, 'status', 'xlsx')).buffer);
        const ws = book.worksheets[0]!;
        return Array.from({ length: ws.rowCount }, (_, i) => (ws.getRow(i + 1).values as unknown[]).slice(1));
      };
      const fileSheet = await sheet(fileC, 'file');
      expect(fileSheet[0]).toEqual(['status_code', 'count']);
      expect(await sheet(storeC, 'store')).toEqual(fileSheet);
      expect(storeC.chartExportProblem()).toBeNull();
    });

    it('shows the same folder tree: the hosts, every folder expanded, the folders past a limit summed, and the same CSV', async () => {
      /** The tree with every folder expanded, level by level, as the view asks for it. */
      const expandAll = async (s: CrawlSession, limit: number) => {
        const paths: string[] = [];
        let tree = await s.siteStructure({ paths, limit });
        for (;;) {
          const more = [tree.hosts, ...tree.levels]
            .flatMap((l) => l.children)
            .filter((c) => c.folders > 0 && !paths.includes(c.path))
            .map((c) => c.path);
          if (more.length === 0) return tree;
          paths.push(...more);
          tree = await s.siteStructure({ paths, limit });
        }
      };
      // lastSeq is the seq each tree counted to: each store's own numbering (as the charts' last_seq).
      const shape = ({ lastSeq: _, ...rest }: SiteStructure) => rest;
      for (const limit of [50, 1]) {
        const [f, st] = await Promise.all([expandAll(fileC, limit), expandAll(storeC, limit)]);
        expect(shape(st), `limit ${limit}`).toEqual(shape(f));
        if (limit === 1) expect(f.hosts.more).toMatchObject({ folders: 1 });
      }
      const tree = await expandAll(storeC, 50);
      expect(tree.hosts.children.map((h) => h.path).sort()).toEqual([`${docs.origin}/`, `${shop.origin}/`].sort());
      const folders = tree.levels.flatMap((l) => l.children.map((c) => c.path));
      expect(folders).toEqual(expect.arrayContaining([`${docs.origin}/docs/api/v2/`, `${docs.origin}/blog/2024/`, `${shop.origin}/p/`]));
      // The query's "/" makes no folder; a folder the crawl does not have is left out on both.
      expect(folders).not.toContain(`${docs.origin}/search?q=a/`);
      const nowhere = { paths: [`${docs.origin}/nowhere/`, `${docs.origin}/docs/`], limit: 50 };
      const [fNone, stNone] = await Promise.all([fileC.siteStructure(nowhere), storeC.siteStructure(nowhere)]);
      expect(stNone.levels.map((l) => l.path)).toEqual([`${docs.origin}/docs/`]);
      expect(shape(stNone)).toEqual(shape(fNone));
      // A first fold read over many statements (a few rows each, the next asked for while one is folded) makes the
      // same tree as one read whole.
      const everything = { paths: folders, limit: 50 };
      for (const rows of [1, 2, 7]) {
        // A connection each: the trie is the connection's, folded once.
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        try {
          const folded = await postgresSiteStructure(client, crawlIdC, everything, rows);
          expect(shape(folded), `pages of ${rows}`).toEqual(shape(await fileC.siteStructure(everything)));
        } finally {
          await client.end();
        }
      }
      // The CSV: every folder, byte for byte.
      const out = tempDir('trawl-contract-structure-');
      const [fCsv, stCsv] = [path.join(out, 'file.csv'), path.join(out, 'store.csv')];
      const [fr, sr] = await Promise.all([fileC.exportStructureCsv(fCsv), storeC.exportStructureCsv(stCsv)]);
      expect(fr).toMatchObject({ ok: true, rows: 9 });
      expect(sr).toEqual({ ...fr, file: stCsv });
      expect(fs.readFileSync(stCsv).equals(fs.readFileSync(fCsv))).toBe(true);
    });
  });
});
