// The PostgreSQL store's CSV export against the SQLite one: the same data in a crawl file and in a crawl in the
// store must export to the same bytes (every column, both header presets, chosen columns, any batch size).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { UrlState } from '../../electron/engine/frontier/model.ts';
import { StoreError } from '../../electron/engine/frontier/postgres/pg-store-url.ts';
import { PG_SCHEMA_VERSION, REGISTRY_DDL, crawlDdl, crawlSchema } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import { CSV_COLUMNS, exportCsv, type CsvExportOptions } from '../../electron/engine/export/csv-export.ts';
import { writeCsvExport } from '../../electron/engine/export/csv-writer.ts';
import { exportCsvFromStore, pgRowSource } from '../../electron/engine/export/pg-csv-export.ts';
import { parseSettings } from '../../shared/settings.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';
import { heapMeter } from '../helpers/heap-meter.ts';

const withPg = await pgSuite();

type Row = Record<string, string | number | null>;

const EXTRACTION = [
  { name: 'Price', type: 'css', expression: '.price', all: true },
  // Named like a built-in column: exported as "title (extracted)".
  { name: 'title', type: 'css', expression: 'h1' },
  { name: 'SKU', type: 'regex', expression: 'SKU: (\\d+)' },
];
const SETTINGS = parseSettings({ seeds: ['https://example.com/'], extraction: EXTRACTION });
const MULTILINE = 'Commas, "quotes" and a\nnewline\r\nand CRLF';

const HOSTS: Row[] = [
  { id: 1, origin: 'https://example.com' },
  { id: 2, origin: 'https://other.org' },
];

// url ids deliberately out of seq order; seqs with gaps.
const URLS: Row[] = [];
const RESULTS: Row[] = [];
const LINKS: Row[] = [];
const EXTRACTED: Row[] = [];

function url(id: number, address: string, state: number, extra: Row = {}): void {
  URLS.push({
    id,
    url: address,
    host_id: address.startsWith('https://other.org') ? 2 : 1,
    depth: 1,
    state,
    discovered_at: 1_700_000_000_000 + id,
    kind: 'page',
    ...extra,
  });
}
function result(seq: number, urlId: number, extra: Row): void {
  RESULTS.push({ seq, url_id: urlId, crawl_depth: 1, fetched_at: 1_700_000_000_000 + seq, ...extra });
}

