// What a person sees of the start form's rules, the Reports and the Compare views, in real Chromium against
// `npm run serve` and a fixture site: a refused Start crawl takes them to the first invalid field and says how many
// there are; the form starts from the last crawl's settings after a reload and says so; the throughput legend
// names the latest second and the live chart leaves out the second still filling; a comparison with nothing changed
// says so, and one with removed URLs opens on them with the reason each is gone. Screenshots go to the notes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, openGroup, until, waitForState } from './workbench-flow.ts';

const SHOTS = process.env['TRAWL_SHOTS_DIR'] ?? path.join(ROOT, ARTIFACTS);
// The reports test stops its crawl once it has read the live chart: 240 pages of 250 ms at one thread would take a
// minute, room for a slow first answer on a loaded machine.
const PAGES = 240;
// Each test crawls and reloads, on a shared machine at idle priority: loose bounds, only to catch a hang.
const TEST_MS = 180_000;

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `start form, reports and compare in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let site: FixtureSite;
    let server: ServeProcess;
    let url: string;
    let browser: Browser;
    let page: Page;
    const crawlsDir = tempDir('trawl-forms-e2e-');
    // The second crawl of the /r/ pages: /r/b is no longer linked.
    let second = false;

    beforeAll(async () => {
      const words = 'Plenty of words on this page so that a link less does not move the word count much. '.repeat(20);
      const html = (title: string, links: string[]) =>
        `<!doctype html><title>${title}</title><h1>${title}</h1><p>${words}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}`;
      site = await startFixtureSite({
        pages: PAGES,
        linksPerPage: 3,
        delayMs: (p) => (p.startsWith('/p/') ? 250 : 0),
        routes: {
          '/r/start': (_req, res) =>
            void res
              .writeHead(200, { 'content-type': 'text/html' })
              .end(html('Start', second ? ['/r/a', '/r/private'] : ['/r/a', '/r/b', '/r/private'])),
          '/r/a': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('A', [])),
          '/r/b': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('B', [])),
          '/r/private': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Private', [])),
        },
      });
      server = startServe(crawlsDir);
      url = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      fs.mkdirSync(SHOTS, { recursive: true });
    });

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
    });

    const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `forms-${name}.png`) }).then(() => undefined);

    /** Starts a crawl from the form as it stands and waits until it has finished. */
    const crawl = async (what: string) => {
      const before = await page.locator('.crawl-title-name').textContent();
      await page.getByTestId('start').click();
      await until(
        () => page.locator('.crawl-title-name').textContent(),
        (name) => name !== before,
        `${what} in the title`,
      );
      await waitForState(page, 'finished', 60_000);
    };

    it(
      'takes a refused start to the first invalid field, scrolled into view and focused, and says how many are invalid',
      async () => {
        await page.goto(url);
        await page.evaluate("window.localStorage.removeItem('trawl.lastCrawlSettings')");
        await page.reload();
        await page.locator('textarea[name="seeds"]').fill(site.url('/r/start'));
        // Two problems deep in closed groups, far below the fold of the sidebar.
        await openGroup(page, 'politeness');
        await page.getByTestId('setting-max-attempts').fill('lots');
        await openGroup(page, 'more');
        await page.getByTestId('setting-max-body-bytes').fill('big');
        await page.getByTestId('group-politeness').locator('summary').click();
        await page.getByTestId('group-more').locator('summary').click();
        await page.locator('textarea[name="seeds"]').scrollIntoViewIfNeeded();
        await page.getByTestId('start').click();

        await until(
          async () =>
            (await page.evaluate("document.activeElement && document.activeElement.getAttribute('data-testid')")) as string | null,
          (id) => id === 'setting-max-attempts',
          'the focus on the first invalid field',
        );
        const [top, bottom] = await page.getByTestId('setting-max-attempts').evaluate((el) => {
          const r = el.getBoundingClientRect();
          return [r.top, r.bottom];
        });
        // In the viewport (the page itself does not scroll: the sidebar does).
        expect(top).toBeGreaterThanOrEqual(0);
        expect(bottom).toBeLessThanOrEqual(page.viewportSize()!.height);
        const count = page.getByTestId('start-invalid');
        expect(await count.getAttribute('data-count')).toBe('2');
        expect(await count.textContent()).toBe('2 fields are invalid: fix them to start.');
        await shot('invalid-start');
        await page.getByTestId('start').scrollIntoViewIfNeeded();
        await shot('invalid-start-count');
        // Mending one field says one is left.
        await page.getByTestId('setting-max-attempts').fill('3');
        expect(await count.textContent()).toBe('1 field is invalid: fix it to start.');
        await page.getByTestId('setting-max-body-bytes').fill('');
        expect(await count.count()).toBe(0);
        // Nothing was started.
        expect(fs.readdirSync(crawlsDir).filter((f) => f.endsWith('.trawl'))).toHaveLength(0);
      },
      TEST_MS,
    );

    it(
      'starts the form from the last crawl after a reload, says so, and resets to the defaults for good',
      async () => {
        await page.goto(url);
        expect(await page.getByTestId('settings-origin').getAttribute('data-origin')).toBe('defaults');
        expect(await page.getByTestId('settings-origin').textContent()).toContain("Each crawl's settings are kept for the next one");
        await page.locator('textarea[name="seeds"]').fill(site.url('/r/start'));
        await page.getByTestId('setting-threads').fill('3');
        await openGroup(page, 'request');
        await page.getByTestId('setting-headers').fill('X-Token: secret-value');
        await crawl('the first crawl of /r/');
        // In this session the form keeps what was typed, the header too; the line says where it came from.
        expect(await page.getByTestId('setting-headers').inputValue()).toBe('X-Token: secret-value');
        expect(await page.getByTestId('setting-threads').inputValue()).toBe('3');
        expect(await page.getByTestId('settings-origin').getAttribute('data-origin')).toBe('last');
        await page.reload();
        await page.getByTestId('settings-origin').waitFor();
        expect(await page.getByTestId('settings-origin').getAttribute('data-origin')).toBe('last');
        expect(await page.getByTestId('settings-origin').textContent()).toMatch(
          /^Settings of your last crawl \(started [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s?[AP]M\); its headers and password are never kept · Reset to defaults$/,
        );
        expect(await page.getByTestId('setting-threads').inputValue()).toBe('3');
        expect(await page.locator('textarea[name="seeds"]').inputValue()).toBe(site.url('/r/start'));
        await openGroup(page, 'request');
        expect(await page.getByTestId('setting-headers').inputValue()).toBe('');
        const kept = (await page.evaluate("window.localStorage.getItem('trawl.lastCrawlSettings')")) as string | null;
        expect(kept).toContain('/r/start');
        expect(kept).not.toContain('secret-value');
        await shot('settings-from-last-crawl');

        await page.getByTestId('reset-settings').click();
        expect(await page.getByTestId('setting-threads').inputValue()).toBe('5');
        expect(await page.getByTestId('settings-origin').getAttribute('data-origin')).toBe('defaults');
        await page.reload();
        await page.getByTestId('settings-origin').waitFor();
        expect(await page.getByTestId('setting-threads').inputValue()).toBe('5');
        expect(await page.getByTestId('settings-origin').getAttribute('data-origin')).toBe('defaults');
      },
      TEST_MS,
    );

    it(
      'compares: opens on the removed URLs with why each is gone, and says when nothing changed',
      async () => {
        await page.goto(url);
        // The second crawl: /r/b no longer linked, /r/private excluded by its settings.
        second = true;
        await page.locator('textarea[name="seeds"]').fill(site.url('/r/start'));
        await openGroup(page, 'scope');
        await page.getByTestId('setting-exclude').fill('/private$');
        await crawl('the second crawl of /r/');
        await page.getByTestId('view-compare').click();
        await expect.poll(() => page.getByTestId('compare-old').locator('option').count()).toBeGreaterThan(2);
        // Newest first in the pickers: the first crawl is the older, the second the newer.
        await page.getByTestId('compare-old').selectOption({ index: 2 });
        await page.getByTestId('compare-new').selectOption({ index: 1 });
        await page.getByTestId('compare-run').click();
        const rows = page.locator('[data-testid="compare-rows"][data-kind="removed"] [data-compare-url]');
        await until(
          () => rows.count(),
          (n) => n === 2,
          'the removed URLs, opened on',
        );
        const reasons = await rows.evaluateAll((trs) =>
          Object.fromEntries(
            trs.map((tr) => [tr.getAttribute('data-compare-url'), tr.querySelector('.compare-reason')?.textContent ?? '']),
          ),
        );
        expect(reasons).toEqual({
          [site.url('/r/b')]: 'no longer linked: the newer crawl found no link to it',
          [site.url('/r/private')]: 'out of scope: excluded by the newer crawl\u2019s settings (scope, include or exclude patterns)',
        });
        expect(await page.locator('[data-change="removed"]').getAttribute('aria-pressed')).toBe('true');
        expect(await page.getByTestId('compare-sentence').textContent()).toBe('0 added, 2 removed, 0 changed (of 4 URLs before, 2 after).');
        await shot('compare-removed');

        // The same settings again: nothing changed, and no empty "removed" list is opened.
        await crawl('the third crawl of /r/');
        await page.getByTestId('compare-old').selectOption({ index: 2 });
        await page.getByTestId('compare-new').selectOption({ index: 1 });
        await page.getByTestId('compare-run').click();
        await until(
          () => page.getByTestId('compare-sentence').textContent(),
          (t) => t === 'No differences: the same 2 URLs, none added, removed or changed.',
          'the comparison of two equal crawls',
        );
        expect(await page.getByTestId('compare-rows').count()).toBe(0);
        expect(await page.locator('[data-change][aria-pressed="true"]').count()).toBe(0);
        await shot('compare-no-differences');
      },
      TEST_MS,
    );

    it(
      'reports: the live chart leaves out the second still filling; the legend names the latest second or the hovered one',
      async () => {
        await page.goto(url);
        await page.getByTestId('settings-origin').waitFor();
        if (await page.getByTestId('reset-settings').count()) await page.getByTestId('reset-settings').click();
        await page.locator('textarea[name="seeds"]').fill(site.url('/p/0'));
        // One thread: the pages of 250 ms would take a minute, and the crawl is stopped once the live chart is read. A
        // crawl of 4.5 s, then of 15 s, was twice over in CI before the chart was seen live.
        await page.getByTestId('setting-threads').fill('1');
        await page.getByTestId('view-reports').click();
        const before = await page.locator('.crawl-title-name').textContent();
        await page.getByTestId('start').click();
        await until(
          () => page.locator('.crawl-title-name').textContent(),
          (name) => name !== before,
          'the crawl in the title',
        );
        const chart = page.locator('.chart-card[data-chart="over-time"]');
        // While it runs: an answer whose last second had not ended is drawn without it. The four attributes are
        // read at once: read one by one, a new answer could land between them. Only a reading taken while the card
        // itself still shows the crawl live counts: once it has ended, the open second is drawn (see below), and on a
        // loaded machine the first open answer read was once from after the end.
        const started = Date.now();
        const readings: string[] = [];
        const seen = await until(
          async () => {
            const s = await chart.evaluate((el) => ({
              live: el.getAttribute('data-live'),
              open: el.getAttribute('data-open-bucket'),
              buckets: Number(el.getAttribute('data-buckets')),
              drawn: Number(el.getAttribute('data-drawn')),
              state: el.ownerDocument.querySelector('.state-badge')?.getAttribute('data-state'),
            }));
            const text = JSON.stringify(s);
            if (readings.at(-1)?.endsWith(text) !== true) readings.push(`${Date.now() - started} ms ${text}`);
            return s;
          },
          (s) => s.live === 'true' && s.open === 'true' && s.buckets >= 2,
          'a live answer with its last second still filling',
          50_000,
        ).catch((err: Error) => {
          throw new Error(`${err.message}\n${readings.join('\n')}`);
        });
        expect(seen.drawn).toBe(seen.buckets - 1);
        const legend = page.getByTestId('chart-legend-value');
        expect(await legend.textContent()).toMatch(/^Latest second: .+ · [\d.,]+ pages\/s · \d+ errors?$/);
        await shot('reports-live');
        await page.getByTestId('stop').click();
        await waitForState(page, 'finished', 60_000);
        // Finished: every second is drawn (the last one too, even if the final answer came before it ended), and the
        // legend names the last one, never "--".
        await until(
          () => chart.evaluate((el) => [el.getAttribute('data-drawn'), el.getAttribute('data-buckets')]),
          ([drawn, buckets]) => drawn !== null && drawn === buckets,
          'the finished chart drawn whole',
        );
        expect(await legend.textContent()).toMatch(/^Latest second: /);
        expect(await legend.textContent()).not.toContain('--');
        const box = (await chart.locator('.u-over').boundingBox())!;
        await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
        await until(
          async () => (await legend.textContent()) ?? '',
          (t) => !t.startsWith('Latest') && / pages\/s · /.test(t),
          'the hovered second in the legend',
        );
        await shot('reports-hover');
        await page.mouse.move(0, 0);
        await until(
          async () => (await legend.textContent()) ?? '',
          (t) => t.startsWith('Latest second: '),
          'the latest second in the legend again',
        );
        await shot('reports-finished');
      },
      TEST_MS,
    );
  },
);
