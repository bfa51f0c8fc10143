import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFile, CrawlFileError, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { UrlState } from '../../electron/engine/frontier/model.ts';
import { CSV_COLUMNS, exportCsv } from '../../electron/engine/export/csv-export.ts';
import { neutraliseCell } from '../../electron/engine/export/csv-cell.ts';
import { parseSettings } from '../../shared/settings.ts';
import { heapMeter } from '../helpers/heap-meter.ts';

const HEADER =
  'url,kind,status_code,content_type,size_bytes,response_time_ms,crawl_depth,indexability,indexability_reason,title,meta_description,' +
  'h1,h1_count,h2,h2_count,canonical,lang,hreflang,meta_robots,x_robots_tag,meta_refresh,word_count,inlinks,unique_inlinks,link_score,outlinks,redirect_url,' +
  'attempts,robots_disallowed,error';
const MULTILINE_TITLE = 'Commas, "quotes" and a\nnewline';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-csv-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let fileCounter = 0;
function tmp(name: string): string {
  return path.join(dir, `${++fileCounter}-${name}`);
}

interface ResultRow {
  seq: number;
  urlId: number;
  url: string;
  status_code?: number | null;
  content_type?: string | null;
  size_bytes?: number | null;
  response_time_ms?: number | null;
  crawl_depth: number;
  title?: string | null;
  meta_description?: string | null;
  h1?: string | null;
  canonical?: string | null;
  word_count?: number | null;
  outlinks?: number;
  redirect_url?: string | null;
  error?: string | null;
}

const JAPANESE_URL = 'https://example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E';

// Listed in seq order; url ids deliberately do not follow seq, and rows are inserted shuffled.
const ROWS: ResultRow[] = [
  {
    seq: 1,
    urlId: 7,
    url: 'https://example.com/',
    status_code: 200,
    content_type: 'text/html; charset=utf-8',
    size_bytes: 5120,
    response_time_ms: 42,
    crawl_depth: 0,
    title: 'Home',
    meta_description: 'Welcome home',
    h1: 'Home',
    canonical: 'https://example.com/',
    word_count: 300,
    outlinks: 4,
  },
  // A redirect hop: its own row, with the target in redirect_url.
  {
    seq: 2,
    urlId: 3,
    url: 'https://example.com/old',
    status_code: 301,
    content_type: 'text/html',
    size_bytes: 0,
    response_time_ms: 12,
    crawl_depth: 1,
    redirect_url: 'https://example.com/new',
  },
  {
    seq: 3,
    urlId: 12,
    url: 'https://example.com/new',
    status_code: 200,
    content_type: 'text/html',
    size_bytes: 2048,
    response_time_ms: 30,
    crawl_depth: 1,
    title: 'New page',
    word_count: 120,
    outlinks: 2,
  },
  // An error: no response, so no status. The negative number is a probe: numbers are never neutralised.
  {
    seq: 4,
    urlId: 1,
    url: 'https://example.com/broken',
    status_code: null,
    response_time_ms: 10000,
    crawl_depth: 1,
    word_count: -1,
    error: 'connect ECONNREFUSED 127.0.0.1:443',
  },
  {
    seq: 5,
    urlId: 9,
    url: 'https://example.com/commas',
    status_code: 200,
    content_type: 'text/html',
    size_bytes: 900,
    response_time_ms: 8,
    crawl_depth: 1,
    title: MULTILINE_TITLE,
    meta_description: 'a,b',
    h1: 'He said "hi"',
    word_count: 10,
    outlinks: 1,
  },
  {
    seq: 6,
    urlId: 2,
    url: 'https://example.com/eq',
    status_code: 200,
    crawl_depth: 1,
    title: '=HYPERLINK("http://evil.example/","click")',
    outlinks: 1,
  },
  { seq: 7, urlId: 4, url: 'https://example.com/plus', status_code: 200, crawl_depth: 2, title: '+1+2' },
  { seq: 8, urlId: 5, url: 'https://example.com/minus', status_code: 200, crawl_depth: 2, title: '-2+3', meta_description: '-', h1: '@me' },
  { seq: 9, urlId: 6, url: 'https://example.com/at', status_code: 200, crawl_depth: 2, title: '@SUM(A1:A9)' },
  { seq: 10, urlId: 8, url: 'https://example.com/tab', status_code: 200, crawl_depth: 2, title: '\tTabbed' },
  { seq: 11, urlId: 10, url: 'https://example.com/cr', status_code: 200, crawl_depth: 2, title: '\rCarriage return' },
  {
    seq: 12,
    urlId: 11,
    url: JAPANESE_URL,
    status_code: 200,
    content_type: 'text/html; charset=utf-8',
    crawl_depth: 2,
    title: '日本語のページ 🎉',
    meta_description: 'Emoji 🕷️ and ünïcödé',
    h1: '見出し',
    canonical: JAPANESE_URL,
    error: '',
  },
];

