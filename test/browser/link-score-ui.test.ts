// Link Score in the web console, in Chromium: the explorer shows its column, sorts by it (highest first: 100.0, the
// engine's top page), and the URL detail pane shows a page's Link Score and unique inlinks. Screenshots go to
// /work/wt/notes/shots/linkscore-*.png.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { computeLinkScores } from '../../electron/engine/analysis/link-score.ts';
import { openCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe, type ServeProcess } from './serve.ts';
import { until } from './workbench-flow.ts';

const SHOTS = '/work/wt/notes/shots';

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `Link Score in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    let top: { url: string; unique: number };
    const crawlsDir = tempDir('trawl-linkscore-ui-');

    beforeAll(async () => {
      const file = path.join(crawlsDir, 'site.trawl');
      buildSyntheticCrawl(file, { results: 3000, queued: 0 }).db.close();
      buildSyntheticCrawl(path.join(crawlsDir, 'other.trawl'), { results: 3000, queued: 0 }).db.close();
      const db = openCrawlFile(file, { readonly: true });
      const s = computeLinkScores(db);
      const best = s.scores.indexOf(100);
      const url = (db.prepare('SELECT url FROM urls WHERE id = ?').get(s.urlIds[best]) as { url: string }).url;
      top = { url, unique: s.uniqueInlinks[best]! };
      db.close();
      server = startServe(crawlsDir);
      const address = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US', bypassCSP: true });
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.goto(address);
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `linkscore-${name}.png`) }).then(() => undefined);

    it('sorts the explorer by Link Score, the top page first at 100.0, and shows it in the detail pane', async () => {
      await page.locator('.crawl-item[data-crawl-file="site.trawl"]').getByTestId('open-crawl').click();
      await page.getByTestId('view-explorer').click();
      const header = page.locator('.rhead [data-column="linkScore"]');
      await header.waitFor();
      // The first rows come before the crawl's first Link Scores (a page not sorted by them does not wait for
      // them), and the column fills in by itself once they are computed: the table asks for its rows again.
      // The note says so meanwhile.
      const pending = page.getByTestId('explorer-scores-pending');
      await pending.waitFor();
      expect(await pending.textContent()).toBe(' · computing Link Scores…');
      await shot('scores-pending');
      const firstScore = () => page.locator('[data-explorer-url]').first().locator('[data-col="linkScore"]').textContent();
      await until(firstScore, (text) => /^\d+\.\d$/.test(text ?? ''), 'the Link Score column filled in without a click');
      await pending.waitFor({ state: 'detached' });
      // Ascending on the first click, descending on the second.
      for (let i = 0; i < 3 && (await header.getAttribute('aria-sort')) !== 'descending'; i++) await header.locator('.sort-btn').click();
      await until(
        () => page.locator('[data-explorer-url]').first().getAttribute('data-explorer-url'),
        (u) => u === top.url,
        'the top page first',
      );
      expect(await page.locator('[data-explorer-url]').first().locator('[data-col="linkScore"]').textContent()).toBe('100.0');
      await header.scrollIntoViewIfNeeded();
      await shot('explorer');

      await page.locator('[data-explorer-url]').first().click();
      const pane = page.getByTestId('url-detail');
      await pane.waitFor();
      // The pane fills in once the URL's detail has come back.
      await pane.locator('dt', { hasText: /^Link Score$/ }).waitFor();
      const fields = await pane.locator('dt').allTextContents();
      expect(fields).toContain('Link Score');
      expect(fields).toContain('Unique inlinks');
      const value = (label: string) =>
        pane
          .locator('dt', { hasText: new RegExp(`^${label}$`) })
          .locator('xpath=following-sibling::dd[1]')
          .textContent();
      expect(await value('Link Score')).toBe('100.0');
      expect(await value('Unique inlinks')).toBe(top.unique.toLocaleString('en-US'));
      await pane.locator('dt', { hasText: /^Link Score$/ }).scrollIntoViewIfNeeded();
      await shot('detail');
    });

    it('the live Results table of an opened crawl says its Link Scores are being computed, then fills them in', async () => {
      // Another crawl, whose scores nothing asked for yet: opened, it shows the live view, with the Results table.
      await page.locator('.crawl-item[data-crawl-file="other.trawl"]').getByTestId('open-crawl').click();
      await page.getByTestId('view-live').click();
      const pending = page.getByTestId('results-scores-pending');
      await pending.waitFor();
      expect(await pending.textContent()).toBe(' · computing Link Scores…');
      await shot('results-scores-pending');
      await pending.waitFor({ state: 'detached' });
    });
  },
);
