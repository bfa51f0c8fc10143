// Security and hreflang in the web console, in Chromium (issue 18.5): a crawl by the CLI of the two loopback sites of
// test/helpers/security-site.ts (HTTPS with a certificate of our own, and plain HTTP), opened in the explorer; the
// mixed-content page's detail lists its plain-HTTP resources and its missing headers, the unsafe-links page its
// target=_blank link, and a page with hreflang mistakes its alternates with what is wrong with each. Screenshots go to
// /work/wt/notes/shots/security-*.png.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { startSecuritySite, type SecuritySite } from '../helpers/security-site.ts';
import { CHROMIUM, chromiumAvailable, launchChromium } from './browser.ts';
import { startServe, type ServeProcess } from './serve.ts';
import { until } from './workbench-flow.ts';

const SHOTS = '/work/wt/notes/shots';

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `security and hreflang detail in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;
    let site: SecuritySite;
    const crawlsDir = tempDir('trawl-security-ui-');

    beforeAll(async () => {
      site = await startSecuritySite(tempDir('trawl-security-certs-'));
      const run = await runCli(
        [`${site.S}/`, `${site.P}/`, '--db', path.join(crawlsDir, 'crawl.trawl'), '--threads', '2', '--max-attempts', '1', '--quiet'],
        site.env,
      );
      expect(run.code, run.stderr).toBe(0);
      server = startServe(crawlsDir);
      const address = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.goto(address);
      await page.locator('.crawl-item[data-crawl-file="crawl.trawl"]').getByTestId('open-crawl').click();
      await page.getByTestId('view-explorer').click();
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await site?.close();
      fs.rmSync(crawlsDir, { recursive: true, force: true });
    });

    const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `security-${name}.png`) }).then(() => undefined);
    const listed = () => page.locator('[data-explorer-url]').evaluateAll((r) => r.map((e) => e.getAttribute('data-explorer-url')));
    /** Opens a filter and the detail of its one page. */
    const openOnly = async (filter: string, url: string) => {
      await page.locator(`[data-filter="${filter}"]`).click();
      await until(listed, (urls) => urls.length === 1 && urls[0] === url, `${url} alone in ${filter}`);
      await page.locator(`[data-explorer-url="${url}"]`).click();
    };
    const texts = (selector: string) => page.locator(selector).evaluateAll((els) => els.map((e) => e.textContent));

    it('shows a mixed-content page\u2019s HTTP resources and missing headers, and an unsafe target=_blank link', async () => {
      await openOnly('mixed-content', `${site.S}/mixed`);
      const section = page.getByTestId('detail-security');
      await section.getByTestId('detail-security-http').waitFor();
      const http = await texts('[data-testid="detail-security-http"] .link-url');
      expect(http.length).toBeGreaterThan(0);
      expect(http.every((u) => u!.startsWith('http:'))).toBe(true);
      // The headers it was sent: those the site sends on every page but /bare are there, none shown as missing.
      const headers = await section
        .getByTestId('detail-security-headers')
        .locator('.detail')
        .evaluateAll((ds) => ds.map((d) => [d.querySelector('dt')?.textContent, d.getAttribute('data-empty') !== null]));
      expect(headers.find(([name]) => name === 'strict-transport-security')).toEqual(['strict-transport-security', false]);
      await section.scrollIntoViewIfNeeded();
      await shot('mixed');

      await openOnly('security-unsafe-links', `${site.S}/blank`);
      await section.getByTestId('detail-security-unsafe').waitFor();
      const unsafe = await texts('[data-testid="detail-security-unsafe"] .link-url');
      expect(unsafe.length).toBeGreaterThan(0);
      expect(unsafe.every((u) => !u!.startsWith(site.S))).toBe(true);
      await section.scrollIntoViewIfNeeded();
      await shot('unsafe');

      // The plain HTTP page: missing headers shown as missing, and the problem said.
      await openOnly('security-http', `${site.P}/`);
      await until(
        () => texts('[data-testid="detail-security-problems"] li'),
        (p) => p.length > 0,
        'the HTTP page\u2019s problems',
      );
      const missing = await section
        .getByTestId('detail-security-headers')
        .locator('.detail[data-empty] dd')
        .evaluateAll((dds) => dds.map((d) => d.textContent));
      expect(missing.length).toBeGreaterThan(0);
    });

    it('lists a page\u2019s hreflang alternates with what is wrong with each', async () => {
      await openOnly('hreflang-non-200', `${site.S}/it`);
      const table = page.getByTestId('detail-hreflang-table');
      await table.waitFor();
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-problem') !== null, tr.querySelector('th')?.textContent]));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some(([problem]) => problem)).toBe(true);
      await page.getByTestId('detail-hreflang').scrollIntoViewIfNeeded();
      await shot('hreflang');
    });
  },
);
