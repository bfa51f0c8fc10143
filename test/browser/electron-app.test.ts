// The built desktop app in Electron (Playwright's _electron), doing the same main path as the web console test.
// Runs wherever Electron's binary is installed; here (no download possible) it is skipped, saying why.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _electron as electron } from 'playwright-core';
import type { ElectronApplication, Page } from 'playwright-core';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { ROOT, tempDir } from '../helpers/engine.ts';
import { serveSpaSite, spaPages } from '../helpers/spa-site.ts';
import {
  ARTIFACTS,
  exploreFinishedCrawl,
  inspectQueueDuringCrawl,
  listCrawlWithExtraction,
  liveExcludeDuringCrawl,
  renderCrawlFromForm,
  startPauseResizeFinish,
  tryScopeAndHeaders,
} from './workbench-flow.ts';

/** Electron's binary, found the way the electron package finds it, without triggering its download. */
function electronBinary(): string | null {
  const pkg = path.join(ROOT, 'node_modules/electron');
  const pathTxt = path.join(pkg, 'path.txt');
  if (!fs.existsSync(pathTxt)) return null;
  const bin = path.join(pkg, 'dist', fs.readFileSync(pathTxt, 'utf8'));
  return fs.existsSync(bin) ? bin : null;
}

/** The app needs better-sqlite3 built for Electron's ABI (npm start builds it; see README). */
const nativeForElectron = fs.existsSync(path.join(ROOT, 'out/electron-native/better_sqlite3.node'));
const binary = electronBinary();
const why = !binary
  ? "skipped: Electron's binary is not installed (node_modules/electron/dist); it downloads on the first `npm start`"
  : !nativeForElectron
    ? 'skipped: better-sqlite3 is not built for Electron yet (run `node scripts/electron-native.mjs` or `npm start` once)'
    : '';

if (why) console.warn(`Electron app test ${why}`);

describe.skipIf(why !== '')(`desktop app in Electron${why ? ` (${why})` : ''}`, () => {
  const PAGES = 60;
  let site: FixtureSite;
  let app: ElectronApplication;
  let page: Page;

  beforeAll(async () => {
    site = await startFixtureSite({ pages: PAGES, linksPerPage: 4, delayMs: 120 });
    app = await electron.launch({
      executablePath: binary!,
      args: [path.join(ROOT, 'out/main/index.js'), `--user-data-dir=${tempDir('trawl-electron-')}`],
      cwd: ROOT,
    });
    page = await app.firstWindow();
    fs.mkdirSync(path.join(ROOT, ARTIFACTS), { recursive: true });
  });

  /** A CSV the app saves through its save dialog (answered here with a fresh file). */
  const capture = async (name: string, click: () => Promise<void>): Promise<string> => {
    const file = path.join(tempDir(), `electron-${name}.csv`);
    await app.evaluate(({ dialog }, f) => {
      dialog.showSaveDialog = (async () => ({ canceled: false, filePath: f })) as typeof dialog.showSaveDialog;
    }, file);
    await click();
    await expect.poll(() => fs.existsSync(file), { timeout: 10_000 }).toBe(true);
    return fs.readFileSync(file, 'utf8');
  };

  afterAll(async () => {
    await app?.close();
    await site?.close();
  });

  it('runs with context isolation and sandbox, exposing only the named API', async () => {
    const exposed = await page.evaluate(() => {
      const w = globalThis as unknown as { trawl: object; require?: unknown; process?: unknown };
      return { api: Object.keys(w.trawl).sort(), require: typeof w.require, process: typeof w.process };
    });
    expect(exposed.require).toBe('undefined');
    expect(exposed.process).toBe('undefined');
    expect(exposed.api).toContain('start');
    expect(exposed.api).not.toContain('invoke');
  });

  it('runs the main path and exports through the save dialog', async () => {
    await startPauseResizeFinish(page, site.url('/p/0'), PAGES, (name) =>
      page.screenshot({ path: path.join(ROOT, ARTIFACTS, `electron-${name}.png`) }).then(() => undefined),
    );
    const csvPath = path.join(tempDir(), 'electron-export.csv');
    await app.evaluate(({ dialog }, file) => {
      dialog.showSaveDialog = (async () => ({ canceled: false, filePath: file })) as typeof dialog.showSaveDialog;
    }, csvPath);
    await page.getByTestId('export').click();
    await expect.poll(() => fs.existsSync(csvPath), { timeout: 10_000 }).toBe(true);
    const rows = fs.readFileSync(csvPath, 'utf8').trim().split('\r\n');
    expect(rows).toHaveLength(PAGES + 1);
    await exploreFinishedCrawl(
      page,
      site.origin,
      PAGES,
      (name) => page.screenshot({ path: path.join(ROOT, ARTIFACTS, `electron-${name}.png`) }).then(() => undefined),
      capture,
    );
  });

  it('tries the scope on sample URLs, tests an extraction rule, crawls a list with it and shows the values; excludes live', async () => {
    const shot = (name: string) => page.screenshot({ path: path.join(ROOT, ARTIFACTS, `electron-${name}.png`) }).then(() => undefined);
    await tryScopeAndHeaders(page, site.url('/p/0'), 'http://elsewhere.invalid/page', shot);
    const urls = ['/p/3', '/p/5', '/p/8'].map((p) => site.url(p));
    await listCrawlWithExtraction(page, urls, site.url('/p/7'), (u) => `Heading ${/\/p\/(\d+)$/.exec(u)![1]}`, shot);
    await liveExcludeDuringCrawl(page, site.url('/p/0'), '/p/\\d*[13579]$', shot);
    await inspectQueueDuringCrawl(page, site.url('/p/0'), shot);
  });

  it('renders a client-rendered site with its own Chromium (no browser download), a thread showing "rendering"', async () => {
    const spa = await serveSpaSite(5);
    try {
      await page.reload();
      const shot = (name: string) => page.screenshot({ path: path.join(ROOT, ARTIFACTS, `electron-${name}.png`) }).then(() => undefined);
      await renderCrawlFromForm(page, spaPages(spa), shot);
    } finally {
      await spa.close();
    }
  }, 240_000);
});
