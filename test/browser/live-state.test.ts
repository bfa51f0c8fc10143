// What a person sees of a running crawl in Chromium through `npm run serve` (issue 15, "live state that is not
// true"): a URLs/s cap shown as its own step, thread numbers without a gap and a grid that does not move the results
// when resized, a pause that stops the clock, the running crawl kept out of the earlier crawls, a queue view whose
// numbers agree, a killed console shown as disconnected (and a restarted one as refusing the old token), and a
// reopened crawl's final figures.
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
import { counter, openGroup, setSlider, steps, until, waitForState } from './workbench-flow.ts';
import { STEP_LABELS } from '../../shared/steps.ts';
import type { ThreadStep } from '../../shared/steps.ts';

const SHOTS = process.env['TRAWL_SHOTS'] ?? path.join(ROOT, 'test-artifacts');

const threadIds = (page: Page) =>
  page.locator('[data-thread-id]').evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-thread-id'))));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const top = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!.y;
const height = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!.height;
const cellTimes = (page: Page) => page.locator('.cell-time').allTextContents();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `live state in Chromium via the web console${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let site: FixtureSite;
    let server: ServeProcess;
    let restarted: ServeProcess | null = null;
    let url: string;
    let browser: Browser;
    let page: Page;
    const crawlsDir = tempDir('trawl-live-state-');

    beforeAll(async () => {
      site = await startFixtureSite({ pages: 20_000, linksPerPage: 5, delayMs: 400 });
      server = startServe(crawlsDir);
      url = await server.url;
      browser = await launchChromium();
      // One context for the tabs: a link opened in one sets the cookie the others use.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      page = await context.newPage();
      fs.mkdirSync(SHOTS, { recursive: true });
    });

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await restarted?.stop();
      await site?.close();
    });

    const shot = (name: string, on: Page = page) => on.screenshot({ path: path.join(SHOTS, `live-${name}.png`) }).then(() => undefined);

    it('shows the truth about a running crawl, and about its host going away', async () => {
      await page.goto(url);
      await page.locator('textarea[name="seeds"]').fill(site.url('/p/0'));
      await page.locator('input[id$="-threads"]').fill('4');
      await openGroup(page, 'politeness');
      await page.getByTestId('setting-max-urls-per-second').fill('2');
      await page.getByTestId('start').click();
      await waitForState(page, 'running');
      await shot('running');

      // Under a URLs/s cap the idle threads wait on the rate limit, in their own word, never "politeness wait".
      const seen = new Set<string>();
      await until(
        async () => (await steps(page)).forEach((s) => seen.add(s)),
        () => seen.has('ratelimit'),
        'a thread waiting on the rate limit',
      );
      const word = await page.locator('.cell[data-step="ratelimit"] .cell-step').first().textContent();
      expect(word).toBe('rate limit');
      await shot('rate-cap');
      expect(seen.has('politeness')).toBe(false);

      // The running crawl is the live view's: the earlier crawls list does not show it (with a Resume button).
      await page.locator('.crawl-list .list-empty', { hasText: 'No earlier crawls: the crawl running is the live view.' }).waitFor();
      expect(await page.locator('.crawl-item').count()).toBe(0);
      expect(await page.getByTestId('resume-crawl').count()).toBe(0);

      // Uncapped, resized 10 -> 4 -> 16: the new threads are #5-#16, and the results do not move.
      await page.getByTestId('live-max-rate-remove').click();
      await setSlider(page, 10);
      await until(
        () => threadIds(page),
        (ids) => ids.length === 10,
        'ten threads',
      );
      const resultsTop = await top(page, '.results-panel');
      const panelHeight = await height(page, '.threads-panel');
      await setSlider(page, 4);
      await until(
        () => threadIds(page),
        (ids) => ids.length === 4,
        'four threads',
      );
      expect(await top(page, '.results-panel')).toBe(resultsTop);
      await setSlider(page, 16);
      const ids = await until(
        () => threadIds(page),
        (ids) => ids.length === 16,
        'sixteen threads',
      );
      expect(ids).toEqual(range(1, 16));
      expect(await top(page, '.results-panel')).toBe(resultsTop);
      expect(await height(page, '.threads-panel')).toBe(panelHeight);
      await shot('resized-grid');

      // Switched to Simplified Chinese in the top bar, the live view's labels change at once (no reload), the
      // threads' steps included, each said by its id with what the Heritrix word means; and back to English.
      await page.getByTestId('language').selectOption('zh-CN');
      await page.locator('.threads-panel .panel-title', { hasText: '线程' }).waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
      expect(await page.locator('.state-badge .state-word').textContent()).toBe('运行中');
      expect(await page.locator('.counter[data-counter="crawled"] dt').textContent()).toBe('已抓取');
      expect(await page.getByTestId('pause').textContent()).toBe('暂停');
      expect(await page.getByTestId('processor-chain').textContent()).toBe('处理器链');
      expect(await page.locator('.legend-item[data-step="claimed"]').getAttribute('title')).toMatch(/^即将获取 URI（Heritrix 的术语/);
      const cellSteps = await page
        .locator('.cell')
        .evaluateAll((cells) => cells.map((c) => [c.getAttribute('data-step'), c.querySelector('.cell-step')?.textContent ?? '']));
      expect(cellSteps.length).toBeGreaterThan(0);
      for (const [step, word] of cellSteps) {
        expect(word, step!).toMatch(/\p{Script=Han}/u);
        expect(word, step!).not.toBe(STEP_LABELS[step as ThreadStep]);
      }
      await shot('zh-CN');
      await page.getByTestId('language').selectOption('en');
      await page.locator('.threads-panel .panel-title', { hasText: 'Threads' }).waitFor();
      expect(await page.getByTestId('pause').textContent()).toBe('Pause');

      // Paused, the clock stops and pages/s keeps its rate; resumed, elapsed goes on from where it was.
      await until(
        () => counter(page, 'crawled'),
        (n) => n >= 30,
        'pages crawled',
      );
      await page.getByTestId('pause').click();
      await waitForState(page, 'paused');
      const pausedElapsed = await counter(page, 'elapsedMs');
      const pausedRate = await counter(page, 'pagesPerSecond');
      expect(pausedRate).toBeGreaterThan(0);
      await sleep(2_500);
      expect(await counter(page, 'elapsedMs')).toBeLessThan(pausedElapsed + 500);
      expect(await counter(page, 'pagesPerSecond')).toBe(pausedRate);
      await page.getByTestId('resume').click();
      await waitForState(page, 'running');
      await until(
        () => counter(page, 'elapsedMs'),
        (ms) => ms > pausedElapsed + 500,
        'elapsed going on from the paused total',
      );
      expect(await counter(page, 'elapsedMs')).toBeLessThan(pausedElapsed + 2_400);

      // The queue view: header, host row, prefixes and the tab badge from one read; "Later" marks a prefix.
      await page.setViewportSize({ width: 1440, height: 900 });
      await setSlider(page, 2);
      await page.getByTestId('view-queue').click();
      const host = page.locator(`[data-testid="queue-hosts"] [data-host="${site.origin}"]`);
      await host.click();
      await page.locator('[data-testid="queue-prefixes"] [data-prefix]').first().waitFor();
      // Read in one go from the DOM (the view may re-render between two reads of the test's own).
      const agree = () =>
        page.locator('body').evaluate((body, origin) => {
          const text = (selector: string) => (body.querySelector(selector)?.textContent ?? '').replace(/,/g, '');
          const attr = (selector: string, name: string) => Number(body.querySelector(selector)?.getAttribute(name));
          const prefixes = [...body.querySelectorAll('[data-testid="queue-prefixes"] .count-badge')].map((b) =>
            Number((b.textContent ?? '').replace(/,/g, '')),
          );
          return {
            header: attr('[data-testid="queue-total"]', 'data-value'),
            row: Number(text(`[data-testid="queue-hosts"] [data-host="${origin}"] .count-badge`)),
            prefixes: prefixes.reduce((a, b) => a + b, 0),
            badge: Number(text('[data-testid="view-queue"] .count-badge')),
            matching: attr('[data-testid="queue-urls-caption"]', 'data-matching'),
          };
        }, site.origin);
      // One host: every figure is the same read's.
      for (let i = 0; i < 3; i++) {
        const n = await agree();
        expect(n).toEqual({ header: n.header, row: n.header, prefixes: n.header, badge: n.header, matching: n.header });
        await sleep(700);
      }
      expect(await page.getByTestId('queue-urls-caption').textContent()).toMatch(
        /queued URLs? of http:\/\/127\.0\.0\.1:\d+, in discovery order$/,
      );
      await page.locator('[data-deprioritise-prefix="/p/"]').click();
      await page.locator('.prefix-row[data-deprioritised] [data-testid="prefix-later"]').first().waitFor();
      await shot('queue');
      await page.getByTestId('view-live').click();
      await setSlider(page, 4);
      await until(
        () => steps(page),
        (s) => s.length === 4 && s.some((x) => x === 'fetching' || x === 'claimed' || x === 'processing'),
        'four threads at work',
      );

      // The console process dies: no green Running, no counting timers, no Pause or Stop.
      const port = new URL(url).port;
      server.child.kill('SIGKILL');
      await page.locator('.state-badge[data-state="disconnected"]').waitFor({ timeout: 15_000 });
      expect(await page.locator('.state-badge[data-state="running"]').count()).toBe(0);
      expect(await page.getByTestId('pause').isDisabled()).toBe(true);
      expect(await page.getByTestId('stop').isDisabled()).toBe(true);
      expect(await page.getByTestId('thread-slider').isDisabled()).toBe(true);
      const frozen = await cellTimes(page);
      await sleep(2_200);
      expect(await cellTimes(page)).toEqual(frozen);
      expect(await page.locator('.connection-banner').textContent()).toMatch(/Connection to the Trawl host lost/);
      await shot('killed-host');

      // Restarted (on the same port) with a new token: the old tab says so, and where to go.
      restarted = startServe(crawlsDir, Number(port));
      const newUrl = await restarted.url;
      expect(newUrl).not.toBe(url);
      const banner = page.locator('.connection-banner[data-connection="refused"]');
      await banner.waitFor({ timeout: 30_000 });
      expect(await banner.textContent()).toMatch(/restarted with a new one\. Open the link it printed when it started/);
      await shot('new-token');

      // Opening the printed link in the same browser: the old tab reconnects by the new cookie, and a reopened
      // crawl shows its figures from its file rather than "–".
      const fresh = await page.context().newPage();
      await fresh.goto(newUrl);
      await page.locator('.connection-banner').waitFor({ state: 'detached', timeout: 30_000 });
      expect(await page.locator('.state-badge').getAttribute('data-state')).not.toBe('disconnected');
      await fresh.getByTestId('open-crawl').first().click();
      await until(
        () => counter(fresh, 'elapsedMs'),
        (ms) => ms > 0,
        "the reopened crawl's elapsed time",
      );
      // The killed crawl's file never said it finished: it is shown as interrupted, not running.
      expect(await fresh.locator('.state-badge').getAttribute('data-state')).toBe('interrupted');
      const shown = await fresh.locator('.counters dd').allTextContents();
      expect(shown).not.toContain('–');
      expect(await counter(fresh, 'inFlight')).toBe(0);
      expect(await counter(fresh, 'failed')).toBeGreaterThanOrEqual(0);
      expect(await counter(fresh, 'pagesPerSecond')).toBeGreaterThan(0);
      await shot('reopened', fresh);
    }, 240_000);
  },
);