// from → to, by url id. 50 is out of scope: in the graph, never fetched, so not exported.
const LINKS: [number, number][] = [
  [7, 3],
  [7, 9],
  [7, 2],
  [7, 50],
  [12, 7],
  [12, 9],
  [9, 7],
  [2, 9],
];
const EXPECTED_INLINKS: Record<number, number> = { 7: 2, 3: 1, 9: 3, 2: 1 };

// What each row must read as once the CSV is parsed back.
const EXPECTED_CORE: string[][] = [
  [
    'https://example.com/',
    '200',
    'text/html; charset=utf-8',
    '5120',
    '42',
    '0',
    'Home',
    'Welcome home',
    'Home',
    'https://example.com/',
    '300',
    '2',
    '4',
    '',
    '',
  ],
  ['https://example.com/old', '301', 'text/html', '0', '12', '1', '', '', '', '', '', '1', '0', 'https://example.com/new', ''],
  ['https://example.com/new', '200', 'text/html', '2048', '30', '1', 'New page', '', '', '', '120', '0', '2', '', ''],
  ['https://example.com/broken', '', '', '', '10000', '1', '', '', '', '', '-1', '0', '0', '', 'connect ECONNREFUSED 127.0.0.1:443'],
  ['https://example.com/commas', '200', 'text/html', '900', '8', '1', MULTILINE_TITLE, 'a,b', 'He said "hi"', '', '10', '3', '1', '', ''],
  ['https://example.com/eq', '200', '', '', '', '1', `'=HYPERLINK("http://evil.example/","click")`, '', '', '', '', '1', '1', '', ''],
  ['https://example.com/plus', '200', '', '', '', '2', "'+1+2", '', '', '', '', '0', '0', '', ''],
  ['https://example.com/minus', '200', '', '', '', '2', "'-2+3", "'-", "'@me", '', '', '0', '0', '', ''],
  ['https://example.com/at', '200', '', '', '', '2', "'@SUM(A1:A9)", '', '', '', '', '0', '0', '', ''],
  ['https://example.com/tab', '200', '', '', '', '2', "'\tTabbed", '', '', '', '', '0', '0', '', ''],
  ['https://example.com/cr', '200', '', '', '', '2', "'\rCarriage return", '', '', '', '', '0', '0', '', ''],
  [
    JAPANESE_URL,
    '200',
    'text/html; charset=utf-8',
    '',
    '',
    '2',
    '日本語のページ 🎉',
    'Emoji 🕷️ and ünïcödé',
    '見出し',
    JAPANESE_URL,
    '',
    '0',
    '0',
    '',
    '',
  ],
];

// The columns EXPECTED_CORE lists; the others read as a page fetched once, with nothing else recorded.
const CORE = [
  'url',
  'status_code',
  'content_type',
  'size_bytes',
  'response_time_ms',
  'crawl_depth',
  'title',
  'meta_description',
  'h1',
  'canonical',
  'word_count',
  'inlinks',
  'outlinks',
  'redirect_url',
  'error',
];
const OTHER_DEFAULTS: Record<string, string> = { kind: 'page', attempts: '1', robots_disallowed: '0' };
const EXPECTED: string[][] = EXPECTED_CORE.map((core) =>
  CSV_COLUMNS.map((c) => (CORE.includes(c) ? core[CORE.indexOf(c)]! : (OTHER_DEFAULTS[c] ?? ''))),
);

