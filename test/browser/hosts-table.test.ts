// The Hosts view in Chromium via the web console, after a real crawl of more hosts than a page of the old pager held:
// a hub page on 127.0.0.1 links to HOSTS other servers (one port each, so one host:port each), checked for their
// status. The Hosts view scrolls through every host in the workbench's virtual table, asking the host for windows of
// rows only, sorted in SQL, with no paging control; its columns are the virtual table's (resized, moved, hidden).
// And the same crawl's throughput chart keeps its time axis's last label whole at the chart's right edge.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, openGroup, until, waitForState } from './workbench-flow.ts';

/** More than the 200 hosts a page of the old pager showed. */
const HOSTS = 250;
/** The most rows a window asks for (PAGE_SIZE in results-window.ts). */
const WINDOW = 100;

function page(body: string, status = 200): http.RequestListener {
  return (req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no robots.txt');
      return;
    }
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };
}

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `the Hosts view in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let tab: Page;
    const sites: { origin: string; close(): Promise<void> }[] = [];
    let hub: string;
    const crawlsDir = tempDir('trawl-hosts-');
    /** hostsReport windows the page asked for: [offset, limit]. */
    const windows: [number, number][] = [];

    beforeAll(async () => {
      for (let i = 0; i < HOSTS; i++) {
        // A few hosts answer 404: an error in the Errors column.
        sites.push(await listenOnLoopback(http.createServer(page(`<title>Host ${i}</title><p>host ${i}</p>`, i % 50 === 0 ? 404 : 200))));
      }
      const links = sites.map((s) => `<a href="${s.origin}/">${s.origin}</a>`).join('\n');
      const hubSite = await listenOnLoopback(http.createServer(page(`<title>Hub</title>${links}`)));
      sites.push(hubSite);
      hub = hubSite.origin;
      server = startServe(crawlsDir);
      const url = await server.url;
      browser = await launchChromium();
      tab = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      tab.on('websocket', (ws) =>
        ws.on('framesent', (f) => {
          const text = typeof f.payload === 'string' ? f.payload : f.payload.toString();
          const m = /"hostsReport".*"offset":(\d+).*"limit":(\d+)/.exec(text);
          if (m) windows.push([Number(m[1]), Number(m[2])]);
        }),
      );
      fs.mkdirSync(path.join(ROOT, ARTIFACTS), { recursive: true });
      await tab.goto(url);
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await Promise.all(sites.map((s) => s.close()));
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) => tab.screenshot({ path: path.join(ROOT, ARTIFACTS, `hosts-${name}.png`) }).then(() => undefined);
    const table = '.hosts-view .vtable';

    it('scrolls through every host of a crawl to the last one, a window at a time, with no pager', async () => {
      await tab.locator('textarea[name="seeds"]').fill(`${hub}/`);
      await tab.locator('input[id$="-threads"]').fill('8');
      await openGroup(tab, 'check');
      await tab.getByTestId('setting-check-external').check();
      await tab.getByTestId('start').click();
      await waitForState(tab, 'finished', 120_000);

      await tab.getByTestId('view-hosts').click();
      await until(
        async () => Number(await tab.getByTestId('hosts-total').getAttribute('data-value')),
        (n) => n === HOSTS + 1,
        'every host in the Hosts view',
      );
      await tab.locator(`${table} [data-host-row]`).first().waitFor();
      // By host name, A to Z: the last host is the greatest origin (SQLite compares the text as bytes, as sort() does).
      await tab.locator(`${table} .rhead [data-sort="origin"]`).click();
      await expect.poll(() => tab.locator(`${table} .rhead [data-column="origin"]`).getAttribute('aria-sort')).toBe('ascending');
      const origins = [...sites.map((s) => s.origin)].sort();
      const first = origins[0]!;
      const last = origins.at(-1)!;
      await tab.locator(`${table} [data-host-row="${first}"]`).waitFor();
      await shot('top');

      // No paging control anywhere in the view: the table scrolls.
      expect(await tab.locator('.hosts-view .pager').count()).toBe(0);
      expect(
        await tab
          .locator('.hosts-view')
          .getByRole('button', { name: /next|previous/i })
          .count(),
      ).toBe(0);
      expect(await tab.locator(`${table} [data-host-row="${last}"]`).count()).toBe(0);

      await tab.locator(table).evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      const row = tab.locator(`${table} [data-host-row="${last}"]`);
      await row.waitFor();
      expect(await row.getAttribute('aria-rowindex')).toBe(String(HOSTS + 2));
      expect(await row.locator('[data-col="crawled"]').textContent()).toBe('1');
      // In view, not just in the page.
      const [box, view] = await Promise.all([row.boundingBox(), tab.locator(table).boundingBox()]);
      expect(box!.y).toBeGreaterThanOrEqual(view!.y);
      expect(box!.y + box!.height).toBeLessThanOrEqual(view!.y + view!.height + 1);
      await shot('bottom');

      // Only the rows in view are in the page, and the host was asked for windows of rows, never all of them.
      expect(await tab.locator(`${table} [role="row"]`).count()).toBeLessThan(80);
      expect(windows.length).toBeGreaterThan(1);
      for (const [, limit] of windows) expect(limit).toBeLessThanOrEqual(WINDOW);
      expect(Math.max(...windows.map(([offset]) => offset))).toBeGreaterThanOrEqual(WINDOW * 2);

      // Sorted in SQL over every host: Z to A puts the last host first.
      await tab.locator(`${table} .rhead [data-sort="origin"]`).click();
      await expect.poll(() => tab.locator(`${table} .rhead [data-column="origin"]`).getAttribute('aria-sort')).toBe('descending');
      await tab.locator(`${table} [data-host-row]`).first().waitFor();
      await expect.poll(() => tab.locator(`${table} [data-host-row]`).first().getAttribute('data-host-row')).toBe(last);
    }, 240_000);

    it('has the virtual table’s column layout: a column hidden from the menu and resized by its handle', async () => {
      const headers = () =>
        tab.locator(`${table} .rhead [role="columnheader"]`).evaluateAll((hs) => hs.map((h) => h.getAttribute('data-column')));
      expect(await headers()).toEqual(['origin', 'crawled', 'queued', 'in_flight', 'bytes', 'errors', 'politeness', 'delay', 'robots']);
      await tab.locator('.hosts-view').getByTestId('columns-open').click();
      await tab.locator('.hosts-view [data-menu-column="delay"] input').uncheck();
      await expect.poll(headers).not.toContain('delay');
      await tab.locator('.hosts-view').getByTestId('columns-open').click();
      const width = () => tab.locator(`${table} .rhead [data-column="origin"]`).evaluate((h) => h.getBoundingClientRect().width);
      const before = await width();
      const handle = await tab.locator(`${table} .rhead [data-resize="origin"]`).boundingBox();
      await tab.mouse.move(handle!.x + handle!.width / 2, handle!.y + handle!.height / 2);
      await tab.mouse.down();
      await tab.mouse.move(handle!.x + 120, handle!.y + handle!.height / 2, { steps: 5 });
      await tab.mouse.up();
      await expect.poll(width).toBeGreaterThan(before + 60);
      await shot('layout');
      await tab.locator('.hosts-view').getByTestId('columns-open').click();
      await tab.locator('.hosts-view').getByTestId('columns-reset').click();
      await expect.poll(headers).toContain('delay');
    }, 60_000);

    it('keeps the time axis’s last label whole at the right edge of the throughput chart', async () => {
      await tab.getByTestId('view-reports').click();
      const card = tab.locator('.chart-card[data-chart="over-time"]');
      await until(
        async () => Number(await card.getAttribute('data-total')),
        (n) => n > 0,
        'the throughput chart',
      );
      await tab.waitForTimeout(300);
      await card.screenshot({ path: path.join(ROOT, ARTIFACTS, 'hosts-reports-over-time.png') });
      // Ink in the canvas's last columns, below the plot (where the time axis writes its labels): a label cut short.
      const ink = await card.locator('canvas').evaluate((canvas) => {
        // (Runs in the page; the tests' types have no DOM.)
        const c = canvas as unknown as {
          width: number;
          height: number;
          getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
        };
        const dpr = (globalThis as unknown as { devicePixelRatio: number }).devicePixelRatio;
        const cols = Math.ceil(4 * dpr);
        const rows = Math.ceil(40 * dpr);
        const data = c.getContext('2d').getImageData(c.width - cols, c.height - rows, cols, rows).data;
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
        return n;
      });
      expect(ink).toBe(0);
    }, 60_000);

    it('keeps the explorer table usable beside the URL detail pane at 1440 px with the sidebar open', async () => {
      await tab.getByTestId('view-explorer').click();
      const explorer = '.explorer .vtable';
      await tab.locator(`${explorer} [data-explorer-url]`).first().click();
      await tab.locator('.url-detail').waitFor();
      expect(await tab.locator('.sidebar').isVisible()).toBe(true);
      await tab.waitForTimeout(300);
      await shot('explorer-detail');
      const m = await tab.locator(explorer).evaluate((el) => {
        const view = el.getBoundingClientRect();
        const head = (id: string) => el.querySelector(`.rhead [data-column="${id}"]`)!.getBoundingClientRect();
        return {
          width: view.width,
          right: view.right,
          url: head('url').right,
          status: head('status').right,
          indexability: head('indexability').right,
          title: head('title').right,
          scroll: el.scrollWidth > el.clientWidth,
        };
      });
      // URL, status and indexability whole, the title begun, the rest a sideways scroll away; the pane whole in the window.
      expect(m.width).toBeGreaterThanOrEqual(560);
      expect(m.status).toBeLessThanOrEqual(m.right);
      expect(m.indexability).toBeLessThanOrEqual(m.right);
      expect(m.scroll).toBe(true);
      const pane = await tab.locator('.url-detail').boundingBox();
      expect(pane!.width).toBeGreaterThanOrEqual(320);
      expect(pane!.x + pane!.width).toBeLessThanOrEqual(1440);
      expect(pane!.x).toBeGreaterThanOrEqual(m.right - 1);
      // A window too narrow for both: the pane lies over the table, whole.
      await tab.setViewportSize({ width: 1100, height: 900 });
      await expect
        .poll(() =>
          tab
            .locator('.url-detail')
            .evaluate(
              (el) => (globalThis as unknown as { getComputedStyle(e: unknown): { position: string } }).getComputedStyle(el).position,
            ),
        )
        .toBe('absolute');
      const over = await tab.locator('.url-detail').boundingBox();
      expect(over!.width).toBeGreaterThanOrEqual(320);
      expect(over!.x + over!.width).toBeLessThanOrEqual(1100);
      await shot('explorer-detail-1100');
      await tab.setViewportSize({ width: 1440, height: 900 });
    }, 60_000);
  },
);
