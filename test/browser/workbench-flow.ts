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
export async function startPauseResizeFinish(
  page: Page,
  seed: string,
  expectedPages: number,
  screenshot: (name: string) => Promise<void>,
): Promise<void> {
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
    () =>
      seen.has('fetching') && (seen.has('waiting') || seen.has('claimed') || seen.has('processing')) && seenProcessors.has('fetch-http'),
    'threads changing step, one of them in fetch-http',
  );
  await until(
    () => counter(page, 'crawled'),
    (n) => n >= 5,
    'some pages crawled',
  );
  await screenshot('live-view');

  await page.getByTestId('pause').click();
  await waitForState(page, 'paused');
  const paused = await until(
    () => steps(page),
    (s) => s.length === 4 && s.every((x) => x === 'paused'),
    'every thread paused',
  );
  expect(paused).toHaveLength(4);

  await setSlider(page, 2);
  await until(
    () => steps(page),
    (s) => s.length === 2,
    'the grid shrinking to 2',
  );
  await setSlider(page, 8);
  await until(
    () => steps(page),
    (s) => s.length === 8 && s.every((x) => x === 'paused'),
    'the grid growing to 8 paused threads',
  );
  await screenshot('paused-resized');

  await page.getByTestId('resume').click();
  await waitForState(page, 'finished', 60_000);
  expect(await page.locator('.state-badge').getAttribute('data-reason')).toBe('completed');
  expect(await counter(page, 'crawled')).toBe(expectedPages);
  await until(
    async () => Number(await page.getByTestId('results-total').getAttribute('data-value')),
    (n) => n === expectedPages,
    'the results table filled',
  );
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
  await expect
    .poll(() => page.locator('.row-details dt').allTextContents())
    .toEqual(expect.arrayContaining(['Indexability', 'Attempts', 'H1 count', 'Hreflang', 'Meta robots']));
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
  await page
    .getByTestId('list-file')
    .setInputFiles({ name: 'urls.txt', mimeType: 'text/plain', buffer: Buffer.from(`${urls.join('\r\n')}\r\n`) });
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
  await until(
    async () => Number(await page.getByTestId('results-total').getAttribute('data-value')),
    (n) => n === urls.length,
    'the listed URLs in the results',
  );
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
export async function liveExcludeDuringCrawl(
  page: Page,
  seed: string,
  pattern: string,
  screenshot: (name: string) => Promise<void>,
): Promise<void> {
  await page.getByTestId('setting-mode-spider').check();
  await page.locator('textarea[name="seeds"]').fill(seed);
  await page.locator('input[id$="-threads"]').fill('2');
  // A URLs/s cap from the start, and a lower one set live, keep URLs queued through every step below however
  // slow the machine: uncapped, the crawl could end before the exclude is added (it did under load).
  await openGroup(page, 'politeness');
  await page.getByTestId('setting-max-urls-per-second').fill('4');
  await page.getByTestId('start').click();
  await waitForState(page, 'running');
  await page.getByTestId('setting-max-urls-per-second').fill(''); // the next crawls start uncapped
  await until(
    () => counter(page, 'queued'),
    (n) => n >= 8,
    'URLs queued',
  );

  await page.getByTestId('live-max-rate').fill('3');
  await page.getByTestId('live-max-rate-apply').click();
  await expect.poll(() => page.getByTestId('live-max-rate-now').getAttribute('data-value')).toBe('3');

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
export async function tryScopeAndHeaders(
  page: Page,
  seed: string,
  other: string,
  screenshot: (name: string) => Promise<void>,
): Promise<void> {
  const origin = new URL(seed).origin;
  await page.locator('textarea[name="seeds"]').fill(seed);
  await openGroup(page, 'scope');
  await page.getByTestId('setting-exclude').fill('[?&]print=');
  await page.getByTestId('setting-strip-query-params').fill('utm_*');
  await page.getByTestId('pattern-samples').fill([`${origin}/p/2?utm_source=mail`, `${origin}/p/2?print=1`, other].join('\n'));
  const verdicts = page.locator('[data-testid="pattern-tester"] .pattern-verdict');
  await expect
    .poll(() => verdicts.evaluateAll((items) => items.map((li) => li.getAttribute('data-crawled'))))
    .toEqual(['true', 'false', 'false']);
  const why = await page.locator('[data-testid="pattern-tester"] .pattern-why').allTextContents();
  expect(why[0]).toBe(`crawled when linked (as ${origin}/p/2)`);
  expect(why[1]).toBe('not crawled: matches exclude pattern [?&]print=');
  expect(why[2]).toMatch(/^not crawled: host \S+ is outside the scope \(same host\)$/);

  await openGroup(page, 'request');
  await page.getByTestId('setting-headers').fill('X-Trawl-Test: yes');
  expect(await page.getByTestId('credentials-note').textContent()).toMatch(
    /sent only to the exact origins \(scheme, host and port\) of the seeds and allowed hosts, never from an\s+https seed to plain http/,
  );
  await page.getByTestId('group-scope').scrollIntoViewIfNeeded();
  await screenshot('scope-tester');
  await page.getByTestId('group-scope').locator('summary').click();
  await page.getByTestId('group-request').locator('summary').click();
  expect(await page.getByTestId('group-request').locator('.group-summary').textContent()).toBe('1 header');
}

/** Runs `click` (which starts a CSV export) and gives the CSV's text: a download (web console) or a save dialog (desktop). */
export type ExportCapture = (name: string, click: () => Promise<void>) => Promise<string>;

async function badge(page: Page, filter: string): Promise<number> {
  const v = await page.locator(`[data-filter="${filter}"] .count-badge`).getAttribute('data-count');
  return v === null ? -1 : Number(v);
}

/**
 * After a crawl of `origin` with `pages` pages: the Results explorer's filters with their counts, a filter's rows,
 * a URL's detail pane (headers, inlinks with anchors), "Export this view" with chosen columns and Screaming Frog
 * headers; then the hosts report and the charts drawn with data. Back to the live view at the end.
 */
export async function exploreFinishedCrawl(
  page: Page,
  origin: string,
  pages: number,
  screenshot: (name: string) => Promise<void>,
  capture: ExportCapture,
): Promise<void> {
  await page.getByTestId('view-explorer').click();
  await until(
    () => badge(page, 'all'),
    (n) => n === pages,
    'the All badge',
  );
  expect(await badge(page, 'status-2xx')).toBe(pages);
  expect(await badge(page, 'title-missing')).toBe(0);
  // Links to another host are listed under "Outside the scope", never fetched.
  await page.locator('[data-filter="external"]').click();
  const external = await until(
    () => badge(page, 'external'),
    (n) => n > 0,
    'the external badge',
  );
  await until(
    async () => Number(await page.getByTestId('explorer-total').getAttribute('data-value')),
    (n) => n === external,
    'the external total',
  );
  const externalUrls = await page
    .locator('[data-explorer-url]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-explorer-url') ?? ''));
  // The rows in view of the virtual table (it holds them all, scrolled through): outside links only.
  expect(externalUrls.length).toBeGreaterThan(0);
  expect(externalUrls.length).toBeLessThanOrEqual(external);
  expect(externalUrls.every((u) => u.startsWith('http://elsewhere.invalid/'))).toBe(true);

  // HTML pages, searched: only the matching rows.
  await page.locator('[data-filter="html"]').click();
  await page.getByTestId('explorer-search').fill('/p/1');
  await until(
    () => page.locator('[data-explorer-url]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-explorer-url') ?? '')),
    (rows) => rows.length > 0 && rows.every((u) => u.includes('/p/1')),
    'searched rows',
  );
  const shown = await page.getByTestId('explorer-total').getAttribute('data-value');
  expect(Number(shown)).toBe(await page.locator('[data-explorer-url]').count());
  await screenshot('explorer');

  // The detail pane of /p/1: its response headers and inlinks with their anchor text.
  await page.locator(`[data-explorer-url="${origin}/p/1"]`).click();
  const headers = page.getByTestId('detail-headers');
  await headers.waitFor();
  expect(await headers.locator('dt').allTextContents()).toContain('content-type');
  const inlinks = await page.getByTestId('detail-inlinks').locator('.link-anchor').allTextContents();
  expect(inlinks).toContain('“Page 1”');
  await screenshot('url-detail');
  await page.getByLabel('close details').click();

  // Export this view: three columns, Screaming Frog's header names.
  await page.getByTestId('explorer-search').fill('');
  await until(
    async () => Number(await page.getByTestId('explorer-total').getAttribute('data-value')),
    (n) => n === pages,
    'the whole HTML view',
  );
  await page.getByTestId('explorer-export-open').click();
  await page.getByTestId('export-dialog').getByRole('button', { name: 'None' }).click();
  for (const c of ['url', 'status_code', 'title']) await page.locator(`[data-export-column="${c}"]`).check();
  await page.getByTestId('export-sf-headers').check();
  await screenshot('export-dialog');
  const csv = await capture('explorer-view', () => page.getByTestId('export-view').click());
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('Address,Status Code,Title 1');
  expect(lines).toHaveLength(pages + 1);
  expect(lines[1]).toMatch(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/p/\\d+,200,Page \\d+$`));

  await page.getByTestId('view-hosts').click();
  await expect.poll(() => page.locator(`[data-host-row="${origin}"] [data-col="crawled"]`).textContent()).toBe(String(pages));
  await screenshot('hosts');

  await page.getByTestId('view-reports').click();
  for (const kind of ['status', 'depth', 'response-time', 'over-time']) {
    await until(
      async () => Number(await page.locator(`[data-chart="${kind}"]`).getAttribute('data-total')),
      (n) => n > 0,
      `the ${kind} chart's data`,
    );
  }
  expect(await page.locator('[data-chart] canvas').count()).toBeGreaterThanOrEqual(4);
  expect(Number(await page.locator('[data-chart="status"]').getAttribute('data-total'))).toBe(pages);
  await screenshot('reports');
  const statusCsv = await capture('chart-status', () => page.getByTestId('chart-csv-status').click());
  expect(
    statusCsv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n'),
  ).toEqual(['status_code,count', `200,${pages}`]);
  await page.getByTestId('view-live').click();
}