url(7, 'https://example.com/', UrlState.done, { depth: 0 });
result(1, 7, {
  crawl_depth: 0,
  status_code: 200,
  content_type: 'text/html; charset=utf-8',
  size_bytes: 5120,
  response_time_ms: 42,
  title: 'Home',
  meta_description: 'Welcome home',
  h1: 'Home',
  h1_count: 1,
  h2: 'Intro',
  h2_count: 3,
  canonical: 'https://example.com/',
  lang: 'en',
  hreflang: 'en=https://example.com/; de=https://example.com/de',
  meta_robots: 'index, follow',
  indexability: 'indexable',
  word_count: 300,
  outlinks: 4,
});
// A redirect hop and its target.
url(3, 'https://example.com/old', UrlState.done);
result(2, 3, {
  status_code: 301,
  content_type: 'text/html',
  size_bytes: 0,
  response_time_ms: 12,
  redirect_url: 'https://example.com/new',
  indexability: 'non-indexable',
  indexability_reason: 'redirected',
});
url(12, 'https://example.com/new', UrlState.done, { redirect_hops: 1 });
result(4, 12, {
  status_code: 200,
  content_type: 'text/html',
  size_bytes: 2048,
  response_time_ms: 30,
  title: 'New page',
  word_count: 120,
  outlinks: 2,
  indexability: 'indexable',
});
// Errors: no response at all, and a 500 retried.
url(1, 'https://example.com/broken', UrlState.failed);
result(5, 1, { response_time_ms: 10000, word_count: -1, attempts: 3, error: 'connect ECONNREFUSED 127.0.0.1:443' });
url(20, 'https://example.com/500', UrlState.done);
result(6, 20, {
  status_code: 500,
  response_time_ms: 7,
  attempts: 2,
  indexability: 'non-indexable',
  indexability_reason: 'server error',
  error: '-server said =no',
});
// Formula-looking, quoted, multi-line and unicode text.
url(9, 'https://example.com/commas', UrlState.done);
result(8, 9, {
  status_code: 200,
  title: MULTILINE,
  meta_description: 'a,b',
  h1: 'He said "hi"',
  word_count: 10,
  outlinks: 1,
  x_robots_tag: 'noindex',
  meta_refresh: '0;url=https://example.com/',
});
url(2, 'https://example.com/eq', UrlState.done);
result(9, 2, {
  status_code: 200,
  title: "=cmd|' /C calc'!A0",
  meta_description: '+1+2',
  h1: '@SUM(A1:A9)',
  h2: '\tTabbed',
  canonical: '\rcr',
});
url(11, 'https://example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E', UrlState.done);
result(10, 11, {
  status_code: 200,
  content_type: 'text/html; charset=utf-8',
  title: '日本語のページ 🎉',
  meta_description: 'Emoji 🕷️ and ünïcödé',
  h1: '見出し',
  error: '',
});
// A resource checked, and a URL fetched despite robots.txt.
url(30, 'https://example.com/logo.png', UrlState.done, { kind: 'image', check_only: 1 });
result(11, 30, { status_code: 200, content_type: 'image/png', size_bytes: 9_007_199_254, response_time_ms: 3 });
url(31, 'https://example.com/private', UrlState.done);
result(14, 31, { status_code: 200, robots_disallowed: 1, title: null, meta_description: null });
// Out of scope: in the link graph, never fetched, so not exported.
url(50, 'https://other.org/', UrlState.outOfScope);
// Enough plain rows that small batches cross many pages.
for (let i = 0; i < 40; i++) {
  url(100 + i, `https://example.com/p/${i}`, UrlState.done);
  result(20 + i * 2, 100 + i, {
    status_code: 200,
    content_type: 'text/html',
    size_bytes: 1000 + i,
    response_time_ms: i * 3 + 1,
    title: i % 7 === 0 ? `-${i}` : `Page ${i}`,
    word_count: i,
    outlinks: 1,
  });
  LINKS.push({ from_id: 100 + i, to_id: 100 + ((i + 1) % 40), anchor: `next ${i}` });
  if (i % 3 === 0) LINKS.push({ from_id: 100 + i, to_id: 7, anchor: 'home' });
}
for (const [from, to] of [
  [7, 3],
  [7, 9],
  [7, 2],
  [7, 50],
  [12, 7],
  [12, 9],
  [9, 7],
  [2, 9],
  [9, 30],
] as const)
  LINKS.push({ from_id: from, to_id: to, anchor: `link ${from}->${to}` });

// Extraction: several values of one rule (newline-joined in one cell), formulas, unicode; on pages and none on redirects.
const extracted = (urlId: number, rule: string, values: string[]) =>
  values.forEach((value, n) => EXTRACTED.push({ url_id: urlId, rule, n, value }));
extracted(7, 'Price', ['9.99', '12.50', '=1+1']);
extracted(7, 'SKU', ['12345']);
extracted(7, 'title', ['Widget "deluxe"']);
extracted(12, 'title', ['Ünïcode 🎉\nsecond line']);
extracted(9, 'Price', ['-3']);
for (let i = 0; i < 40; i += 4) extracted(100 + i, 'Price', [`${i}.00`, `${i}.50`]);

const BATCH = 5; // results rows: 49, so about ten pages

let dir: string;
let db: FreshDatabase | undefined;
let sqliteFile: string;
const CRAWL = 'csv_same';
let fileCounter = 0;
const tmp = (name: string) => path.join(dir, `${++fileCounter}-${name}`);

