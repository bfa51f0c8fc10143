// Custom extraction: rules read by the worker's extract-custom processor, stored per page, exported as columns,
// and tried on a sample URL through a real worker process before a crawl.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractWithRules } from '../../electron/worker/chain/extract-custom.ts';
import { testExtractionRules } from '../../electron/engine/extraction/try-extraction-rules.ts';
import { exportCsv } from '../../electron/engine/export/csv-export.ts';
import { EXTRACTED_VALUE_MAX } from '../../shared/protocol.ts';
import { parseSettings, SettingsError, type ExtractionRule } from '../../shared/settings.ts';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { newCrawl, spawner, tempDir } from '../helpers/engine.ts';

const rules = (input: unknown[]): ExtractionRule[] => parseSettings({ seeds: ['http://a.test/'], extraction: input }).extraction;

const PRODUCT = `<html><head><title>Widget</title><meta property="og:price" content="9.99"></head><body>
<h1>Widget</h1><span class="price"> 9.99 </span><span class="price">12.50</span>
<div id="desc"><b>Bold</b> <script>alert(1)</script> text</div><p>SKU: 12345</p><p>SKU: 678</p>
<a href="/x">one</a><a>no href</a><a href="/y">two</a></body></html>`;

describe('extraction rules on a page', () => {
  it('reads text, attributes and inner HTML (as text) with CSS, first or all', () => {
    const out = extractWithRules(
      PRODUCT,
      rules([
        { name: 'price', type: 'css', expression: '.price' },
        { name: 'prices', type: 'css', expression: '.price', all: true },
        { name: 'og', type: 'css', expression: 'meta[property="og:price"]', output: 'attribute', attribute: 'content' },
        { name: 'hrefs', type: 'css', expression: 'a', output: 'attribute', attribute: 'href', all: true },
        { name: 'desc', type: 'css', expression: '#desc', output: 'html' },
        { name: 'none', type: 'css', expression: '.missing' },
      ]),
    );
    expect(out).toEqual({
      price: ['9.99'],
      prices: ['9.99', '12.50'],
      og: ['9.99'],
      hrefs: ['/x', '/y'], // an <a> without href is not a match
      desc: ['<b>Bold</b> <script>alert(1)</script> text'],
      none: [],
    });
  });

  it('reads the first group of a regular expression, or the whole match, over the source', () => {
    const out = extractWithRules(
      PRODUCT,
      rules([
        { name: 'sku', type: 'regex', expression: 'SKU: (\\d+)', all: true },
        { name: 'first', type: 'regex', expression: 'SKU: \\d+' },
        { name: 'empty', type: 'regex', expression: 'x*' },
      ]),
    );
    expect(out.sku).toEqual(['12345', '678']);
    expect(out.first).toEqual(['SKU: 12345']);
    expect(out.empty).toEqual(['']); // an empty match is a match, and the walk still ends
  });

  it('keeps the values of a rule named like an object key', () => {
    const out = extractWithRules(
      PRODUCT,
      rules([
        { name: '__proto__', type: 'css', expression: 'h1' },
        { name: 'constructor', type: 'css', expression: 'h1' },
      ]),
    );
    expect(Object.entries(out)).toEqual([
      ['__proto__', ['Widget']],
      ['constructor', ['Widget']],
    ]);
  });

  it('cuts long values and caps how many are kept', () => {
    const html = `<p>${'a'.repeat(EXTRACTED_VALUE_MAX + 50)}</p>${'<i>x</i>'.repeat(500)}`;
    const out = extractWithRules(
      html,
      rules([
        { name: 'p', type: 'css', expression: 'p' },
        { name: 'i', type: 'css', expression: 'i', all: true },
      ]),
    );
    expect(out.p![0]).toHaveLength(EXTRACTED_VALUE_MAX);
    expect(out.i).toHaveLength(100);
  });
});

describe('a crawl with extraction rules', () => {
  let origin: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      if (req.url === '/')
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<title>Home</title><a href="/product">p</a><a href="/plain">q</a><a href="/moved">m</a>');
      if (req.url === '/product') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PRODUCT);
      if (req.url === '/moved') return void res.writeHead(302, { location: '/product' }).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Plain</title><p>nothing here</p>');
    });
    ({ origin, close } = await listenOnLoopback(server));
  });
  afterAll(() => close());

  it("stores each rule's values per page and exports them as columns", async () => {
    const dir = tempDir();
    const extraction = [
      { name: 'Price', type: 'css', expression: '.price', all: true },
      { name: 'title', type: 'css', expression: 'h1' },
      { name: 'SKU', type: 'regex', expression: 'SKU: (\\d+)' },
    ];
    const { controller, dbPath } = newCrawl({ seeds: [`${origin}/`], threads: 2, extraction }, dir);
    controller.start();
    expect((await controller.done).reason).toBe('completed');
    const db = new Database(dbPath, { readonly: true });
    const stored = db
      .prepare(`SELECT u.url, e.rule, e.n, e.value FROM extracted e JOIN urls u ON u.id = e.url_id WHERE u.url = ? ORDER BY e.rule, e.n`)
      .all(`${origin}/product`);
    db.close();
    expect(stored).toEqual([
      { url: `${origin}/product`, rule: 'Price', n: 0, value: '9.99' },
      { url: `${origin}/product`, rule: 'Price', n: 1, value: '12.50' },
      { url: `${origin}/product`, rule: 'SKU', n: 0, value: '12345' },
      { url: `${origin}/product`, rule: 'title', n: 0, value: 'Widget' },
    ]);
    const csvFile = path.join(dir, 'out.csv');
    await exportCsv(dbPath, csvFile);
    const records = parseCsv(fs.readFileSync(csvFile, 'utf8').slice(1)) as string[][];
    const header = records[0]!;
    // A rule named like a built-in column gets "(extracted)" so both stay apart.
    expect(header.slice(-3)).toEqual(['Price', 'title (extracted)', 'SKU']);
    const byUrl = new Map(records.slice(1).map((r) => [r[0], r]));
    expect(byUrl.get(`${origin}/product`)!.slice(-3)).toEqual(['9.99\n12.50', 'Widget', '12345']);
    expect(byUrl.get(`${origin}/plain`)!.slice(-3)).toEqual(['', '', '']);
    expect(byUrl.get(`${origin}/moved`)!.slice(-3)).toEqual(['', '', '']); // a redirect is not read
  });

  it('tests rules on a sample URL through a worker process before the crawl', async () => {
    const extraction = [
      { name: 'Price', type: 'css' as const, expression: '.price', all: true },
      { name: 'SKU', type: 'regex' as const, expression: 'SKU: (\\d+)' },
    ];
    const ok = await testExtractionRules(spawner(), `${origin}/product`, { extraction });
    expect(ok).toEqual({
      url: `${origin}/product`,
      statusCode: 200,
      contentType: 'text/html',
      problem: null,
      values: { Price: ['9.99', '12.50'], SKU: ['12345'] },
    });
    const moved = await testExtractionRules(spawner(), `${origin}/moved`, { extraction });
    expect(moved.problem).toBe(`redirects to ${origin}/product; test that URL instead`);
    expect(moved.values).toEqual({ Price: [], SKU: [] });
    await expect(
      testExtractionRules(spawner(), `${origin}/product`, { extraction: [{ name: 'x', type: 'css', expression: 'p[' }] }),
    ).rejects.toThrow(SettingsError);
  });
});