/**
 * During a spider crawl from `seed` (one thread, so the queue fills): the queue inspector's host with its count,
 * its path prefixes, a search, and "Exclude this pattern" from the search box, then from a prefix, each saying how
 * many queued URLs it dropped; the crawl then runs out of URLs. Back to the live view at the end.
 */
export async function inspectQueueDuringCrawl(page: Page, seed: string, screenshot: (name: string) => Promise<void>): Promise<void> {
  const origin = new URL(seed).origin;
  await page.getByTestId('setting-mode-spider').check();
  await page.locator('textarea[name="seeds"]').fill(seed);
  await page.locator('input[id$="-threads"]').fill('1');
  // A URLs/s cap keeps URLs queued through every step below, however fast the machine: without it, one thread
  // could drain the fixture's queue before the inspector is done with it.
  await openGroup(page, 'politeness');
  await page.getByTestId('setting-max-urls-per-second').fill('4');
  await page.getByTestId('start').click();
  await waitForState(page, 'running');
  await page.getByTestId('setting-max-urls-per-second').fill(''); // the next crawls start uncapped
  await until(
    () => counter(page, 'queued'),
    (n) => n >= 8,
    'URLs queued',
  );

  await page.getByTestId('view-queue').click();
  const host = page.locator(`[data-testid="queue-hosts"] [data-host="${origin}"]`);
  await host.waitFor();
  await host.click();
  const prefix = page.locator('[data-testid="queue-prefixes"] [data-prefix="/p/"]');
  await prefix.waitFor();
  expect(Number(await prefix.locator('.count-badge').textContent())).toBeGreaterThan(0);
  // The last URL queued (claimed last: one thread takes a while to reach it), searched and excluded.
  const queuedUrls = page.locator('[data-queued-url]');
  await until(
    () => queuedUrls.count(),
    (n) => n > 0,
    'queued URLs listed',
  );
  const lastQueued = (await queuedUrls.last().getAttribute('data-queued-url'))!;
  const search = new URL(lastQueued).pathname;
  await page.getByTestId('queue-search').fill(search);
  await until(
    () => queuedUrls.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-queued-url') ?? '')),
    (rows) => rows.length > 0 && rows.every((u) => u.includes(search)),
    `queued URLs containing ${search}`,
  );
  await page.getByTestId('queue-exclude-search').click();
  const result = page.locator('[data-testid="queue-exclude-result"][data-dropped]');
  await result.waitFor();
  const dropped = Number(await result.getAttribute('data-dropped'));
  expect(dropped).toBeGreaterThan(0);
  expect(await result.textContent()).toBe(`Excluded ${search}: dropped ${dropped} queued URL${dropped === 1 ? '' : 's'}`);
  await until(
    () => page.locator('[data-queued-url]').count(),
    (n) => n === 0,
    'the excluded URLs gone from the queue',
  );
  await page.getByTestId('queue-search').fill('');
  await until(
    () => queuedUrls.count(),
    (n) => n > 0,
    'the whole queue listed again',
  );
  await screenshot('queue');

  // Deprioritise a prefix: nothing is dropped, the queued URLs under it move to the back and say how many.
  await page.locator('[data-deprioritise-prefix="/p/"]').click();
  const moved = page.locator('[data-testid="queue-exclude-result"][data-moved]');
  await moved.waitFor();
  expect(Number(await moved.getAttribute('data-moved'))).toBeGreaterThan(0);
  expect(await moved.textContent()).toMatch(
    /^Deprioritised \^http:\/\/127\\\.0\\\.0\\\.1:\d+\/p\/: \d+ queued URLs? moved to the back of the queue$/,
  );

  // A whole prefix: everything queued under /p/ goes, and the crawl runs out of URLs.
  await page.locator('[data-exclude-prefix="/p/"]').click();
  await until(
    async () => Number(await page.locator('[data-testid="queue-exclude-result"]').getAttribute('data-dropped')),
    (n) => n > 0 && n !== dropped,
    'the prefix excluded',
  );
  expect(await page.locator('[data-testid="queue-exclude-result"]').textContent()).toMatch(
    /^Excluded \^http:\/\/127\\\.0\\\.0\\\.1:\d+\/p\/: dropped \d+ queued URLs?$/,
  );
  await waitForState(page, 'finished', 30_000);
  await page.getByTestId('view-live').click();
}

