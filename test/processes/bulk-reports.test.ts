// The bulk reports over a real crawl of a loopback site with broken links, a redirect chain of three hops, a redirect
// loop, a canonical chain and a noindex page: each report's rows, exactly, as CSV and as XLSX.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_REPORT_IDS, type BulkReportId } from '../../shared/bulk-reports.ts';
import { bulkReport, writeBulkReport } from '../../electron/engine/analysis/bulk-reports.ts';
import { openCrawlForAnalysis } from '../../electron/engine/analysis/index.ts';
import type { Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { startBrokenSite, type BrokenSite } from '../helpers/broken-site.ts';
import { newCrawl, tempDir } from '../helpers/engine.ts';
import { worksheetsOf } from '../helpers/xlsx-download.ts';

let site: BrokenSite;
let db: Db;
let dir: string;

beforeAll(async () => {
  site = await startBrokenSite();
  dir = tempDir();
  const { controller, dbPath } = newCrawl({ seeds: [site.url('/')], threads: 1, checkExternal: true, maxAttempts: 1 }, dir);
  controller.start();
  const info = await controller.done;
  expect(info.reason).toBe('completed');
  db = openCrawlForAnalysis(dbPath);
}, 60_000);

afterAll(async () => {
  db?.close();
  await site?.close();
});

/** A report's rows as CSV text cells, read back from the file it writes, with the site's origin as "~". */
async function csvRows(id: BulkReportId): Promise<string[][]> {
  const file = path.join(dir, `${id}.csv`);
  const { rows } = await writeBulkReport(db, id, file);
  const records = parse(fs.readFileSync(file, 'utf8'), { bom: true }) as string[][];
  expect(records.length - 1).toBe(rows);
  return records.map((r) => r.map((c) => c.replaceAll(site.origin, '~').replaceAll(site.dead, 'DEAD')));
}

const LINK_HEADER = ['source', 'target', 'anchor', 'link_kind', 'nofollow', 'status_code', 'indexability_reason', 'error'];

describe('bulk reports over a real crawl', () => {
  it('lists every link to a 4xx, 5xx and no-response URL, with its anchor, kind and status (formulas neutralised)', async () => {
    expect(await csvRows('client-error-inlinks')).toEqual([
      LINK_HEADER,
      ['~/', '~/missing', 'Missing page', 'a', '0', '404', 'client error', ''],
      ['~/a', '~/missing', "'=gone", 'a', '0', '404', 'client error', ''],
    ]);
    expect(await csvRows('server-error-inlinks')).toEqual([
      LINK_HEADER,
      ['~/', '~/broken', 'Broken page', 'a', '0', '500', 'server error', ''],
    ]);
    expect(await csvRows('no-response-inlinks')).toEqual([
      LINK_HEADER,
      ['~/', 'DEAD', 'Dead host', 'a', '0', '', '', 'blocked: robots.txt unreachable (connection refused)'],
    ]);
  });

  it('lists every redirect chain hop by hop, with its end and whether it loops', async () => {
    expect(await csvRows('redirect-chains')).toEqual([
      ['source', 'hop', 'url', 'status_code', 'redirects_to', 'redirects', 'final_url', 'final_status', 'loop'],
      ['~/r1', '1', '~/r1', '301', '~/r2', '3', '~/final', '200', 'no'],
      ['~/r1', '2', '~/r2', '302', '~/r3', '3', '~/final', '200', 'no'],
      ['~/r1', '3', '~/r3', '301', '~/final', '3', '~/final', '200', 'no'],
      ['~/loop1', '1', '~/loop1', '301', '~/loop2', '2', '~/loop1', '301', 'yes'],
      ['~/loop1', '2', '~/loop2', '301', '~/loop1', '2', '~/loop1', '301', 'yes'],
    ]);
  });

  it('lists canonical chains of two hops or more (a single canonicalised page is the explorer\u2019s filter)', async () => {
    expect(await csvRows('canonical-chains')).toEqual([
      ['source', 'hop', 'url', 'status_code', 'canonical', 'canonicals', 'final_url', 'final_status', 'loop'],
      ['~/c1', '1', '~/c1', '200', '~/c2', '2', '~/c3', '200', 'no'],
      ['~/c1', '2', '~/c2', '200', '~/c3', '2', '~/c3', '200', 'no'],
    ]);
  });

  it('lists every link to a non-indexable page, of every kind (links, redirects, canonicals), with why', async () => {
    expect(await csvRows('non-indexable-inlinks')).toEqual([
      LINK_HEADER,
      ['~/', '~/missing', 'Missing page', 'a', '0', '404', 'client error', ''],
      ['~/a', '~/missing', "'=gone", 'a', '0', '404', 'client error', ''],
      ['~/', '~/broken', 'Broken page', 'a', '0', '500', 'server error', ''],
      ['~/', '~/r1', 'Old address', 'a', '0', '301', 'redirected', ''],
      ['~/', '~/loop1', 'Loop', 'a', '0', '301', 'redirected', ''],
      ['~/loop2', '~/loop1', '', 'redirect', '0', '301', 'redirected', ''],
      ['~/', '~/c1', 'C1', 'a', '0', '200', 'canonicalised', ''],
      ['~/', '~/noindex', 'Hidden', 'a', '0', '200', 'noindex', ''],
      ['~/a', '~/noindex', 'hidden again', 'a', '1', '200', 'noindex', ''],
      ['~/r1', '~/r2', '', 'redirect', '0', '302', 'redirected', ''],
      ['~/loop1', '~/loop2', '', 'redirect', '0', '301', 'redirected', 'redirect loop'],
      ['~/c1', '~/c2', '', 'canonical', '0', '200', 'canonicalised', ''],
      ['~/r2', '~/r3', '', 'redirect', '0', '301', 'redirected', ''],
    ]);
  });

  it('pages through a target\u2019s inlinks by key: the same rows in pages of one', () => {
    for (const id of BULK_REPORT_IDS) {
      const whole = [...bulkReport(db, id).pages].flat();
      const paged = [...bulkReport(db, id, 1).pages];
      expect(paged.every((p) => p.length === 1)).toBe(true);
      expect(paged.flat()).toEqual(whole);
    }
  });

  it('writes XLSX with the same rows, numbers as numbers', async () => {
    const file = path.join(dir, 'chains.xlsx');
    await writeBulkReport(db, 'redirect-chains', file, 'xlsx');
    const [sheet] = await worksheetsOf(fs.readFileSync(file));
    expect(sheet!.name).toBe('redirect-chains');
    expect(sheet!.rowCount).toBe(6);
    expect(sheet!.getRow(2).getCell(2).value).toBe(1);
    expect(sheet!.getRow(2).getCell(4).value).toBe(301);
    expect(sheet!.getRow(5).getCell(9).value).toBe('yes');
  });
});
