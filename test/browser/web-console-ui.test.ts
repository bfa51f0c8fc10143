// The real UI in real Chromium against `npm run serve` and a fixture site, all on 127.0.0.1.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import {
  ARTIFACTS,
  compareTwoCrawls,
  exploreFinishedCrawl,
  inspectQueueDuringCrawl,
  listCrawlWithExtraction,
  liveExcludeDuringCrawl,
  openGroup,
  startPauseResizeFinish,
  tryScopeAndHeaders,
  until,
} from './workbench-flow.ts';

const PAGES = 80;

// In CI a missing Chromium is a failure (.ci/run installs it), never a silent skip.
describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `workbench in Chromium via the web console${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium)`}`,
  () => {
    let site: FixtureSite;
    let server: ServeProcess;
    let url: string;
    let browser: Browser;
    let page: Page;
    const crawlsDir = tempDir('trawl-e2e-');
    let changed = false;

    beforeAll(async () => {
      const htmlPage = (title: string) => `<!doctype html><title>${title}</title><h1>${title}</h1><p>Some words here.</p>`;
      site = await startFixtureSite({
        pages: PAGES,
        linksPerPage: 4,
        delayMs: 120,
        // Pages for the comparison: one retitled between the two crawls.
        routes: {
          '/c/same': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage('Same')),
          '/c/changing': (_req, res) =>
            void res.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage(changed ? 'New title' : 'Old title')),
          '/c/gone': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage('Gone later')),
          '/c/new': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(htmlPage('New page')),
          '/c/missing': (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end(htmlPage('Not found')),
        },
      });
      server = startServe(crawlsDir);
      url = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
      // These flows each set up their form from the defaults: forget the last crawl's settings, which the form
      // otherwise starts from after a reload (workbench-forms.test.ts tests that).
      await page.addInitScript("window.localStorage.removeItem('trawl.lastCrawlSettings')");
      fs.mkdirSync(path.join(ROOT, ARTIFACTS), { recursive: true });
    });

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
    });

    const shot = (name: string) =>
      page.screenshot({ path: path.join(ROOT, ARTIFACTS, `web-${name}.png`), fullPage: false }).then(() => undefined);
    /** A CSV the page downloads (by the page's cookie: the token is in no download's URL), saved beside the screenshots. */
    const capture = async (name: string, click: () => Promise<void>): Promise<string> => {
      const [download] = await Promise.all([page.waitForEvent('download'), click()]);
      expect(download.url()).not.toContain(new URL(url).searchParams.get('token')!);
      expect(new URL(download.url()).searchParams.has('token')).toBe(false);
      const file = path.join(ROOT, ARTIFACTS, `web-${name}.csv`);
      await download.saveAs(file);
      return fs.readFileSync(file, 'utf8');
    };

    it('refuses a wrong token', async () => {
      const wrong = url.replace(/token=[^&]+/, 'token=not-the-token');
      const response = await page.goto(wrong);
      expect(response?.status()).toBe(403);
      const bare = await fetch(url.split('?')[0]!);
      expect(bare.status).toBe(403);
    });

    it('runs the main path: start, watch, pause, resize, resume, finish, export, reopen', async () => {
      await page.goto(url);
      await startPauseResizeFinish(page, site.url('/p/0'), PAGES, shot);

      // Export: the browser downloads the CSV (authenticated by the page's cookie, no token in the download's URL, which
      // the browser keeps in its downloads list); its rows are exactly the fixture's pages.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
      expect(download.url()).toBe(`${new URL(url).origin}/export.csv`);
      const csvPath = path.join(ROOT, ARTIFACTS, 'web-export.csv');
      await download.saveAs(csvPath);
      const csv = fs.readFileSync(csvPath, 'utf8');
      expect(csv.charCodeAt(0)).toBe(0xfeff);
      const lines = csv.slice(1).trim().split('\r\n');
      expect(lines[0]!.startsWith('url,kind,status_code,content_type')).toBe(true);
      const urls = lines.slice(1).map((l) => l.split(',')[0]!);
      expect(urls.sort()).toEqual(
        site
          .pagePaths()
          .map((p) => site.url(p))
          .sort(),
      );

      // The analyst's views of the finished crawl: explorer, detail, view export, hosts, reports.
      await exploreFinishedCrawl(page, site.origin, PAGES, shot, capture);

      // Reopen the crawl file from the list after a reload: the results come back from the file.
      await page.reload();
      await page.getByTestId('open-crawl').first().click();
      await until(
        async () => Number(await page.getByTestId('results-total').getAttribute('data-value')),
        (n) => n === PAGES,
        "the reopened crawl's results",
      );
      await page.getByTestId('results-filter').fill('/p/1');
      await until(
        async () => page.locator('[data-row-url]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-url') ?? '')),
        (rows) => rows.length > 0 && rows.every((u) => u.includes('/p/1')),
        'filtered rows',
      );
      await shot('reopened-filtered');
    });

    it('takes the token out of the address bar and the history; a reload keeps working by the cookie', async () => {
      await page.goto(url);
      await until(
        async () => page.url(),
        (u) => !u.includes('token='),
        'the address without its token',
      );
      expect(page.url()).toBe(`${new URL(url).origin}/`);
      // The reloaded page has no token to give: the cookie opens the page and its WebSocket, which lists the crawls.
      const reloaded = await page.reload();
      expect(reloaded?.status()).toBe(200);
      expect(page.url()).toBe(`${new URL(url).origin}/`);
      await until(
        () => page.locator('.crawl-item').count(),
        (n) => n >= 1,
        'the crawls listed after the reload',
      );
    });

    it('shows invalid settings inline without starting anything', async () => {
      await page.goto(url);
      await page.locator('textarea[name="seeds"]').fill('not a url');
      await page.locator('input[id$="-threads"]').fill('0');
      // A bad pattern on the second line of a closed group: the group opens and the field names the line.
      await openGroup(page, 'scope');
      await page.getByTestId('setting-include').fill('^https?://\n(unclosed');
      await page.getByTestId('group-scope').locator('summary').click();
      await page.getByTestId('start').click();
      await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBeGreaterThanOrEqual(3);
      expect(await page.getByTestId('group-scope').getAttribute('open')).not.toBeNull();
      expect(await page.getByTestId('setting-include').getAttribute('aria-invalid')).toBe('true');
      const describedBy = await page.getByTestId('setting-include').getAttribute('aria-describedby');
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/^line 2: invalid regular expression/);
      await shot('invalid-settings');
      // Nothing started: the badge still shows the session's earlier crawl (or none), and no new crawl file.
      expect(['idle', 'finished']).toContain(await page.locator('.state-badge').getAttribute('data-state'));
      expect(fs.readdirSync(crawlsDir).filter((f) => f.endsWith('.trawl'))).toHaveLength(1);
    });

    it('tries the scope on sample URLs, tests an extraction rule, crawls a list with it and shows the values; excludes live', async () => {
      await page.goto(url);
      await tryScopeAndHeaders(page, site.url('/p/0'), 'http://elsewhere.invalid/page', shot);
      const urls = ['/p/3', '/p/5', '/p/8'].map((p) => site.url(p));
      const heading = (u: string) => `Heading ${/\/p\/(\d+)$/.exec(u)![1]}`;
      await listCrawlWithExtraction(page, urls, site.url('/p/7'), heading, shot);
      await liveExcludeDuringCrawl(page, site.url('/p/0'), '/p/\\d*[13579]$', shot);
      await inspectQueueDuringCrawl(page, site.url('/p/0'), shot);
      // The preset was kept in the crawls folder, beside the crawls.
      expect(fs.existsSync(path.join(crawlsDir, 'trawl-presets.json'))).toBe(true);
      // Four flows and three crawls: a loose bound, to catch a hang, not to time them.
    }, 180_000);

    it('compares two crawls of the site and finds the 4xx of the second in the explorer', async () => {
      await page.goto(url);
      const c = (p: string) => site.url(`/c/${p}`);
      await compareTwoCrawls(
        page,
        [c('same'), c('changing'), c('gone')],
        [c('same'), c('changing'), c('new'), c('missing')],
        () => (changed = true),
        { added: 2, removed: 1, changed: 1, changedUrl: c('changing'), missingUrl: c('missing') },
        shot,
        capture,
      );
    });

    it('deletes the crawl in view from the list on a second press, and the view empties', async () => {
      await page.goto(url);
      const items = page.locator('.crawl-item');
      await until(
        () => items.count(),
        (n) => n >= 2,
        'the earlier crawls',
      );
      const before = await items.count();
      const first = items.first();
      const name = await first.getAttribute('data-crawl-file');
      await first.getByTestId('open-crawl').click();
      await until(
        async () => Number(await page.getByTestId('results-total').getAttribute('data-value')),
        (n) => n > 0,
        "the opened crawl's results",
      );
      // One press only arms the button: nothing is deleted yet.
      await first.getByTestId('delete-crawl').click();
      expect(await first.getByTestId('delete-crawl').textContent()).toBe('Delete?');
      expect(fs.existsSync(path.join(crawlsDir, name!))).toBe(true);
      await shot('delete-armed');
      await first.getByTestId('delete-crawl').click();
      await until(
        () => items.count(),
        (n) => n === before - 1,
        'the list without the deleted crawl',
      );
      expect(await page.locator(`.crawl-item[data-crawl-file="${name}"]`).count()).toBe(0);
      expect(fs.existsSync(path.join(crawlsDir, name!))).toBe(false);
      // The crawl was in view: the results empty.
      await until(
        () => page.locator('[data-row-url]').count(),
        (n) => n === 0,
        'the emptied results',
      );
      await shot('deleted');
    });
  },
);
