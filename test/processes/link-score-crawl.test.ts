// Link Score over a real crawl of a loopback site (real workers, a real crawl file): a hub page that every page
// links to scores highest (100) and comes first when the explorer and the Results table sort by link_score; a
// redirect passes its value on, a nofollow link does not.
import http from 'node:http';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlAnalysis } from '../../electron/engine/session/crawl-analysis.ts';
import { CrawlFileResults } from '../../electron/engine/session/crawl-file-results.ts';
import { fileViews } from '../../electron/engine/session/crawl-views.ts';
import type { CrawlMap } from '../../shared/crawl-map.ts';
import { exportCsv } from '../../electron/engine/export/csv-export.ts';
import { CSV_COLUMNS } from '../../electron/engine/export/csv-writer.ts';
import { parse } from 'csv-parse/sync';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { askUntil } from '../helpers/ask-until.ts';
import { newCrawl, tempDir } from '../helpers/engine.ts';

const PAGES = 12;

function routes(): Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> {
  const send = (res: http.ServerResponse, html: string) =>
    void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html>${html}</html>`);
  const out: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {
    // Home links to every page, to the hub through an old URL that redirects to it, and to a page by nofollow only.
    '/': (_q, res) =>
      send(
        res,
        `<head><title>Home</title></head><body><h1>Home</h1>${Array.from({ length: PAGES }, (_, i) => `<a href="/page/${i}">${i}</a>`).join(' ')}
        <a href="/old-hub">hub</a> <a href="/secret" rel="nofollow">secret</a></body>`,
      ),
    '/old-hub': (_q, res) => void res.writeHead(301, { location: '/hub', 'content-type': 'text/html' }).end('moved'),
    '/hub': (_q, res) => send(res, '<head><title>Hub</title></head><body><h1>Hub</h1><a href="/">home</a></body>'),
    '/secret': (_q, res) => send(res, '<head><title>Secret</title></head><body><h1>Secret</h1><a href="/">home</a></body>'),
  };
  for (let i = 0; i < PAGES; i++) {
    // Every page links to the hub and to the next page.
    out[`/page/${i}`] = (_q, res) =>
      send(
        res,
        `<head><title>Page ${i}</title></head><body><h1>${i}</h1><a href="/hub">hub</a> <a href="/page/${(i + 1) % PAGES}">next</a></body>`,
      );
  }
  return out;
}

let site: FixtureSite;
let file: string;
const dir = tempDir('trawl-linkscore-crawl-');

beforeAll(async () => {
  site = await startFixtureSite({ pages: 0, routes: routes() });
  // followNofollow: the nofollow page is fetched (so it is in the graph) but its link still passes nothing.
  const { controller, dbPath } = newCrawl({ seeds: [site.url('/')], threads: 3, maxAttempts: 1, followNofollow: true }, dir);
  controller.start();
  const info = await controller.done;
  expect(info.reason).toBe('completed');
  file = dbPath;
}, 120_000);
afterAll(async () => {
  await site?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('Link Score of a crawled site', () => {
  it('puts the hub first, at 100, when the explorer sorts by link_score', async () => {
    const analysis = CrawlAnalysis.open(file);
    try {
      await analysis.refreshLinkScores({ wait: true });
      const page = analysis.queryFiltered({ filter: 'all', text: '', sort: 'link_score', descending: true, offset: 0, limit: 100 });
      const first = page.rows[0]!;
      expect(first.url).toBe(site.url('/hub'));
      expect(first.link_score).toBe(100);
      // Every page links to it (and home, through the redirect: not a hyperlink to it).
      expect(first.unique_inlinks).toBe(PAGES);
      const byPath = new Map(page.rows.map((r) => [new URL(r.url).pathname, r]));
      // The nofollow link passes nothing: the secret page has only the teleport share, the lowest score; the
      // redirecting URL, linked from home as plainly, gets home's share (and passes it on to the hub).
      expect(byPath.get('/secret')!.link_score).toBe(0);
      expect(byPath.get('/old-hub')!.link_score!).toBeGreaterThan(0);
      expect(byPath.get('/secret')!.unique_inlinks).toBe(0);
      expect(byPath.get('/')!.link_score!).toBeGreaterThan(byPath.get('/page/0')!.link_score!);
      // Ascending: the lowest first; every crawled URL has a score.
      const asc = analysis.queryFiltered({ filter: 'all', text: '', sort: 'link_score', descending: false, offset: 0, limit: 100 });
      expect(asc.rows.at(-1)!.url).toBe(site.url('/hub'));
      expect(asc.rows.every((r) => typeof r.link_score === 'number')).toBe(true);
      // The detail pane's row has the score too.
      const detail = analysis.urlDetail({ url: site.url('/hub') })!;
      expect(detail.row).toMatchObject({ link_score: 100, unique_inlinks: PAGES });
    } finally {
      analysis.close();
    }
  });

  it("answers the explorer's first page and a URL's detail at once, their scores and duplicates pending, then with them", async () => {
    const bySeq = { filter: 'all', text: '', sort: 'seq', descending: false, offset: 0, limit: 100 } as const;
    let hubId = 0;
    // The explorer's page first: the crawl's first scores are computed in a worker thread, the page does not wait.
    let analysis = CrawlAnalysis.open(file);
    try {
      const views = fileViews(() => analysis);
      // Asked again, as the table does, until they come.
      const pages = await askUntil(
        () => views.queryFiltered(bySeq, false),
        (p) => !p.scoresPending,
      );
      const first = pages[0]!;
      expect(first.scoresPending).toBe(true);
      expect(first.total).toBeGreaterThan(PAGES);
      expect(first.rows.every((r) => r.link_score === null)).toBe(true);
      hubId = first.rows.find((r) => r.url === site.url('/hub'))!.url_id;
      const page = pages[pages.length - 1]!;
      expect(page.scoresPending).toBeUndefined();
      expect(page.rows.find((r) => r.url === site.url('/hub'))).toMatchObject({ link_score: 100, unique_inlinks: PAGES });
    } finally {
      analysis.close();
    }
    // A URL's detail first, the same, and its duplicate content too: the crawl's analysis is computed meanwhile.
    analysis = CrawlAnalysis.open(file);
    try {
      const views = fileViews(() => analysis);
      const details = await askUntil(
        () => views.urlDetail({ id: hubId }, false),
        (d) => !d!.scoresPending && !d!.contentPending,
      );
      const first = details[0];
      expect(first).toMatchObject({ scoresPending: true, contentPending: true, url: site.url('/hub') });
      expect(first!.row.link_score).toBeNull();
      expect(first!.content).toBeUndefined();
      const detail = details[details.length - 1];
      expect(detail!.scoresPending).toBeUndefined();
      expect(detail!.contentPending).toBeUndefined();
      expect(detail!.row).toMatchObject({ link_score: 100, unique_inlinks: PAGES });
      // The hub's main text compared with the other pages': its words counted, a page compared.
      expect(detail!.content).toMatchObject({ compared: true });
      expect(detail!.content!.main_words).toBeGreaterThan(0);
    } finally {
      analysis.close();
    }
  });

  it('draws the crawl map before the first Link Scores, then sized by them; an export waits for them', async () => {
    const hubNode = (map: CrawlMap) => map.nodes.linkScore[map.nodes.url.indexOf(site.url('/hub'))];
    const analysis = CrawlAnalysis.open(file);
    const views = fileViews(() => analysis);
    try {
      const maps = await askUntil(
        () => views.crawlMap({ maxNodes: 100 }, false),
        (m) => !m.scoresPending,
      );
      const first = maps[0]!;
      expect(first).toMatchObject({ scoresPending: true, scored: false });
      expect(first.nodes.url).toContain(site.url('/hub'));
      expect(hubNode(first)).toBeNull();
      const map = maps[maps.length - 1]!;
      expect(map.scoresPending).toBeUndefined();
      expect(map.scored).toBe(true);
      expect(hubNode(map)).toBe(100);
      // The same nodes, sized now (the rows read once, folded again with the scores).
      expect(map.nodes.url).toEqual(first.nodes.url);
    } finally {
      analysis.close();
    }
    const again = CrawlAnalysis.open(file);
    try {
      const exported = await fileViews(() => again).crawlMap({ maxNodes: 100 }, false, true);
      expect(exported.scoresPending).toBeUndefined();
      expect(hubNode(exported)).toBe(100);
    } finally {
      again.close();
    }
  });

  it('sorts the Results table by link_score and unique_inlinks', async () => {
    const results = new CrawlFileResults(file);
    try {
      const page = await results.query({ offset: 0, limit: 5, sort: 'link_score', descending: true, text: '', statusClass: null });
      expect(page.rows[0]).toMatchObject({ url: site.url('/hub'), link_score: 100, unique_inlinks: PAGES });
      const byInlinks = await results.query({ offset: 0, limit: 5, sort: 'unique_inlinks', descending: true, text: '', statusClass: null });
      expect(byInlinks.rows[0]!.url).toBe(site.url('/hub'));
      // The app's export (the Results table's) has the columns filled; a plain export leaves them empty.
      const out = `${dir}/results.csv`;
      await results.exportCsv(out);
      const records = parse(fs.readFileSync(out, 'utf8').replace(/^\uFEFF/, '')) as string[][];
      expect(records[0]).toEqual([...CSV_COLUMNS]);
      const hub = records.find((r) => r[0] === site.url('/hub'))!;
      expect([hub[CSV_COLUMNS.indexOf('link_score')], hub[CSV_COLUMNS.indexOf('unique_inlinks')]]).toEqual(['100', String(PAGES)]);
      const plain = `${dir}/plain.csv`;
      await exportCsv(file, plain);
      const plainHub = (parse(fs.readFileSync(plain, 'utf8').replace(/^\uFEFF/, '')) as string[][]).find((r) => r[0] === site.url('/hub'))!;
      expect(plainHub[CSV_COLUMNS.indexOf('link_score')]).toBe('');
    } finally {
      await results.close();
    }
  });
});
