// The analyst views in Simplified Chinese in Chromium via the web console, over a crawl file built straight into
// SQLite: the language chosen in the top bar turns the explorer (filters, groups, columns, the URL detail pane) and
// the reports into Chinese at once, crawled URLs staying as they are; screenshots of both.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, until } from './workbench-flow.ts';

const ROWS = 2_000;

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `the analyst views in Chinese in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    const crawlsDir = tempDir('trawl-i18n-');

    beforeAll(async () => {
      const built = buildSyntheticCrawl(path.join(crawlsDir, 'site.trawl'), { results: ROWS, queued: 0 });
      built.db.close();
      server = startServe(crawlsDir);
      const url = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      fs.mkdirSync(path.join(ROOT, ARTIFACTS), { recursive: true });
      await page.goto(url);
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) =>
      page.screenshot({ path: path.join(ROOT, ARTIFACTS, `i18n-analysis-${name}.png`), fullPage: false }).then(() => undefined);

    it('shows the explorer and its detail pane in Chinese once chosen in the top bar, the crawled URLs as they are', async () => {
      await page.locator('.crawl-item[data-crawl-file="site.trawl"]').getByTestId('open-crawl').click();
      await until(
        () => page.getByTestId('results-total').getAttribute('data-value'),
        (n) => Number(n) === ROWS,
        'the crawl file in the results',
      );
      await page.getByTestId('view-explorer').click();
      await page.locator('.filter-group-label', { hasText: 'Page titles' }).waitFor();
      await page.getByTestId('language').selectOption('zh-CN');
      await page.locator('.filter-group-label', { hasText: '页面标题' }).waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
      expect(await page.locator('.filter-group-label').allTextContents()).not.toContain('Page titles');
      await page.locator('[data-filter="title-missing"]').click();
      await expect.poll(() => page.getByTestId('explorer-total').textContent()).toMatch(/^页面标题：缺失/);
      await page.locator('[data-filter="all"]').click();
      const table = '.explorer .vtable';
      expect(await page.locator(`${table} .rhead [data-column="depth"] .sort-label`).textContent()).toBe('深度');
      const first = page.locator(`${table} [data-explorer-url]`).first();
      await first.waitFor();
      const url = (await first.getAttribute('data-explorer-url'))!;
      await first.click();
      const pane = page.getByTestId('url-detail');
      await expect.poll(() => pane.getByTestId('detail-url').first().textContent()).toBe(url);
      await pane.getByTestId('detail-headers').waitFor();
      expect(await pane.locator('.row-details-heading').allTextContents()).toEqual(expect.arrayContaining(['响应头']));
      expect(await pane.locator('dt').allTextContents()).toEqual(expect.arrayContaining(['标题', 'Meta 描述', '规范链接']));
      await shot('explorer');
    });

    it('shows the reports in Chinese', async () => {
      await page.getByTestId('view-reports').click();
      await page.locator('.chart-card[data-chart="over-time"] [data-testid="chart-legend-value"]').waitFor();
      expect(await page.locator('.reports-view .panel-title').textContent()).toBe('报告');
      expect(await page.locator('.chart-title').allTextContents()).toEqual([
        '状态码',
        '抓取深度',
        '响应时间',
        '每秒页数与错误随时间变化',
        '批量报告',
      ]);
      await expect.poll(() => page.getByTestId('chart-legend-value').textContent()).toMatch(/页\/秒/);
      await shot('reports');
      await page.getByTestId('view-hosts').click();
      await page.locator('.hosts-view .panel-title', { hasText: '主机' }).waitFor();
      expect(await page.locator('.hosts-table .rhead .sort-label').allTextContents()).toEqual(
        expect.arrayContaining(['主机', '队列中', '礼貌延迟']),
      );
      await shot('hosts');
      // Back in English, nothing Chinese is left in the view.
      await page.getByTestId('language').selectOption('en');
      await page.locator('.hosts-view .panel-title', { hasText: 'Hosts' }).waitFor();
      expect(await page.locator('.hosts-view').textContent()).not.toMatch(/\p{Script=Han}/u);
    });
  },
);
