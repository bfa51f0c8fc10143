// The issues overview in Chromium through the web console, over a synthetic crawl file: the issues found with their
// priorities and counts (the engine's, read from the same file), a click that opens the Results explorer on the
// issue's filter with the same count, the CSV download, Chinese, and the pixel-width table against the widths
// Chromium measures in its Arial (Liberation Sans, metric-compatible). Screenshots in the dark theme, en and zh-CN.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { issuesOverview } from '../../electron/engine/analysis/issues-overview.ts';
import { issuesFound, type IssueCount } from '../../shared/issues.ts';
import { titlePixelWidth } from '../../shared/serp-width.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, until } from './workbench-flow.ts';

const ROWS = 3_000;
const SHOTS = process.env['TRAWL_SHOTS_DIR'] ?? path.join(ROOT, ARTIFACTS);

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `the issues overview in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    let found: IssueCount[];
    const crawlsDir = tempDir('trawl-overview-');

    beforeAll(async () => {
      const built = buildSyntheticCrawl(path.join(crawlsDir, 'site.trawl'), { results: ROWS, queued: 0 });
      found = issuesFound(issuesOverview(built.db));
      built.db.close();
      server = startServe(crawlsDir);
      const url = await server.url;
      browser = await launchChromium();
      const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      page = await context.newPage();
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.goto(url);
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `s6-overview-${name}.png`) }).then(() => undefined);
    const rows = () => page.locator('.overview-table tbody tr');

    it('lists the issues found, high priority first, each with the count the engine gives', async () => {
      await page.locator('.crawl-item[data-crawl-file="site.trawl"]').getByTestId('open-crawl').click();
      await until(
        () => page.getByTestId('results-total').getAttribute('data-value'),
        (n) => Number(n) === ROWS,
        'the crawl file in the results',
      );
      await page.getByTestId('view-overview').click();
      await rows().first().waitFor();
      // The synthetic crawl has most issues: the check below is not over an empty list.
      expect(found.length).toBeGreaterThan(15);
      const shown = await rows().evaluateAll((trs) =>
        trs.map((tr) => ({
          id: tr.getAttribute('data-issue'),
          priority: tr.getAttribute('data-priority'),
          type: tr.getAttribute('data-type'),
          count: Number(tr.getAttribute('data-count')),
        })),
      );
      expect(shown).toEqual(found.map((i) => ({ id: i.id, priority: i.priority, type: i.type, count: i.count })));
      expect(await page.getByTestId('overview-summary').getAttribute('data-value')).toBe(String(found.length));
      const first = rows().first();
      expect(await first.locator('.issue-priority').textContent()).toBe('High');
      expect(await first.locator('th button').textContent()).toBe('Broken internal links');
      await shot('en-dark');
    }, 180_000);

    it('opens the explorer on the filter of an issue clicked, with the same count', async () => {
      const issue = found.find((i) => i.id === 'title-over-561px')!;
      expect(issue.count).toBeGreaterThan(0);
      await page.locator('.overview-table tr[data-issue="title-over-561px"] th button').click();
      await expect.poll(() => page.getByTestId('explorer-total').getAttribute('data-value')).toBe(String(issue.count));
      expect(await page.locator('[data-filter="title-over-561px"]').getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator('[data-filter="title-over-561px"] .count-badge').getAttribute('data-count')).toBe(String(issue.count));
      expect(await page.getByTestId('explorer-total').textContent()).toMatch(/^Page titles: Over 561 pixels/);
      await shot('explorer-en-dark');
    }, 120_000);

    it('downloads the overview as CSV from the web console', async () => {
      const csv = await page.evaluate(async () => {
        const res = await fetch('/overview.csv');
        return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
      });
      expect(csv.status).toBe(200);
      const records = parse(csv.text, { bom: true, columns: true }) as Record<string, string>[];
      expect(records.map((r) => [r.filter, Number(r.urls), r.priority])).toEqual(found.map((i) => [i.filter, i.count, i.priority]));
    });

    it('is in Chinese once chosen, the counts unchanged', async () => {
      await page.getByTestId('view-overview').click();
      await rows().first().waitFor();
      await page.getByTestId('language').selectOption('zh-CN');
      await expect.poll(() => rows().first().locator('.issue-priority').textContent()).toBe('高');
      expect(await rows().first().locator('th button').textContent()).toBe('失效的内部链接');
      expect(await page.locator('.overview .panel-title').textContent()).toBe('问题');
      expect(await rows().evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-count'))))).toEqual(found.map((i) => i.count));
      await shot('zh-CN-dark');
      await page.getByTestId('language').selectOption('en');
    });

    it("measures titles as Chromium's Arial does, to within a pixel", async () => {
      const texts = [
        'Page 1',
        'W'.repeat(40),
        'A rather long page title for page number 7 that goes on past sixty characters',
        'illicit lilies',
      ];
      // Evaluated as a string: the test's own types have no DOM.
      const measured = (await page.evaluate(`(() => {
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = '20px Arial';
        return ${JSON.stringify(texts)}.map((t) => ctx.measureText(t).width);
      })()`)) as number[];
      texts.forEach((t, i) => expect({ t, off: Math.abs(titlePixelWidth(t) - measured[i]!) < 1 }).toEqual({ t, off: true }));
    });
  },
);
