// Compare with a crawl in the PostgreSQL store (issue 19): a site crawled twice, changing in between (a title, a
// status, a page no longer linked, a new one), each time into a crawl file and into the store. The comparison of the
// two store crawls, of a file with a store crawl and of a store crawl with a file gives what the two files' gives:
// the same summary, the same rows, through the API and through `npm run compare` (in process). Nothing of a store
// crawl's copy is left once the comparison is closed; a crawl the store does not have, and --old-crawl without
// --store, are refused naming what is wrong. The web console compares the cluster crawl in view with a crawl file of
// its folder and with another crawl of its store (which it lists), downloads the comparison, and says what to do
// once it is no longer attached.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CrawlComparison } from '../../electron/engine/analysis/compare.ts';
import { openComparison, type CompareSide } from '../../electron/engine/analysis/compare-sides.ts';
import { parseCompareArgs, runCompare } from '../../electron/cli/compare-command.ts';
import type { ComparisonRow } from '../../shared/analysis.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { pageHtml, startFixtureSite, type FixtureSite, type RouteHandler } from '../helpers/fixture-site.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { startWebConsole } from '../../electron/server/web-console.ts';
import { COMMANDS } from '../../shared/commands.ts';
import { clusterCrawlRef, type ComparisonPage, type ComparisonSummary } from '../../shared/comparison.ts';
import type { StoreCrawlList } from '../../shared/cluster-store.ts';
import { WS_PATH } from '../../shared/ws-protocol.ts';
import { spawner } from '../helpers/engine.ts';
import { connect } from '../helpers/ws-client.ts';

const withPg = await pgSuite();

