// The Bulk reports card in Reports, in the built app in Chromium through the web console: each report listed with its
// description, and its CSV button downloading the report of the crawl in view (by the page's cookie, no token).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BULK_REPORTS } from '../../shared/bulk-reports.ts';
import { startBrokenSite, type BrokenSite } from '../helpers/broken-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe, type ServeProcess } from './serve.ts';
import { ARTIFACTS, until, waitForState } from './workbench-flow.ts';

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `Bulk reports in Chromium via the web console${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let site: BrokenSite;
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    const shotsDir = path.join(ROOT, ARTIFACTS);

    beforeAll(async () => {
      site = await startBrokenSite();
      server = startServe(tempDir('trawl-bulk-'));
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, acceptDownloads: true, locale: 'en-US' });
      await page.addInitScript("window.localStorage.removeItem('trawl.lastCrawlSettings')");
      fs.mkdirSync(shotsDir, { recursive: true });
    });

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
    });

    it('lists every bulk report and downloads one as CSV', async () => {
      await page.goto(await server.url);
      await page.locator('textarea[name="seeds"]').fill(site.url('/'));
      await page.getByTestId('start').click();
      await waitForState(page, 'finished', 60_000);
      await page.getByTestId('view-reports').click();
      const card = page.getByTestId('bulk-reports');
      await card.waitFor();
      expect(await card.locator('[data-report]').evaluateAll((els) => els.map((e) => e.getAttribute('data-report')))).toEqual([
        ...BULK_REPORTS.map((r) => r.id),
        'sitemap',
      ]);
      expect(await card.locator('[data-report="redirect-chains"] .bulk-report-label').textContent()).toBe('Redirect chains');
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(shotsDir, 'bulk-reports.png') });
      await card.screenshot({ path: path.join(shotsDir, 'bulk-reports-card.png') });

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('bulk-csv-redirect-chains').click()]);
      expect(new URL(download.url()).pathname).toBe('/bulk-report.csv');
      expect(new URL(download.url()).searchParams.has('token')).toBe(false);
      expect(download.suggestedFilename()).toMatch(/-redirect-chains\.csv$/);
      const file = path.join(shotsDir, 'bulk-redirect-chains.csv');
      await download.saveAs(file);
      const lines = fs
        .readFileSync(file, 'utf8')
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('source,hop,url,status_code,redirects_to,redirects,final_url,final_status,loop');
      expect(lines.slice(1).sort()).toEqual(
        [
          `${site.url('/loop1')},1,${site.url('/loop1')},301,${site.url('/loop2')},2,${site.url('/loop1')},301,yes`,
          `${site.url('/loop1')},2,${site.url('/loop2')},301,${site.url('/loop1')},2,${site.url('/loop1')},301,yes`,
          `${site.url('/r1')},1,${site.url('/r1')},301,${site.url('/r2')},3,${site.url('/final')},200,no`,
          `${site.url('/r1')},2,${site.url('/r2')},302,${site.url('/r3')},3,${site.url('/final')},200,no`,
          `${site.url('/r1')},3,${site.url('/r3')},301,${site.url('/final')},3,${site.url('/final')},200,no`,
        ].sort(),
      );
      await until(
        () => page.locator('.toast, [role="status"]').allTextContents(),
        (texts) => texts.some((t) => /download has started/i.test(t)),
        'the download notice',
      );

      // The crawl's XML sitemap from the same card: its indexable 200 pages.
      const [xml] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sitemap-xml').click()]);
      expect(new URL(xml.url()).pathname).toBe('/sitemap.xml');
      expect(xml.suggestedFilename()).toMatch(/-sitemap\.xml$/);
      const sitemap = path.join(shotsDir, 'bulk-sitemap.xml');
      await xml.saveAs(sitemap);
      const locs = [...fs.readFileSync(sitemap, 'utf8').matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
      expect(locs).toContain(site.url('/final'));
      expect(locs).not.toContain(site.url('/missing'));
      expect(locs).not.toContain(site.url('/r1'));
    });
  },
);
