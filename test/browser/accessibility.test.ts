// Accessibility in real Chromium against `npm run serve`: axe-core (WCAG 2.0/2.1 A and AA rules) over every view,
// in the light and the dark theme, with no serious or critical violation (the others are printed); the main path
// driven by the keyboard alone, each control it stops on showing a visible focus ring; a thread's step said in
// text, never by its colour alone.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, counter, until, waitForState } from './workbench-flow.ts';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

// Page-side code as text: the test project's TypeScript has no DOM library (as in theme.test.ts).
const RUN_AXE = `(async () => {
  if (!window.axe) (0, eval)(${JSON.stringify(AXE_SOURCE)});
  const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} }, resultTypes: ['violations'] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.map(String), failureSummary: n.failureSummary })) }));
})()`;

/** What the focused element shows: its outline and box-shadow, and what it is. */
const FOCUS = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const s = getComputedStyle(el);
  return { tag: el.tagName.toLowerCase(), testid: el.getAttribute('data-testid'), label: el.getAttribute('aria-label') || (el.textContent || '').trim().slice(0, 40),
    className: typeof el.className === 'string' ? el.className : '',
    outlineStyle: s.outlineStyle, outlineWidth: parseFloat(s.outlineWidth) || 0, outlineColor: s.outlineColor,
    boxShadow: s.boxShadow, focusVisible: el.matches(':focus-visible') };
})()`;

interface Focused {
  tag: string;
  testid: string | null;
  label: string;
  className: string;
  outlineStyle: string;
  outlineWidth: number;
  outlineColor: string;
  boxShadow: string;
  focusVisible: boolean;
}

/** A focus ring a person can see: a solid outline of 2 px or more, not transparent, or a box-shadow ring. */
function ringVisible(f: Focused): boolean {
  const transparent = /rgba\(.*,\s*0\)$/.test(f.outlineColor) || f.outlineColor === 'transparent';
  const outline = f.outlineStyle !== 'none' && f.outlineWidth >= 2 && !transparent;
  return outline || (f.boxShadow !== 'none' && f.boxShadow !== '');
}

const describeFocus = (f: Focused) => `${f.tag}${f.testid ? `[data-testid=${f.testid}]` : ''}.${f.className} "${f.label}"`;

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `accessibility in Chromium via the web console${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let site: FixtureSite;
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    let url: string;
    const crawlsDir = tempDir('trawl-a11y-');
    const shotsDir = path.join(ROOT, ARTIFACTS);
    /** Every serious or critical violation found, by view and theme. */
    const serious: string[] = [];
    const checked: string[] = [];
    /** Each page's delay: slow while a crawl must be seen running (axe takes seconds a view on a busy machine). */
    let delayMs = 50;

    beforeAll(async () => {
      // Slow pages: the crawl runs long enough to check the views while it runs, even on a loaded machine.
      site = await startFixtureSite({ pages: 60, linksPerPage: 4, delayMs: () => delayMs });
      server = startServe(crawlsDir);
      url = await server.url;
      browser = await launchChromium();
      // The console's CSP forbids inline scripts: axe is evaluated through the DevTools protocol, which the CSP
      // does not govern, and bypassCSP covers the rest.
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US', bypassCSP: true });
      fs.mkdirSync(shotsDir, { recursive: true });
      await page.goto(url);
      await page.locator('.topbar').waitFor();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) => page.screenshot({ path: path.join(shotsDir, `a11y-${name}.png`) }).then(() => undefined);

    /** axe over the page as it is, in the light then the dark theme; serious and critical ones are kept, the rest printed. */
    async function audit(view: string): Promise<void> {
      for (const theme of ['light', 'dark'] as const) {
        await page.evaluate(`document.documentElement.setAttribute('data-theme', '${theme}')`);
        const started = Date.now();
        const violations = await page.evaluate<Violation[]>(RUN_AXE);
        checked.push(`${view} (${theme}) ${Date.now() - started} ms`);
        for (const v of violations) {
          const where = v.nodes
            .slice(0, 12)
            .map((n) => n.target.join(' '))
            .join(' | ');
          const line = `${view} (${theme}): ${v.impact} ${v.id}: ${v.help}: ${v.nodes.length} node(s): ${where}`;
          if (v.impact === 'serious' || v.impact === 'critical') serious.push(`${line}\n    ${v.nodes[0]?.failureSummary ?? ''}`);
          else console.log(`axe (not failing): ${line}`);
          if (v.impact === 'serious' || v.impact === 'critical') console.log(`axe SERIOUS: ${line}`);
        }
      }
      await page.evaluate("document.documentElement.removeAttribute('data-theme')");
    }

    it('finds no serious or critical axe violation in any view, light or dark', async () => {
      // The start form with invalid fields.
      await page.locator('textarea[name="seeds"]').fill('not a url');
      await page.locator('input[id$="-threads"]').fill('0');
      await page.getByTestId('start').click();
      await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBeGreaterThanOrEqual(2);
      await audit('start form, invalid');

      // A crawl, during and after.
      delayMs = 3000;
      await page.locator('textarea[name="seeds"]').fill(site.url('/p/0'));
      await page.locator('input[id$="-threads"]').fill('4');
      await page.getByTestId('start').click();
      await waitForState(page, 'running');
      await until(
        () => counter(page, 'crawled'),
        (n) => n >= 3,
        'pages crawled',
      );
      await audit('live crawl, running');
      // Paused, the queue and the hosts hold still while they are checked.
      await page.getByTestId('pause').click();
      await waitForState(page, 'paused');
      delayMs = 20;
      await page.getByTestId('view-queue').click();
      await page.locator('[data-testid="queue-hosts"] [data-host]').first().waitFor();
      await audit('queue');
      await page.getByTestId('view-hosts').click();
      await page.locator('[data-host-row]').first().waitFor();
      await audit('hosts');
      await page.getByTestId('view-live').click();
      await page.getByTestId('resume').click();
      await waitForState(page, 'finished', 90_000);
      await audit('live crawl, finished');

      await page.getByTestId('view-explorer').click();
      await page.locator('[data-explorer-url]').first().click();
      await page.getByTestId('url-detail').waitFor();
      await audit('explorer with the URL detail pane');
      await page.getByTestId('explorer-export-open').click();
      await page.getByTestId('export-dialog').waitFor();
      await audit('export dialog');
      await page.getByTestId('explorer-export-open').click();
      await page.getByTestId('export-dialog').waitFor({ state: 'hidden' });

      await page.getByTestId('view-reports').click();
      await until(
        async () => Number(await page.locator('[data-chart="status"]').getAttribute('data-total')),
        (n) => n > 0,
        'the status chart',
      );
      await audit('reports');
      await page.getByTestId('view-compare').click();
      await page.getByTestId('compare-old').waitFor();
      await audit('compare');
      // Issue 18's pictures: the issues overview, the site structure and the crawl map with its depth charts.
      await page.getByTestId('view-overview').click();
      await page.getByTestId('overview-summary').waitFor();
      await audit('issues overview');
      await page.getByTestId('view-structure').click();
      await until(
        async () => Number(await page.getByTestId('structure-total').getAttribute('data-value')),
        (n) => n > 0,
        'the site structure',
      );
      await audit('site structure');
      await page.getByTestId('view-crawlMap').click();
      await until(
        async () => Number(await page.getByTestId('crawl-map-total').getAttribute('data-value')),
        (n) => n > 0,
        'the crawl map',
      );
      await audit('crawl map');

      await page.getByTestId('view-live').click();
      await page.locator('body').press('?');
      await page.getByRole('dialog').waitFor();
      await audit('keyboard shortcuts');
      await page.keyboard.press('Escape');

      const item = page.locator('.crawl-item').first();
      await item.getByTestId('edit-crawl').click();
      await item.getByTestId('label-name').waitFor();
      await audit('crawls list, label editor open');
      await shot('label-editor');

      console.log(`axe checked: ${checked.join('; ')}`);
      expect(serious, `serious or critical axe violations:\n${serious.join('\n')}`).toEqual([]);
    }, 300_000);

    it('runs the main path by keyboard alone, every stop with a visible focus ring, and says each thread step in text', async () => {
      const kb = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      const noRing = new Set<string>();
      let stops = 0;
      const focusShot = (name: string) => kb.screenshot({ path: path.join(shotsDir, `a11y-focus-${name}.png`) }).then(() => undefined);
      /** Presses Tab (Shift+Tab with `back`) until the focused element is the one wanted, noting every stop without a ring. */
      const tabTo = async (wanted: (f: Focused) => boolean, what: string, back = false): Promise<Focused> => {
        for (let i = 0; i < 250; i++) {
          await kb.keyboard.press(back ? 'Shift+Tab' : 'Tab');
          const f = await kb.evaluate<Focused | null>(FOCUS);
          if (!f) continue;
          stops++;
          if (!f.focusVisible || !ringVisible(f)) noRing.add(describeFocus(f));
          if (wanted(f)) return f;
        }
        throw new Error(`Tab never reached ${what}`);
      };
      const byTestId = (id: string) => (f: Focused) => f.testid === id;
      try {
        await kb.goto(url);
        await kb.locator('.topbar').waitFor();
        delayMs = 2000;
        await kb.locator('textarea[name="seeds"]').fill(site.url('/p/0'));
        await kb.locator('input[id$="-threads"]').fill('2');
        await kb.locator('textarea[name="seeds"]').focus();
        await tabTo(byTestId('start'), 'Start crawl');
        await focusShot('start');
        await kb.keyboard.press('Enter');
        await waitForState(kb, 'running');

        // Every thread's step in words, one wording per step, distinct steps worded apart; the legend too.
        const cells = await until(
          () =>
            kb
              .locator('[data-thread-id]')
              .evaluateAll((els) =>
                els.map((el) => [el.getAttribute('data-step') ?? '', el.querySelector('.cell-step')?.textContent ?? '']),
              ),
          (c) => c.length === 2,
          'two thread cells',
        );
        const legend = await kb
          .locator('.step-legend [data-step]')
          .evaluateAll((els) => els.map((el) => [el.getAttribute('data-step') ?? '', (el.textContent ?? '').replace(/\d+$/, '').trim()]));
        const words = new Map<string, Set<string>>();
        for (const [step, text] of [...cells, ...legend] as [string, string][]) {
          expect(text.trim(), `step ${step} said in text`).not.toBe('');
          words.set(step, (words.get(step) ?? new Set()).add(text.trim()));
        }
        for (const [step, w] of words) expect([...w], `one wording for ${step}`).toHaveLength(1);
        const all = [...words.values()].map((w) => [...w][0]);
        expect(new Set(all).size, 'each step its own words').toBe(all.length);
        expect(legend.length).toBeGreaterThanOrEqual(8);

        await tabTo(byTestId('pause'), 'Pause');
        await focusShot('pause');
        await kb.keyboard.press('Enter');
        await waitForState(kb, 'paused');
        delayMs = 20;
        const slider = await tabTo(byTestId('thread-slider'), 'the thread slider');
        expect(slider.tag).toBe('input');
        await focusShot('thread-slider');
        await kb.keyboard.press('ArrowRight');
        await expect.poll(() => kb.getByTestId('thread-target').getAttribute('data-value')).toBe('3');
        await tabTo(byTestId('resume'), 'Resume', true);
        await kb.keyboard.press('Enter');
        await waitForState(kb, 'finished', 90_000);

        await tabTo(byTestId('view-explorer'), 'the explorer tab');
        await focusShot('view-tab');
        await kb.keyboard.press('Enter');
        await kb.locator('[data-explorer-url]').first().waitFor();
        await tabTo((f) => f.className.includes('vtable'), 'the explorer table');
        await focusShot('table');
        await kb.keyboard.press('ArrowDown');
        await kb.getByTestId('url-detail').waitFor();
        await tabTo((f) => f.label === 'close details', 'the close button of the detail pane');
        await focusShot('close-details');
        await kb.keyboard.press('Enter');
        await kb.getByTestId('url-detail').waitFor({ state: 'hidden' });
        // The focus back on the table the pane was opened from, not at the start of the page.
        expect((await kb.evaluate<Focused | null>(FOCUS))?.className ?? '').toContain('vtable');
        // A focus ring in the dark theme too.
        await kb.evaluate("document.documentElement.setAttribute('data-theme', 'dark')");
        await tabTo(byTestId('explorer-search'), 'the explorer search', true);
        await focusShot('dark-search');
        console.log(`keyboard path: ${stops} Tab stops`);
        expect([...noRing], 'focused by Tab without a visible focus ring').toEqual([]);
      } finally {
        await kb.close();
      }
    }, 180_000);
  },
);
