// Property-based tests (fast-check) of the CSV export: crawled text comes from untrusted sites, so whatever it holds
// (quotes, separators, line breaks of every kind, a BOM, formula starts, lone surrogates), the file must read back
// as the same cells through a CSV parser, and no text cell may start a spreadsheet formula. Seeded.
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutraliseCell } from '../../electron/engine/export/csv-cell.ts';
import { CSV_BOM, CSV_COLUMNS, csvCell, csvRecord, writeCsvExport } from '../../electron/engine/export/csv-writer.ts';
import type { CsvRowSource, ExtractedValue, ExtractionColumn } from '../../electron/engine/export/csv-writer.ts';

const RUNS = 10_000;
/** A whole export (stream, pipeline, file layout) costs milliseconds, so the writer end to end gets fewer runs. */
const EXPORT_RUNS = 300;
const SEED = 0xc5f13;

/**
 * The project's rule (csv-cell.ts, after OWASP): a text cell starting with = + - @, a tab or a CR gets a leading
 * single quote; numbers are written as they are (a negative number is a number, not a formula).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

// Text weighted towards what CSV and spreadsheets treat specially.
const special = fc.constantFrom(
  '"',
  ',',
  ';',
  '\n',
  '\r',
  '\r\n',
  '=',
  '+',
  '-',
  '@',
  '\t',
  "'",
  ' ',
  '\ufeff',
  '\u0000',
  '\ud800',
  '\u2028',
  'é',
);
const text = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.oneof(special, fc.string({ maxLength: 3 })), { maxLength: 8 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);
const value = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ noNaN: true, noDefaultInfinity: true })) },
);

const rule = fc.constantFrom('price', 'sku', 'Title', '=cmd', '-x');
const crawl = fc.record({
  rows: fc.array(fc.array(value, { minLength: CSV_COLUMNS.length, maxLength: CSV_COLUMNS.length }), { minLength: 1, maxLength: 4 }),
  rules: fc.uniqueArray(rule, { maxLength: 2, selector: (r) => r.toLowerCase() }),
  extracted: fc.array(fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 1 }), text), { maxLength: 4 }),
  preset: fc.constantFrom('trawl' as const, 'screaming-frog' as const),
});

function sourceOf(rows: unknown[][], rules: ExtractionColumn[], extracted: ExtractedValue[]): CsvRowSource {
  let at = 0;
  return {
    rules,
    nextPage(limit) {
      const page = rows.slice(at, at + limit);
      at += page.length;
      return page;
    },
    extracted: (ids) => extracted.filter((e) => ids.includes(e.url_id)),
  };
}

/**
 * The cell the writer must give a value: empty, a number as written, or text neutralised; as UTF-8 has it (a lone
 * surrogate, which no decoded page holds, reads back as U+FFFD).
 */
const expectedCell = (v: unknown) => utf8(v === null ? '' : typeof v === 'number' ? String(v) : neutraliseCell(v as string));
const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

describe('the CSV export, fuzzed', () => {
  it("writes any row's cells so that a CSV parser reads them back, and no text cell starts a formula", () => {
    fc.assert(
      fc.property(fc.array(fc.array(value, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }), (rows) => {
        // The writer's cells, with the writer's options, as one export would write them.
        const cells = rows.map((row) => row.map(csvCell));
        const file = CSV_BOM + cells.map(csvRecord).join('');
        const records = parse(file, { bom: true, relax_column_count: true }) as string[][];
        check(records.length === rows.length, `${records.length} records for ${rows.length} rows`);
        rows.forEach((row, i) => {
          check(records[i]!.length === row.length, `row ${i}: ${records[i]!.length} cells, not ${row.length}`);
          row.forEach((v, c) => {
            const cell = records[i]![c]!;
            check(cell === expectedCell(v), `row ${i} cell ${c}: ${JSON.stringify(cell)} is not ${JSON.stringify(expectedCell(v))}`);
            if (typeof v !== 'number') check(!FORMULA_START.test(cell), `row ${i} cell ${c} starts a formula: ${JSON.stringify(cell)}`);
          });
        });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('writes records byte for byte as csv-stringify did with the options the exports used', () => {
    fc.assert(
      fc.property(fc.array(fc.array(value.map(csvCell), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }), (cells) => {
        const ours = CSV_BOM + cells.map(csvRecord).join('');
        const theirs = stringify(cells, { bom: true, record_delimiter: 'windows', quote_record_delimiter: true });
        check(ours === theirs, `${JSON.stringify(ours)} is not ${JSON.stringify(theirs)}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('exports whole crawls (both header presets, extraction columns) that read back as the same cells', async () => {
    const RESPONSE_TIME = CSV_COLUMNS.indexOf('response_time_ms');
    await fc.assert(
      fc.asyncProperty(crawl, async ({ rows, rules, extracted, preset }) => {
        const ruleColumns = rules.map((name) => ({ name, column: name }));
        const values: ExtractedValue[] = extracted
          .filter(([id]) => id < rows.length)
          .map(([id, r, v]) => ({ url_id: id + 1, rule: rules[r] ?? 'none', value: v }));
        const out = new PassThrough();
        const chunks: Buffer[] = [];
        out.on('data', (c: Buffer) => chunks.push(c));
        const withIds = rows.map((r, i) => [...r, i + 1]);
        await writeCsvExport(sourceOf(withIds, ruleColumns, values), out, { batchSize: 3, headerPreset: preset });
        const file = Buffer.concat(chunks).toString('utf8');
        check(file.startsWith('\ufeff'), 'no BOM');
        const records = parse(file, { bom: true, relax_column_count: false }) as string[][];
        check(records.length === rows.length + 1, `${records.length} records for ${rows.length} rows`);
        rows.forEach((row, i) => {
          const got = records[i + 1]!;
          const want = row.map((v, c) =>
            preset === 'screaming-frog' && c === RESPONSE_TIME
              ? typeof v === 'number'
                ? String(Math.round(v) / 1000)
                : ''
              : expectedCell(v),
          );
          for (const r of rules) {
            const mine = values.filter((e) => e.url_id === i + 1 && e.rule === r).map((e) => e.value);
            want.push(mine.length ? utf8(neutraliseCell(mine.join('\n'))) : '');
          }
          check(got.length === want.length, `row ${i}: ${got.length} cells, not ${want.length}`);
          got.forEach((cell, c) => {
            check(cell === want[c], `row ${i} cell ${c}: ${JSON.stringify(cell)} is not ${JSON.stringify(want[c])}`);
            const isNumber = typeof row[c] === 'number';
            if (!isNumber) check(!FORMULA_START.test(cell), `row ${i} cell ${c} starts a formula: ${JSON.stringify(cell)}`);
          });
        });
      }),
      { seed: SEED, numRuns: EXPORT_RUNS },
    );
  });

  it('neutraliseCell: only text starting a formula changes, by a leading quote, and never starts one after', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string()), (t) => {
        const out = neutraliseCell(t);
        check(!FORMULA_START.test(out), `starts a formula: ${JSON.stringify(out)}`);
        check(out === (FORMULA_START.test(t) ? `'${t}` : t), `changed: ${JSON.stringify(t)} -> ${JSON.stringify(out)}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(neutraliseCell('=1+1')).toBe("'=1+1");
  });
});
