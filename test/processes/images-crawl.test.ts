// The images analysis end to end (issue 18.3): a crawl of a real site on 127.0.0.1 records every image its pages use,
// the Images tabs list and export them (--export-tabs), the bulk report lists the images missing alt text with their
// pages (--bulk-export, CSV and XLSX); size and status only when the crawl checks images.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeImageUses } from '../../electron/engine/analysis/images.ts';
import { filterCounts, openCrawlForAnalysis, queryFiltered } from '../../electron/engine/analysis/index.ts';
import { BIG_BYTES, LONG_ALT, startImageSite, type ImageSite } from '../helpers/image-site.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { worksheetsOf } from '../helpers/xlsx-download.ts';

let site: ImageSite;
let dir: string;
const CRAWL = ['--threads', '1', '--max-attempts', '1', '--quiet'];
const IMAGE_TABS =
  'images-all,images-alt-missing,Images:Empty alt text,images-alt-over-100,images-over-100kb,images-broken,images-no-dimensions';

beforeAll(async () => {
  site = await startImageSite();
  dir = tempDir();
});
afterAll(async () => site?.close());

const records = (file: string) => parse(fs.readFileSync(file, 'utf8'), { bom: true }) as string[][];
const rel = (url: string) => url.replace(site.origin, '');

