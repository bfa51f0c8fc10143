// The images analysis in Chromium via the web console (issue 18.3), after a CLI crawl of the image fixture site that
// checks images: the Images filters list the uses the engine lists (image and page columns, missing alt marked), a
// checked image's detail lists the pages using it, and a page's detail lists its images with alt, dimensions, status
// and size. Screenshots in light and dark.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { tempDir } from '../helpers/engine.ts';
import { runCli } from '../helpers/cli.ts';
import { startImageSite, type ImageSite } from '../helpers/image-site.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe, type ServeProcess } from './serve.ts';
import { until } from './workbench-flow.ts';
import { filterCounts, openCrawlForAnalysis } from '../../electron/engine/analysis/index.ts';

const SHOTS = '/work/wt/notes/shots';

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `the Images filters and detail pane in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let site: ImageSite;
    let results: number;
    const crawlsDir = tempDir('trawl-images-ui-');
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
      site = await startImageSite();
      const file = path.join(crawlsDir, 'images.trawl');
      const run = await runCli([site.url('/'), '--db', file, '--threads', '1', '--max-attempts', '1', '--quiet', '--check', 'images']);
      expect(run.code, run.stderr).toBe(0);
      const db = openCrawlForAnalysis(file);
      results = filterCounts(db, ['all']).all ?? 0;
      db.close();
      server = startServe(crawlsDir);
      await server.url;
      browser = await launchChromium();
      fs.mkdirSync(SHOTS, { recursive: true });
    }, 180_000);

    afterAll(async () => {
      for (const c of contexts) await c.close();
      await browser?.close();
      await server?.stop();
      await site?.close();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
      const context = await browser.newContext({ colorScheme, locale: 'en-US', viewport: { width: 1440, height: 900 } });
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(await server.url);
      await page.locator('.crawl-item[data-crawl-file="images.trawl"]').getByTestId('open-crawl').click();
      await until(
        () => page.getByTestId('results-total').getAttribute('data-value'),
        (n) => Number(n) === results,
        'the crawl file in the results',
      );
      await page.getByTestId('view-explorer').click();
      return page;
    }

    it('lists the images missing alt text with their pages, and shows an image’s pages and a page’s images', async () => {
      const page = await open('light');
      await page.locator('.filter-group-label', { hasText: 'Images' }).waitFor();
      await page.locator('[data-filter="images-alt-missing"]').click();
      await expect.poll(() => page.getByTestId('explorer-total').getAttribute('data-value')).toBe('3');
      expect(await page.getByTestId('explorer-total').textContent()).toMatch(/^Images: Missing alt text/);
      const table = '.explorer .vtable';
      const rows = page.locator(`${table} [data-explorer-url]`);
      await expect.poll(() => rows.count()).toBe(3);
      expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-explorer-url')))).toEqual([
        site.url('/img/photo.jpg'),
        site.url('/img/p.webp'),
        site.url('/img/p.jpg'),
      ]);
      expect(await page.locator(`${table} .rhead [data-column="page"] .sort-label`).textContent()).toBe('Page');
      const first = rows.first();
      expect(await first.locator('[data-col="page"]').textContent()).toBe(site.url('/'));
      expect(await first.locator('[data-col="alt"]').textContent()).toBe('(no alt attribute)');
      expect(await first.locator('[data-col="status"]').textContent()).toBe('200');
      await page.screenshot({ path: path.join(SHOTS, 'images-filter-light.png') });

      // A checked image's detail: the pages using it.
      await first.click();
      const pane = page.getByTestId('url-detail');
      await expect.poll(() => pane.getByTestId('detail-url').first().textContent()).toBe(site.url('/img/photo.jpg'));
      const pages = pane.getByTestId('detail-image-pages');
      await pages.waitFor();
      expect(await pages.locator('li .link-url').allTextContents()).toEqual([site.url('/')]);
      // From there, the page's detail: its images, the missing alt marked, the broken and large ones with status and size.
      await pages.locator('li .link-url').first().click();
      await expect.poll(() => pane.getByTestId('detail-url').first().textContent()).toBe(site.url('/'));
      const images = pane.getByTestId('detail-images');
      await images.waitFor();
      expect(await images.locator('li').count()).toBe(8);
      expect(await images.locator('li[data-alt="missing"]').count()).toBe(1);
      expect(await images.locator('li[data-alt="empty"]').count()).toBe(1);
      const missing = images.locator('li', { hasText: '/img/missing.png' });
      expect(await missing.locator('.link-note').textContent()).toMatch(/10 × 10 · 404/);
      const big = images.locator('li', { hasText: '/img/big.jpg' });
      expect(await big.locator('.link-note').textContent()).toMatch(/800 × 600 · 200 · 150(\.0)? kB/i);
      await images.scrollIntoViewIfNeeded();
      await pane.screenshot({ path: path.join(SHOTS, 'images-detail-light.png') });
    }, 180_000);

    it('draws the Images filters in the dark theme', async () => {
      const page = await open('dark');
      await page.locator('[data-filter="images-all"]').click();
      await expect.poll(() => page.getByTestId('explorer-total').getAttribute('data-value')).toBe('11');
      await page.locator('[data-filter="images-broken"]').click();
      await expect.poll(() => page.getByTestId('explorer-total').getAttribute('data-value')).toBe('1');
      expect(await page.locator('.explorer .vtable [data-explorer-url]').first().getAttribute('data-explorer-url')).toBe(
        site.url('/img/missing.png'),
      );
      await page.locator('[data-filter="images-all"]').click();
      await expect.poll(() => page.locator('.explorer .vtable [data-explorer-url]').count()).toBe(11);
      await page.screenshot({ path: path.join(SHOTS, 'images-all-dark.png') });
    }, 120_000);
  },
);
