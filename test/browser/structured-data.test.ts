// Structured data and social tags in the web console, in Chromium (issue 18.4): the explorer's "Structured data" group
// with the engine's counts, the JSON-LD parse errors filter listing the broken page, and the URL detail pane showing a
// page's items (format, types, the parser's error) and its og/twitter tags, markup in a tag shown as text. Screenshots
// go to /work/wt/notes/shots/structured-*.png.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { RESULT_FILTERS, type FilterCounts } from '../../shared/analysis.ts';
import { filterCounts } from '../../electron/engine/analysis/result-filters.ts';
import { openCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { newCrawl, tempDir } from '../helpers/engine.ts';
import { MARKUP_TITLE, startStructuredSite } from '../helpers/structured-site.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe, type ServeProcess } from './serve.ts';
import { until } from './workbench-flow.ts';

const SHOTS = '/work/wt/notes/shots';
const STRUCTURED = RESULT_FILTERS.filter((f) => f.group === 'structured').map((f) => f.id);

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `structured data in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    let counts: FilterCounts;
    let site: Awaited<ReturnType<typeof startStructuredSite>>;
    const crawlsDir = tempDir('trawl-structured-ui-');

    beforeAll(async () => {
      site = await startStructuredSite();
      const { controller, dbPath } = newCrawl({ seeds: [site.url('/')], threads: 2, maxAttempts: 1 }, crawlsDir);
      controller.start();
      expect((await controller.done).reason).toBe('completed');
      const db = openCrawlFile(dbPath, { readonly: true });
      counts = filterCounts(db);
      db.close();
      server = startServe(crawlsDir);
      const address = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.goto(address);
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `structured-${name}.png`) }).then(() => undefined);
    const badge = async (filter: string) => {
      const v = await page.locator(`[data-filter="${filter}"] .count-badge`).getAttribute('data-count');
      return v === null ? -1 : Number(v);
    };

    it('lists the JSON-LD parse errors and shows a page\u2019s structured data and social tags as text', async () => {
      await page.locator('.crawl-item[data-crawl-file="crawl.trawl"]').getByTestId('open-crawl').click();
      await page.getByTestId('view-explorer').click();
      for (const id of STRUCTURED)
        await until(
          () => badge(id),
          (n) => n === counts[id],
          `the ${id} badge`,
        );
      expect(counts['structured-jsonld-errors']).toBe(1);
      await page.locator('[data-filter="structured-jsonld-errors"]').click();
      await until(
        () => page.locator('[data-explorer-url]').evaluateAll((r) => r.map((e) => e.getAttribute('data-explorer-url'))),
        (urls) => urls.length === 1 && urls[0] === site.url('/broken'),
        'the broken page alone',
      );
      await page.locator(`[data-explorer-url="${site.url('/broken')}"]`).click();
      const pane = page.getByTestId('url-detail');
      const section = pane.getByTestId('detail-structured');
      await section.waitFor();
      const rows = await section
        .getByTestId('detail-structured-items')
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-error') !== null, ...[...tr.children].map((c) => c.textContent)]));
      expect(rows).toEqual([
        [true, 'json-ld', expect.stringMatching(/^Parse error: Expected double-quoted property name in JSON at position \d+/)],
        [false, 'json-ld', 'BreadcrumbList'],
      ]);
      await section.scrollIntoViewIfNeeded();
      await shot('errors');

      // The home page: its JSON-LD types (through @graph and a type array) and its tags, the og:title's markup as text.
      await page.locator('[data-filter="structured-jsonld"]').click();
      await page.locator(`[data-explorer-url="${site.url('/')}"]`).click();
      await until(
        () => section.getByTestId('detail-structured-items').locator('tbody td').first().textContent(),
        (t) => t === 'Organization, ImageObject, Product, IndividualProduct, Offer',
        'the home page\u2019s types',
      );
      const tags = section.getByTestId('detail-social-tags');
      const pairs = await tags
        .locator('.detail')
        .evaluateAll((ds) => ds.map((d) => [d.querySelector('dt')?.textContent, d.querySelector('dd')?.textContent]));
      expect(pairs[0]).toEqual(['og:title', MARKUP_TITLE]);
      expect(pairs.map((p) => p[0])).toContain('twitter:card');
      expect(await tags.locator('b, img').count()).toBe(0);
      expect(await page.title()).not.toBe('pwned');
      await tags.scrollIntoViewIfNeeded();
      await shot('detail');
    });
  },
);
