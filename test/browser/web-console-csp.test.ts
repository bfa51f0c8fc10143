// Issue 13, finding 10, in real Chromium: the page's meta CSP (connect-src 'self') and the web console's header
// both apply; 'self' covers the console's own WebSocket (same host and port), and a socket to anywhere else is
// refused by the page itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { tempDir } from '../helpers/engine.ts';
import { chromiumAvailable, launchChromium, CHROMIUM } from './browser.ts';
import { startServe } from './serve.ts';
import type { ServeProcess } from './serve.ts';
import { until } from './workbench-flow.ts';

describe.skipIf(!chromiumAvailable && !process.env['CI'])(
  `the page's CSP in Chromium via the web console${chromiumAvailable ? '' : ` (skipped: no Chromium at ${CHROMIUM})`}`,
  () => {
    let server: ServeProcess;
    let browser: Browser;

    beforeAll(async () => {
      server = startServe(tempDir('trawl-csp-'));
      await server.url;
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    });

    it("lets the console's own WebSocket through and refuses one to another port", async () => {
      const page = await browser.newPage();
      const violations: string[] = [];
      await page.exposeFunction('cspViolation', (v: string) => void violations.push(v));
      // As a string: this file is compiled without the DOM's types.
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (e) => window.cspViolation(e.violatedDirective + ' ' + e.blockedURI));",
      );
      let framesIn = 0;
      const sockets: string[] = [];
      page.on('websocket', (ws) => {
        sockets.push(ws.url());
        ws.on('framereceived', () => void framesIn++);
      });
      const url = await server.url;
      await page.goto(url);
      // The app talks to the console over its socket: answers come back.
      await until(
        async () => framesIn,
        (n) => n > 0,
        'a frame on the console WebSocket',
      );
      expect(sockets.length).toBeGreaterThan(0);
      expect(new URL(sockets[0]!).host).toBe(new URL(url).host);
      expect(violations).toEqual([]);
      const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      expect(meta).toContain("connect-src 'self';");

      // Anywhere else (another port on the same host) is refused.
      const elsewhere = `ws://127.0.0.1:${Number(new URL(url).port) === 9 ? 10 : 9}/`;
      const refused = await page.evaluate((target) => {
        try {
          new WebSocket(target);
          return 'opened';
        } catch (err) {
          return (err as Error).name;
        }
      }, elsewhere);
      await until(
        async () => violations.length,
        (n) => n > 0 || refused !== 'opened',
        'the CSP refusing the socket',
        5_000,
      );
      expect(violations.some((v) => v.startsWith('connect-src')) || refused === 'SecurityError').toBe(true);
      await page.close();
    });
  },
);