async function pgClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: db!.url });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Registry row and schema of a crawl, as a node creates them. */
async function createPgCrawl(client: pg.Client, crawlId: string): Promise<string> {
  const schema = crawlSchema(crawlId);
  await client.query(REGISTRY_DDL);
  await client.query('INSERT INTO trawl.crawls (id, schema_version, settings, threads, lease_ms) VALUES ($1, $2, $3, 2, 30000)', [
    crawlId,
    PG_SCHEMA_VERSION,
    JSON.stringify(SETTINGS),
  ]);
  await client.query('BEGIN');
  await client.query(crawlDdl(schema));
  await client.query('COMMIT');
  return schema;
}

async function insertPg(client: pg.Client, schema: string, table: string, rows: Row[]): Promise<void> {
  for (const row of rows) {
    const cols = Object.keys(row);
    await client.query(
      `INSERT INTO ${schema}.${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(row),
    );
  }
}

function buildSqlite(file: string): void {
  const sqlite = createCrawlFile(file, SETTINGS);
  const insert = (table: string, rows: Row[]) => {
    for (const row of rows) {
      const cols = Object.keys(row);
      sqlite.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...Object.values(row));
    }
  };
  sqlite.transaction(() => {
    insert('hosts', HOSTS);
    insert(
      'urls',
      URLS.map((u) => ({ ...u, url_key: 0 })),
    );
    // Shuffled: the order must come from seq.
    insert('results', [...RESULTS].reverse());
    insert('links', LINKS);
    insert('extracted', EXTRACTED);
  })();
  sqlite.close();
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-pg-csv-'));
  sqliteFile = path.join(dir, 'same.trawl');
  buildSqlite(sqliteFile);
  if (withPg.unavailable !== null) return;
  db = await freshDatabase('pg_csv');
  const client = await pgClient();
  try {
    const schema = await createPgCrawl(client, CRAWL);
    await insertPg(client, schema, 'hosts', HOSTS);
    await insertPg(client, schema, 'urls', URLS);
    await insertPg(client, schema, 'results', [...RESULTS].reverse());
    await insertPg(client, schema, 'links', LINKS);
    await insertPg(client, schema, 'extracted', EXTRACTED);
  } finally {
    await client.end();
  }
});

afterAll(async () => {
  await db?.drop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function parseCsv(text: string): string[][] {
  return parse(text, { bom: true }) as string[][];
}

/** Both exports to files with the same options: the SQLite bytes and the PostgreSQL bytes. */
async function bothExports(options: CsvExportOptions = {}): Promise<{ sqlite: Buffer; postgres: Buffer; rows: [number, number] }> {
  const a = tmp('sqlite.csv');
  const b = tmp('pg.csv');
  const ra = await exportCsv(sqliteFile, a, options);
  const rb = await exportCsvFromStore(db!.url, CRAWL, b, options);
  return { sqlite: fs.readFileSync(a), postgres: fs.readFileSync(b), rows: [ra.rows, rb.rows] };
}

function noOutput(file: string): void {
  expect(fs.existsSync(file)).toBe(false);
  expect(fs.existsSync(`${file}.part`)).toBe(false);
}

withPg.describe('CSV export from the PostgreSQL store', () => {
  it('writes the same bytes as the SQLite export: every column, Trawl headers, across batch sizes', async () => {
    const reference = await bothExports();
    expect(reference.rows).toEqual([RESULTS.length, RESULTS.length]);
    expect(reference.postgres.toString('utf8')).toBe(reference.sqlite.toString('utf8'));
    expect(reference.postgres.equals(reference.sqlite)).toBe(true);
    for (const batchSize of [1, BATCH, RESULTS.length, 1000]) {
      const { sqlite, postgres } = await bothExports({ batchSize });
      expect(postgres.equals(reference.sqlite), `batchSize ${batchSize}`).toBe(true);
      expect(sqlite.equals(reference.sqlite)).toBe(true);
    }
  });

  it('exports what the fixture holds (so "identical" is not two identical mistakes)', async () => {
    const { postgres } = await bothExports({ batchSize: BATCH });
    const records = parseCsv(postgres.toString('utf8'));
    const header = records[0]!;
    expect(header).toEqual([...CSV_COLUMNS, 'Price', 'title (extracted)', 'SKU']);
    expect(records).toHaveLength(RESULTS.length + 1);
    const col = (name: string) => header.indexOf(name);
    const byUrl = new Map(records.slice(1).map((r) => [r[0]!, r]));
    const home = byUrl.get('https://example.com/')!;
    expect(home[col('inlinks')]).toBe(String(LINKS.filter((l) => l.to_id === 7).length)); // distinct linking pages
    expect(Number(home[col('inlinks')])).toBeGreaterThan(10);
    // Values joined, then the cell neutralised as a whole (only its start can make it a formula).
    expect(home[col('Price')]).toBe('9.99\n12.50\n=1+1');
    expect(byUrl.get('https://example.com/commas')![col('Price')]).toBe("'-3");
    expect(home[col('title (extracted)')]).toBe('Widget "deluxe"');
    expect(home[col('SKU')]).toBe('12345');
    expect(byUrl.get('https://example.com/commas')![col('title')]).toBe(MULTILINE);
    expect(byUrl.get('https://example.com/commas')![col('inlinks')]).toBe('3');
    expect(byUrl.get('https://example.com/eq')![col('title')]).toBe("'=cmd|' /C calc'!A0");
    expect(byUrl.get('https://example.com/broken')![col('word_count')]).toBe('-1');
    expect(byUrl.get('https://example.com/broken')![col('status_code')]).toBe('');
    expect(byUrl.get('https://example.com/500')![col('error')]).toBe("'-server said =no");
    expect(byUrl.get('https://example.com/logo.png')![col('size_bytes')]).toBe('9007199254');
    expect(byUrl.get('https://example.com/old')![col('redirect_url')]).toBe('https://example.com/new');
    expect(byUrl.get('https://example.com/old')![col('Price')]).toBe('');
    // Fetch order (seq), not url ids or insertion order.
    expect(records.slice(1, 4).map((r) => r[0])).toEqual(['https://example.com/', 'https://example.com/old', 'https://example.com/new']);
    expect(records.at(-1)![0]).toBe('https://example.com/p/39');
  });

  it('writes the same bytes with Screaming Frog headers (response times in seconds)', async () => {
    const { sqlite, postgres } = await bothExports({ headerPreset: 'screaming-frog', batchSize: BATCH });
    expect(postgres.equals(sqlite)).toBe(true);
    expect(postgres.toString('utf8')).toContain('Address,kind,Status Code,');
    expect(postgres.toString('utf8')).toContain('https://example.com/,page,200,text/html; charset=utf-8,5120,0.042,');
  });

  it('writes the same bytes for a subset of columns, extraction columns included, in both presets', async () => {
    const columns = ['title', 'url', 'SKU', 'inlinks', 'response_time_ms', 'Price', 'error'];
    for (const headerPreset of ['trawl', 'screaming-frog'] as const) {
      const { sqlite, postgres } = await bothExports({ columns, headerPreset, batchSize: BATCH });
      expect(postgres.equals(sqlite), headerPreset).toBe(true);
      expect(parseCsv(postgres.toString('utf8'))[0]).toEqual(
        headerPreset === 'trawl' ? columns : ['Title 1', 'Address', 'SKU', 'Inlinks', 'Response Time', 'Price', 'error'],
      );
    }
  });

  it('exports to a stream, and ends it', async () => {
    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise<void>((resolve) => sink.on('end', resolve));
    const result = await exportCsvFromStore(db!.url, CRAWL, sink, { batchSize: BATCH });
    await ended;
    expect(result).toEqual({ rows: RESULTS.length });
    const file = tmp('sqlite.csv');
    await exportCsv(sqliteFile, file);
    expect(Buffer.concat(chunks).equals(fs.readFileSync(file))).toBe(true);
  });

  it('exports the results that existed when it started', async () => {
    const client = await pgClient();
    const schema = crawlSchema('csv_live');
    try {
      await createPgCrawl(client, 'csv_live');
      await insertPg(client, schema, 'hosts', HOSTS);
      await insertPg(client, schema, 'urls', URLS);
      await insertPg(client, schema, 'results', RESULTS.slice(0, 3));
      const reader = await pgClient();
      try {
        const source = await pgRowSource(reader, 'csv_live');
        await insertPg(client, schema, 'results', RESULTS.slice(3, 6)); // after the start: higher seqs
        const out = tmp('live.csv');
        expect(await writeCsvExport(source, out, { batchSize: 1 })).toEqual({ rows: 3 });
        expect(
          parseCsv(fs.readFileSync(out, 'utf8'))
            .slice(1)
            .map((r) => r[0]),
        ).toEqual(URLS.slice(0, 3).map((u) => u.url));
      } finally {
        await reader.end();
      }
    } finally {
      await client.end();
    }
  });

  it("pages a view's rows by the keys its filter kept: each once, in fetch order, whatever the page size", async () => {
    // All the rows, then those a filter keeps (URL and status: both tables, and a parameter) as the view must list them.
    const [header, ...all] = parseCsv((await bothExports()).postgres.toString('utf8')) as [string[], ...string[][]];
    const at = (name: string) => header.indexOf(name);
    const kept = all.filter((r) => r[at('status_code')] === '200' && r[0]!.includes('/p/1'));
    expect(kept.length).toBeGreaterThan(5);
    const reader = await pgClient();
    try {
      const where = { sql: 'r.status_code = 200 AND u.url LIKE @text', params: { text: '%/p/1%' } };
      for (const batchSize of [1, 3, 1000]) {
        const out = tmp('view.csv');
        const rows = await writeCsvExport(await pgRowSource(reader, CRAWL, { where }), out, { batchSize });
        expect(rows, `batchSize ${batchSize}`).toEqual({ rows: kept.length });
        expect(parseCsv(fs.readFileSync(out, 'utf8')).slice(1), `batchSize ${batchSize}`).toEqual(kept);
      }
      // A view of URLs (the external view's rows), fetched or not, in discovery order: the keys are urls.id.
      const urlsView = { where: { sql: 'u.host_id = 2 OR u.id < 4', params: {} }, rowsFrom: 'urls' as const };
      const out = tmp('urls-view.csv');
      await writeCsvExport(await pgRowSource(reader, CRAWL, urlsView), out, { batchSize: 1 });
      const expected = URLS.filter((u) => u.host_id === 2 || (u.id as number) < 4).sort((a, b) => (a.id as number) - (b.id as number));
      expect(
        parseCsv(fs.readFileSync(out, 'utf8'))
          .slice(1)
          .map((r) => r[0]),
      ).toEqual(expected.map((u) => u.url));
    } finally {
      await reader.end();
    }
  });

  it('reads bigint columns (ids, size_bytes, count(*) inlinks) as numbers, whatever the connection parses', async () => {
    const client = await pgClient(); // pg's defaults: int8 as strings
    try {
      const source = await pgRowSource(client, CRAWL);
      const [first] = await source.nextPage(1);
      const at = (c: (typeof CSV_COLUMNS)[number]) => first![CSV_COLUMNS.indexOf(c)];
      expect([at('size_bytes'), at('inlinks'), at('status_code'), first![CSV_COLUMNS.length]]).toEqual([
        5120,
        LINKS.filter((l) => l.to_id === 7).length,
        200,
        7,
      ]);
      expect((await source.extracted([7])).map((e) => typeof e.url_id)).toEqual(['number', 'number', 'number', 'number', 'number']);
    } finally {
      await client.end();
    }
  });

  it('names a crawl that does not exist, and leaves no output file behind', async () => {
    const out = tmp('missing.csv');
    const err = await exportCsvFromStore(db!.url, 'no_such_crawl', out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toMatch(/there is no crawl "no_such_crawl" in this store; the store has .*csv_same/);
    noOutput(out);
    // An ID that cannot be a crawl's, likewise.
    await expect(exportCsvFromStore(db!.url, 'Bad-ID', out)).rejects.toThrow(/invalid crawl ID "Bad-ID"/);
    noOutput(out);
  });

  it('refuses the SQLite-only options and unknown columns, writing nothing', async () => {
    const out = tmp('refused.csv');
    await expect(exportCsvFromStore(db!.url, CRAWL, out, { where: { sql: '1' } } as never)).rejects.toThrow(
      /where\) is not supported .*PostgreSQL/,
    );
    await expect(exportCsvFromStore(db!.url, CRAWL, out, { rowsFrom: 'urls' } as never)).rejects.toThrow(
      /rowsFrom "urls" is not supported/,
    );
    await expect(exportCsvFromStore(db!.url, CRAWL, out, { columns: ['url', 'nope'] })).rejects.toThrow('unknown column "nope"');
    await expect(exportCsvFromStore(db!.url, CRAWL, out, { batchSize: 0 })).rejects.toThrow(RangeError);
    noOutput(out);
  });

  // Loose bound: it only catches an export that loads every row (or the whole CSV) into memory at once.
  it('keeps the heap well below the size of the output while exporting 50,000 rows', async () => {
    const ROW_COUNT = 50_000;
    const client = await pgClient();
    try {
      const s = await createPgCrawl(client, 'csv_big');
      await client.query(`INSERT INTO ${s}.hosts (id, origin) VALUES (1, 'https://example.com')`);
      await client.query(
        `INSERT INTO ${s}.urls (id, url, host_id, depth, state, discovered_at)
        SELECT i, 'https://example.com/section-' || (i % 97) || '/page-' || i || '.html', 1, 2, 2, 0 FROM generate_series(1, $1::int) i`,
        [ROW_COUNT],
      );
      await client.query(
        `INSERT INTO ${s}.results (seq, url_id, status_code, content_type, size_bytes, response_time_ms, crawl_depth, title, meta_description, h1, word_count, outlinks, fetched_at)
        SELECT i, i, 200, 'text/html', 4096, 25, 2, 'Page ' || i || ': a reasonably ordinary page title, of ordinary length',
               repeat('A meta description long enough to make a naive in-memory export obviously expensive. ', 10), 'Heading ' || i, 500, 10, 0
        FROM generate_series(1, $1::int) i`,
        [ROW_COUNT],
      );
      await client.query(`INSERT INTO ${s}.links (from_id, to_id) SELECT i - 1, i FROM generate_series(2, $1::int) i`, [ROW_COUNT]);
      await client.query(
        `INSERT INTO ${s}.extracted (url_id, rule, n, value) SELECT i, 'Price', 0, i || '.99' FROM generate_series(1, $1::int, 3) i`,
        [ROW_COUNT],
      );
    } finally {
      await client.end();
    }

    const meter = heapMeter(5_000);
    const result = await exportCsvFromStore(db!.url, 'csv_big', meter.sink);
    expect(result).toEqual({ rows: ROW_COUNT });
    expect(meter.lines).toBe(ROW_COUNT + 1);
    expect(meter.bytes).toBeGreaterThan(40 * 1024 * 1024);

    expect(meter.growth).toBeLessThan(meter.bytes / 3);
  });
});

withPg.describe('XLSX export from the PostgreSQL store', () => {
  /** Every row of the workbook's first sheet, as cell values. */
  async function cells(file: string): Promise<unknown[][]> {
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    const out: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
    return out;
  }

  it('writes the same cells as the SQLite export, numbers as numbers, in both presets', async () => {
    for (const headerPreset of ['trawl', 'screaming-frog'] as const) {
      const a = tmp('sqlite.xlsx');
      const b = tmp('pg.xlsx');
      const ra = await exportCsv(sqliteFile, a, { format: 'xlsx', headerPreset, batchSize: 2 });
      const rb = await exportCsvFromStore(db!.url, CRAWL, b, { format: 'xlsx', headerPreset, batchSize: 2 });
      expect([ra.rows, rb.rows]).toEqual([RESULTS.length, RESULTS.length]);
      const [sqlite, postgres] = [await cells(a), await cells(b)];
      expect(postgres).toEqual(sqlite);
      expect(postgres).toHaveLength(RESULTS.length + 1);
      const status = postgres[0]!.indexOf(headerPreset === 'trawl' ? 'status_code' : 'Status Code');
      expect(postgres[1]![status]).toBe(200);
    }
  });
});
