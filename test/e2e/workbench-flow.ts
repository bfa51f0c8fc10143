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

/** The results table's cells of one column (by header label) for the row of `url`. */
async function cellOf(page: Page, url: string, columnClass: string): Promise<string> {
  return (await page.locator(`[data-row-url="${url}"] .${columnClass}`).first().textContent()) ?? '';
}

/**
 * Set up a list-mode crawl of `urls` (uploaded as a .txt file) with one CSS extraction rule (the page's h1), test the rule on `sample`
 * first and see its match, save the settings as a preset, run the crawl and see every URL's extracted value in
 * its own column of the results and in the row details. `headingOf(url)` is the h1 each page has.
 */
export async function listCrawlWithExtraction(
  page: Page,
  urls: string[],
  sample: string,
  headingOf: (url: string) => string,
  screenshot: (name: string) => Promise<void>,
): Promise<void> {
  await page.getByTestId('setting-mode-list').check();
  // The list comes from a .txt file, read in the page into the URLs box.
  await page.getByTestId('list-file').setInputFiles({ name: 'urls.txt', mimeType: 'text/plain', buffer: Buffer.from(`${urls.join('\r\n')}\r\n`) });
  // (A textarea holds its lines with LF whatever the file had.)
  await expect.poll(() => page.locator('textarea[name="seeds"]').inputValue()).toBe(`${urls.join('\n')}\n`);
  expect(await page.locator('.start-panel .panel-note').textContent()).toBe(`${urls.length} seed URLs`);
  await openGroup(page, 'extraction');
  await page.getByTestId('add-rule').click();
  await page.getByTestId('rule-0-name').fill('heading');
  await page.getByTestId('rule-0-expression').fill('h1');
  await page.getByTestId('rule-test-url').fill(sample);
  await page.getByTestId('rule-test').click();
  const match = page.locator('[data-testid="rule-test-result"] [data-rule="heading"] .rule-test-value');
  await match.waitFor({ timeout: 30_000 });
  expect(await match.allTextContents()).toEqual([headingOf(sample)]);
  expect(await page.locator('[data-testid="rule-test-result"] [data-rule="heading"]').getAttribute('data-matches')).toBe('1');
  await page.getByTestId('rule-editor').scrollIntoViewIfNeeded();
  await screenshot('rule-test');

  // The settings as a preset: saved, listed, and the group says so.
  await openGroup(page, 'presets');
  await page.getByTestId('preset-name').fill('List with headings');
  await page.getByTestId('preset-save').click();
  await expect.poll(() => page.getByTestId('preset-select').locator('option').allTextContents()).toContain('List with headings');
  await page.locator('.sidebar').evaluate((el) => el.scrollTo(0, 0));
  await screenshot('presets');

  await page.getByTestId('start').click();
  await waitForState(page, 'finished', 60_000);
  await until(async () => Number(await page.getByTestId('results-total').getAttribute('data-value')), (n) => n === urls.length, 'the listed URLs in the results');
  expect(await page.locator('.rhead .c-extracted').allTextContents()).toEqual(['heading']);
  for (const url of urls) {
    await expect.poll(() => cellOf(page, url, 'c-extracted'), { timeout: 10_000 }).toBe(headingOf(url));
  }
  await page.locator(`[data-row-url="${urls[0]}"]`).click();
  await expect.poll(() => page.getByTestId('row-extracted').locator('dd').allTextContents()).toEqual([headingOf(urls[0]!)]);
  await screenshot('extracted-results');
  await page.getByLabel('close details').click();
}

/**
 * During a spider crawl from `seed` (2 threads, so the queue fills), set a URLs/s cap, add an exclude pattern
 * live and see how many queued URLs it dropped and the pattern listed; a bad pattern says why; then stop.
 */
export async function liveExcludeDuringCrawl(page: Page, seed: string, pattern: string, screenshot: (name: string) => Promise<void>): Promise<void> {
  await page.getByTestId('setting-mode-spider').check();
  await page.locator('textarea[name="seeds"]').fill(seed);
  await page.locator('input[id$="-threads"]').fill('2');
  await page.getByTestId('start').click();
  await waitForState(page, 'running');
  await until(() => counter(page, 'queued'), (n) => n >= 8, 'URLs queued');

  await page.getByTestId('live-max-rate').fill('50');
  await page.getByTestId('live-max-rate-apply').click();
  await expect.poll(() => page.getByTestId('live-max-rate-now').getAttribute('data-value')).toBe('50');

  await page.getByTestId('live-exclude').fill('(unclosed');
  await page.getByTestId('live-exclude-add').click();
  await expect.poll(() => page.getByTestId('live-exclude-result').textContent()).toMatch(/^invalid exclude pattern "\(unclosed": /);

  await page.getByTestId('live-exclude').fill(pattern);
  await page.getByTestId('live-exclude-add').click();
  const result = page.locator('[data-testid="live-exclude-result"][data-dropped]');
  await result.waitFor();
  const dropped = Number(await result.getAttribute('data-dropped'));
  expect(dropped).toBeGreaterThan(0);
  expect(await result.textContent()).toBe(`dropped ${dropped} queued URL${dropped === 1 ? '' : 's'}`);
  await expect.poll(() => page.getByTestId('live-excludes').locator('.live-pattern').allTextContents()).toEqual([pattern]);
  await screenshot('live-exclude');

  await page.getByTestId('live-max-rate-remove').click();
  await expect.poll(() => page.getByTestId('live-max-rate-now').textContent()).toBe('now: no cap');
  await page.getByTestId('stop').click();
  await waitForState(page, 'finished', 30_000);
}

/**
 * Before a crawl: try sample URLs against the scope (an exclude and a stripped parameter set first) and read
 * each verdict; add a request header and see where credentials go. `seed` is the crawl's first URL, `other` a
 * URL on another host.
 */
export async function tryScopeAndHeaders(page: Page, seed: string, other: string, screenshot: (name: string) => Promise<void>): Promise<void> {
  const origin = new URL(seed).origin;
  await page.locator('textarea[name="seeds"]').fill(seed);
  await openGroup(page, 'scope');
  await page.getByTestId('setting-exclude').fill('[?&]print=');
  await page.getByTestId('setting-strip-query-params').fill('utm_*');
  await page.getByTestId('pattern-samples').fill([`${origin}/p/2?utm_source=mail`, `${origin}/p/2?print=1`, other].join('\n'));
  const verdicts = page.locator('[data-testid="pattern-tester"] .pattern-verdict');
  await expect.poll(() => verdicts.evaluateAll((items) => items.map((li) => li.getAttribute('data-crawled')))).toEqual(['true', 'false', 'false']);
  const why = await page.locator('[data-testid="pattern-tester"] .pattern-why').allTextContents();
  expect(why[0]).toBe(`crawled when linked (as ${origin}/p/2)`);
  expect(why[1]).toBe('not crawled: matches exclude pattern [?&]print=');
  expect(why[2]).toMatch(/^not crawled: host \S+ is outside the scope \(same host\)$/);

  await openGroup(page, 'request');
  await page.getByTestId('setting-headers').fill('X-Trawl-Test: yes');
  expect(await page.getByTestId('credentials-note').textContent()).toMatch(/sent only to hosts in the crawl's scope/);
  await page.getByTestId('group-scope').scrollIntoViewIfNeeded();
  await screenshot('scope-tester');
  await page.getByTestId('group-scope').locator('summary').click();
  await page.getByTestId('group-request').locator('summary').click();
  expect(await page.getByTestId('group-request').locator('.group-summary').textContent()).toBe('1 header');
}
