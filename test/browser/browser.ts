// Debian's Chromium driven by playwright-core (no browser download). Flags keep it off the network: this
// machine's closed network otherwise refuses Chromium's background connections at every start.
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const chromiumAvailable = fs.existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Pixels of a PNG file that differ from its top-left (background) pixel, and its size, counted in the page. */
export function drawnPixels(page: Page, file: string): Promise<{ n: number; width: number; height: number }> {
  return page.evaluate(`(async () => {
    const img = new Image();
    img.src = 'data:image/png;base64,${fs.readFileSync(file).toString('base64')}';
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n++;
    return { n, width: c.width, height: c.height };
  })()`) as Promise<{ n: number; width: number; height: number }>;
}
