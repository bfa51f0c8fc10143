// Duplicate content in the web console, in Chromium (issue 18.1): a crawl by the CLI of the fixture site with known
// near-duplicates (test/helpers/duplicate-site.ts, three pages a word or three apart), opened in the explorer; the
// Near duplicates filter lists them, a page's detail gives its words, its near-duplicates closest first and what
// differs from the closest (another chosen on demand), and the threshold beside the Content filters, changed after
// the crawl, changes the count, the rows and the open detail. Screenshots go to /work/wt/notes/shots/dupes-*.png.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { startDuplicateSite, type DuplicateSite } from '../helpers/duplicate-site.ts';
import { CHROMIUM, chromiumAvailable, launchChromium } from './browser.ts';
import { startServe, type ServeProcess } from './serve.ts';
import { until } from './workbench-flow.ts';

const SHOTS = '/work/wt/notes/shots';

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `duplicate content in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    let site: DuplicateSite;
    const crawlsDir = tempDir('trawl-dupes-ui-');

    beforeAll(async () => {
      site = await startDuplicateSite({ moreNear: true });
      const run = await runCli([site.url('/'), '--db', path.join(crawlsDir, 'crawl.trawl'), '--threads', '2', '--no-sitemaps', '--quiet']);
      expect(run.code, run.stderr).toBe(0);
      server = startServe(crawlsDir);
      const address = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.goto(address);
      await page.locator('.crawl-item[data-crawl-file="crawl.trawl"]').getByTestId('open-crawl').click();
      await page.getByTestId('view-explorer').click();
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `dupes-${name}.png`) }).then(() => undefined);
    const listed = () =>
      page.locator('[data-explorer-url]').evaluateAll((r) => r.map((e) => new URL(e.getAttribute('data-explorer-url')!).pathname).sort());
    const badge = (filter: string) => page.locator(`[data-filter="${filter}"] .count-badge`).evaluate((e) => e.getAttribute('data-count'));
    const nearListed = () =>
      page
        .locator('[data-testid="detail-near-duplicates"] li')
        .evaluateAll((lis) =>
          lis.map((li) => [new URL(li.querySelector('.link-url')!.textContent!).pathname, li.getAttribute('data-chosen') !== null]),
        );
    const diffLines = (op: string) =>
      page
        .locator(`[data-testid="detail-content-diff"] li[data-op="${op}"] .content-diff-text`)
        .evaluateAll((e) => e.map((x) => x.textContent));

    it('lists the near duplicates and shows a page’s near-duplicates and what differs from the closest', async () => {
      await page.locator('[data-filter="content-near-duplicates"]').click();
      await until(listed, (u) => u.join() === '/near-1,/near-2,/near-3', 'the three near-duplicate pages');
      expect(await badge('content-near-duplicates')).toBe('3');
      // Each row names its closest near-duplicate and their similarity, and its main text's words.
      const row = page.locator(`[data-explorer-url="${site.url('/near-1')}"]`);
      await expect(row.locator('[data-col="closestNear"]').textContent()).resolves.toBe(site.url('/near-2'));
      await expect(row.locator('[data-col="similarity"]').textContent()).resolves.toMatch(/^9\d(\.\d)?%$/);
      await expect(row.locator('[data-col="mainWords"]').textContent()).resolves.toBe('600');
      await expect(page.getByTestId('near-threshold').inputValue()).resolves.toBe('90');

      await page.locator(`[data-explorer-url="${site.url('/near-2')}"]`).click();
      const section = page.getByTestId('detail-content');
      await section.waitFor();
      await expect(section.getByTestId('detail-main-words').getAttribute('data-value')).resolves.toBe('600');
      // Closest first, the closest chosen.
      await until(nearListed, (n) => n.length === 2, 'two near-duplicates');
      expect(await nearListed()).toEqual([
        ['/near-3', true],
        ['/near-1', false],
      ]);
      // /near-3 has one more word changed (changed200): one sentence each side.
      await until(
        () => diffLines('added'),
        (a) => a.length === 1,
        'the diff with /near-3',
      );
      expect((await diffLines('added'))[0]).toContain('changed200');
      expect(await diffLines('removed')).toHaveLength(1);
      expect(await page.locator('[data-testid="detail-content-diff"] li[data-op="fold"]').count()).toBeGreaterThan(0);
      await section.scrollIntoViewIfNeeded();
      await shot('detail');

      // Another near-duplicate chosen: its diff.
      await section.locator('[data-testid="detail-near-duplicates"] li').nth(1).getByRole('button', { name: 'Show what differs' }).click();
      await until(
        () => page.getByTestId('detail-content-diff').getAttribute('data-other'),
        (o) => o === site.url('/near-1'),
        'the diff with /near-1',
      );
      await until(
        () => diffLines('removed'),
        (r) => r.length === 3,
        'three sentences only on /near-2',
      );
      expect((await diffLines('removed')).map((t) => /changed(\d+)/.exec(t!)?.[1])).toEqual(['100', '300', '500']);
      await page.getByTestId('detail-content-diff').scrollIntoViewIfNeeded();
      await shot('diff');

      // A near-duplicate's URL opens its own detail.
      await section.locator('[data-testid="detail-near-duplicates"] li').nth(1).locator('.link-open').click();
      await until(
        () => page.getByTestId('detail-url').textContent(),
        (u) => u === site.url('/near-1'),
        '/near-1 in the pane',
      );
      await page.getByTestId('detail-back').click();
      await until(
        () => page.getByTestId('detail-url').textContent(),
        (u) => u === site.url('/near-2'),
        'back to /near-2',
      );
    });

    it('follows the threshold changed after the crawl: the count, the rows and the open detail', async () => {
      await page.getByTestId('near-threshold').fill('97');
      await until(
        () => badge('content-near-duplicates'),
        (c) => c === '2',
        'two near duplicates at 97%',
      );
      await until(listed, (u) => u.join() === '/near-2,/near-3', '/near-2 and /near-3 at 97%');
      await until(nearListed, (n) => n.length === 1, 'one near-duplicate of /near-2 at 97%');
      expect(await nearListed()).toEqual([['/near-3', true]]);
      await expect(page.locator('[data-testid="detail-content"] h4').nth(1).textContent()).resolves.toContain('97%');
      // The word a replaced sentence changed is marked.
      await until(
        () => page.locator('[data-testid="detail-content-diff"] li[data-op="added"] mark').allTextContents(),
        (m) => m.join() === 'changed200',
        'changed200 marked',
      );
      await page.getByTestId('detail-content').scrollIntoViewIfNeeded();
      await shot('threshold');
      // The diff's colours in the dark theme.
      await page.emulateMedia({ colorScheme: 'dark' });
      await shot('dark');
      await page.emulateMedia({ colorScheme: 'light' });

      // Back to 90: the three again.
      await page.getByTestId('near-threshold').fill('90');
      await until(
        () => badge('content-near-duplicates'),
        (c) => c === '3',
        'three near duplicates at 90%',
      );
    });

    it('shows a page’s exact duplicates', async () => {
      await page.locator('[data-filter="content-exact-duplicates"]').click();
      await until(listed, (u) => u.join() === '/a,/a-copy', 'the exact duplicates');
      await page.locator(`[data-explorer-url="${site.url('/a')}"]`).click();
      const exact = page.getByTestId('detail-exact-duplicates');
      await exact.waitFor();
      expect(await exact.locator('.link-url').evaluateAll((e) => e.map((x) => new URL(x.textContent!).pathname))).toEqual(['/a-copy']);
      await page.getByTestId('detail-content').scrollIntoViewIfNeeded();
      await shot('exact');

      // In Chinese: the section, the threshold and the diff's key.
      await page.getByTestId('language').selectOption('zh-CN');
      await until(
        () => page.getByTestId('detail-content').locator('h3').textContent(),
        (h) => h === '重复内容',
        'the section in Chinese',
      );
      await page.locator('[data-filter="content-near-duplicates"]').click();
      await page.locator(`[data-explorer-url="${site.url('/near-1')}"]`).click();
      await until(
        () => diffLines('removed'),
        (r) => r.length === 3,
        'the diff of /near-1 with /near-2',
      );
      await page.getByTestId('detail-content').scrollIntoViewIfNeeded();
      await shot('zh-CN');
      await page.getByTestId('language').selectOption('en');
    });
  },
);