/**
 * Two list-mode crawls of the site, `flip` called between them (the site changes); the comparison of the two
 * (newest two crawls, the defaults) with its counts and changed fields, and its CSV; then the explorer's 4xx filter
 * on the second crawl. Back to the live view at the end.
 */
export async function compareTwoCrawls(
  page: Page,
  first: string[],
  second: string[],
  flip: () => void,
  expected: { added: number; removed: number; changed: number; changedUrl: string; missingUrl: string },
  screenshot: (name: string) => Promise<void>,
  capture: ExportCapture,
): Promise<void> {
  for (const [i, urls] of [first, second].entries()) {
    if (i === 1) flip();
    await page.getByTestId('setting-mode-list').check();
    await page.locator('textarea[name="seeds"]').fill(urls.join('\n'));
    // The crawl before this one also ended "finished": wait for this crawl's file in the title first (a short
    // list crawl can pass "running" between two polls, so that state is no sign to wait for), then for its end.
    const before = await page.locator('.crawl-title-name').textContent();
    await page.getByTestId('start').click();
    await until(
      () => page.locator('.crawl-title-name').textContent(),
      (name) => name !== before,
      `crawl ${i + 1} of the comparison in the title`,
    );
    await waitForState(page, 'finished', 60_000);
    await until(
      async () => Number(await page.getByTestId('results-total').getAttribute('data-value')),
      (n) => n >= urls.length,
      'the listed URLs in the results',
    );
  }
  await page.getByTestId('view-compare').click();
  await expect.poll(() => page.getByTestId('compare-old').locator('option').count()).toBeGreaterThan(2);
  await page.getByTestId('compare-run').click();
  const summary = page.getByTestId('compare-summary');
  await summary.waitFor();
  for (const k of ['added', 'removed', 'changed'] as const) {
    expect(Number(await summary.locator(`[data-change="${k}"]`).getAttribute('data-value')), k).toBe(expected[k]);
  }
  const changedRow = page.locator(`[data-testid="compare-rows"][data-kind="changed"] [data-compare-url="${expected.changedUrl}"]`);
  await changedRow.waitFor();
  expect(await changedRow.locator('.change-line').first().textContent()).toMatch(/^title /);
  await screenshot('compare');
  await summary.locator('[data-change="added"]').click();
  await expect.poll(() => page.locator('[data-testid="compare-rows"][data-kind="added"] [data-compare-url]').count()).toBe(expected.added);
  const csv = await capture('compare', () => page.getByTestId('compare-export').click());
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]!.startsWith('change,url,changed_fields,old_status_code,new_status_code')).toBe(true);
  expect(lines).toHaveLength(1 + expected.added + expected.removed + expected.changed);

  // The second crawl in the explorer: its 4xx filter and count.
  await page.getByTestId('view-explorer').click();
  await until(
    () => badge(page, 'status-4xx'),
    (n) => n === 1,
    'the 4xx badge',
  );
  await page.locator('[data-filter="status-4xx"]').click();
  await until(
    () => page.locator('[data-explorer-url]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-explorer-url') ?? '')),
    (rows) => rows.length === 1 && rows[0] === expected.missingUrl,
    'the 4xx row',
  );
  await screenshot('explorer-4xx');
  await page.getByTestId('view-live').click();
}

