// Crawl management and comfort in real Chromium against `npm run serve`: a scheduled recrawl run by the web console
// and what changed shown in its panel; crawls renamed, described, tagged, searched and deleted (their label kept in
// the crawl file); the keyboard shortcuts and their help overlay, which never fire while typing.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createCrawlFile, writeMeta } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { readCrawlFileInfo } from '../../electron/engine/session/crawl-files.ts';
import { SCHEDULES_FILE } from '../../electron/engine/session/schedules.ts';
import { parseSettings } from '../../shared/settings.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, counter, until, waitForState } from './workbench-flow.ts';

const PAGES = 30;

/** A finished crawl file of `seeds` made as the app makes one, with no pages: a crawl to list, label and schedule. */
function finishedCrawl(dir: string, name: string, seeds: string[], settings: Record<string, unknown> = {}): string {
  const file = path.join(dir, name);
  const db = createCrawlFile(file, parseSettings({ seeds, ...settings }));
  writeMeta(db, 'state', 'finished');
  writeMeta(db, 'finish_reason', 'completed');
  db.close();
  return file;
}

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `crawl management in Chromium via the web console${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let site: FixtureSite;
    let server: ServeProcess;
    let url: string;
    let browser: Browser;
    let page: Page;
    const crawlsDir = tempDir('trawl-manage-');
    let scheduled: string;
    let docs: string;
    /** Each page's delay: slower for the crawl paused and stopped by key. */
    let delayMs = 50;

    beforeAll(async () => {
      site = await startFixtureSite({ pages: PAGES, linksPerPage: 3, delayMs: () => delayMs });
      docs = finishedCrawl(crawlsDir, 'docs.test-20260101-090000.trawl', ['https://docs.test/'], { threads: 3, maxDepth: 4 });
      finishedCrawl(crawlsDir, 'shop.test-20260102-090000.trawl', ['https://shop.test/'], { mode: 'list', polite: true });
      // A crawl of the fixture site scheduled every hour and already due: the web console runs it within its poll.
      scheduled = finishedCrawl(crawlsDir, '127.0.0.1-20260103-090000.trawl', [site.url('/p/0')], { threads: 4 });
      const due = new Date(Date.now() - 60_000).toISOString();
      const schedule = {
        id: 'a1b2c3d4e5f6',
        crawl: path.basename(scheduled),
        seeds: [site.url('/p/0')],
        name: '',
        timing: { every: 'minutes', minutes: 60 },
        enabled: true,
        createdAt: due,
        nextRunAt: due,
        waiting: null,
        runs: [],
      };
      fs.writeFileSync(path.join(crawlsDir, SCHEDULES_FILE), JSON.stringify({ version: 1, schedules: [schedule] }), { mode: 0o600 });
      server = startServe(crawlsDir);
      url = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      fs.mkdirSync(path.join(ROOT, ARTIFACTS), { recursive: true });
      // A loose bound: a loaded machine starts the server and Chromium slowly.
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
    });

    /** The test id of the element with the focus (the page's own code, as a string: this file has no DOM types). */
    const focused = () => page.evaluate<string | null>("document.activeElement && document.activeElement.getAttribute('data-testid')");
    const shot = (name: string) => page.screenshot({ path: path.join(ROOT, ARTIFACTS, `manage-${name}.png`) }).then(() => undefined);

    it('runs a due schedule, compares the run with the crawl before and says what changed', async () => {
      await page.goto(url);
      const schedule = page.locator('[data-schedule-id="a1b2c3d4e5f6"]');
      await schedule.waitFor();
      // The web console looks for due schedules every 15 s: the run starts, comes into view and finishes.
      await until(
        () =>
          schedule
            .getByTestId('schedule-run-changes')
            .first()
            .textContent({ timeout: 1000 })
            .catch(() => ''),
        (t) => /added/.test(t ?? ''),
        "the scheduled run's changes",
        90_000,
      );
      const changes = await schedule.getByTestId('schedule-run-changes').first().textContent();
      expect(changes).toBe(`${PAGES} added, 0 removed, 0 changed`);
      expect(await schedule.getByTestId('schedule-when').textContent()).toMatch(
        /^every hour · next [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s?[AP]M$/,
      );
      await waitForState(page, 'finished');
      expect(await counter(page, 'crawled')).toBe(PAGES);
      // The run is a crawl of the folder; the schedule goes on from it.
      const stored = JSON.parse(fs.readFileSync(path.join(crawlsDir, SCHEDULES_FILE), 'utf8')) as { schedules: { crawl: string }[] };
      expect(stored.schedules[0]!.crawl).not.toBe(path.basename(scheduled));
      expect(fs.existsSync(path.join(crawlsDir, stored.schedules[0]!.crawl))).toBe(true);

      // Schedule another crawl from the list: every 6 hours, then changed to every day at 07:30, then paused.
      const shop = page.locator('.crawl-item[data-crawl-file="shop.test-20260102-090000.trawl"]');
      await shop.getByTestId('schedule-crawl').click();
      const editor = page.getByTestId('schedule-new');
      await editor.getByTestId('timing-kind').selectOption('hours');
      await editor.getByTestId('timing-count').fill('6');
      await shot('schedule-editor');
      await editor.getByTestId('timing-save').click();
      const added = page.locator('.schedule-item[data-schedule-id]').nth(1);
      await until(
        () =>
          added
            .getByTestId('schedule-when')
            .textContent({ timeout: 1000 })
            .catch(() => ''),
        (t) => (t ?? '').startsWith('every 6 hours · next'),
        'the new schedule',
      );
      await added.getByTestId('schedule-edit').click();
      await added.getByTestId('timing-kind').selectOption('day');
      await added.getByTestId('timing-at').fill('07:30');
      await added.getByTestId('timing-save').click();
      await until(
        () => added.getByTestId('schedule-when').textContent(),
        (t) => /^every day at 07:30 · next .*7:30\s?AM$/.test(t ?? ''),
        'the schedule changed',
      );
      await added.getByTestId('schedule-toggle').click();
      await until(
        () => added.getByTestId('schedule-when').textContent(),
        (t) => t === 'every day at 07:30 · paused',
        'the schedule paused',
      );
      await page.locator('.sidebar').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await shot('schedules');
      // Removed on a second press.
      await added.getByTestId('schedule-remove').click();
      await added.getByTestId('schedule-remove').click();
      await until(
        () => page.locator('.schedule-item[data-schedule-id]').count(),
        (n) => n === 1,
        'the schedule removed',
      );
    });

    it('renames, describes and tags crawls, keeps that in their files, searches them and deletes one', async () => {
      await page.goto(url);
      const item = (file: string) => page.locator(`.crawl-item[data-crawl-file="${file}"]`);
      const docsItem = item(path.basename(docs));
      await docsItem.waitFor();
      // What tells crawls apart: the settings summary and the counts.
      expect(await docsItem.locator('.crawl-item-summary').textContent()).toBe('spider · same host · 3 threads · depth ≤ 4');

      await docsItem.getByTestId('edit-crawl').click();
      await docsItem.getByTestId('label-name').fill('Docs before the launch');
      await docsItem.getByTestId('label-description').fill('Staging, after the redirects were fixed');
      await docsItem.getByTestId('label-tags').fill('SEO, launch, seo');
      await docsItem.getByTestId('label-save').click();
      await until(
        () => docsItem.getByTestId('crawl-name').textContent(),
        (t) => t === 'Docs before the launch',
        'the renamed crawl',
      );
      expect(await docsItem.getByTestId('crawl-tag').allTextContents()).toEqual(['SEO', 'launch']);
      // Kept in the crawl file itself.
      expect(readCrawlFileInfo(docs)).toMatchObject({
        name: 'Docs before the launch',
        description: 'Staging, after the redirects were fixed',
        tags: ['SEO', 'launch'],
      });

      const shopItem = item('shop.test-20260102-090000.trawl');
      await shopItem.getByTestId('edit-crawl').click();
      await shopItem.getByTestId('label-tags').fill('weekly, a,b');
      // A tag list a comma splits is read as three tags; a name on two lines cannot be typed in one field.
      await shopItem.getByTestId('label-name').fill('Shop');
      await shopItem.getByTestId('label-save').click();
      await until(
        () => shopItem.getByTestId('crawl-tag').allTextContents(),
        (t) => t.join() === 'weekly,a,b',
        'the tagged crawl',
      );

      const shown = () => page.locator('.crawl-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-crawl-file')));
      const all = (await shown()).length;
      await page.getByTestId('crawl-search').fill('launch');
      expect(await shown()).toEqual([path.basename(docs)]);
      expect(await page.getByTestId('crawl-search-count').textContent()).toBe(`1 of ${all}`);
      await page.getByTestId('crawl-search').fill('shop.test');
      expect(await shown()).toEqual(['shop.test-20260102-090000.trawl']);
      await page.getByTestId('crawl-search').fill('#weekly');
      expect(await shown()).toEqual(['shop.test-20260102-090000.trawl']);
      // A tag's chip searches for it.
      await page.getByTestId('crawl-search').fill('');
      await docsItem.getByTestId('crawl-tag').first().click();
      expect(await page.getByTestId('crawl-search').inputValue()).toBe('#SEO');
      expect(await shown()).toEqual([path.basename(docs)]);
      await page.getByTestId('crawl-search').fill('');
      await page.locator('.sidebar').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await shot('list-tags');
      await page.getByTestId('crawl-search').fill('#seo');
      await shot('list-search');
      await page.getByTestId('crawl-search').fill('');

      // Deleted on a second press, with its -wal and -shm (a connection holds them open meanwhile).
      const holder = new Database(docs);
      holder.pragma('journal_mode = WAL');
      holder.exec('CREATE TEMP TABLE t (x)');
      holder.prepare("INSERT INTO meta (key, value) VALUES ('held', '1')").run();
      expect(fs.existsSync(`${docs}-wal`)).toBe(true);
      await docsItem.getByTestId('delete-crawl').click();
      expect(fs.existsSync(docs)).toBe(true);
      await docsItem.getByTestId('delete-crawl').click();
      await until(shown, (files) => !files.includes(path.basename(docs)), 'the list without the deleted crawl');
      holder.close();
      for (const f of [docs, `${docs}-wal`, `${docs}-shm`]) expect(fs.existsSync(f)).toBe(false);
    });

    it('starts, pauses, resumes and stops by key, moves through the URLs, and lists the shortcuts on ?', async () => {
      await page.goto(url);
      await page.locator('textarea[name="seeds"]').fill(site.url('/p/0'));
      await page.locator('input[id$="-threads"]').fill('2');
      // Typing is never a shortcut: "s", "p" and "x" typed in a field stay text.
      await page.locator('textarea[name="seeds"]').press('End');
      await page.locator('textarea[name="seeds"]').type('\nhttp://x.invalid/sp');
      expect(await page.locator('.state-badge').getAttribute('data-state')).toBe('finished');
      await page.locator('textarea[name="seeds"]').fill(site.url('/p/0'));
      await page.locator('textarea[name="seeds"]').blur();

      delayMs = 300;
      await page.keyboard.press('s');
      await waitForState(page, 'running');
      await until(
        () => counter(page, 'crawled'),
        (n) => n >= 3,
        'some pages crawled',
      );
      await page.keyboard.press('p');
      await waitForState(page, 'paused');
      await page.keyboard.press('p');
      await waitForState(page, 'running');
      await page.keyboard.press('x');
      await waitForState(page, 'finished');
      expect(await page.locator('.state-badge').getAttribute('data-reason')).toBe('stopped');

      // "/" focuses the results filter; keys typed there filter, and start nothing.
      await page.keyboard.press('/');
      expect(await focused()).toBe('results-filter');
      await page.keyboard.type('p/1');
      expect(await page.getByTestId('results-filter').inputValue()).toBe('p/1');
      expect(await page.locator('.state-badge').getAttribute('data-state')).toBe('finished');
      await page.getByTestId('results-filter').fill('');
      await page.getByTestId('results-filter').blur();
      await until(
        () => page.locator('[data-row-url]').count(),
        (n) => n >= 3,
        'the results',
      );

      // j / k move through the URLs, the chosen one's details beside; Enter takes the focus to them.
      const selected = () => page.locator('[data-row-url][aria-selected="true"]').getAttribute('data-row-url');
      const rowUrls = await page.locator('[data-row-url]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-url')));
      await page.locator('body').click({ position: { x: 700, y: 5 } });
      await page.keyboard.press('j');
      await until(selected, (u) => u === rowUrls[0], 'the first URL chosen');
      await page.keyboard.press('j');
      await until(selected, (u) => u === rowUrls[1], 'the next URL');
      await page.keyboard.press('k');
      await until(selected, (u) => u === rowUrls[0], 'the previous URL');
      expect(await page.locator('.row-details-url').textContent()).toBe(rowUrls[0]);
      await page.locator('.row-details-url').click();
      await page.keyboard.press('Enter');
      expect(
        await page.evaluate<boolean>("document.activeElement !== null && document.activeElement.classList.contains('row-details')"),
      ).toBe(true);

      // The overlay lists every shortcut; Escape closes it and gives the focus back.
      await page.keyboard.press('?');
      const overlay = page.getByTestId('shortcuts-overlay');
      await overlay.waitFor();
      expect(await overlay.locator('[data-shortcut]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-shortcut')))).toEqual([
        'start',
        'pauseResume',
        'stop',
        'filter',
        'next',
        'previous',
        'detail',
        'help',
      ]);
      expect(await focused()).toBe('shortcuts-close');
      await shot('shortcuts');
      // While it is open, no other key acts.
      await page.keyboard.press('s');
      expect(await page.locator('.state-badge').getAttribute('data-state')).toBe('finished');
      await page.keyboard.press('Escape');
      await overlay.waitFor({ state: 'detached' });
      // The button opens it too.
      await page.getByTestId('shortcuts-open').click();
      await overlay.waitFor();
      await page.getByTestId('shortcuts-close').click();
      await overlay.waitFor({ state: 'detached' });
    });
  },
);
