// The bulk reports where the other exports are: the web console's download route (checked over the WebSocket first,
// then fetched as the browser does, CSV or ?format=xlsx, an unknown report refused) and the desktop app's save dialog.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBulkReport } from '../../electron/engine/analysis/bulk-reports.ts';
import { openCrawlForAnalysis } from '../../electron/engine/analysis/index.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { desktopHandlers } from '../../electron/main/desktop-handlers.ts';
import { startWebConsole, type WebConsole } from '../../electron/server/web-console.ts';
import { COMMANDS } from '../../shared/commands.ts';
import type { StartResult } from '../../shared/crawler-api.ts';
import { WS_PATH } from '../../shared/ws-protocol.ts';
import { startBrokenSite, type BrokenSite } from '../helpers/broken-site.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { connect, type WsClient } from '../helpers/ws-client.ts';
import { getBytes, worksheetsOf } from '../helpers/xlsx-download.ts';

const ROUTE = COMMANDS.exportBulkReport.download.path;

describe('bulk reports in the web console and the desktop app', () => {
  let site: BrokenSite;
  let session: CrawlSession;
  let server: WebConsole;
  let ws: WsClient;
  let base: string;
  let cookie: string;
  let file: string;

  beforeAll(async () => {
    site = await startBrokenSite();
    const staticDir = tempDir();
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Trawl</title>');
    session = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 2 });
    server = await startWebConsole({ host: '127.0.0.1', port: 0, session, staticDir });
    base = new URL(server.url).origin;
    cookie = (await getBytes(server.url)).headers['set-cookie']![0]!.split(';')[0]!;
    ws = await connect(`ws://${new URL(server.url).host}${WS_PATH}?token=${server.token}`);
    // Before any crawl: refused with a reason.
    expect(await ws.ok('exportBulkReport', ['redirect-chains'])).toMatchObject({ ok: false });
    const started = await ws.ok<StartResult>('start', [{ seeds: [site.url('/')], threads: 1, checkExternal: true, maxAttempts: 1 }]);
    for (let i = 0; i < 1200 && session.isRunning(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(session.isRunning()).toBe(false);
    file = (started as { file: string }).file;
  }, 120_000);

  afterAll(async () => {
    ws?.close();
    await server?.close();
    await session?.close();
    await site?.close();
  });

  /** The report as the engine writes it for the crawl's file. */
  async function expected(report: 'redirect-chains' | 'non-indexable-inlinks'): Promise<string> {
    const crawlFile = (await session.listCrawls()).find((c) => path.basename(c.file) === path.basename(file))!.file;
    const db = openCrawlForAnalysis(crawlFile);
    try {
      const out = path.join(tempDir(), 'expected.csv');
      await writeBulkReport(db, report, out);
      return fs.readFileSync(out, 'utf8');
    } finally {
      db.close();
    }
  }

  it('downloads a report as CSV and as XLSX from its route, after the WebSocket check', async () => {
    expect(COMMANDS.exportBulkReport.download.query(['redirect-chains'])).toEqual({ report: 'redirect-chains' });
    expect(await ws.ok('exportBulkReport', ['redirect-chains'])).toEqual({ ok: true, rows: null, file: null });
    const csv = await getBytes(`${base}${ROUTE}?report=redirect-chains`, { cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="${file.replace(/\.trawl$/, '')}-redirect-chains.csv"`);
    expect(csv.body.toString('utf8')).toBe(await expected('redirect-chains'));
    expect(csv.body.toString('utf8').split('\r\n')).toHaveLength(7);

    const xlsx = await getBytes(`${base}${ROUTE}?report=non-indexable-inlinks&format=xlsx`, { cookie });
    expect(xlsx.status).toBe(200);
    const [sheet] = await worksheetsOf(xlsx.body);
    expect(sheet!.rowCount).toBe((await expected('non-indexable-inlinks')).split('\r\n').length - 1);
    expect(sheet!.getRow(2).getCell(6).value).toBe(404);

    expect((await getBytes(`${base}${ROUTE}?report=everything`, { cookie })).status).toBe(400);
    expect(await ws.error('exportBulkReport', ['everything'])).toMatch(/^invalid arguments for exportBulkReport/);
    expect((await getBytes(`${base}${ROUTE}?report=redirect-chains`)).status).toBe(403);
  });

  it("asks the desktop app's save dialog where to write it", async () => {
    const asked: string[] = [];
    const dir = tempDir();
    const handlers = desktopHandlers(session, {
      openCrawl: async () => null,
      saveCsv: async (_title, defaultPath) => {
        asked.push(defaultPath);
        return path.join(dir, defaultPath);
      },
    });
    expect(await handlers.exportBulkReport('redirect-chains')).toEqual({ ok: true, rows: 5, file: path.join(dir, 'redirect-chains.csv') });
    expect(await handlers.exportBulkReport('client-error-inlinks', 'xlsx')).toMatchObject({ ok: true, rows: 2 });
    expect(asked).toEqual(['redirect-chains.csv', 'client-error-inlinks.xlsx']);
    expect(fs.readFileSync(path.join(dir, 'redirect-chains.csv'), 'utf8')).toBe(await expected('redirect-chains'));
  });

  it('generates the crawl\u2019s sitemap: a download of one XML file in the web console, a save dialog in the app', async () => {
    // What the sitemap lists: the crawl's indexable 200 HTML pages, as the generator reads them.
    const crawlFile = (await session.listCrawls()).find((c) => path.basename(c.file) === path.basename(file))!.file;
    const db = openCrawlForAnalysis(crawlFile);
    let pages: string[];
    try {
      pages = (
        db
          .prepare(
            "SELECT u.url FROM results r JOIN urls u ON u.id = r.url_id WHERE r.indexability = 'indexable' AND r.status_code = 200 AND r.content_type LIKE 'text/html%' ORDER BY r.seq",
          )
          .all() as { url: string }[]
      ).map((r) => r.url);
    } finally {
      db.close();
    }
    expect(pages.length).toBeGreaterThan(1);
    const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    const route = COMMANDS.exportSitemap.download.path;
    expect(await ws.ok('exportSitemap', [])).toEqual({ ok: true, rows: null, file: null });
    const xml = await getBytes(`${base}${route}`, { cookie });
    expect(xml.status).toBe(200);
    expect(xml.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.headers['content-disposition']).toBe(`attachment; filename="${file.replace(/\.trawl$/, '')}-sitemap.xml"`);
    expect(locs(xml.body.toString('utf8'))).toEqual(pages);
    expect((await getBytes(`${base}${route}`)).status).toBe(403);

    const asked: { defaultPath: string; format: string | undefined }[] = [];
    const dir = tempDir();
    const handlers = desktopHandlers(session, {
      openCrawl: async () => null,
      saveCsv: async (_title, defaultPath, format) => {
        asked.push({ defaultPath, format });
        return path.join(dir, defaultPath);
      },
    });
    expect(await handlers.exportSitemap()).toEqual({ ok: true, rows: pages.length, file: path.join(dir, 'sitemap.xml') });
    expect(asked).toEqual([{ defaultPath: 'sitemap.xml', format: 'xml' }]);
    expect(locs(fs.readFileSync(path.join(dir, 'sitemap.xml'), 'utf8'))).toEqual(pages);
  });
});
