// XLSX from the app's and the web console's export of a view (the export dialog's Format): the web console's
// download is a workbook named .xlsx with its content type, the desktop's save dialog is asked for an .xlsx file and
// the workbook is written there, and a format neither knows is refused like any bad argument.
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { desktopHandlers } from '../../electron/main/desktop-handlers.ts';
import { startWebConsole, type WebConsole } from '../../electron/server/web-console.ts';
import type { ExportFormat } from '../../shared/analysis.ts';
import type { StartResult } from '../../shared/crawler-api.ts';
import { VIEW_EXPORT_PATH, WS_PATH } from '../../shared/ws-protocol.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { connect, type WsClient } from '../helpers/ws-client.ts';
import { getBytes, worksheetsOf } from '../helpers/xlsx-download.ts';

const PAGES = 12;

async function sheetOf(bytes: Buffer): Promise<ExcelJS.Worksheet> {
  return (await worksheetsOf(bytes))[0]!;
}

describe('XLSX export of a view, from the web console and the desktop app', () => {
  let site: FixtureSite;
  let session: CrawlSession;
  let server: WebConsole;
  let ws: WsClient;
  let base: string;
  let cookie: string;
  let crawlName: string;

  beforeAll(async () => {
    site = await startFixtureSite({ pages: PAGES, linksPerPage: 3 });
    const staticDir = tempDir();
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Trawl</title>');
    session = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 2 });
    server = await startWebConsole({ host: '127.0.0.1', port: 0, session, staticDir });
    base = new URL(server.url).origin;
    const page = await getBytes(server.url);
    cookie = page.headers['set-cookie']![0]!.split(';')[0]!;
    ws = await connect(`ws://${new URL(server.url).host}${WS_PATH}?token=${server.token}`);
    const started = await ws.ok<StartResult>('start', [{ seeds: [site.url('/p/0')], threads: 3 }]);
    for (let i = 0; i < 1200 && session.isRunning(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(session.isRunning()).toBe(false);
    crawlName = (started as { file: string }).file.replace(/\.trawl$/, '');
  }, 120_000);

  afterAll(async () => {
    ws?.close();
    await server?.close();
    await session?.close();
    await site?.close();
  });

  const view = { filter: 'html', text: '', columns: ['url', 'status_code', 'title'], headerPreset: 'screaming-frog', format: 'xlsx' };

  it('downloads the view as a workbook in the web console', async () => {
    expect(await ws.ok('exportView', [view])).toEqual({ ok: true, rows: null, file: null });
    const res = await getBytes(`${base}${VIEW_EXPORT_PATH}?view=${encodeURIComponent(JSON.stringify(view))}`, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${crawlName}-html.xlsx"`);
    const sheet = await sheetOf(res.body);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['Address', 'Status Code', 'Title 1']);
    expect(sheet.rowCount).toBe(PAGES + 1);
    expect(sheet.getRow(2).getCell(2).value).toBe(200);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });

    // Without a format (as before), still CSV.
    const { format: _, ...csvView } = view;
    const csv = await getBytes(`${base}${VIEW_EXPORT_PATH}?view=${encodeURIComponent(JSON.stringify(csvView))}`, { cookie });
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="${crawlName}-html.csv"`);
    expect(csv.body.toString('utf8').startsWith('\uFEFFAddress,Status Code,Title 1\r\n')).toBe(true);
  });

  it('refuses a format it does not know', async () => {
    expect(await ws.error('exportView', [{ ...view, format: 'pdf' }])).toMatch(/format/);
    const res = await getBytes(`${base}${VIEW_EXPORT_PATH}?view=${encodeURIComponent(JSON.stringify({ ...view, format: 'pdf' }))}`, {
      cookie,
    });
    expect(res.status).toBe(400);
  });

  it("asks the desktop app's save dialog for an .xlsx file and writes the workbook there", async () => {
    const asked: { title: string; defaultPath: string; format: ExportFormat | 'xml' | undefined }[] = [];
    const file = path.join(tempDir(), 'chosen.xlsx');
    const handlers = desktopHandlers(session, {
      openCrawl: async () => null,
      saveCsv: async (title, defaultPath, format) => {
        asked.push({ title, defaultPath, format });
        return file;
      },
    });
    const result = await handlers.exportView(view as Parameters<typeof handlers.exportView>[0]);
    expect(result).toEqual({ ok: true, rows: PAGES, file });
    expect(asked).toEqual([{ title: 'Export this view as XLSX', defaultPath: 'crawl-html.xlsx', format: 'xlsx' }]);
    const sheet = await sheetOf(fs.readFileSync(file));
    expect(sheet.rowCount).toBe(PAGES + 1);
  });
});
