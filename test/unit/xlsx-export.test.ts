// The XLSX export (xlsx-writer.ts) from the same row source as the CSV's, read back with exceljs's own reader: the
// columns and header presets the CSV has, numbers as numeric cells, text neutralised by the CSV's rule, a frozen
// header row and an autofilter on every sheet, more rows than a sheet holds going on in the next, and no file left
// behind when the export fails. Plus the CLI's choice of format by --out's extension.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, extractionColumnsOf, type CsvRowSource, type ExtractedValue } from '../../electron/engine/export/csv-writer.ts';
import { exportFormatOf, writeExport } from '../../electron/engine/export/export-format.ts';
import { columnLetters, writeXlsxExport, xlsxCell, XLSX_MAX_CELL_CHARS } from '../../electron/engine/export/xlsx-writer.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-xlsx-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function row(id: number, cells: Partial<Record<(typeof CSV_COLUMNS)[number], unknown>> = {}): unknown[] {
  const out: unknown[] = CSV_COLUMNS.map((c) => cells[c] ?? null);
  out[CSV_COLUMNS.indexOf('url')] ??= `http://a.test/${id}`;
  return [...out, id];
}

function source(rows: unknown[][], rules: string[] = [], extracted: ExtractedValue[] = []): CsvRowSource {
  let at = 0;
  return {
    rules: extractionColumnsOf({ extraction: rules.map((name) => ({ name })) }),
    nextPage(limit) {
      const page = rows.slice(at, at + limit);
      at += page.length;
      return page;
    },
    extracted: (ids) => extracted.filter((v) => ids.includes(v.url_id)),
  };
}

async function readBook(file: string): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  return book;
}

const values = (sheet: ExcelJS.Worksheet, n: number) => (sheet.getRow(n).values as unknown[]).slice(1);