function newCrawlFile(file: string): Db {
  const db = createCrawlFile(file, parseSettings({ seeds: ['https://example.com/'] }));
  db.prepare('INSERT INTO hosts (id, origin) VALUES (?, ?)').run(1, 'https://example.com');
  db.prepare('INSERT INTO hosts (id, origin) VALUES (?, ?)').run(2, 'https://other.org');
  return db;
}

const INSERT_RESULT = `INSERT INTO results (seq, url_id, status_code, content_type, size_bytes, response_time_ms, crawl_depth, title,
  meta_description, h1, canonical, word_count, outlinks, redirect_url, error, fetched_at)
  VALUES (@seq, @url_id, @status_code, @content_type, @size_bytes, @response_time_ms, @crawl_depth, @title,
  @meta_description, @h1, @canonical, @word_count, @outlinks, @redirect_url, @error, @fetched_at)`;

function insertRows(db: Db, rows: ResultRow[]): void {
  const addUrl = db.prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (?, ?, 0, ?, ?, ?, 0)');
  const addResult = db.prepare(INSERT_RESULT);
  db.transaction(() => {
    for (const r of rows) {
      const state = r.status_code === null || r.status_code === undefined ? UrlState.failed : UrlState.done;
      addUrl.run(r.urlId, r.url, 1, r.crawl_depth, state);
    }
    // Shuffled: seq order must come from seq, not from insertion order or url ids.
    const order = [...rows].sort((a, b) => ((a.seq * 7) % 5) - ((b.seq * 7) % 5) || b.seq - a.seq);
    for (const r of order) {
      addResult.run({
        seq: r.seq,
        url_id: r.urlId,
        status_code: r.status_code ?? null,
        content_type: r.content_type ?? null,
        size_bytes: r.size_bytes ?? null,
        response_time_ms: r.response_time_ms ?? null,
        crawl_depth: r.crawl_depth,
        title: r.title ?? null,
        meta_description: r.meta_description ?? null,
        h1: r.h1 ?? null,
        canonical: r.canonical ?? null,
        word_count: r.word_count ?? null,
        outlinks: r.outlinks ?? 0,
        redirect_url: r.redirect_url ?? null,
        error: r.error ?? null,
        fetched_at: 1_700_000_000_000 + r.seq,
      });
    }
  })();
}

function buildFixture(file: string): Db {
  const db = newCrawlFile(file);
  insertRows(db, ROWS);
  db.prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (50, ?, 0, 2, 1, ?, 0)').run(
    'https://other.org/',
    UrlState.outOfScope,
  );
  const addLink = db.prepare('INSERT INTO links (from_id, to_id, anchor) VALUES (?, ?, ?)');
  for (const [from, to] of LINKS) addLink.run(from, to, `link ${from}->${to}`);
  return db;
}

function parseCsv(text: string): string[][] {
  return parse(text, { bom: true, relax_quotes: false, relax_column_count: false }) as string[][];
}

/** Collects everything written to it; `ended` once the writer ends it. */
function collector(): { stream: PassThrough; text: () => string; ended: Promise<void> } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => stream.on('end', () => resolve()));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8'), ended };
}

describe('neutraliseCell', () => {
  it.each(['=1+1', '+1', '-1', '@A1', '\tx', '\rx', '=', '-'])('prefixes %j with a single quote', (value) => {
    expect(neutraliseCell(value)).toBe(`'${value}`);
  });

  it.each(['', 'Home', ' =1', "'=1", 'a=b', '1-2', 'https://example.com/', '\nx', '日本語', '🎉'])('leaves %j alone', (value) => {
    expect(neutraliseCell(value)).toBe(value);
  });
});

