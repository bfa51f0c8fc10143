// The workbench's one table and one detail pane in Chromium via the web console, over a large crawl file (built
// straight into SQLite, no crawl run): the live results and the explorer scroll through every row, fetching
// windows of rows; a column resized, moved and hidden stays so after a reload until reset; a URL's detail opens
// from both tables, a link in it opens in the pane and Back returns.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, until, waitForState } from './workbench-flow.ts';

const ROWS = 100_000;
/** A window of rows the tables ask the host for at most (PAGE_SIZE in results-window.ts). */
const WINDOW = 100;

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `the table and the detail pane in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let site: FixtureSite;
    let browser: Browser;
    let page: Page;
    const crawlsDir = tempDir('trawl-table-');
    /** Row windows the page asked for: [command, offset, limit]. */
    const windows: [string, number, number][] = [];

    beforeAll(async () => {
      const built = buildSyntheticCrawl(path.join(crawlsDir, 'big.trawl'), { results: ROWS, queued: 0 });
      built.db.close();
      site = await startFixtureSite({ pages: 60, linksPerPage: 4, delayMs: 400 });
      server = startServe(crawlsDir);
      const url = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      page.on('websocket', (ws) =>
        ws.on('framesent', (f) => {
          const text = typeof f.payload === 'string' ? f.payload : f.payload.toString();
          const m = /"(queryResults|queryFiltered)".*"offset":(\d+).*"limit":(\d+)/.exec(text);
          if (m) windows.push([m[1]!, Number(m[2]), Number(m[3])]);
        }),
      );
      fs.mkdirSync(path.join(ROOT, ARTIFACTS), { recursive: true });
      await page.goto(url);
      // Writing the rows takes a while on a busy machine.
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) =>
      page.screenshot({ path: path.join(ROOT, ARTIFACTS, `table-${name}.png`), fullPage: false }).then(() => undefined);
    const total = async (testId: string) => Number(await page.getByTestId(testId).getAttribute('data-value'));
    const headers = (table: string) =>
      page.locator(`${table} .rhead [role="columnheader"]`).evaluateAll((hs) => hs.map((h) => h.getAttribute('data-column')));
    const headerWidth = (table: string, id: string) =>
      page.locator(`${table} .rhead [data-column="${id}"]`).evaluate((h) => h.getBoundingClientRect().width);
    /** Scrolls a table to a fraction of its height in steps, giving the longest gap between animation frames meanwhile. */
    const scrollThrough = (table: string, to: number) =>
      page.locator(table).evaluate(async (el, fraction) => {
        // (Runs in the page; the tests' types have no DOM.)
        const raf = (globalThis as unknown as { requestAnimationFrame(cb: (t: number) => void): number }).requestAnimationFrame.bind(
          globalThis,
        );
        let longest = 0;
        let last = performance.now();
        let running = true;
        const tick = (t: number) => {
          longest = Math.max(longest, t - last);
          last = t;
          if (running) raf(tick);
        };
        raf(tick);
        const target = (el.scrollHeight - el.clientHeight) * fraction;
        for (let i = 1; i <= 30; i++) {
          el.scrollTop = (target * i) / 30;
          await new Promise((r) => setTimeout(r, 16));
        }
        await new Promise((r) => setTimeout(r, 300));
        running = false;
        return longest;
      }, to);
    const lastRowIndex = (table: string, attr: string) =>
      page.locator(`${table} [${attr}]`).evaluateAll((rows) => Math.max(...rows.map((r) => Number(r.getAttribute('aria-rowindex')))));

    it('scrolls the live results through every row, a window at a time, and opens the one detail pane', async () => {
      await page.locator('.crawl-item[data-crawl-file="big.trawl"]').getByTestId('open-crawl').click();
      await until(
        () => total('results-total'),
        (n) => n === ROWS,
        'the crawl file in the results',
      );
      const table = '.results-panel .vtable';
      await page.locator(`${table} [data-row-url]`).first().waitFor();
      // At 1440 px with the sidebar open the title column is in view, whole.
      expect(await page.locator('.sidebar').isVisible()).toBe(true);
      const [title, view] = await Promise.all([
        page.locator(`${table} .rhead [data-column="title"]`).boundingBox(),
        page.locator(table).boundingBox(),
      ]);
      expect(title!.x + title!.width).toBeLessThanOrEqual(view!.x + view!.width);
      await shot('results-1440');
      const longest = await scrollThrough(table, 1);
      await until(
        () => lastRowIndex(table, 'data-row-url'),
        (n) => n === ROWS + 1,
        'the last row in view',
      );
      console.log(`results: longest frame gap while scrolling through ${ROWS} rows: ${Math.round(longest)} ms`);
      // Only the rows in view are in the page, and only windows of rows were asked for.
      expect(await page.locator(`${table} [role="row"]`).count()).toBeLessThan(80);
      const asked = windows.filter(([c]) => c === 'queryResults');
      expect(asked.every(([, , limit]) => limit <= WINDOW)).toBe(true);
      expect(asked.length).toBeLessThan(ROWS / WINDOW / 10);

      // A row's details: every field, the headers, links; a link opens in the pane and Back returns.
      await page.locator(`${table}`).evaluate((el) => (el.scrollTop = 0));
      const first = page.locator(`${table} [data-row-url][aria-rowindex="2"]`);
      const url = (await first.getAttribute('data-row-url'))!;
      await first.click();
      const pane = page.getByTestId('url-detail');
      await expect.poll(() => pane.getByTestId('detail-url').first().textContent()).toBe(url);
      await pane.getByTestId('detail-headers').waitFor();
      expect(await pane.locator('dt').allTextContents()).toEqual(
        expect.arrayContaining(['Meta description', 'H1', 'Canonical', 'Attempts', 'content-type', 'price']),
      );
      await pane.getByTestId('detail-outlinks').waitFor();
      await shot('results-detail');
      await followLinkAndBack(page, url, 'detail-outlinks');
      await page.getByLabel('close details').click();
    });

    it('resizes, moves and hides columns, keeps the layout after a reload, and resets it', async () => {
      const table = '.results-panel .vtable';
      await expect.poll(async () => (await headers(table)).slice(0, 3)).toEqual(['url', 'status', 'x0']);
      const before = await headers(table);

      // Resize the title by dragging its right edge.
      const titleWidth = await headerWidth(table, 'title');
      await page.locator(`${table} .rhead [data-column="title"]`).scrollIntoViewIfNeeded();
      const handle = await page.locator(`${table} [data-resize="title"]`).boundingBox();
      await page.mouse.move(handle!.x + handle!.width / 2, handle!.y + handle!.height / 2);
      await page.mouse.down();
      await page.mouse.move(handle!.x + 60, handle!.y + 5, { steps: 4 });
      await page.mouse.move(handle!.x + 124, handle!.y + 5, { steps: 4 });
      await page.mouse.up();
      const resized = await headerWidth(table, 'title');
      expect(resized).toBeGreaterThan(titleWidth + 80);
      // The cells follow their header.
      expect(
        await page
          .locator(`${table} [data-row-url] .c-title`)
          .first()
          .evaluate((c) => c.getBoundingClientRect().width),
      ).toBeCloseTo(resized, 0);

      // Move Title before Status by dragging its header there; hide Kind from the column menu.
      await page.locator(`${table}`).evaluate((el) => (el.scrollLeft = 0));
      await page.locator(`${table} .rhead [data-column="title"]`).dragTo(page.locator(`${table} .rhead [data-column="status"]`));
      await expect.poll(() => headers(table)).toEqual(expect.arrayContaining(['title']));
      const moved = await headers(table);
      expect(moved.indexOf('title')).toBe(moved.indexOf('status') - 1);
      await page.getByTestId('columns-open').click();
      const menu = page.getByTestId('column-menu');
      await menu.locator('[data-menu-column="kind"] input').uncheck();
      // And Depth one place left from the menu.
      const depthAt = (await headers(table)).indexOf('depth');
      await menu.locator('[data-move-left="depth"]').click();
      await shot('column-menu');
      await page.keyboard.press('Escape');
      const arranged = await headers(table);
      expect(arranged).not.toContain('kind');
      expect(arranged.indexOf('depth')).toBe(depthAt - 1);

      // Reload: the layout is the same.
      await page.reload();
      await page.locator('.crawl-item[data-crawl-file="big.trawl"]').getByTestId('open-crawl').click();
      await page.locator(`${table} [data-row-url]`).first().waitFor();
      await expect.poll(() => headers(table)).toEqual(arranged);
      expect(Math.abs((await headerWidth(table, 'title')) - resized)).toBeLessThan(2);
      await shot('layout-restored');

      // Reset: the default columns again, and so after another reload.
      await page.getByTestId('columns-open').click();
      await page.getByTestId('columns-reset').click();
      await expect.poll(() => headers(table)).toEqual(before);
      await page.reload();
      await page.locator('.crawl-item[data-crawl-file="big.trawl"]').getByTestId('open-crawl').click();
      await page.locator(`${table} [data-row-url]`).first().waitFor();
      // The extraction rule's column (x0) comes with the crawl's settings, which may arrive after its first rows.
      await expect.poll(() => headers(table)).toEqual(before);
    });

    it('scrolls the explorer through every row of a view, and opens the same detail pane there', async () => {
      windows.length = 0;
      await page.getByTestId('view-explorer').click();
      await until(
        () => total('explorer-total'),
        (n) => n >= ROWS,
        'the All view',
      );
      const all = await total('explorer-total');
      const table = '.explorer-table .vtable';
      await page.locator(`${table} [data-explorer-url]`).first().waitFor();
      const longest = await scrollThrough(table, 1);
      await until(
        () => lastRowIndex(table, 'data-explorer-url'),
        (n) => n === all + 1,
        'the last row of the view',
      );
      console.log(`explorer: longest frame gap while scrolling through ${all} rows: ${Math.round(longest)} ms`);
      expect(await page.locator(`${table} [role="row"]`).count()).toBeLessThan(80);
      const asked = windows.filter(([c]) => c === 'queryFiltered');
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every(([, , limit]) => limit <= WINDOW)).toBe(true);
      expect(asked.length).toBeLessThan(all / WINDOW / 10);
      await shot('explorer-scrolled');

      // The explorer keeps a layout of its own: hide Words here, and the live table still has its words.
      await page.getByTestId('columns-open').click();
      await page.getByTestId('column-menu').locator('[data-menu-column="words"] input').uncheck();
      await page.keyboard.press('Escape');
      expect(await headers(table)).not.toContain('words');

      // A row's details: the same pane, with every field; a link there and back.
      await page.locator(`${table}`).evaluate((el) => (el.scrollTop = 0));
      const first = page.locator(`${table} [data-explorer-url][aria-rowindex="2"]`);
      const url = (await first.getAttribute('data-explorer-url'))!;
      await first.click();
      const pane = page.getByTestId('url-detail');
      await expect.poll(() => pane.getByTestId('detail-url').first().textContent()).toBe(url);
      await pane.getByTestId('detail-headers').waitFor();
      expect(await pane.locator('dt').allTextContents()).toEqual(expect.arrayContaining(['Meta description', 'H1', 'Canonical']));
      await shot('explorer-detail');
      await followLinkAndBack(page, url, 'detail-outlinks');
      await page.getByLabel('close details').click();
      await page.getByTestId('view-live').click();
      await page.locator('.results-panel .vtable [data-row-url]').first().waitFor();
      expect(await headers('.results-panel .vtable')).toContain('words');
    });

    it("shows each thread cell's whole footer at 1440 px with the sidebar open", async () => {
      await page.locator('textarea[name="seeds"]').fill(site.url('/p/0'));
      await page.locator('input[id$="-threads"]').fill('4');
      await page.getByTestId('start').click();
      await waitForState(page, 'running');
      await page.locator('[data-thread-id][data-processor="fetch-http"]').first().waitFor();
      expect(await page.locator('.sidebar').isVisible()).toBe(true);
      // Nothing in a footer is cut short (a cut text is wider than its box).
      const cut = await page
        .locator('.cell-foot > span')
        .evaluateAll((spans) => spans.filter((s) => s.scrollWidth > s.clientWidth + 1).map((s) => s.textContent));
      await shot('threads-1440');
      expect(cut).toEqual([]);
      await page.getByTestId('stop').click();
      await waitForState(page, 'finished', 30_000);
    });
  },
);

/** In the detail pane of `url`: opens the first link of a list in the pane, then Back returns and Forward goes again. */
async function followLinkAndBack(page: Page, url: string, list: string): Promise<void> {
  const pane = page.getByTestId('url-detail');
  const link = pane.getByTestId(list).locator(`[data-open-url]:not([data-open-url="${url}"])`).first();
  const target = (await link.getAttribute('data-open-url'))!;
  expect(target).not.toBe(url);
  expect(await pane.getByTestId('detail-back').isDisabled()).toBe(true);
  await link.click();
  await expect.poll(() => pane.getByTestId('detail-url').first().textContent()).toBe(target);
  expect(await pane.getAttribute('data-history')).toBe('2/2');
  await pane.getByTestId('detail-back').click();
  await expect.poll(() => pane.getByTestId('detail-url').first().textContent()).toBe(url);
  expect(await pane.getByTestId('detail-forward').isEnabled()).toBe(true);
  await pane.getByTestId('detail-forward').click();
  await expect.poll(() => pane.getByTestId('detail-url').first().textContent()).toBe(target);
  await pane.getByTestId('detail-back').click();
  await expect.poll(() => pane.getByTestId('detail-url').first().textContent()).toBe(url);
}
