// Export XLSX beside Export CSV in the built app, in Chromium through the web console: the live results table's
// button downloads a workbook (by the page's cookie, no token in its address) with typed numbers, a frozen header
// row and an autofilter; a Reports chart's XLSX and the comparison's do the same. Screenshots of the export choices.
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { columnLetters } from '../../electron/engine/export/xlsx-writer.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, until, waitForState } from './workbench-flow.ts';

const PAGES = 6;

async function sheetOf(file: string): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  return book.worksheets[0]!;
}

const header = (sheet: ExcelJS.Worksheet) => (sheet.getRow(1).values as unknown[]).slice(1) as string[];

function expectFrozenAndFiltered(sheet: ExcelJS.Worksheet): void {
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  expect(sheet.autoFilter).toBe(`A1:${columnLetters(header(sheet).length)}${sheet.rowCount}`);
}

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `Export XLSX in Chromium via the web console${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let site: FixtureSite;
    let server: ServeProcess;
    let url: string;
    let browser: Browser;
    let page: Page;
    let crawlNo = 1;
    const shotsDir = path.join(ROOT, ARTIFACTS);

    beforeAll(async () => {
      const html = (title: string) => `<!doctype html><title>${title}</title><h1>${title}</h1><p>Some words here.</p>`;
      site = await startFixtureSite({
        pages: PAGES,
        linksPerPage: 3,
        routes: { '/formula': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html(`=${crawlNo}+${crawlNo}`)) },
      });
      server = startServe(tempDir('trawl-xlsx-'));
      url = await server.url;
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

    const shot = (name: string) => page.screenshot({ path: path.join(shotsDir, `xlsx-${name}.png`) }).then(() => undefined);

    /** The workbook a click downloads, saved beside the screenshots; its address must carry no token. */
    const download = async (name: string, click: () => Promise<void>): Promise<{ url: string; file: string }> => {
      const [d] = await Promise.all([page.waitForEvent('download'), click()]);
      expect(new URL(d.url()).searchParams.has('token')).toBe(false);
      expect(d.suggestedFilename()).toMatch(/\.xlsx$/);
      const file = path.join(shotsDir, `xlsx-${name}.xlsx`);
      await d.saveAs(file);
      return { url: d.url(), file };
    };

    async function crawl(): Promise<void> {
      await page.locator('textarea[name="seeds"]').fill(`${site.url('/p/0')}\n${site.url('/formula')}`);
      const before = await page.locator('.crawl-title-name').textContent();
      await page.getByTestId('start').click();
      await until(
        () => page.locator('.crawl-title-name').textContent(),
        (name) => name !== before,
        'the new crawl in the title',
      );
      await waitForState(page, 'finished', 60_000);
      await until(
        async () => Number(await page.getByTestId('results-total').getAttribute('data-value')),
        (n) => n === PAGES + 1,
        'every URL in the results',
      );
    }

    it("downloads the live table's Export XLSX as a workbook: numbers typed, header frozen, autofilter", async () => {
      await page.goto(url);
      await crawl();
      const button = page.getByTestId('export-xlsx');
      expect(await button.textContent()).toBe('Export XLSX');
      await page.locator('.results-panel .panel-bar').screenshot({ path: path.join(shotsDir, 'xlsx-results-bar.png') });
      await shot('results');
      const { url: address, file } = await download('results', () => button.click());
      expect(address).toBe(`${new URL(url).origin}/export.csv?format=xlsx`);
      const sheet = await sheetOf(file);
      const columns = header(sheet);
      expect(columns.slice(0, 3)).toEqual(['url', 'kind', 'status_code']);
      expect(sheet.rowCount).toBe(PAGES + 2);
      expectFrozenAndFiltered(sheet);
      const rows = Array.from({ length: PAGES + 1 }, (_, i) => sheet.getRow(i + 2));
      for (const row of rows) {
        expect(row.getCell(3).type).toBe(ExcelJS.ValueType.Number);
        expect(row.getCell(3).value).toBe(200);
        expect(row.getCell(columns.indexOf('word_count') + 1).type).toBe(ExcelJS.ValueType.Number);
      }
      const formula = rows.find((r) => r.getCell(1).value === site.url('/formula'))!;
      expect(formula.getCell(columns.indexOf('title') + 1).value).toBe("'=1+1");
    });

    it("downloads a chart's data and the comparison as workbooks too", async () => {
      await page.getByTestId('view-reports').click();
      const status = page.locator('[data-chart="status"]');
      await until(
        async () => Number(await status.getAttribute('data-total')),
        (n) => n === PAGES + 1,
        'the status chart',
      );
      await status.locator('.chart-head').screenshot({ path: path.join(shotsDir, 'xlsx-chart-head.png') });
      await shot('reports');
      const chart = await sheetOf((await download('chart', () => page.getByTestId('chart-xlsx-status').click())).file);
      expect(header(chart)).toEqual(['status_code', 'count']);
      expect((chart.getRow(2).values as unknown[]).slice(1)).toEqual([200, PAGES + 1]);
      expectFrozenAndFiltered(chart);

      crawlNo = 2;
      await page.getByTestId('view-live').click();
      await crawl();
      await page.getByTestId('view-compare').click();
      await expect.poll(() => page.getByTestId('compare-old').locator('option').count()).toBeGreaterThan(2);
      await page.getByTestId('compare-run').click();
      await page.getByTestId('compare-summary').waitFor();
      expect(await page.getByTestId('compare-export-xlsx').textContent()).toBe('Export XLSX');
      await shot('compare');
      const compared = await sheetOf((await download('compare', () => page.getByTestId('compare-export-xlsx').click())).file);
      expect(header(compared).slice(0, 5)).toEqual(['change', 'url', 'changed_fields', 'old_status_code', 'new_status_code']);
      expect(compared.rowCount).toBe(2);
      const changed = compared.getRow(2);
      expect(changed.getCell(4).value).toBe(200);
      expect(changed.getCell(4).type).toBe(ExcelJS.ValueType.Number);
      expect(changed.getCell(header(compared).indexOf('old_title') + 1).value).toBe("'=1+1");
      expect(changed.getCell(header(compared).indexOf('new_title') + 1).value).toBe("'=2+2");
      expectFrozenAndFiltered(compared);
    });
  },
);