describe('exportCsv', () => {
  let crawl: string;
  let out: string;
  let bytes: Buffer;
  let text: string;
  let rowsReported: number;

  beforeAll(async () => {
    crawl = tmp('crawl.trawl');
    const db = buildFixture(crawl);
    db.close();
    out = tmp('export.csv');
    rowsReported = (await exportCsv(crawl, out)).rows;
    bytes = fs.readFileSync(out);
    text = bytes.toString('utf8');
  });

  it('reports the number of data rows', () => {
    expect(rowsReported).toBe(ROWS.length);
  });

  it('starts with a UTF-8 BOM, then the exact header line', () => {
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3, 3 + HEADER.length + 2).toString('utf8')).toBe(`${HEADER}\r\n`);
    expect(CSV_COLUMNS.join(',')).toBe(HEADER);
  });

  it('ends every record with CRLF and quotes the line breaks inside fields', () => {
    expect(text.endsWith('\r\n')).toBe(true);
    // One CRLF per record (header included): none of the fixture's fields contains a CRLF pair.
    expect(text.split('\r\n').length - 1).toBe(ROWS.length + 1);
    // The only bare LF is inside the quoted multi-line title; the only bare CR inside a quoted title.
    expect(text).toContain('"Commas, ""quotes"" and a\nnewline"');
    expect(text).toContain(`"'\rCarriage return"`);
    const outsideThose = text.replace('"Commas, ""quotes"" and a\nnewline"', '').replace(`"'\rCarriage return"`, '');
    expect(outsideThose).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
  });

  it('quotes fields with commas and quotes (RFC 4180) and leaves plain fields bare', () => {
    expect(text).toContain(',"a,b",');
    expect(text).toContain(',"He said ""hi""",');
    expect(text).toContain(
      '\r\nhttps://example.com/,page,200,text/html; charset=utf-8,5120,42,0,,,Home,Welcome home,Home,,,,https://example.com/,,,,,,300,2,,,4,,1,0,\r\n',
    );
  });

  it('round-trips through a CSV parser: header, then every row in seq order with the right values', () => {
    const records = parseCsv(text);
    expect(records[0]).toEqual([...CSV_COLUMNS]);
    expect(records.slice(1)).toEqual(EXPECTED);
  });

  it('keeps unicode text and emoji intact', () => {
    expect(text).toContain('日本語のページ 🎉,Emoji 🕷️ and ünïcödé,見出し');
  });

  it('neutralises formula-like text cells but not numbers', () => {
    const byUrl = new Map(
      parseCsv(text)
        .slice(1)
        .map((r) => [r[0], r]),
    );
    const title = (p: string) => byUrl.get(`https://example.com/${p}`)?.[CSV_COLUMNS.indexOf('title')];
    expect(title('eq')).toBe(`'=HYPERLINK("http://evil.example/","click")`);
    expect(title('plus')).toBe("'+1+2");
    expect(title('minus')).toBe("'-2+3");
    expect(title('at')).toBe("'@SUM(A1:A9)");
    expect(title('tab')).toBe("'\tTabbed");
    expect(title('cr')).toBe("'\rCarriage return");
    expect(byUrl.get('https://example.com/broken')?.[CSV_COLUMNS.indexOf('word_count')]).toBe('-1');
  });

  it('counts inlinks as distinct linking pages', () => {
    const records = parseCsv(text).slice(1);
    const inlinks = CSV_COLUMNS.indexOf('inlinks');
    for (const [i, row] of ROWS.entries()) {
      expect(records[i]?.[inlinks], row.url).toBe(String(EXPECTED_INLINKS[row.urlId] ?? 0));
    }
  });

  it('writes the same rows as the crawl_results view', async () => {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(crawl, { readonly: true });
    const viewRows = db.prepare('SELECT * FROM crawl_results ORDER BY seq').raw(true).all() as unknown[][];
    db.close();
    const records = parseCsv(text).slice(1);
    // Every column of the view but seq, in order, as the CSV writes it (null empty, text neutralised), with Link
    // Score's two columns (not in the view; empty unless asked for) after inlinks.
    const asCell = (v: unknown) => (v === null ? '' : typeof v === 'number' ? String(v) : neutraliseCell(String(v)));
    const after = CSV_COLUMNS.indexOf('inlinks') + 1;
    expect(records).toEqual(viewRows.map((r) => r.slice(1).map(asCell)).map((r) => [...r.slice(0, after), '', '', ...r.slice(after)]));
  });

  it('produces identical output whatever the batch size (pages cross row boundaries correctly)', async () => {
    for (const batchSize of [1, 2, 5, 11, 12, 13]) {
      const file = tmp(`batch-${batchSize}.csv`);
      expect(await exportCsv(crawl, file, { batchSize })).toEqual({ rows: ROWS.length });
      expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    }
  });

  it('rejects a batch size that is not a positive whole number', async () => {
    await expect(exportCsv(crawl, tmp('x.csv'), { batchSize: 0 })).rejects.toThrow(RangeError);
    await expect(exportCsv(crawl, tmp('x.csv'), { batchSize: 2.5 })).rejects.toThrow(RangeError);
  });

  it('exports to a stream, and ends it', async () => {
    const sink = collector();
    const result = await exportCsv(crawl, sink.stream);
    await sink.ended;
    expect(result).toEqual({ rows: ROWS.length });
    expect(sink.text()).toBe(text);
  });

  it('leaves no .part file, and replaces an existing output file', async () => {
    expect(fs.existsSync(`${out}.part`)).toBe(false);
    const file = tmp('existing.csv');
    fs.writeFileSync(file, 'old contents that are longer than nothing');
    await exportCsv(crawl, file);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('rejects, leaving no file, when the output cannot be written', async () => {
    const file = path.join(dir, 'no-such-dir', 'out.csv');
    await expect(exportCsv(crawl, file)).rejects.toThrow(/ENOENT/);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(`${file}.part`)).toBe(false);
  });

  it('rejects (does not hang) when the output stream fails part way', async () => {
    let writes = 0;
    const failing = new Writable({
      highWaterMark: 64,
      write(_chunk, _enc, cb) {
        if (++writes === 5) cb(new Error('disk full'));
        else setImmediate(cb);
      },
    });
    failing.on('error', () => undefined);
    await expect(exportCsv(crawl, failing, { batchSize: 2 })).rejects.toThrow('disk full');
  });

  it('refuses to write over the crawl file itself', async () => {
    await expect(exportCsv(crawl, crawl)).rejects.toThrow(/over itself/);
    const db = (await import('better-sqlite3')).default(crawl, { readonly: true });
    expect((db.prepare('SELECT count(*) AS n FROM results').get() as { n: number }).n).toBe(ROWS.length);
    db.close();
  });

  it('refuses a file that is not a crawl file', async () => {
    const notCrawl = tmp('not-a-crawl.csv');
    fs.writeFileSync(notCrawl, 'hello');
    await expect(exportCsv(notCrawl, tmp('y.csv'))).rejects.toThrow(CrawlFileError);
    await expect(exportCsv(tmp('missing.trawl'), tmp('z.csv'))).rejects.toThrow(CrawlFileError);
  });
});