/**
 * A rendering crawl started from the form: the seed of a client-rendered site (every page the same empty shell
 * until its script runs), "JavaScript rendering" ticked. A thread shows the step "rendering"; every page the script
 * links is found and shows the title its script made (unrendered, the crawl finds the shell alone); the explorer's
 * JavaScript group counts them as rendered. `pages` are the site's pages (URL and script-made title).
 */
export async function renderCrawlFromForm(
  page: Page,
  pages: { url: string; title: string }[],
  screenshot: (name: string) => Promise<void>,
): Promise<void> {
  await page.locator('textarea[name="seeds"]').fill(pages[0]!.url);
  await openGroup(page, 'render');
  await page.getByTestId('setting-render').check();
  await page.getByTestId('group-render').scrollIntoViewIfNeeded();
  await screenshot('render-form');
  await page.getByTestId('start').click();
  await waitForState(page, 'running');
  const seen = new Set<string>();
  await until(
    async () => {
      (await steps(page)).forEach((s) => seen.add(s));
      return seen.has('rendering') || (await crawlState(page)) === 'finished';
    },
    (done) => done,
    'a thread rendering',
    120_000,
  );
  expect([...seen]).toContain('rendering');
  await screenshot('render-live');
  await waitForState(page, 'finished', 120_000);
  expect(await page.locator('.state-badge').getAttribute('data-reason')).toBe('completed');
  expect(await counter(page, 'crawled')).toBe(pages.length);
  for (const { url, title } of pages) {
    await expect.poll(() => cellOf(page, url, 'c-title'), { timeout: 10_000 }).toBe(title);
  }
  await screenshot('render-results');
  await page.getByTestId('view-explorer').click();
  await until(
    async () => Number((await page.locator('[data-filter="js-rendered"] .count-badge').getAttribute('data-count')) ?? -1),
    (n) => n === pages.length,
    'the explorer counting every page as rendered',
  );
  await screenshot('render-explorer');
}
