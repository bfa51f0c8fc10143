// The dark theme in real Chromium: a page whose system asks for dark (colorScheme: 'dark') shows dark, one that asks
// for light shows light, both with readable text (WCAG AA); the switch overrides the system, survives a reload, and
// System hands back to the system. Screenshots of the live crawl, the explorer and the reports in both themes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { ARTIFACTS, counter, until, waitForState } from './workbench-flow.ts';

type Scheme = 'light' | 'dark';

interface Pair {
  what: string;
  fg: string;
  bg: string;
}

// Page-side code as text: the test project's TypeScript has no DOM library (as in cluster-ui.test.ts).
const PAIRS = `(sels) => sels.flatMap((sel) => {
  const el = document.querySelector(sel);
  if (!el) return [];
  let bg = 'rgba(0, 0, 0, 0)';
  for (let n = el; n; n = n.parentElement) {
    const b = getComputedStyle(n).backgroundColor;
    if (b && !/rgba\\(.*, 0\\)$/.test(b) && b !== 'transparent') { bg = b; break; }
  }
  return [{ what: sel, fg: getComputedStyle(el).color, bg }];
})`;
const STEPS = `[...document.querySelectorAll('[data-thread-id] .cell-step')].map((el) => ({
  fg: getComputedStyle(el).color,
  bg: getComputedStyle(el).backgroundColor,
  step: el.closest('[data-step]')?.getAttribute('data-step') ?? '',
}))`;
const BODY_BG = 'getComputedStyle(document.body).backgroundColor';

/** Text colour against the first opaque background behind it, for each selector that is on the page. */
function colourPairs(page: Page, selectors: string[]): Promise<Pair[]> {
  return page.evaluate(`(${PAIRS})(${JSON.stringify(selectors)})`);
}

const dataTheme = (page: Page) => page.locator('html').getAttribute('data-theme');

function rgb(css: string): [number, number, number] {
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3])];
  // color-mix() results serialise as color(srgb R G B) with channels from 0 to 1.
  const c = /^color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)/.exec(css);
  if (c) return [Number(c[1]) * 255, Number(c[2]) * 255, Number(c[3]) * 255];
  throw new Error(`not an rgb colour: ${css}`);
}

