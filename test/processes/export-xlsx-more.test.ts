// XLSX beside CSV where the other exports are: the live results table's own export, a Reports chart's data and the
// comparison of two crawls. Each is fetched through the web console's download route (as the browser does, checked
// over the WebSocket first) and read back with exceljs: numbers are numeric cells, the header row is frozen, an
// autofilter spans the columns, and formula-like text is neutralised as the CSV neutralises it. The desktop's
// save dialog is asked for an .xlsx file for each of them; an unknown format is refused; the CSV's address is kept.
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../electron/engine/export/csv-export.ts';
import { COMPARISON_CSV_COLUMNS } from '../../electron/engine/analysis/compare.ts';
import { columnLetters } from '../../electron/engine/export/xlsx-writer.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { desktopHandlers } from '../../electron/main/desktop-handlers.ts';
import { startWebConsole, type WebConsole } from '../../electron/server/web-console.ts';
import type { ExportFormat } from '../../shared/analysis.ts';
import { COMMANDS } from '../../shared/commands.ts';
import type { StartResult } from '../../shared/crawler-api.ts';
import { CHART_EXPORT_PATH, COMPARE_EXPORT_PATH, EXPORT_PATH, WS_PATH } from '../../shared/ws-protocol.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { connect, type WsClient } from '../helpers/ws-client.ts';
import { getBytes, worksheetsOf } from '../helpers/xlsx-download.ts';

const PAGES = 8;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function sheetOf(bytes: Buffer): Promise<ExcelJS.Worksheet> {
  const sheets = await worksheetsOf(bytes);
  expect(sheets).toHaveLength(1);
  return sheets[0]!;
}

const values = (sheet: ExcelJS.Worksheet, n: number) => (sheet.getRow(n).values as unknown[]).slice(1);

/** The header frozen, the autofilter over every column and row, as the results export writes them. */
function expectFrozenAndFiltered(sheet: ExcelJS.Worksheet, columns: number): void {
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  expect(sheet.autoFilter).toBe(`A1:${columnLetters(columns)}${sheet.rowCount}`);
}