const PAGES = 12;
const LINKS = 2;
const page =
  (html: string): RouteHandler =>
  (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/html' }).end(html);
/** The home page with one more link. */
const homeLinking = (extra: string) => page(pageHtml(0, PAGES, LINKS).replace('</ul>', `<li><a href="${extra}">More</a></li></ul>`));

withPg.describe('compare with a crawl in the PostgreSQL store', () => {
  let db: FreshDatabase;
  let site: FixtureSite;
  let dir: string;
  const routes: Record<string, RouteHandler> = {};
  const files = { old: '', new: '' };
  const crawls = { old: '', new: '' };

  async function crawlBoth(which: 'old' | 'new'): Promise<void> {
    const args = [site.url('/p/0'), '--threads', '1', '--quiet', '--no-sitemaps', '--max-attempts', '1'];
    files[which] = path.join(dir, `${which}.trawl`);
    const toFile = await runCli([...args, '--db', files[which]]);
    expect(toFile.code, toFile.stderr).toBe(0);
    const toStore = await runCli(['--store', db.url, ...args]);
    expect(toStore.code, toStore.stderr).toBe(0);
    crawls[which] = /Crawl (c[a-z0-9_]+) in /.exec(toStore.stderr)![1]!;
  }

  beforeAll(async () => {
    db = await freshDatabase('compare_store');
    dir = tempDir('trawl-compare-store-');
    site = await startFixtureSite({ pages: PAGES, linksPerPage: LINKS, routes });
    // Before: the home page links to /gone too.
    routes['/p/0'] = homeLinking('/gone');
    routes['/gone'] = page('<title>Gone soon</title><p>old page</p>');
    await crawlBoth('old');
    // After: /gone is no longer linked, /new is; page 3 has a new title and page 5 fails.
    routes['/p/0'] = homeLinking('/new');
    routes['/new'] = page('<title>New page</title><p>a new page</p>');
    routes['/p/3'] = page(pageHtml(3, PAGES, LINKS).replace('<title>Page 3</title>', '<title>Page three, retitled</title>'));
    routes['/p/5'] = (_req, res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('<title>Broken</title>');
    await crawlBoth('new');
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    await db?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const side = (which: 'old' | 'new', store: boolean): CompareSide =>
    store ? { store: db.url, crawlId: crawls[which] } : { file: files[which] };
  /** Rows of every kind, in an order that does not depend on either crawl's fetch order. */
  const sorted = (rows: Iterable<ComparisonRow>) => [...rows].map((r) => JSON.stringify(r)).sort();
  const copies = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('trawl-compare-'));

  it("gives the two files' answer for store with store, file with store and store with file", async () => {
    const reference = CrawlComparison.open(files.old, files.new);
    const expected = { summary: reference.summary(), rows: sorted(reference.rows()) };
    reference.close();
    // What the site's changes make: the new page added, the page no longer linked removed, two changed.
    expect(expected.summary).toMatchObject({ added: 1, removed: 1, changed: 2 });
    expect(expected.summary.by_field).toMatchObject({ title: 2, status_code: 1 });
    const before = copies();
    for (const [oldStore, newStore] of [
      [true, true],
      [false, true],
      [true, false],
    ] as const) {
      const c = await openComparison(side('old', oldStore), side('new', newStore));
      try {
        const { old_file, new_file, ...summary } = c.summary();
        const { old_file: _o, new_file: _n, ...want } = expected.summary;
        expect(summary, `${oldStore} ${newStore}`).toEqual(want);
        expect(old_file).toBe(oldStore ? `cluster crawl ${crawls.old} (127.0.0.1:5432/${db.name})` : files.old);
        expect(new_file).toBe(newStore ? `cluster crawl ${crawls.new} (127.0.0.1:5432/${db.name})` : files.new);
        expect(sorted(c.rows())).toEqual(expected.rows);
        // Each kind's pages as the app asks for them.
        expect(c.page('removed').rows.map((r) => [r.url, r.removed_reason])).toEqual([[site.url('/gone'), 'not-linked']]);
        expect(copies().length).toBeGreaterThan(before.length);
      } finally {
        c.close();
      }
      // The copies go with the comparison.
      expect(copies()).toEqual(before);
    }
  });

  it('compares through npm run compare with --store, --old-crawl and --new-crawl, writing the same CSV', async () => {
    const run = async (argv: string[]) => {
      const [stdout, stderr] = [new PassThrough(), new PassThrough()];
      let out = '';
      let err = '';
      stdout.on('data', (d) => (out += d));
      stderr.on('data', (d) => (err += d));
      const code = await runCompare(argv, stdout, stderr);
      return { code, out, err };
    };
    const csv = (f: string) => {
      const [header, ...rows] = parse(fs.readFileSync(f, 'utf8'), { bom: true }) as string[][];
      return { header, rows: rows.map((r) => JSON.stringify(r)).sort() };
    };
    const fromFiles = await run([files.old, files.new, '--out', path.join(dir, 'files.csv')]);
    expect(fromFiles.code, fromFiles.err).toBe(0);
    const fromStore = await run([
      '--store',
      db.url,
      '--old-crawl',
      crawls.old,
      '--new-crawl',
      crawls.new,
      '--out',
      path.join(dir, 'store.csv'),
    ]);
    expect(fromStore.code, fromStore.err).toBe(0);
    expect(fromStore.out).toMatch(
      new RegExp(
        `^Compared cluster crawl ${crawls.old} \\(127\\.0\\.0\\.1:5432/${db.name}\\) \\(\\d+ URLs\\) with cluster crawl ${crawls.new} .*: 1 added, 1 removed, 2 changed\\nCSV: .*store\\.csv \\(4 rows\\)\\n$`,
      ),
    );
    // The password is never shown.
    expect(fromStore.out + fromStore.err).not.toContain(':trawl@');
    expect(csv(path.join(dir, 'store.csv'))).toEqual(csv(path.join(dir, 'files.csv')));
    const mixed = await run([files.old, '--store', db.url, '--new-crawl', crawls.new, '--out', path.join(dir, 'mixed.xlsx')]);
    expect(mixed.code, mixed.err).toBe(0);
    expect(mixed.out).toContain(`Compared ${files.old} (`);
    expect(mixed.out).toContain('XLSX: ');
  });

  it('refuses a crawl the store does not have, and a store crawl without --store, naming what is wrong', async () => {
    const [stdout, stderr] = [new PassThrough(), new PassThrough()];
    let err = '';
    stderr.on('data', (d) => (err += d));
    const before = fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('trawl-compare-'));
    expect(await runCompare(['--store', db.url, '--old-crawl', crawls.old, '--new-crawl', 'cnosuch'], stdout, stderr)).toBe(2);
    expect(err).toContain('there is no crawl "cnosuch" in this store');
    // The old crawl's copy, made before the new one was found missing, is gone.
    expect(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('trawl-compare-'))).toEqual(before);
    expect(() => parseCompareArgs([files.old, '--new-crawl', crawls.new])).toThrow(/give --store postgres/);
    expect(() => parseCompareArgs(['--store', db.url, '--old-crawl', 'Bad-ID', files.new])).toThrow(/invalid crawl ID "Bad-ID"/);
    expect(() => parseCompareArgs(['--store', db.url, '--old-crawl', crawls.old])).toThrow(/give one crawl file with one of --old-crawl/);
    expect(() => parseCompareArgs([files.old, files.new, '--store', db.url])).toThrow(/--store needs --old-crawl or --new-crawl/);
  });

  it('compares the cluster crawl in view with a crawl file and with another crawl of its store through the web console, and downloads it', async () => {
    const staticDir = tempDir();
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Trawl</title>');
    const session = new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 2 });
    const server = await startWebConsole({ host: '127.0.0.1', port: 0, session, staticDir });
    const c = await connect(`ws://${new URL(server.url).host}${WS_PATH}?token=${server.token}`);
    try {
      const query = { oldFile: 'old.trawl', newFile: clusterCrawlRef(crawls.new), wordThresholdPercent: 10 };
      // Not attached: the cluster crawl cannot be reached, and the answer says so; no store, no crawls of it.
      expect(await c.error('compareCrawls', [query])).toMatch(/only while attached to its store/);
      expect(await c.ok<StoreCrawlList>('attachedStoreCrawls', [])).toEqual({ server: '', crawls: [] });
      await c.ok('attachStore', [db.url, crawls.new]);
      // Attached: the store's crawls are offered to compare (the store's address never leaves the host).
      const listed = await c.ok<StoreCrawlList>('attachedStoreCrawls', []);
      expect(listed.server).not.toMatch(/trawl:trawl|postgres:/);
      expect(listed.crawls.map((k) => k.id).sort()).toEqual([crawls.old, crawls.new].sort());
      // Another crawl of the store against the one in view: the two files' answer.
      const both = { ...query, oldFile: clusterCrawlRef(crawls.old) };
      const stores = await c.ok<ComparisonSummary>('compareCrawls', [both]);
      const files2 = CrawlComparison.open(files.old, files.new);
      const { old_file: _o2, new_file: _n2, ...want2 } = files2.summary();
      files2.close();
      expect(stores).toEqual({ ...want2, old_file: clusterCrawlRef(crawls.old), new_file: clusterCrawlRef(crawls.new) });
      const summary = await c.ok<ComparisonSummary>('compareCrawls', [query]);
      const reference = CrawlComparison.open(files.old, files.new);
      const { old_file: _o, new_file: _n, ...want } = reference.summary();
      reference.close();
      expect(summary).toEqual({ ...want, old_file: 'old.trawl', new_file: clusterCrawlRef(crawls.new) });
      const added = await c.ok<ComparisonPage>('comparePage', [query, 'added', null]);
      expect(added.rows.map((r) => r.url)).toEqual([site.url('/new')]);
      const res = await fetch(
        `${new URL(server.url).origin}${COMMANDS.exportComparison.download!.path}?query=${encodeURIComponent(JSON.stringify(query))}&token=${server.token}`,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="compare-old-cluster-${crawls.new}.csv"`);
      expect((await res.text()).trim().split('\r\n')).toHaveLength(1 + 4);
      // A name that is neither a crawl of the folder nor a cluster crawl is refused as before.
      expect(await c.error('compareCrawls', [{ ...query, oldFile: '../old.trawl' }])).toMatch(/not the name of a crawl/);
    } finally {
      c.ws.close();
      await server.close();
      await session.close();
    }
  });
});