describe('images: crawl, tabs and bulk export', () => {
  it('records every image with its alt state, checks their size and status, and exports each Images tab and the report', async () => {
    const file = path.join(dir, 'checked.trawl');
    const out = path.join(dir, 'checked');
    const run = await runCli([
      site.url('/'),
      '--db',
      file,
      ...CRAWL,
      '--check',
      'images',
      '--export-tabs',
      IMAGE_TABS,
      '--bulk-export',
      'images-missing-alt',
      '--output-folder',
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const db = openCrawlForAnalysis(file);
    try {
      const counts = filterCounts(db);
      // Home: logo, photo, spacer, long, missing, big, s.png, s-2x.png; gallery: p.webp, p.jpg, logo.
      expect({
        all: counts['images-all'],
        missing: counts['images-alt-missing'],
        empty: counts['images-alt-empty'],
        long: counts['images-alt-over-100'],
        big: counts['images-over-100kb'],
        broken: counts['images-broken'],
        noSize: counts['images-no-dimensions'],
      }).toEqual({ all: 11, missing: 3, empty: 1, long: 1, big: 1, broken: 1, noSize: 2 });
      const rows = (filter: Parameters<typeof queryFiltered>[1]['filter']) =>
        queryFiltered(db, { filter, sort: 'seq', descending: false, offset: 0, limit: 100 }).rows.map((r) => [
          rel(r.url),
          rel(r.image!.page_url),
          r.status_code,
        ]);
      expect(rows('images-alt-missing')).toEqual([
        ['/img/photo.jpg', '/', 200],
        ['/img/p.webp', '/gallery', 200],
        ['/img/p.jpg', '/gallery', 200],
      ]);
      expect(rows('images-broken')).toEqual([['/img/missing.png', '/', 404]]);
      expect(rows('images-over-100kb')).toEqual([['/img/big.jpg', '/', 200]]);
      expect(rows('images-no-dimensions')).toEqual([
        ['/img/photo.jpg', '/', 200],
        ['/img/long.png', '/', 200],
      ]);
      const [long] = queryFiltered(db, { filter: 'images-alt-over-100', sort: 'seq', descending: false, offset: 0, limit: 10 }).rows;
      expect(long!.image).toMatchObject({ alt: LONG_ALT, alt_len: LONG_ALT.length, width: '300', height: null, checked: true });
      const [big] = queryFiltered(db, { filter: 'images-over-100kb', sort: 'seq', descending: false, offset: 0, limit: 10 }).rows;
      expect(big!.size_bytes).toBe(BIG_BYTES);
      // A search in an Images tab exports what the tab lists: the uses whose image, page or alt contain the text.
      const searched = queryFiltered(db, { filter: 'images-all', text: 'gallery', sort: 'seq', descending: false, offset: 0, limit: 100 });
      expect(searched.rows.map((r) => rel(r.url))).toEqual(['/img/p.webp', '/img/p.jpg', '/img/logo.png']);
      const exported = new PassThrough();
      const text = new Promise<string>((resolve) => {
        let all = '';
        exported.on('data', (c: Buffer) => (all += c.toString('utf8'))).on('end', () => resolve(all));
      });
      await writeImageUses(db, 'images-all', exported, 'csv', 'gallery');
      const table = parse(await text, { bom: true }) as string[][];
      expect(table.slice(1).map((r) => [rel(r[0]!), rel(r[1]!)])).toEqual([
        ['/img/p.webp', '/gallery'],
        ['/img/p.jpg', '/gallery'],
        ['/img/logo.png', '/gallery'],
      ]);
    } finally {
      db.close();
    }
    // One file per tab: the uses, with the image, the page, the alt state and the image's status and size.
    for (const [id, n] of [
      ['images-all', 11],
      ['images-alt-missing', 3],
      ['images-alt-empty', 1],
      ['images-alt-over-100', 1],
      ['images-over-100kb', 1],
      ['images-broken', 1],
      ['images-no-dimensions', 2],
    ] as const) {
      const table = records(path.join(out, `${id}.csv`));
      expect({ id, rows: table.length - 1 }).toEqual({ id, rows: n });
      expect(table[0]).toEqual([
        'image',
        'page',
        'alt_state',
        'alt',
        'alt_length',
        'width',
        'height',
        'checked',
        'status_code',
        'size_bytes',
        'content_type',
      ]);
    }
    expect(records(path.join(out, 'images-alt-empty.csv'))[1]!.slice(0, 9)).toEqual([
      site.url('/img/spacer.gif'),
      site.url('/'),
      'empty',
      '',
      '0',
      '1',
      '1',
      'yes',
      '200',
    ]);
    expect(records(path.join(out, 'images-broken.csv'))[1]!.slice(0, 3)).toEqual([site.url('/img/missing.png'), site.url('/'), 'present']);
    const report = records(path.join(out, 'images-missing-alt.csv'));
    expect(report.slice(1).map((r) => [rel(r[0]!), rel(r[1]!), r[2], r[7], r[8]])).toEqual([
      ['/img/photo.jpg', '/', 'missing', 'yes', '200'],
      ['/img/p.webp', '/gallery', 'missing', 'yes', '200'],
      ['/img/p.jpg', '/gallery', 'missing', 'yes', '200'],
    ]);
  });

  it('records the images of a crawl that does not check them: no size or status, shown as not checked; the report as XLSX', async () => {
    const file = path.join(dir, 'unchecked.trawl');
    const out = path.join(dir, 'unchecked');
    const run = await runCli([
      site.url('/'),
      '--db',
      file,
      ...CRAWL,
      '--bulk-export',
      'images-missing-alt',
      '--export-tabs',
      'images-broken',
      '--export-format',
      'xlsx',
      '--output-folder',
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const db = openCrawlForAnalysis(file);
    try {
      const counts = filterCounts(db);
      expect([counts['images-all'], counts['images-alt-missing'], counts['images-over-100kb'], counts['images-broken']]).toEqual([
        11, 3, 0, 0,
      ]);
      const [photo] = queryFiltered(db, { filter: 'images-alt-missing', sort: 'seq', descending: false, offset: 0, limit: 10 }).rows;
      expect([photo!.seq, photo!.status_code, photo!.size_bytes, photo!.image!.checked]).toEqual([null, null, null, false]);
      // Only the pages were fetched: no image has a results row.
      expect(queryFiltered(db, { filter: 'all', sort: 'seq', descending: false, offset: 0, limit: 10 }).total).toBe(2);
    } finally {
      db.close();
    }
    const [sheet] = await worksheetsOf(fs.readFileSync(path.join(out, 'images-missing-alt.xlsx')));
    const values = (n: number) => (sheet!.getRow(n).values as unknown[]).slice(1);
    expect(values(1).slice(0, 3)).toEqual(['image', 'page', 'alt_state']);
    expect([2, 3, 4].map((n) => values(n)).map((r) => [rel(String(r[0])), r[2], r[7]])).toEqual([
      ['/img/photo.jpg', 'missing', 'no'],
      ['/img/p.webp', 'missing', 'no'],
      ['/img/p.jpg', 'missing', 'no'],
    ]);
    const [broken] = await worksheetsOf(fs.readFileSync(path.join(out, 'images-broken.xlsx')));
    expect(broken!.rowCount).toBe(1);
  });
});
