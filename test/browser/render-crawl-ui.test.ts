// A rendering crawl started from the workbench's form, in Chromium via the web console, of a client-rendered site
// on loopback: the engine renders with the machine's Chromium (playwright-core), the grid shows a thread
// rendering, and the results and the explorer show what the scripts made. The desktop app runs the same flow with
// Electron's own Chromium (electron-app.test.ts) where Electron's binary exists.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { serveSpaSite, spaPages, type SpaSite } from '../helpers/spa-site.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe, type ServeProcess } from './serve.ts';
import { ARTIFACTS, renderCrawlFromForm } from './workbench-flow.ts';

// In CI a missing Chromium is a failure (.ci/run installs it), never a silent skip.
describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `a rendering crawl from the form in Chromium${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let spa: SpaSite;
    let server: ServeProcess;
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      spa = await serveSpaSite(5);
      server = startServe(tempDir('trawl-render-ui-'));
      const url = await server.url;
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.addInitScript("window.localStorage.removeItem('trawl.lastCrawlSettings')");
      fs.mkdirSync(path.join(ROOT, ARTIFACTS), { recursive: true });
      await page.goto(url);
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await spa?.close();
    });

    it('shows a thread rendering, every script-made page with its title, and the rendered count', async () => {
      const shot = (name: string) => page.screenshot({ path: path.join(ROOT, ARTIFACTS, `web-${name}.png`) }).then(() => undefined);
      await renderCrawlFromForm(page, spaPages(spa), shot);
    }, 240_000);
  },
);
