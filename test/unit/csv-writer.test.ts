// The CSV writer shared by both stores' exports (csv-writer.ts), fed by a fabricated row source: cells of every
// type, extraction-rule columns with several values, Screaming Frog's seconds, and the messages refusing a column
// choice. Mutation testing found these reached by no in-process test (only by crawls in worker processes).
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  CSV_COLUMNS,
  checkBatchSize,
  csvCell,
  extractionColumnsOf,
  writeCsvExport,
  type CsvLayoutOptions,
  type CsvRowSource,
  type ExtractedValue,
} from '../../electron/engine/export/csv-writer.ts';

/** A row of CSV_COLUMNS (url and response time set, the rest null) followed by its url id. */
function row(id: number, responseTimeMs: number | null = 1234.4): unknown[] {
  const cells: unknown[] = CSV_COLUMNS.map(() => null);
  cells[CSV_COLUMNS.indexOf('url')] = `http://a.test/${id}`;
  cells[CSV_COLUMNS.indexOf('response_time_ms')] = responseTimeMs;
  return [...cells, id];
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

async function exportRecords(src: CsvRowSource, options: CsvLayoutOptions = {}): Promise<string[][]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeCsvExport(src, out, options);
  return parse(Buffer.concat(chunks).toString('utf8'), { bom: true, relax_column_count: false }) as string[][];
}

describe('CSV writer', () => {
  it('writes empty cells for null, numbers as numbers, and any text neutralised', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(12n)).toBe('12');
    expect(csvCell(-12n)).toBe('-12');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(Buffer.from('@SUM(A1)'))).toBe("'@SUM(A1)");
    expect(csvCell(true)).toBe('true');
  });

  it('names extraction columns after their rules, marking names a built-in column has', () => {
    expect(extractionColumnsOf(null)).toEqual([]);
    expect(extractionColumnsOf({})).toEqual([]);
    expect(extractionColumnsOf({ extraction: [{ name: 'Title' }, { name: 'price' }] })).toEqual([
      { name: 'Title', column: 'Title (extracted)' },
      { name: 'price', column: 'price' },
    ]);
  });

  it('refuses a batch size that is not a whole number of at least 1, saying so', () => {
    expect(checkBatchSize(undefined)).toBe(1000);
    expect(checkBatchSize(1)).toBe(1);
    expect(() => checkBatchSize(0)).toThrow(/^batchSize must be a whole number of at least 1, got 0$/);
    expect(() => checkBatchSize(1.5)).toThrow(RangeError);
  });

  it("puts each rule's values in its column, several values a line each, and nothing for rows without", async () => {
    const records = await exportRecords(
      source(
        [row(1), row(2), row(3)],
        ['price', 'sku'],
        [
          { url_id: 1, rule: 'price', value: '=12' },
          { url_id: 1, rule: 'price', value: '10' },
          { url_id: 3, rule: 'sku', value: 'A-1' },
        ],
      ),
      { batchSize: 2, columns: ['url', 'price', 'sku'] },
    );
    expect(records).toEqual([
      ['url', 'price', 'sku'],
      // The cell is neutralised as a whole (a spreadsheet reads only its first character as a formula start).
      ['http://a.test/1', "'=12\n10", ''],
      ['http://a.test/2', '', ''],
      ['http://a.test/3', '', 'A-1'],
    ]);
  });

  it("writes response times in seconds under Screaming Frog's headers, and an empty cell for none", async () => {
    const records = await exportRecords(source([row(1, 1234.4), row(2, null)]), {
      headerPreset: 'screaming-frog',
      columns: ['url', 'response_time_ms'],
    });
    expect(records).toEqual([
      ['Address', 'Response Time'],
      ['http://a.test/1', '1.234'],
      ['http://a.test/2', ''],
    ]);
    const ours = await exportRecords(source([row(1, 1234.4)]), { columns: ['response_time_ms'] });
    expect(ours).toEqual([['response_time_ms'], ['1234.4']]);
  });

  it('refuses an empty or unknown column choice before writing anything', async () => {
    await expect(exportRecords(source([row(1)]), { columns: [] })).rejects.toThrow(/^choose at least one column to export$/);
    await expect(exportRecords(source([row(1)]), { columns: ['url', 'nope'] })).rejects.toThrow(
      /^unknown column "nope"; the columns are url, kind, /,
    );
    await expect(exportRecords(source([row(1)], ['price']), { columns: ['a', 'b'] })).rejects.toThrow(
      /^unknown columns "a", "b"; the columns are url, .*, error, price$/,
    );
  });
});
