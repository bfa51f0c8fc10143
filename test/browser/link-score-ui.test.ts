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
      // The explorer chosen first: the crawl then opens in it, and its first page is the first ask of this crawl's
      // scores. Opened in the live view, the Results table asked first, and the scores could be in before the
      // explorer's first page (a race CI lost).
      await page.getByTestId('view-explorer').click();
      await page.locator('.crawl-item[data-crawl-file="site.trawl"]').getByTestId('open-crawl').click();
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
      // Another crawl, whose scores nothing asked for yet, opened in the live view: its Results table asks for them
      // first. The note shows from the first page's answer until the page asked again a second later
      // (SCORES_PENDING_RETRY_MS) finds the scores, a second that a loaded machine can spend before this test looks:
      // the page records the note's text the moment it appears.
      // Page code as text: the tests are type-checked without the DOM's types.
      await page.evaluate(`(() => {
        window.scoresNoteSeen = null;
        const look = () => {
          const note = document.querySelector('[data-testid="results-scores-pending"]');
          if (note && window.scoresNoteSeen === null) window.scoresNoteSeen = note.textContent;
        };
        new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
      })()`);
      await page.getByTestId('view-live').click();
      await page.locator('.crawl-item[data-crawl-file="other.trawl"]').getByTestId('open-crawl').click();
      const seen = () => page.evaluate<string | null>('window.scoresNoteSeen ?? null');
      await until(seen, (text) => text !== null, 'the Results table said its Link Scores were being computed');
      expect(await seen()).toBe(' · computing Link Scores…');
      const pending = page.getByTestId('results-scores-pending');
      // What a person sees meanwhile, when the note is still there to see.
      if ((await pending.count()) > 0) await shot('results-scores-pending');
      // The page asked again once the scores were in.
      await pending.waitFor({ state: 'detached' });
    });
  },
);
