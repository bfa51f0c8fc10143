// A scheduled recrawl's run, compared with the run before it, opens in the Compare view from the schedules panel:
// its Compare button switches to the view with the two crawls picked and compared (in Chromium via the web console).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createCrawlFile, writeMeta } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { SCHEDULES_FILE } from '../../electron/engine/session/schedules.ts';
import { parseSettings } from '../../shared/settings.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, until, waitForState } from './workbench-flow.ts';

const PAGES = 5;

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `a scheduled run's comparison in Chromium via the web console${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let site: FixtureSite;
    let server: ServeProcess;
    let url: string;
    let browser: Browser;
    let page: Page;
    const crawlsDir = tempDir('trawl-schedule-compare-');
    const older = '127.0.0.1-20260103-090000.trawl';

    beforeAll(async () => {
      site = await startFixtureSite({ pages: PAGES, linksPerPage: 2 });
      // The crawl scheduled: finished, with no pages.
      const db = createCrawlFile(path.join(crawlsDir, older), parseSettings({ seeds: [site.url('/p/0')] }));
      writeMeta(db, 'state', 'finished');
      writeMeta(db, 'finish_reason', 'completed');
      db.close();
      server = startServe(crawlsDir);
      url = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      await page.addInitScript("window.localStorage.removeItem('trawl.lastCrawlSettings')");
      fs.mkdirSync(path.join(ROOT, ARTIFACTS), { recursive: true });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
    });

    it("opens a run's comparison with the run before in the Compare view", async () => {
      await page.goto(url);
      // The schedule's run: a crawl of the site, made here, then recorded as the schedule records a finished run.
      await page.locator('textarea[name="seeds"]').fill(site.url('/p/0'));
      await page.getByTestId('start').click();
      await waitForState(page, 'finished', 60_000);
      const newer = fs.readdirSync(crawlsDir).find((f) => f.endsWith('.trawl') && f !== older)!;
      const at = new Date().toISOString();
      const schedule = {
        id: 'a1b2c3d4e5f6',
        crawl: newer,
        seeds: [site.url('/p/0')],
        name: '',
        timing: { every: 'day', at: '07:00' },
        enabled: true,
        createdAt: at,
        nextRunAt: new Date(Date.now() + 86_400_000).toISOString(),
        waiting: null,
        runs: [
          {
            file: newer,
            startedAt: at,
            finishedAt: at,
            outcome: 'completed',
            crawled: PAGES,
            previous: older,
            changes: { added: PAGES, removed: 0, changed: 0, byField: {} },
            error: null,
          },
        ],
      };
      fs.writeFileSync(path.join(crawlsDir, SCHEDULES_FILE), JSON.stringify({ version: 1, schedules: [schedule] }), { mode: 0o600 });
      await page.reload();
      const run = page.locator('[data-schedule-id="a1b2c3d4e5f6"]').getByTestId('schedule-run');
      await run.waitFor();
      const button = run.getByTestId('schedule-run-compare');
      expect(await button.textContent()).toBe('Compare');
      await page.locator('.schedules').screenshot({ path: path.join(ROOT, ARTIFACTS, 'schedule-compare-panel.png') });

      await button.click();
      expect(await page.getByTestId('view-compare').getAttribute('aria-pressed')).toBe('true');
      const summary = page.getByTestId('compare-summary');
      await summary.waitFor();
      expect(await page.getByTestId('compare-old').inputValue()).toBe(older);
      expect(await page.getByTestId('compare-new').inputValue()).toBe(newer);
      await until(
        async () => Number(await summary.locator('[data-change="added"]').getAttribute('data-value')),
        (n) => n === PAGES,
        'the URLs the run added',
      );
      expect(Number(await summary.locator('[data-change="removed"]').getAttribute('data-value'))).toBe(0);
      await page.screenshot({ path: path.join(ROOT, ARTIFACTS, 'schedule-compare-view.png') });
    });
  },
);
