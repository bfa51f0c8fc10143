// The site-structure view in Chromium via the web console, after a real crawl of a small site with known folders:
// the tree's hosts and folders show the engine's counts for the same crawl file, a folder expands to its children,
// and a click on a folder's name lists exactly its URLs in the explorer. Screenshots in light, dark and Chinese.
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
import { openCrawlForAnalysis } from '../../electron/engine/analysis/index.ts';
import { siteStructure } from '../../electron/engine/analysis/site-structure.ts';
import type { StructureFolder } from '../../shared/structure.ts';

const SHOTS = '/work/wt/notes/shots';

/** Each page links to the ones listed; a path not here answers 404. */
const SITE: Record<string, string[]> = {
  '/': ['/docs/', '/blog/', '/about'],
  '/about': [],
  '/docs/': ['/docs/intro', '/docs/api/', '/docs/guide/start', '/docs/missing'],
  '/docs/intro': ['/docs/api/a', '/docs/api/b'],
  '/docs/api/': ['/docs/api/a', '/docs/api/b', '/docs/api/c'],
  '/docs/api/a': [],
  '/docs/api/b': [],
  '/docs/api/c': [],
  '/docs/guide/start': ['/docs/guide/next'],
  '/docs/guide/next': [],
  '/blog/': ['/blog/2024/one', '/blog/2025/two'],
  '/blog/2024/one': [],
  '/blog/2025/two': [],
};

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `the site-structure view in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let site: { origin: string; close(): Promise<void> };
    const crawlsDir = tempDir('trawl-structure-ui-');
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
      site = await listenOnLoopback(
        http.createServer((req, res) => {
          const links = SITE[req.url ?? ''];
          if (!links) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
          const noindex = req.url === '/about' ? '<meta name="robots" content="noindex">' : '';
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(`<title>${req.url}</title>${noindex}${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}`);
        }),
      );
      server = startServe(crawlsDir);
      await server.url;
      browser = await launchChromium();
      fs.mkdirSync(SHOTS, { recursive: true });
    }, 120_000);

    afterAll(async () => {
      for (const c of contexts) await c.close();
      await browser?.close();
      await server?.stop();
      await site?.close();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    async function open(options: { colorScheme: 'light' | 'dark'; locale: string }): Promise<Page> {
      const context = await browser.newContext({ ...options, viewport: { width: 1440, height: 900 } });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(await server.url);
      return page;
    }

    const row = (page: Page, folder: string) => page.locator(`.structure-view tr[data-folder="${folder}"]`);
    const cell = async (page: Page, folder: string, col: string) =>
      (await row(page, folder).locator(`td[data-col="${col}"]`).innerText()).trim();

    it("shows the engine's counts per folder, expands a folder, and opens a folder in the explorer", async () => {
      const page = await open({ colorScheme: 'light', locale: 'en-US' });
      await page.locator('textarea[name="seeds"]').fill(`${site.origin}/`);
      await page.getByTestId('start').click();
      await waitForState(page, 'finished', 120_000);

      const file = fs.readdirSync(crawlsDir).find((f) => f.endsWith('.trawl'))!;
      const db = openCrawlForAnalysis(path.join(crawlsDir, file));
      const O = `${site.origin}/`;
      const engine = siteStructure(db, { paths: [O, `${O}docs/`], limit: 50 });
      db.close();
      const folders = new Map<string, StructureFolder>(
        [...engine.hosts.children, ...engine.levels.flatMap((l) => l.children)].map((f) => [f.path, f]),
      );
      // What the site holds: 13 pages and the 404, the noindex page non-indexable.
      expect(folders.get(O)).toMatchObject({ urls: 14, own: 2, indexable: 12, nonIndexable: 2 });
      expect(folders.get(`${O}docs/`)).toMatchObject({ urls: 9, own: 3, folders: 2 });
      expect(folders.get(`${O}docs/api/`)).toMatchObject({ urls: 4, own: 4 });

      await page.getByTestId('view-structure').click();
      await until(
        () => page.getByTestId('structure-total').getAttribute('data-value'),
        (v) => v === '14',
        "the tree's total",
      );
      expect(await cell(page, O, 'urls')).toBe('14');
      // Expand the host, then docs/: each row's numbers are the engine's.
      await row(page, O).locator('.structure-toggle').click();
      await row(page, `${O}docs/`).waitFor();
      await row(page, `${O}docs/`).locator('.structure-toggle').click();
      await row(page, `${O}docs/api/`).waitFor();
      expect(await row(page, `${O}docs/`).locator('.structure-toggle').getAttribute('aria-expanded')).toBe('true');
      for (const f of folders.values()) {
        expect(await cell(page, f.path, 'urls')).toBe(String(f.urls));
        expect(await cell(page, f.path, 'own')).toBe(String(f.own));
        expect(await cell(page, f.path, 'depth')).toBe(`${f.minDepth} / ${f.avgDepth!.toFixed(1)}`);
      }
      // The bars: docs/ has a 404 (a 4xx segment) and no 5xx.
      const docsStatus = row(page, `${O}docs/`).locator('[data-bar="status"]');
      expect(await docsStatus.locator('[data-seg="4xx"]').count()).toBe(1);
      expect(await docsStatus.locator('[data-seg="5xx"]').count()).toBe(0);
      await page.locator('.structure-view').screenshot({ path: path.join(SHOTS, 's6-structure-light.png') });

      // The exports: the whole tree as CSV (from the host), the tree as shown as SVG and as PNG (drawn in the page).
      const saved = async (testId: string, name: string) => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
        const file = path.join(crawlsDir, name);
        await download.saveAs(file);
        return file;
      };
      const csv = fs.readFileSync(await saved('structure-csv', 'tree.csv'), 'utf8').split('\r\n');
      // Every folder, the collapsed ones too, with the engine's counts (folder, level, urls, own_urls first).
      expect(csv[0]).toMatch(/^\uFEFFfolder,level,urls,own_urls,/);
      for (const f of folders.values())
        expect(
          csv
            .find((l) => l.startsWith(`${f.path},`))
            ?.split(',')
            .slice(2, 4),
        ).toEqual([String(f.urls), String(f.own)]);
      const svg = fs.readFileSync(await saved('structure-svg', 'tree.svg'), 'utf8');
      expect(svg).toMatch(/^(<\?xml [^>]*>\s*)?<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      // The picture holds the rows shown: docs/api/ is expanded, so its name is there.
      expect(svg).toContain('api/');
      const png = await drawnPixels(page, await saved('structure-png', 'tree.png'));
      const width = Number(/width="(\d+)"/.exec(svg)![1]);
      // Drawn at twice the SVG's size, and not blank.
      expect(png.width).toBe(width * 2);
      expect(png.n).toBeGreaterThan(1000);

      // Collapse hides the children.
      await row(page, `${O}docs/`).locator('.structure-toggle').click();
      await expect.poll(() => row(page, `${O}docs/api/`).count()).toBe(0);
      await row(page, `${O}docs/`).locator('.structure-toggle').click();

      // A folder's name opens the explorer on its URLs.
      await row(page, `${O}docs/`).locator('.structure-open').click();
      await page.getByTestId('explorer-prefix').waitFor();
      await until(
        () => page.getByTestId('explorer-total').getAttribute('data-value'),
        (v) => v === '9',
        "the explorer's total for docs/",
      );
      const urls = await page
        .locator('.explorer [data-explorer-url]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-explorer-url')));
      expect(urls.length).toBe(9);
      expect(urls.every((u) => u!.startsWith(`${O}docs/`))).toBe(true);
      // Clearing the folder lists every URL again.
      await page.getByTestId('explorer-prefix').locator('button').click();
      await until(
        () => page.getByTestId('explorer-total').getAttribute('data-value'),
        (v) => v === '14',
        "the explorer's total",
      );
    }, 180_000);

    it('draws the tree in the dark theme and in Chinese', async () => {
      const O = `${site.origin}/`;
      for (const [name, options] of [
        ['dark', { colorScheme: 'dark', locale: 'en-US' }],
        ['zh-CN', { colorScheme: 'light', locale: 'zh-CN' }],
      ] as const) {
        const page = await open(options);
        await page.getByTestId('view-structure').click();
        await until(
          () => page.getByTestId('structure-total').getAttribute('data-value'),
          (v) => v === '14',
          "the tree's total",
        );
        await row(page, O).locator('.structure-toggle').click();
        await row(page, `${O}docs/`).locator('.structure-toggle').click();
        await row(page, `${O}docs/api/`).waitFor();
        if (name === 'zh-CN') expect(await page.locator('.structure-view .panel-title').innerText()).toBe('站点结构');
        await page.locator('.structure-view').screenshot({ path: path.join(SHOTS, `s6-structure-${name}.png`) });
      }
    }, 120_000);
  },
);
