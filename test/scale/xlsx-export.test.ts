// The XLSX export of a large crawl file stays within bounded memory: exceljs's sheet stream hands its XML to the
// zip without backpressure, so without the writer's own (xlsx-writer.ts: drained) the XML of every row waits in
// memory for the compression. Loose bound: it only catches an export that holds the rows or their XML. The peak
// RSS of a million rows is measured by hand (BENCHMARKS.md), not here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { createCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { exportCsv } from '../../electron/engine/export/csv-export.ts';
import { parseSettings } from '../../shared/settings.ts';
import { exposeGc } from '../helpers/heap-meter.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-xlsx-scale-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('XLSX export memory', () => {
  const ROW_COUNT = 50_000;
  // The rows' XML is about 65 MB. Measured on 2 busy cores: 11 MB held at most with the writer's backpressure,
  // 36 MB without it (the compression catching up only partly).
  const BUDGET = 24 * 1024 * 1024;

  it(`keeps the heap and buffers flat while exporting ${ROW_COUNT.toLocaleString('en')} rows, and the workbook has them all`, async () => {
    const crawl = path.join(dir, 'big.trawl');
    const db = createCrawlFile(crawl, parseSettings({ seeds: ['https://example.com/'] }));
    db.prepare('INSERT INTO hosts (id, origin) VALUES (1, ?)').run('https://example.com');
    const addUrl = db.prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (?, ?, 0, 1, 2, 2, 0)');
    const addResult = db.prepare(`INSERT INTO results (seq, url_id, status_code, content_type, size_bytes, response_time_ms,
      crawl_depth, title, meta_description, h1, word_count, outlinks, fetched_at) VALUES (?, ?, 200, 'text/html', 4096, 25, 2, ?, ?, ?, 500, 10, 0)`);
    const description = 'A meta description long enough to make a naive in-memory export obviously expensive. '.repeat(2);
    db.transaction(() => {
      for (let i = 1; i <= ROW_COUNT; i++) {
        addUrl.run(i, `https://example.com/section-${i % 97}/page-${i}.html`);
        addResult.run(i, i, `Page ${i}: a reasonably ordinary page title, of ordinary length`, description, `Heading ${i}`);
      }
    })();
    db.close();

    // What the export holds: the JS heap and the buffers outside it (the XML and zip chunks are Buffers).
    const gc = exposeGc();
    gc?.();
    const held = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const baseline = held();
    let peak = baseline;
    let writes = 0;
    const out = path.join(dir, 'big.xlsx');
    const file = fs.createWriteStream(out);
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        if (++writes % 20 === 0) {
          gc?.();
          peak = Math.max(peak, held());
        }
        file.write(chunk, cb);
      },
      final(cb) {
        file.end(cb);
      },
    });
    const result = await exportCsv(crawl, sink, { format: 'xlsx' });
    expect(result).toEqual({ rows: ROW_COUNT });
    expect(peak - baseline).toBeLessThan(BUDGET);

    // The workbook is whole: read back as a stream, every row is there, numbers as numbers.
    let rows = 0;
    let lastStatus: unknown = null;
    for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(out, {})) {
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        rows++;
        lastStatus = row.getCell(3).value;
      }
    }
    expect(rows).toBe(ROW_COUNT + 1);
    expect(lastStatus).toBe(200);
  }, 600_000);
});
