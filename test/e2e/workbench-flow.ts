// The analyst's main path through the workbench, driven in a real page. Shared by the web console test
// (Chromium) and the desktop app test (Electron), which differ only in how the page is opened and exported.
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export const ARTIFACTS = 'test-artifacts';

export async function crawlState(page: Page): Promise<string | null> {
  return page.locator('.state-badge').getAttribute('data-state');
}

export async function waitForState(page: Page, state: string, timeout = 30_000): Promise<void> {
  await page.locator(`.state-badge[data-state="${state}"]`).waitFor({ timeout });
}

export async function steps(page: Page): Promise<string[]> {
  return page.locator('[data-thread-id]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-step') ?? ''));
}

export async function counter(page: Page, name: string): Promise<number> {
  return Number(await page.locator(`[data-counter="${name}"]`).getAttribute('data-value'));
}

/** Polls `read` until `ok` holds (loosely bounded, to catch hangs). */
export async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeout = 30_000): Promise<T> {
  const end = Date.now() + timeout;
  let last: T = await read();
  while (!ok(last)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 50));
    last = await read();
  }
  return last;
}

export async function processors(page: Page): Promise<string[]> {
  return page.locator('[data-thread-id][data-processor]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-processor') ?? ''));
}

/** Opens a group of the start form (Scope, What to check...) unless it is open. */
export async function openGroup(page: Page, group: string): Promise<void> {
  const details = page.getByTestId(`group-${group}`);
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
}

export async function setSlider(page: Page, value: number): Promise<void> {
  await page.getByTestId('thread-slider').fill(String(value));
}

/**
 * Start a crawl from the form (checking images, and excluding URLs that the site does not have, so every page is
 * still crawled), see threads change step and processor, pause and see every thread paused, resize down to 2 and
 * up to 8 and see the grid follow, resume, let it finish, and see every page's indexability.
 */
export async function startPauseResizeFinish(page: Page, seed: string, expectedPages: number, screenshot: (name: string) => Promise<void>): Promise<void> {
  await page.locator('textarea[name="seeds"]').fill(seed);
  await page.locator('input[id$="-threads"]').fill('4');
  await openGroup(page, 'scope');
  await page.getByTestId('setting-exclude').fill('\\.pdf$\n/print/');
  await openGroup(page, 'check');
  await page.getByTestId('setting-check-images').check();
  // Scope closed again says what it holds; the form from its top.
  await page.getByTestId('group-scope').locator('summary').click();
  expect(await page.getByTestId('group-scope').locator('.group-summary').textContent()).toBe('same host · 2 exclude');
  await page.locator('.sidebar').evaluate((el) => el.scrollTo(0, 0));
  await screenshot('form');
  await page.getByTestId('start').click();
  await waitForState(page, 'running');

  const seen = new Set<string>();
  const seenProcessors = new Set<string>();
  await until(
    async () => {
      (await steps(page)).forEach((s) => seen.add(s));
      (await processors(page)).forEach((p) => seenProcessors.add(p));
    },
    () => seen.has('fetching') && (seen.has('waiting') || seen.has('claimed') || seen.has('processing')) && seenProcessors.has('fetch-http'),
    'threads changing step, one of them in fetch-http',
  );
  await until(() => counter(page, 'crawled'), (n) => n >= 5, 'some pages crawled');
  await screenshot('live-view');

  await page.getByTestId('pause').click();
  await waitForState(page, 'paused');
  const paused = await until(() => steps(page), (s) => s.length === 4 && s.every((x) => x === 'paused'), 'every thread paused');
  expect(paused).toHaveLength(4);

  await setSlider(page, 2);
  await until(() => steps(page), (s) => s.length === 2, 'the grid shrinking to 2');
  await setSlider(page, 8);
  await until(() => steps(page), (s) => s.length === 8 && s.every((x) => x === 'paused'), 'the grid growing to 8 paused threads');
  await screenshot('paused-resized');

  await page.getByTestId('resume').click();
  await waitForState(page, 'finished', 60_000);
  expect(await page.locator('.state-badge').getAttribute('data-reason')).toBe('completed');
  expect(await counter(page, 'crawled')).toBe(expectedPages);
  await until(async () => Number(await page.getByTestId('results-total').getAttribute('data-value')), (n) => n === expectedPages, 'the results table filled');
  // The fixture's pages are plain 200s without robots directives: every one is indexable.
  const verdicts = await until(
    () => page.locator('[data-row-url] .c-indexability').allTextContents(),
    (v) => v.length > 0,
    'indexability in the results table',
  );
  expect(new Set(verdicts)).toEqual(new Set(['indexable']));
  await screenshot('results');
  // Details of the first row: every field, the new ones included.
  await page.locator('[data-row-url]').first().click();
  await expect.poll(() => page.locator('.row-details dt').allTextContents()).toEqual(expect.arrayContaining(['Indexability', 'Attempts', 'H1 count', 'Hreflang', 'Meta robots']));
  await screenshot('row-details');
  await page.getByLabel('close details').click();
}