describe('exportCsv on a crawl in progress', () => {
  it('writes only the header for a crawl with no results yet', async () => {
    const crawl = tmp('empty.trawl');
    newCrawlFile(crawl).close();
    const sink = collector();
    expect(await exportCsv(crawl, sink.stream)).toEqual({ rows: 0 });
    expect(sink.text()).toBe(`\uFEFF${HEADER}\r\n`);
  });

  it('runs while the crawl holds an open write transaction, exporting what is committed', async () => {
    const crawl = tmp('live.trawl');
    const writer = buildFixture(crawl);
    try {
      writer.exec('BEGIN IMMEDIATE');
      writer
        .prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (99, ?, 0, 1, 3, 2, 0)')
        .run('https://example.com/uncommitted');
      writer.prepare(`INSERT INTO results (seq, url_id, crawl_depth, fetched_at) VALUES (99, 99, 3, 0)`).run();
      const sink = collector();
      const started = Date.now();
      expect(await exportCsv(crawl, sink.stream)).toEqual({ rows: ROWS.length });
      expect(Date.now() - started).toBeLessThan(4000); // not waiting on the writer's lock (busy_timeout is 5 s)
      expect(sink.text()).not.toContain('uncommitted');
      writer.exec('COMMIT');
      const after = collector();
      expect(await exportCsv(crawl, after.stream)).toEqual({ rows: ROWS.length + 1 });
      expect(parseCsv(after.text()).at(-1)?.[0]).toBe('https://example.com/uncommitted');
    } finally {
      if (writer.inTransaction) writer.exec('ROLLBACK');
      writer.close();
    }
  });
});