describe('XLSX export', () => {
  it('writes the CSV columns as a sheet: numbers typed, text neutralised, empty cells for null, header frozen and filtered', async () => {
    const file = path.join(dir, 'typed.xlsx');
    const rows = [
      row(1, { status_code: 200, size_bytes: 5120, response_time_ms: 12.5, title: '=HYPERLINK("http://evil.test")', word_count: 0 }),
      row(2, { status_code: 404, title: '-2+3', error: '@SUM(A1)', inlinks: 7 }),
    ];
    const { rows: written } = await writeXlsxExport(source(rows), file, { batchSize: 1 });
    expect(written).toBe(2);
    expect(fs.existsSync(`${file}.part`)).toBe(false);

    const sheet = (await readBook(file)).worksheets[0]!;
    expect(sheet.name).toBe('Results');
    expect(values(sheet, 1)).toEqual([...CSV_COLUMNS]);
    expect(sheet.rowCount).toBe(3);
    const col = (name: string) => CSV_COLUMNS.indexOf(name as (typeof CSV_COLUMNS)[number]) + 1;
    const first = sheet.getRow(2);
    expect(first.getCell(col('status_code')).type).toBe(ExcelJS.ValueType.Number);
    expect(first.getCell(col('status_code')).value).toBe(200);
    expect(first.getCell(col('size_bytes')).value).toBe(5120);
    expect(first.getCell(col('response_time_ms')).value).toBe(12.5);
    expect(first.getCell(col('word_count')).value).toBe(0);
    expect(first.getCell(col('url')).value).toBe('http://a.test/1');
    // The formula is text, prefixed as the CSV prefixes it; an empty cell stays empty.
    expect(first.getCell(col('title')).type).toBe(ExcelJS.ValueType.String);
    expect(first.getCell(col('title')).value).toBe(`'=HYPERLINK("http://evil.test")`);
    expect(first.getCell(col('canonical')).type).toBe(ExcelJS.ValueType.Null);
    const second = sheet.getRow(3);
    expect(second.getCell(col('title')).value).toBe("'-2+3");
    expect(second.getCell(col('error')).value).toBe("'@SUM(A1)");
    expect(second.getCell(col('inlinks')).value).toBe(7);

    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const last = columnLetters(CSV_COLUMNS.length);
    expect(sheet.autoFilter).toBe(`A1:${last}3`);
  });

  it("takes the CSV's column choice, Screaming Frog's headers and seconds, and extraction columns", async () => {
    const file = path.join(dir, 'sf.xlsx');
    const rows = [row(1, { status_code: 301, response_time_ms: 1234 }), row(2, { status_code: 200, response_time_ms: null })];
    const extracted = [
      { url_id: 1, rule: 'price', value: '=9.99' },
      { url_id: 1, rule: 'price', value: '12' },
    ];
    await writeXlsxExport(source(rows, ['price'], extracted), file, {
      columns: ['url', 'response_time_ms', 'price', 'status_code'],
      headerPreset: 'screaming-frog',
    });
    const sheet = (await readBook(file)).worksheets[0]!;
    expect(values(sheet, 1)).toEqual(['Address', 'Response Time', 'price', 'Status Code']);
    expect(values(sheet, 2)).toEqual(['http://a.test/1', 1.234, "'=9.99\n12", 301]);
    expect(values(sheet, 3)).toEqual(['http://a.test/2', undefined, undefined, 200]);
    expect(sheet.autoFilter).toBe('A1:D3');
  });

  it('goes on in a further sheet, with its own header, frozen row and filter, past the rows a sheet holds', async () => {
    const file = path.join(dir, 'sheets.xlsx');
    const rows = Array.from({ length: 5 }, (_, i) => row(i + 1, { status_code: 200 + i }));
    const { rows: written } = await writeXlsxExport(source(rows), file, { maxRowsPerSheet: 3, columns: ['url', 'status_code'] });
    expect(written).toBe(5);
    const sheets = (await readBook(file)).worksheets;
    expect(sheets.map((s) => s.name)).toEqual(['Results', 'Results (2)', 'Results (3)']);
    expect(sheets.map((s) => s.rowCount)).toEqual([3, 3, 2]);
    for (const s of sheets) {
      expect(values(s, 1)).toEqual(['url', 'status_code']);
      expect(s.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(s.autoFilter).toBe(`A1:B${s.rowCount}`);
    }
    expect(values(sheets[2]!, 2)).toEqual(['http://a.test/5', 204]);
  });

  it('writes to a stream as well, and cuts a text longer than a cell holds', async () => {
    const long = 'x'.repeat(XLSX_MAX_CELL_CHARS + 10);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await writeExport(source([row(1, { h2: long })]), out, { format: 'xlsx', columns: ['url', 'h2'] });
    const file = path.join(dir, 'stream.xlsx');
    fs.writeFileSync(file, Buffer.concat(chunks));
    const sheet = (await readBook(file)).worksheets[0]!;
    expect((sheet.getRow(2).getCell(2).value as string).length).toBe(XLSX_MAX_CELL_CHARS);
  });

  it('refuses an unknown column before writing anything, and leaves no file when the store fails midway', async () => {
    const file = path.join(dir, 'refused.xlsx');
    await expect(writeXlsxExport(source([row(1)]), file, { columns: ['url', 'nope'] })).rejects.toThrow(/unknown column "nope"/);
    expect(fs.existsSync(file) || fs.existsSync(`${file}.part`)).toBe(false);

    let pages = 0;
    const failing: CsvRowSource = {
      rules: [],
      nextPage: () => {
        if (++pages > 2) throw new Error('the store went away');
        return [row(pages)];
      },
      extracted: () => [],
    };
    await expect(writeXlsxExport(failing, file, { batchSize: 1 })).rejects.toThrow('the store went away');
    expect(fs.existsSync(file) || fs.existsSync(`${file}.part`)).toBe(false);
  });

  it('rejects, and does not hang, when the output fails part way', async () => {
    let bytes = 0;
    const out = new Writable({
      write(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        cb(bytes > 20_000 ? new Error('disk full') : null);
      },
    });
    const rows = Array.from({ length: 5000 }, (_, i) => row(i + 1, { status_code: 200, title: `Title ${i} ${'x'.repeat(i % 50)}` }));
    await expect(writeXlsxExport(source(rows), out, { batchSize: 100 })).rejects.toThrow('disk full');
  });

  it('turns values into cells: numbers stay numbers, the rest is text by the CSV rule', () => {
    expect(xlsxCell(null)).toBe(null);
    expect(xlsxCell(undefined)).toBe(null);
    expect(xlsxCell(-5)).toBe(-5);
    expect(xlsxCell(Number.NaN)).toBe(null);
    expect(xlsxCell(12n)).toBe(12);
    expect(xlsxCell('+1')).toBe("'+1");
    expect(xlsxCell('\tx')).toBe("'\tx");
    expect(xlsxCell(Buffer.from('=1'))).toBe("'=1");
    expect(xlsxCell('plain')).toBe('plain');
    expect(columnLetters(1)).toBe('A');
    expect(columnLetters(26)).toBe('Z');
    expect(columnLetters(27)).toBe('AA');
    expect(columnLetters(28)).toBe('AB');
  });

  it('picks XLSX for an --out name ending in .xlsx, CSV otherwise', () => {
    expect(exportFormatOf('results.xlsx')).toBe('xlsx');
    expect(exportFormatOf('/tmp/A.XLSX')).toBe('xlsx');
    expect(exportFormatOf('results.csv')).toBe('csv');
    expect(exportFormatOf('results')).toBe('csv');
    expect(exportFormatOf('xlsx.csv')).toBe('csv');
  });
});