/** A page whose title a spreadsheet would run as a formula, and whose status changes between the two crawls. */
let crawlNo = 1;
const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><p>words</p></body></html>`;

describe('XLSX from the live table, a chart and a comparison', () => {
  let site: FixtureSite;
  let session: CrawlSession;
  let server: WebConsole;
  let ws: WsClient;
  let base: string;
  let cookie: string;
  let older: string;
  let newer: string;

  async function crawl(): Promise<string> {
    const started = await ws.ok<StartResult>('start', [{ seeds: [site.url('/p/0'), site.url('/formula'), site.url('/gone')], threads: 3 }]);
    for (let i = 0; i < 1200 && session.isRunning(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(session.isRunning()).toBe(false);
    return (started as { file: string }).file;
  }

  beforeAll(async () => {
    site = await startFixtureSite({
      pages: PAGES,
      linksPerPage: 3,
      routes: {
        '/formula': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(page(`=${crawlNo}+${crawlNo}`)),
        '/gone': (_req, res) => void res.writeHead(crawlNo === 1 ? 200 : 410, { 'content-type': 'text/html' }).end(page('Gone')),
      },
    });
    const staticDir = tempDir();
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Trawl</title>');
    session = new CrawlSession({ crawlsDir: tempDir(), spawner: spawner(), cpuCount: 2 });
    server = await startWebConsole({ host: '127.0.0.1', port: 0, session, staticDir });
    base = new URL(server.url).origin;
    cookie = (await getBytes(server.url)).headers['set-cookie']![0]!.split(';')[0]!;
    ws = await connect(`ws://${new URL(server.url).host}${WS_PATH}?token=${server.token}`);
    older = await crawl();
    crawlNo = 2;
    newer = await crawl();
  }, 180_000);

  afterAll(async () => {
    ws?.close();
    await server?.close();
    await session?.close();
    await site?.close();
  });

  it("downloads the live table's export as a workbook: every column, numbers typed, header frozen and filtered", async () => {
    // The download's address, as the page builds it from the command table.
    expect(COMMANDS.exportCsv.download.query(['xlsx'])).toEqual({ format: 'xlsx' });
    expect(COMMANDS.exportCsv.download.query([])).toEqual({});
    expect(await ws.ok('exportCsv', ['xlsx'])).toEqual({ ok: true, rows: null, file: null });
    const res = await getBytes(`${base}${EXPORT_PATH}?format=xlsx`, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_TYPE);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${newer.replace(/\.trawl$/, '')}.xlsx"`);
    const sheet = await sheetOf(res.body);
    expect(values(sheet, 1)).toEqual([...CSV_COLUMNS]);
    const rows = PAGES + 2;
    expect(sheet.rowCount).toBe(rows + 1);
    expectFrozenAndFiltered(sheet, CSV_COLUMNS.length);
    const col = (name: string) => CSV_COLUMNS.indexOf(name as (typeof CSV_COLUMNS)[number]) + 1;
    const byUrl = new Map<string, ExcelJS.Row>();
    for (let n = 2; n <= rows + 1; n++) byUrl.set(String(sheet.getRow(n).getCell(col('url')).value), sheet.getRow(n));
    const first = byUrl.get(site.url('/p/0'))!;
    expect(first.getCell(col('status_code')).type).toBe(ExcelJS.ValueType.Number);
    expect(first.getCell(col('status_code')).value).toBe(200);
    expect(first.getCell(col('crawl_depth')).value).toBe(0);
    expect(first.getCell(col('word_count')).type).toBe(ExcelJS.ValueType.Number);
    expect(first.getCell(col('title')).value).toBe('Page 0');
    expect(byUrl.get(site.url('/gone'))!.getCell(col('status_code')).value).toBe(410);
    // Text a spreadsheet would run as a formula is prefixed as the CSV prefixes it.
    expect(byUrl.get(site.url('/formula'))!.getCell(col('title')).value).toBe("'=2+2");
    const csv = await getBytes(`${base}${EXPORT_PATH}`, { cookie });
    expect(csv.body.toString('utf8')).toContain(",'=2+2,");

    // Without a format, still the CSV, under its name; a format it does not know is refused both ways.
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="${newer.replace(/\.trawl$/, '')}.csv"`);
    expect(await ws.error('exportCsv', ['pdf'])).toMatch(/invalid arguments for exportCsv/);
    expect((await getBytes(`${base}${EXPORT_PATH}?format=pdf`, { cookie })).status).toBe(400);
  });

  it("downloads a chart's data as a workbook, status codes and counts as numbers", async () => {
    expect(await ws.ok('exportChartCsv', ['status', 'xlsx'])).toEqual({ ok: true, rows: null, file: null });
    const res = await getBytes(`${base}${CHART_EXPORT_PATH}?kind=status&format=xlsx`, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_TYPE);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${newer.replace(/\.trawl$/, '')}-status.xlsx"`);
    const sheet = await sheetOf(res.body);
    expect(values(sheet, 1)).toEqual(['status_code', 'count']);
    expect(values(sheet, 2)).toEqual([200, PAGES + 1]);
    expect(values(sheet, 3)).toEqual([410, 1]);
    expect(sheet.getRow(2).getCell(1).type).toBe(ExcelJS.ValueType.Number);
    expect(sheet.getRow(2).getCell(2).type).toBe(ExcelJS.ValueType.Number);
    expectFrozenAndFiltered(sheet, 2);

    // The response-time chart: its bucket bounds are numbers too.
    const times = await sheetOf((await getBytes(`${base}${CHART_EXPORT_PATH}?kind=response-time&format=xlsx`, { cookie })).body);
    expect(values(times, 1)).toEqual(['from_ms', 'to_ms', 'count']);
    expect(times.getRow(2).getCell(1).type).toBe(ExcelJS.ValueType.Number);
    expectFrozenAndFiltered(times, 3);

    // The CSV as it was.
    const csv = await getBytes(`${base}${CHART_EXPORT_PATH}?kind=status`, { cookie });
    expect(csv.body.toString('utf8')).toBe(`\uFEFFstatus_code,count\r\n200,${PAGES + 1}\r\n410,1\r\n`);
    expect((await getBytes(`${base}${CHART_EXPORT_PATH}?kind=status&format=pdf`, { cookie })).status).toBe(400);
  });

  it('downloads the comparison as a workbook: old and new values typed, formulas neutralised', async () => {
    const q = { oldFile: older, newFile: newer, wordThresholdPercent: 10 };
    expect(await ws.ok('exportComparison', [q, 'xlsx'])).toEqual({ ok: true, rows: null, file: null });
    const res = await getBytes(`${base}${COMPARE_EXPORT_PATH}?query=${encodeURIComponent(JSON.stringify(q))}&format=xlsx`, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_TYPE);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="compare-.+\.xlsx"$/);
    const sheet = await sheetOf(res.body);
    expect(values(sheet, 1)).toEqual([...COMPARISON_CSV_COLUMNS]);
    expect(sheet.rowCount).toBe(3);
    expectFrozenAndFiltered(sheet, COMPARISON_CSV_COLUMNS.length);
    const col = (name: string) => COMPARISON_CSV_COLUMNS.indexOf(name as (typeof COMPARISON_CSV_COLUMNS)[number]) + 1;
    const rows = [sheet.getRow(2), sheet.getRow(3)];
    const gone = rows.find((r) => r.getCell(col('url')).value === site.url('/gone'))!;
    expect(gone.getCell(col('change')).value).toBe('changed');
    expect(gone.getCell(col('changed_fields')).value).toMatch(/status_code/);
    expect(gone.getCell(col('old_status_code')).type).toBe(ExcelJS.ValueType.Number);
    expect(gone.getCell(col('old_status_code')).value).toBe(200);
    expect(gone.getCell(col('new_status_code')).value).toBe(410);
    expect(gone.getCell(col('old_word_count')).type).toBe(ExcelJS.ValueType.Number);
    const formula = rows.find((r) => r.getCell(col('url')).value === site.url('/formula'))!;
    expect(formula.getCell(col('changed_fields')).value).toBe('title');
    expect(formula.getCell(col('old_title')).value).toBe("'=1+1");
    expect(formula.getCell(col('new_title')).value).toBe("'=2+2");
    expect(formula.getCell(col('removed_reason')).type).toBe(ExcelJS.ValueType.Null);

    const csv = await getBytes(`${base}${COMPARE_EXPORT_PATH}?query=${encodeURIComponent(JSON.stringify(q))}`, { cookie });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.toString('utf8')).toContain(",'=1+1,'=2+2,");
    expect(await ws.error('exportComparison', [q, 'pdf'])).toMatch(/invalid arguments for exportComparison/);
  });

  it("asks the desktop app's save dialog for an .xlsx file for each of them and writes the workbook there", async () => {
    const asked: { title: string; defaultPath: string; format: ExportFormat | 'xml' | undefined }[] = [];
    const dir = tempDir();
    const handlers = desktopHandlers(session, {
      openCrawl: async () => null,
      saveCsv: async (title, defaultPath, format) => {
        asked.push({ title, defaultPath, format });
        return path.join(dir, defaultPath);
      },
    });
    expect(await handlers.exportCsv('xlsx')).toEqual({ ok: true, rows: PAGES + 2, file: path.join(dir, 'crawl.xlsx') });
    expect(await handlers.exportChartCsv('depth', 'xlsx')).toMatchObject({ ok: true, file: path.join(dir, 'depth-chart.xlsx') });
    const files = (await handlers.listCrawls()).map((c) => c.file);
    const q = { oldFile: files[files.length - 1]!, newFile: files[0]!, wordThresholdPercent: 10 };
    expect(await handlers.exportComparison(q, 'xlsx')).toEqual({ ok: true, rows: 2, file: path.join(dir, 'comparison.xlsx') });
    expect(asked).toEqual([
      { title: 'Export XLSX', defaultPath: 'crawl.xlsx', format: 'xlsx' },
      { title: 'Export the depth chart as XLSX', defaultPath: 'depth-chart.xlsx', format: 'xlsx' },
      { title: 'Export the comparison as XLSX', defaultPath: 'comparison.xlsx', format: 'xlsx' },
    ]);
    const results = await sheetOf(fs.readFileSync(path.join(dir, 'crawl.xlsx')));
    expect(results.rowCount).toBe(PAGES + 3);
    expectFrozenAndFiltered(results, CSV_COLUMNS.length);
    const depth = await sheetOf(fs.readFileSync(path.join(dir, 'depth-chart.xlsx')));
    expect(values(depth, 2)).toEqual([0, 3]);
    const compared = await sheetOf(fs.readFileSync(path.join(dir, 'comparison.xlsx')));
    expect(compared.rowCount).toBe(3);

    // A CSV's dialog is asked as before, without a format.
    asked.length = 0;
    await handlers.exportCsv();
    expect(asked).toEqual([{ title: 'Export CSV', defaultPath: 'crawl.csv', format: undefined }]);
  });
});