// Loose bound: it only catches an export that loads every row (or the whole CSV) into memory at once.
describe('exportCsv memory', () => {
  const ROW_COUNT = 200_000;
  const HEAP_BUDGET = 50 * 1024 * 1024;

  it(`keeps the heap flat while exporting ${ROW_COUNT.toLocaleString('en')} rows`, async () => {
    const crawl = tmp('big.trawl');
    const db = newCrawlFile(crawl);
    const addUrl = db.prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (?, ?, 0, 1, 2, 2, 0)');
    const addResult = db.prepare(`INSERT INTO results (seq, url_id, status_code, content_type, size_bytes, response_time_ms,
      crawl_depth, title, meta_description, h1, word_count, outlinks, fetched_at) VALUES (?, ?, 200, 'text/html', 4096, 25, 2, ?, ?, ?, 500, 10, 0)`);
    const addLink = db.prepare('INSERT INTO links (from_id, to_id) VALUES (?, ?)');
    const description = 'A meta description long enough to make a naive in-memory export obviously expensive. '.repeat(2);
    db.transaction(() => {
      for (let i = 1; i <= ROW_COUNT; i++) {
        addUrl.run(i, `https://example.com/section-${i % 97}/page-${i}.html`);
        addResult.run(i, i, `Page ${i}: a reasonably ordinary page title, of ordinary length`, description, `Heading ${i}`);
        if (i > 1) addLink.run(i - 1, i);
      }
    })();
    db.close();

    const meter = heapMeter(10_000);
    const result = await exportCsv(crawl, meter.sink);
    expect(result).toEqual({ rows: ROW_COUNT });
    expect(meter.lines).toBe(ROW_COUNT + 1);
    expect(meter.growth).toBeLessThan(HEAP_BUDGET);
  });
});

describe('exportCsv: chosen columns, Screaming Frog headers and a filter', () => {
  let file: string;
  beforeAll(() => {
    file = tmp('view.trawl');
    const db = newCrawlFile(file);
    insertRows(db, ROWS);
    db.close();
  });

  async function exportText(options: Parameters<typeof exportCsv>[2]): Promise<string[][]> {
    const out = tmp('view.csv');
    await exportCsv(file, out, options);
    return parseCsv(fs.readFileSync(out, 'utf8').slice(1));
  }

  it('writes only the chosen columns, in the order chosen', async () => {
    const records = await exportText({ columns: ['title', 'url'] });
    expect(records[0]).toEqual(['title', 'url']);
    expect(records[1]).toEqual(['Home', 'https://example.com/']);
    expect(records).toHaveLength(ROWS.length + 1);
  });

  it('names columns as Screaming Frog does, with response times in seconds', async () => {
    const records = await exportText({
      columns: ['url', 'status_code', 'title', 'response_time_ms', 'attempts'],
      headerPreset: 'screaming-frog',
    });
    // attempts has no Screaming Frog equivalent and keeps its own name.
    expect(records[0]).toEqual(['Address', 'Status Code', 'Title 1', 'Response Time', 'attempts']);
    expect(records[1]).toEqual(['https://example.com/', '200', 'Home', '0.042', '1']);
  });

  it('exports only the rows a filter matches', async () => {
    const records = await exportText({
      columns: ['url', 'status_code'],
      where: { sql: 'r.status_code BETWEEN @min AND @max', params: { min: 300, max: 399 } },
    });
    expect(records.slice(1)).toEqual([['https://example.com/old', '301']]);
  });

  it('names an unknown column and writes nothing', async () => {
    const out = tmp('bad.csv');
    await expect(exportCsv(file, out, { columns: ['url', 'nope'] })).rejects.toThrow('unknown column "nope"');
    expect(fs.existsSync(out)).toBe(false);
  });
});
