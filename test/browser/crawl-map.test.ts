// The crawl map in Chromium (WebGL through SwiftShader: Debian's Chromium gives it with the tests' usual flags) via
// the web console: after a real crawl of a small site with a hub page and a deep chain, the map draws one node per
// URL and the root (sigma's graph order), the PNG export holds drawn pixels, the CSV lists the nodes with their
// parents, the colour switch changes the legend, a click on a URL node opens the explorer on it, and the depth
// charts export. Then a synthetic 100,000-URL crawl: the map is folded to its node limit and says what it folded.
// Screenshots: crawlmap-light.png, crawlmap-dark.png, crawlmap-100k.png.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, drawnPixels, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { until, waitForState } from './workbench-flow.ts';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { CRAWL_MAP_CSV_HEADER, DEFAULT_CRAWL_MAP_NODES } from '../../shared/crawl-map.ts';

const SHOTS = '/work/wt/notes/shots';
const HUB = 30;
const DEEP = 6;

/** The site: / links to /hub and /deep/1; /hub to its 30 children; /deep/k to /deep/k+1; one child is a 404. */
function pageLinks(url: string): string[] | null {
  if (url === '/') return ['/hub', '/deep/1', '/about'];
  if (url === '/about') return [];
  if (url === '/hub') return Array.from({ length: HUB }, (_, k) => `/hub/p${k}`);
  const p = /^\/hub\/p(\d+)$/.exec(url);
  if (p && Number(p[1]) < HUB) return Number(p[1]) === 7 ? null : ['/'];
  const d = /^\/deep\/(\d+)$/.exec(url);
  if (d && Number(d[1]) <= DEEP) return Number(d[1]) < DEEP ? [`/deep/${Number(d[1]) + 1}`] : [];
  return null;
}
/** URLs the crawl records: /, /about, /hub and its children, the chain. */
const URLS = 3 + HUB + DEEP;

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `the crawl map in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let site: { origin: string; close(): Promise<void> };
    const crawlsDir = tempDir('trawl-crawl-map-ui-');
    const downloads = tempDir('trawl-crawl-map-dl-');
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
      site = await listenOnLoopback(
        http.createServer((req, res) => {
          const links = pageLinks(req.url ?? '');
          if (!links) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
          const noindex = req.url === '/about' ? '<meta name="robots" content="noindex">' : '';
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(`<title>${req.url}</title>${noindex}${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}`);
        }),
      );
      buildSyntheticCrawl(path.join(crawlsDir, 'big.trawl'), { results: 100_000, queued: 0 }).db.close();
      server = startServe(crawlsDir);
      await server.url;
      browser = await launchChromium();
      fs.mkdirSync(SHOTS, { recursive: true });
    }, 600_000);

    afterAll(async () => {
      for (const c of contexts) await c.close();
      await browser?.close();
      await server?.stop();
      await site?.close();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
      fs.rmSync(downloads, { recursive: true, force: true });
    });

    async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
      const context = await browser.newContext({
        colorScheme,
        locale: 'en-US',
        viewport: { width: 1440, height: 1100 },
        acceptDownloads: true,
      });
      contexts.push(context);
      const page = await context.newPage();
      // A loaded machine (the 100,000-URL file's Link Score in the console) can take the page past 30 s.
      await page.goto(await server.url, { timeout: 120_000 });
      return page;
    }

    const nodesDrawn = (page: Page) => page.getByTestId('crawl-map-canvas').getAttribute('data-order');

    it('draws every URL of a crawled site, exports PNG and CSV, and opens a node in the explorer', async () => {
      const page = await open('light');
      await page.locator('textarea[name="seeds"]').fill(`${site.origin}/`);
      await page.getByTestId('start').click();
      await waitForState(page, 'finished', 120_000);
      await page.getByTestId('view-crawlMap').click();
      await until(
        () => page.getByTestId('crawl-map-total').getAttribute('data-value'),
        (v) => v === String(URLS),
        "the map's total",
      );
      // One node per URL and the root, nothing folded.
      await until(
        () => nodesDrawn(page),
        (v) => v === String(URLS + 1),
        'sigma graph order',
      );
      expect(await page.getByTestId('crawl-map-folded').getAttribute('data-urls')).toBe('0');
      expect(await page.getByTestId('crawl-map-folded').innerText()).toBe('Every URL is drawn as its own node.');
      // WebGL layers are there and drawn once (sigma's afterRender).
      await until(
        () => page.getByTestId('crawl-map-canvas').getAttribute('data-render-ms'),
        (v) => v !== null,
        'a frame drawn',
      );
      expect(await page.locator('.crawl-map-canvas canvas').count()).toBeGreaterThanOrEqual(2);

      // PNG: the layers on one picture, with nodes and edges drawn over the background.
      const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('crawl-map-png').click()]);
      expect(png.suggestedFilename()).toBe('crawl-map.png');
      const pngFile = path.join(downloads, 'map.png');
      await png.saveAs(pngFile);
      expect(fs.readFileSync(pngFile).subarray(1, 4).toString()).toBe('PNG');
      const pixels = await drawnPixels(page, pngFile);
      expect(pixels.width).toBeGreaterThan(400);
      expect(pixels.n).toBeGreaterThan(500);

      // CSV: a row per node, each URL under the page that found it.
      const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('crawl-map-csv').click()]);
      const csvFile = path.join(downloads, 'map.csv');
      await csv.saveAs(csvFile);
      const lines = fs
        .readFileSync(csvFile, 'utf8')
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe(CRAWL_MAP_CSV_HEADER.join(','));
      expect(lines.length).toBe(URLS + 2);
      // The toast counts the nodes as the header does (the CSV's extra row is the root, and it says so).
      const header = await page.getByTestId('crawl-map-total').innerText();
      await expect
        .poll(() => page.locator('.toast, [role="status"]').allTextContents())
        .toContainEqual(expect.stringContaining(`${URLS} nodes were saved as CSV, with the root`));
      expect(header).toContain(`${URLS} nodes`);
      const row = (url: string) => lines.find((l) => l.split(',')[2] === url)!.split(',');
      expect(row(`${site.origin}/hub/p3`)[4]).toBe(`${site.origin}/hub`);
      expect(row(`${site.origin}/deep/${DEEP}`)[5]).toBe(String(DEEP));
      expect(row(`${site.origin}/hub/p7`)[6]).toBe('404');
      expect(row(`${site.origin}/about`)[7]).toBe('non-indexable');

      // The switch: status classes in the legend.
      await page.getByTestId('crawl-map-colour-status').click();
      await expect.poll(() => page.getByTestId('crawl-map-legend').innerText()).toContain('4xx');
      await page.getByTestId('crawl-map-colour-indexability').click();

      // The depth charts: a box per depth, and their exports.
      // The chart is an image of its SVG: one group per depth in it.
      const chartSrc = (await page.locator('[data-chart="depth-inlinks"] img.depth-chart').getAttribute('src')) ?? '';
      expect(decodeURIComponent(chartSrc.replace(/^data:image\/svg\+xml;charset=utf-8,/, '')).match(/<g data-depth=/g)?.length).toBe(
        DEEP + 1,
      );
      const [svg] = await Promise.all([page.waitForEvent('download'), page.getByTestId('depth-inlinks-svg').click()]);
      const svgFile = path.join(downloads, 'inlinks.svg');
      await svg.saveAs(svgFile);
      expect(fs.readFileSync(svgFile, 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      const [chartCsv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('depth-linkScore-csv').click()]);
      const chartFile = path.join(downloads, 'score.csv');
      await chartCsv.saveAs(chartFile);
      expect(fs.readFileSync(chartFile, 'utf8').split('\r\n')[0]).toBe(
        '\uFEFFdepth,urls,link_score_min,link_score_p25,link_score_median,link_score_p75,link_score_max,link_score_mean',
      );
      const [chartPng] = await Promise.all([page.waitForEvent('download'), page.getByTestId('depth-inlinks-png').click()]);
      const chartPngFile = path.join(downloads, 'inlinks.png');
      await chartPng.saveAs(chartPngFile);
      expect((await drawnPixels(page, chartPngFile)).n).toBeGreaterThan(100);
      await page.locator('.crawl-map-view').screenshot({ path: path.join(SHOTS, 'crawlmap-light.png') });

      // Hover the seed where sigma draws it (the view writes its place after each frame): its URL below the map; a
      // click opens the explorer on it.
      const canvas = page.getByTestId('crawl-map-canvas');
      const box = (await canvas.boundingBox())!;
      const seedX = Number(await canvas.getAttribute('data-seed-x'));
      const seedY = Number(await canvas.getAttribute('data-seed-y'));
      await page.mouse.move(box.x + seedX, box.y + seedY);
      await expect.poll(() => page.getByTestId('crawl-map-hover').innerText()).toMatch(new RegExp(`^${site.origin}/ · 200 · indexable`));
      await page.mouse.click(box.x + seedX, box.y + seedY);
      await page.getByTestId('explorer-prefix').waitFor();
      await until(
        () => page.getByTestId('explorer-total').getAttribute('data-value'),
        (v) => v === String(URLS),
        "the explorer's total for the seed's prefix",
      );
    }, 240_000);

    it('draws in the dark theme', async () => {
      const page = await open('dark');
      await page.getByTestId('view-crawlMap').click();
      await until(
        () => nodesDrawn(page),
        (v) => v === String(URLS + 1),
        'sigma graph order',
      );
      await until(
        () => page.getByTestId('crawl-map-canvas').getAttribute('data-render-ms'),
        (v) => v !== null,
        'a frame drawn',
      );
      await page.getByTestId('crawl-map-colour-status').click();
      await page.waitForTimeout(300);
      await page.locator('.crawl-map-view').screenshot({ path: path.join(SHOTS, 'crawlmap-dark.png') });
    }, 120_000);

    it('folds a 100,000-URL crawl to its node limit and says what it folded', async () => {
      const page = await open('light');
      await page.locator('.crawl-item[data-crawl-file="big.trawl"]').getByTestId('open-crawl').click();
      // Opened once its results are in view (the views follow the crawl opened).
      await until(
        () => page.getByTestId('results-total').getAttribute('data-value'),
        (n) => Number(n) > 90_000,
        'the crawl file in the results',
        300_000,
      );
      await page.getByTestId('view-crawlMap').click();
      await until(
        () => page.getByTestId('crawl-map-total').getAttribute('data-value'),
        (v) => Number(v) > 90_000,
        "the big map's total",
        300_000,
      );
      const total = Number(await page.getByTestId('crawl-map-total').getAttribute('data-value'));
      await until(
        () => nodesDrawn(page),
        (v) => v !== null,
        'sigma graph order',
      );
      const order = Number(await nodesDrawn(page));
      expect(order).toBeLessThanOrEqual(DEFAULT_CRAWL_MAP_NODES);
      const folded = page.getByTestId('crawl-map-folded');
      const foldedUrls = Number(await folded.getAttribute('data-urls'));
      // Every URL is a node of its own or counted in one that was folded.
      const urlNodes =
        Number(await page.getByTestId('crawl-map-total').getAttribute('data-nodes')) - 1 - Number(await folded.getAttribute('data-groups'));
      expect(urlNodes + foldedUrls).toBe(total);
      expect(await folded.innerText()).toMatch(/^Folded to stay fast: [\d,]+ URLs are not drawn/);
      // Frame time while zooming (the WebGL draw of each frame), for BENCHMARKS.md.
      await until(
        () => page.getByTestId('crawl-map-canvas').getAttribute('data-render-ms'),
        (v) => v !== null,
        'a frame drawn',
      );
      const box = (await page.getByTestId('crawl-map-canvas').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const frames: number[] = [];
      for (let i = 0; i < 10; i++) {
        await page.mouse.wheel(0, i < 5 ? -200 : 200);
        await page.waitForTimeout(150);
        frames.push(Number(await page.getByTestId('crawl-map-canvas').getAttribute('data-render-ms')));
      }
      console.log(`crawl map 100k: ${order} nodes, frame draw ms ${frames.join(', ')}`);
      await page.waitForTimeout(500);
      await page.locator('.crawl-map-view').screenshot({ path: path.join(SHOTS, 'crawlmap-100k.png') });
    }, 600_000);
  },
);
