// Raw versus rendered in the built app, in Chromium via the web console, over crawl files built straight into SQLite
// (a rendered crawl and the same crawl unrendered): the explorer's JavaScript group appears only for the rendered
// one, with the engine's counts; "Links only in rendered HTML" lists its pages; a URL's detail shows the raw and
// rendered values side by side, as the engine has them, with the render's errors and resources as text.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { openCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { filterCounts, FILTER_IDS, type FilterCounts } from '../../electron/engine/analysis/result-filters.ts';
import { urlDetail } from '../../electron/engine/analysis/url-detail.ts';
import type { UrlDetail } from '../../shared/analysis.ts';
import { tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe, type ServeProcess } from './serve.ts';
import { until } from './workbench-flow.ts';

const SHOTS = '/work/wt/notes/shots';
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** axe (WCAG 2.0/2.1 A and AA) over the render section only; page-side code as text (no DOM types here). */
const RUN_AXE = `(async () => {
  if (!window.axe) (0, eval)(${JSON.stringify(AXE_SOURCE)});
  const r = await window.axe.run({ include: [['[data-testid="detail-render"]']] },
    { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.help + ' ' + v.nodes.map((n) => n.target.join(' ')).join(' | '));
})()`;
const JS_FILTERS = FILTER_IDS.filter((id) => id.startsWith('js-'));

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `raw versus rendered in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    let counts: FilterCounts;
    const crawlsDir = tempDir('trawl-render-views-');
    const detailOf = (url: string): UrlDetail => {
      const db = openCrawlFile(path.join(crawlsDir, 'rendered.trawl'), { readonly: true });
      try {
        return urlDetail(db, { url })!;
      } finally {
        db.close();
      }
    };

    beforeAll(async () => {
      buildSyntheticCrawl(path.join(crawlsDir, 'rendered.trawl'), { results: 3000, queued: 0, rendered: true }).db.close();
      buildSyntheticCrawl(path.join(crawlsDir, 'plain.trawl'), { results: 3000, queued: 0 }).db.close();
      const db = openCrawlFile(path.join(crawlsDir, 'rendered.trawl'), { readonly: true });
      counts = filterCounts(db);
      db.close();
      server = startServe(crawlsDir);
      const url = await server.url;
      browser = await launchChromium();
      // bypassCSP: axe is evaluated in the page, which the console's CSP would refuse.
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US', bypassCSP: true });
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.goto(url);
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `s5-render-${name}.png`) }).then(() => undefined);
    const badge = async (filter: string) => {
      const v = await page.locator(`[data-filter="${filter}"] .count-badge`).getAttribute('data-count');
      return v === null ? -1 : Number(v);
    };
    const open = async (file: string) => {
      await page.locator(`.crawl-item[data-crawl-file="${file}"]`).getByTestId('open-crawl').click();
      await page.getByTestId('view-explorer').click();
      await until(
        () => badge('all'),
        (n) => n > 0,
        'the All badge',
      );
    };

    it('hides the JavaScript group for a crawl that rendered nothing', async () => {
      await open('plain.trawl');
      await until(
        () => badge('status-2xx'),
        (n) => n > 0,
        'the counts',
      );
      expect(await page.locator('[data-filter^="js-"]').count()).toBe(0);
    });

    it('lists a rendered crawl\u2019s pages with links only in the rendered HTML, and shows a page raw beside rendered', async () => {
      await open('rendered.trawl');
      // The JavaScript group with the engine's counts (every filter has pages in this crawl).
      for (const id of JS_FILTERS) {
        expect(counts[id]).toBeGreaterThan(0);
        await until(
          () => badge(id),
          (n) => n === counts[id],
          `the ${id} badge`,
        );
      }
      await page.locator('[data-filter="js-rendered-links"]').click();
      await until(
        async () => Number(await page.getByTestId('explorer-total').getAttribute('data-value')),
        (n) => n === counts['js-rendered-links'],
        'the view\u2019s total',
      );
      await shot('explorer');

      // A page whose title a script changed, with a console error: every 60th synthetic page (rendered-only links
      // every 10th, titles every 15th, console errors every 20th).
      const rows = await page.locator('[data-explorer-url]').evaluateAll((r) => r.map((e) => e.getAttribute('data-explorer-url') ?? ''));
      const url = rows.find((u) => Number(/page-(\d+)$/.exec(u)?.[1]) % 60 === 0)!;
      expect(url).toBeTruthy();
      await page.locator(`[data-explorer-url="${url}"]`).click();
      const pane = page.getByTestId('url-detail');
      const render = pane.getByTestId('detail-render');
      await render.waitFor();
      const want = detailOf(url).render!;
      const table = render.getByTestId('detail-render-fields');
      const cells = await table
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [
            tr.getAttribute('data-field'),
            tr.getAttribute('data-changed') !== null,
            ...[...tr.querySelectorAll('td')].map((td) => td.textContent),
          ]),
        );
      const text = (v: string | number | null) => (v === null || v === '' ? '—' : typeof v === 'number' ? v.toLocaleString('en-US') : v);
      expect(cells).toEqual(want.fields.map((f) => [f.field, f.changed, text(f.raw), text(f.rendered)]));
      const title = want.fields.find((f) => f.field === 'title')!;
      expect(title).toMatchObject({ rendered: expect.stringMatching(/^Rendered page \d+$/), changed: true });
      expect(await table.locator('tr[data-field="title"] th').textContent()).toBe('Titlechanged');
      // Its console error as text, in the pane.
      expect(want.console_errors.total).toBe(1);
      expect(await render.getByTestId('detail-render-console').locator('li').allTextContents()).toEqual(want.console_errors.items);
      await render.scrollIntoViewIfNeeded();
      await shot('detail');
      // No serious or critical accessibility problem in the section, light or dark.
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate(`document.documentElement.setAttribute('data-theme', '${theme}')`);
        expect({ theme, violations: await page.evaluate<string[]>(RUN_AXE) }).toEqual({ theme, violations: [] });
      }
      await page.evaluate("document.documentElement.removeAttribute('data-theme')");
      // In Chinese: the group, the filter and the section.
      await page.getByTestId('language').selectOption('zh-CN');
      await until(
        () => render.locator('.row-details-heading').first().textContent(),
        (t) => t === 'JavaScript 渲染',
        'the section in Chinese',
      );
      expect(await page.locator('[data-filter="js-rendered-links"] .filter-tab-label').textContent()).toBe('仅在渲染后 HTML 中的链接');
      expect(await table.locator('thead th').allTextContents()).toEqual(['字段', '原始 HTML', '渲染后']);
      await shot('detail-zh');
      await page.getByTestId('language').selectOption('en');
    });
  },
);
