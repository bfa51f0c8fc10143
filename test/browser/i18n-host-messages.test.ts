// What the host builds, said in Simplified Chinese in Chromium via the web console: the crawls list's settings
// summaries, a schedule's wait and the start form's problems found by the host are Chinese in a zh-CN browser
// (they came as the host's English before); screenshots of the crawls list and of the start form refused.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createCrawlFile, writeMeta } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { SCHEDULES_FILE } from '../../electron/engine/session/schedules.ts';
import { message } from '../../shared/messages.ts';
import { parseSettings } from '../../shared/settings.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, openGroup, until } from './workbench-flow.ts';

/** A loose bound for each test: a loaded machine runs Chromium slowly. */
const TEST_MS = 180_000;

function finishedCrawl(dir: string, name: string, settings: Record<string, unknown>): string {
  const file = path.join(dir, name);
  const db = createCrawlFile(file, parseSettings(settings));
  writeMeta(db, 'state', 'finished');
  writeMeta(db, 'finish_reason', 'completed');
  db.close();
  return file;
}

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `the host's messages in Chinese in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    const crawlsDir = tempDir('trawl-i18n-host-');

    beforeAll(async () => {
      finishedCrawl(crawlsDir, 'docs.test-20260101-090000.trawl', { seeds: ['https://docs.test/'], threads: 3, maxDepth: 4 });
      finishedCrawl(crawlsDir, 'shop.test-20260102-090000.trawl', { seeds: ['https://shop.test/'], mode: 'list', polite: true });
      // A schedule whose run waits for the crawl in progress, as the scheduler writes it (not due again for a day).
      const waiting = message('waitingForCrawl', { state: 'running' });
      const later = new Date(Date.now() + 86_400_000).toISOString();
      const schedule = {
        id: 'f00dfeedbeef',
        crawl: 'docs.test-20260101-090000.trawl',
        seeds: ['https://docs.test/'],
        name: '',
        timing: { every: 'day', at: '09:00' },
        enabled: true,
        createdAt: new Date().toISOString(),
        nextRunAt: later,
        waiting: waiting.text,
        waitingReason: waiting,
        runs: [],
      };
      fs.writeFileSync(path.join(crawlsDir, SCHEDULES_FILE), JSON.stringify({ version: 1, schedules: [schedule] }), { mode: 0o600 });
      server = startServe(crawlsDir);
      const url = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
      fs.mkdirSync(path.join(ROOT, ARTIFACTS), { recursive: true });
      await page.goto(url);
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) =>
      page.screenshot({ path: path.join(ROOT, ARTIFACTS, `i18n-host-${name}.png`), fullPage: false }).then(() => undefined);
    const summaryOf = (file: string) => page.locator(`.crawl-item[data-crawl-file="${file}"]`).getByTestId('crawl-summary');

    it(
      "lists the crawls with their settings' summaries in Chinese, and a schedule's wait",
      async () => {
        expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
        await summaryOf('docs.test-20260101-090000.trawl').waitFor({ timeout: 120_000 });
        expect(await summaryOf('docs.test-20260101-090000.trawl').textContent()).toBe('爬虫 · 同一主机 · 3 个线程 · 深度 ≤ 4');
        expect(await summaryOf('shop.test-20260102-090000.trawl').textContent()).toBe('列表 · 5 个线程 · 礼貌模式');
        const waiting = page.locator('[data-schedule-id="f00dfeedbeef"]').getByTestId('schedule-waiting');
        expect(await waiting.textContent()).toBe('正在等待进行中的抓取（运行中）结束');
        await page.locator('.crawl-list').scrollIntoViewIfNeeded();
        await shot('crawls');
      },
      TEST_MS,
    );

    it(
      "shows the host's problems with the settings in Chinese under the start form's fields",
      async () => {
        // A long form: two groups open put Start far below the seeds, the first invalid field.
        await openGroup(page, 'scope');
        await openGroup(page, 'request');
        await page.locator('textarea[name="seeds"]').fill('https://a.test/\nnope\nftp://b.test/');
        await page.getByTestId('start').click();
        const errors = page.locator('.field-error');
        await until(
          () => errors.allTextContents(),
          (texts) => texts.length > 0,
          'the problems under the fields',
        );
        const texts = await errors.allTextContents();
        expect(texts.join('\n')).toContain('第 2 行：“nope”不是有效的 URL（应类似 https://example.com/）');
        expect(texts.join('\n')).toContain('第 3 行：“ftp://b.test/”不是 http 或 https URL');
        expect(texts.join('\n')).not.toMatch(/not a valid URL|is not an http/);
        // Scrolled to the seeds, the analyst still sees Start and how many fields are invalid, at the sidebar's foot.
        const count = page.getByTestId('start-invalid');
        expect(await count.textContent()).toBe('1 个字段无效：修正后才能开始。');
        const height = page.viewportSize()!.height;
        for (const id of ['start-invalid', 'start']) {
          const box = (await page.getByTestId(id).boundingBox())!;
          expect(box.y, id).toBeGreaterThanOrEqual(0);
          expect(box.y + box.height, id).toBeLessThanOrEqual(height);
        }
        await shot('start-error');
        // Nothing was started.
        expect(fs.readdirSync(crawlsDir).filter((f) => f.endsWith('.trawl'))).toHaveLength(2);
      },
      TEST_MS,
    );
  },
);