function luminance(css: string): number {
  const [r, g, b] = rgb(css).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const TEXT = ['body', '.panel-title', '.btn', '.view-tab[aria-pressed="true"]', '.crawl-title-name', '.theme-switch'];

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `dark and light themes in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let site: FixtureSite;
    let server: ServeProcess;
    let url: string;
    let browser: Browser;
    const contexts = new Map<Scheme, BrowserContext>();
    const pages = new Map<Scheme, Page>();
    const shotsDir = path.join(ROOT, ARTIFACTS);

    beforeAll(async () => {
      // Slow pages: the crawl runs long enough to see its threads from both pages, even on a loaded machine.
      site = await startFixtureSite({ pages: 60, linksPerPage: 4, delayMs: 400 });
      server = startServe(tempDir('trawl-theme-'));
      url = await server.url;
      browser = await launchChromium();
      fs.mkdirSync(shotsDir, { recursive: true });
      for (const scheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1440, height: 900 }, locale: 'en-US' });
        contexts.set(scheme, context);
        const page = await context.newPage();
        await page.goto(url);
        await page.locator('.topbar').waitFor();
        pages.set(scheme, page);
      }
    });

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
    });

    const shot = (scheme: Scheme, name: string) =>
      pages
        .get(scheme)!
        .screenshot({ path: path.join(shotsDir, `theme-${scheme}-${name}.png`) })
        .then(() => undefined);

    it('follows the system: dark and light pages differ, and their text is readable', async () => {
      const found = new Map<Scheme, Pair[]>();
      for (const scheme of ['light', 'dark'] as const) {
        const page = pages.get(scheme)!;
        expect(await dataTheme(page)).toBeNull();
        expect(await page.getByTestId('theme-switch').inputValue()).toBe('system');
        const pairs = await colourPairs(page, TEXT);
        expect(pairs.map((p) => p.what)).toEqual(TEXT);
        for (const p of pairs) expect(contrast(p.fg, p.bg), `${scheme}: ${p.what} ${p.fg} on ${p.bg}`).toBeGreaterThanOrEqual(4.5);
        found.set(scheme, pairs);
      }
      const [light, dark] = [found.get('light')![0]!, found.get('dark')![0]!];
      expect(light.bg).not.toBe(dark.bg);
      expect(light.fg).not.toBe(dark.fg);
      // Dark text on a light page, light text on a dark one.
      expect(luminance(light.bg)).toBeGreaterThan(luminance(light.fg));
      expect(luminance(dark.bg)).toBeLessThan(luminance(dark.fg));
      expect(luminance(dark.bg)).toBeLessThan(0.05);
    });

    it('shows the live crawl, the explorer and the reports in both themes', async () => {
      const light = pages.get('light')!;
      await light.locator('textarea[name="seeds"]').fill(site.url('/p/0'));
      await light.locator('input[id$="-threads"]').fill('4');
      await light.getByTestId('start').click();
      for (const scheme of ['light', 'dark'] as const) await waitForState(pages.get(scheme)!, 'running');
      for (const scheme of ['light', 'dark'] as const) {
        const page = pages.get(scheme)!;
        await until(
          () => counter(page, 'crawled'),
          (n) => n >= 5,
          `pages crawled (${scheme})`,
        );
        await shot(scheme, 'live');
        // A thread's step keeps readable text on its tinted background.
        const steps = await until(
          () => page.evaluate<{ fg: string; bg: string; step: string }[]>(STEPS),
          (cells) => cells.length > 0,
          `thread cells (${scheme})`,
        );
        expect(steps.length).toBeGreaterThan(0);
        for (const s of steps) {
          expect(contrast(s.fg, s.bg), `${scheme}: step ${s.step}`).toBeGreaterThanOrEqual(4.5);
        }
      }
      for (const scheme of ['light', 'dark'] as const) await waitForState(pages.get(scheme)!, 'finished', 60_000);

      for (const scheme of ['light', 'dark'] as const) {
        const page = pages.get(scheme)!;
        await page.getByTestId('view-explorer').click();
        await page.locator('[data-explorer-url]').first().click();
        await shot(scheme, 'explorer');
        await page.getByTestId('view-reports').click();
        await until(
          async () => Number(await page.locator('[data-chart="status"]').getAttribute('data-total')),
          (n) => n > 0,
          'the status chart',
        );
        // The charts are drawn in the theme's colours.
        expect(await page.locator('[data-chart] .plot').first().getAttribute('data-theme')).toBe(scheme);
        await shot(scheme, 'reports');
      }
    });

    it('lets the switch override the system, keeps it across a reload, and hands back on System', async () => {
      const page = pages.get('dark')!;
      const bodyBg = () => page.evaluate<string>(BODY_BG);
      const systemDark = await bodyBg();

      await page.getByTestId('theme-switch').selectOption('light');
      expect(await dataTheme(page)).toBe('light');
      const chosenLight = await bodyBg();
      expect(luminance(chosenLight)).toBeGreaterThan(0.5);
      // The charts follow the switch too.
      await expect.poll(() => page.locator('[data-chart] .plot').first().getAttribute('data-theme')).toBe('light');
      await shot('dark', 'switched-to-light');

      await page.reload();
      await page.locator('.topbar').waitFor();
      expect(await page.getByTestId('theme-switch').inputValue()).toBe('light');
      expect(await bodyBg()).toBe(chosenLight);

      await page.getByTestId('theme-switch').selectOption('system');
      expect(await dataTheme(page)).toBeNull();
      expect(await page.evaluate("localStorage.getItem('trawl.theme')")).toBeNull();
      expect(await bodyBg()).toBe(systemDark);

      // And Dark on a light system.
      const light = pages.get('light')!;
      await light.getByTestId('theme-switch').selectOption('dark');
      expect(luminance(await light.evaluate<string>(BODY_BG))).toBeLessThan(0.05);
      await light.getByTestId('theme-switch').selectOption('system');
    });

    it('shows the other views and an invalid form in the dark theme, errors readable', async () => {
      const page = pages.get('dark')!;
      for (const view of ['hosts', 'queue', 'compare'] as const) {
        await page.getByTestId(`view-${view}`).click();
        await page.waitForTimeout(300);
        await shot('dark', view);
      }
      await page.getByTestId('view-live').click();
      await page.locator('textarea[name="seeds"]').fill('not a url');
      await page.locator('input[id$="-threads"]').fill('0');
      await page.getByTestId('start').click();
      await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBeGreaterThanOrEqual(2);
      const [error] = await colourPairs(page, ['.field-error']);
      expect(error, 'a field error on the page').toBeDefined();
      expect(contrast(error!.fg, error!.bg)).toBeGreaterThanOrEqual(4.5);
      await shot('dark', 'invalid-form');
    });
    it("applies a stored choice before the app's script runs (no flash of the other theme)", async () => {
      const page = await contexts.get('light')!.newPage();
      await page.goto(url);
      await page.evaluate("localStorage.setItem('trawl.theme', 'dark')");
      // Without the app's bundle only theme-boot.js can have set the theme.
      await page.route(/\/assets\/[^/]+\.js$/, (route) => route.abort());
      await page.reload();
      expect(await page.locator('#root').innerHTML()).toBe('');
      expect(await dataTheme(page)).toBe('dark');
      expect(luminance(await page.evaluate<string>(BODY_BG))).toBeLessThan(0.05);
      await page.evaluate("localStorage.removeItem('trawl.theme')");
      await page.close();
    });

    it('keeps the switch on screen at 1280 px with the sidebar open, beside the view tabs', async () => {
      const page = pages.get('dark')!;
      await page.setViewportSize({ width: 1280, height: 800 });
      const box = await page.getByTestId('theme-switch').boundingBox();
      const compare = await page.getByTestId('view-compare').boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(1280);
      expect(compare!.x + compare!.width).toBeLessThanOrEqual(box!.x);
      await shot('dark', 'topbar-1280');
    });
  },
);
