// The Results table's one SQL (analysis/result-rows.ts) read through both stores: a crawl file (CrawlFileResults)
// and a cluster crawl's schema in PostgreSQL (queryClusterResults) hold the same rows and must give the same pages
// for every sort (both ways), text search and status class, extracted values included. The crawl-file part runs
// without PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { UrlState } from '../../electron/engine/frontier/model.ts';
import { connect, type PgClient } from '../../electron/engine/frontier/postgres/pg-client.ts';
import { PG_SCHEMA_VERSION, REGISTRY_DDL, crawlDdl, crawlSchema } from '../../electron/engine/frontier/postgres/pg-schema.ts';
import { CrawlFileResults } from '../../electron/engine/session/crawl-file-results.ts';
import { ClusterResults, queryClusterResults } from '../../electron/engine/session/cluster-results.ts';
import { RESULT_SORT_COLUMNS, type ResultsPage, type ResultsQuery, type StatusClass } from '../../shared/crawler-api.ts';
import { parseSettings } from '../../shared/settings.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();

type Row = Record<string, string | number | null>;

// A rule named "__proto__" must come back as an own property, not a prototype.
const SETTINGS = parseSettings({
  seeds: ['https://example.com/'],
  extraction: [
    { name: 'Price', type: 'css', expression: '.price', all: true },
    { name: '__proto__', type: 'css', expression: 'h1' },
  ],
});

// Titles and paths are single words (ASCII letters): both stores order them alike whatever PostgreSQL's collation.
const HOSTS: Row[] = [{ id: 1, origin: 'https://example.com' }];
const URLS: Row[] = [];
const RESULTS: Row[] = [];
const LINKS: Row[] = [];
const EXTRACTED: Row[] = [];
const page = (seq: number, urlId: number, p: string, r: Row) => {
  URLS.push({
    id: urlId,
    url: `https://example.com/${p}`,
    host_id: 1,
    depth: 1,
    state: UrlState.done,
    discovered_at: 1_700_000_000_000 + urlId,
    kind: 'page',
  });
  RESULTS.push({ seq, url_id: urlId, crawl_depth: 1, fetched_at: 1_700_000_000_000 + seq, ...r });
};
page(1, 9, 'Apple', {
  status_code: 200,
  content_type: 'text/html',
  size_bytes: 500,
  response_time_ms: 30,
  title: 'alpha',
  word_count: 12,
  outlinks: 3,
  indexability: 'indexable',
});
page(2, 4, 'banana', {
  status_code: 301,
  content_type: 'text/html',
  size_bytes: 0,
  response_time_ms: 5,
  redirect_url: 'https://example.com/Cherry',
  indexability: 'non-indexable',
});
page(3, 7, 'Cherry', {
  status_code: 200,
  content_type: 'TEXT/HTML',
  size_bytes: 900,
  response_time_ms: 30,
  title: 'Bravo',
  word_count: 40,
  outlinks: 1,
  indexability: 'indexable',
});
page(5, 2, 'date', { response_time_ms: 10000, attempts: 3, error: 'connect ECONNREFUSED (Bravo)' });
page(6, 11, 'Elder', {
  status_code: 404,
  content_type: 'text/plain',
  size_bytes: 20,
  response_time_ms: 8,
  title: 'charlie',
  word_count: 2,
  attempts: 2,
});
page(7, 3, 'fig', { status_code: 500, response_time_ms: 9, title: 'DELTA', error: 'server said 100% no' });
page(9, 5, 'Grape', {
  status_code: 200,
  content_type: 'image/png',
  size_bytes: 70_000,
  response_time_ms: 2,
  title: 'echo_1',
  word_count: 0,
  outlinks: 0,
});
page(10, 8, 'honeydew', {
  status_code: 204,
  content_type: 'text/html',
  size_bytes: 0,
  response_time_ms: 3,
  title: 'Echo',
  word_count: 5,
  outlinks: 2,
});
for (const [from, to] of [
  [9, 7],
  [4, 7],
  [7, 9],
  [11, 7],
  [8, 9],
  [8, 11],
] as const)
  LINKS.push({ from_id: from, to_id: to, anchor: null });
const extracted = (urlId: number, rule: string, values: string[]) =>
  values.forEach((value, n) => EXTRACTED.push({ url_id: urlId, rule, n, value }));
extracted(9, 'Price', ['9.99', '12.50']);
extracted(9, '__proto__', ['Apple']);
extracted(7, 'Price', ['1.00']);
extracted(8, '__proto__', ['Honeydew']);

const BASE: ResultsQuery = { offset: 0, limit: 100, sort: 'seq', descending: false, text: '', statusClass: null };
const STATUS_CLASSES: (StatusClass | null)[] = [null, '2xx', '3xx', '4xx', '5xx', 'none'];
const TEXTS = ['', 'bravo', 'CHERRY', '100%', 'o_1', 'nothing-matches'];

let dir: string;
let file: CrawlFileResults;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-results-readers-'));
  const dbFile = path.join(dir, 'results.trawl');
  const db = createCrawlFile(dbFile, SETTINGS);
  const insert = (table: string, rows: Row[]) => {
    for (const row of rows) {
      const cols = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...Object.values(row));
    }
  };
  db.transaction(() => {
    insert('hosts', HOSTS);
    insert(
      'urls',
      URLS.map((u) => ({ ...u, url_key: 0 })),
    );
    insert('results', [...RESULTS].reverse());
    insert('links', LINKS);
    insert('extracted', EXTRACTED);
  })();
  db.close();
  file = new CrawlFileResults(dbFile);
});

afterAll(async () => {
  await file?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const urls = (rows: { url: string }[]) => rows.map((r) => r.url.slice('https://example.com/'.length));

describe('results of a crawl file', () => {
  it('sorts text without case, empty cells last both ways, ties in fetch order', async () => {
    expect(urls((await file.query({ ...BASE, sort: 'title' })).rows)).toEqual([
      'Apple',
      'Cherry',
      'Elder',
      'fig',
      'honeydew',
      'Grape',
      'banana',
      'date',
    ]);
    expect(urls((await file.query({ ...BASE, sort: 'title', descending: true })).rows)).toEqual([
      'Grape',
      'honeydew',
      'fig',
      'Elder',
      'Cherry',
      'Apple',
      'banana',
      'date',
    ]);
    expect(urls((await file.query({ ...BASE, sort: 'response_time_ms' })).rows)).toEqual([
      'Grape',
      'honeydew',
      'banana',
      'Elder',
      'fig',
      'Apple',
      'Cherry',
      'date',
    ]);
    expect(urls((await file.query({ ...BASE, sort: 'inlinks', descending: true })).rows)).toEqual([
      'Cherry',
      'Apple',
      'Elder',
      'banana',
      'date',
      'fig',
      'Grape',
      'honeydew',
    ]);
    expect(urls((await file.query({ ...BASE, sort: 'seq', descending: true, offset: 2, limit: 3 })).rows)).toEqual([
      'fig',
      'Elder',
      'date',
    ]);
  });

  it('filters by text in the URL, title or error (wildcards as text) and by status class, counting what matches', async () => {
    const bravo = await file.query({ ...BASE, text: 'bravo' });
    expect({ total: bravo.total, urls: urls(bravo.rows) }).toEqual({ total: 2, urls: ['Cherry', 'date'] });
    expect(urls((await file.query({ ...BASE, text: '100%' })).rows)).toEqual(['fig']);
    expect(urls((await file.query({ ...BASE, text: 'o_1' })).rows)).toEqual(['Grape']);
    expect((await file.query({ ...BASE, text: '%' })).total).toBe(1);
    const ok = await file.query({ ...BASE, statusClass: '2xx', limit: 2 });
    expect({ total: ok.total, urls: urls(ok.rows) }).toEqual({ total: 4, urls: ['Apple', 'Cherry'] });
    expect(urls((await file.query({ ...BASE, statusClass: 'none' })).rows)).toEqual(['date']);
    expect(urls((await file.query({ ...BASE, statusClass: '2xx', text: 'e' })).rows)).toEqual(['Apple', 'Cherry', 'Grape', 'honeydew']);
  });

  it('gives each row its extracted values by rule, in order, a rule named "__proto__" included', async () => {
    const { rows, extractionRules } = await file.query(BASE);
    expect(extractionRules).toEqual(['Price', '__proto__']);
    const apple = rows.find((r) => r.url.endsWith('/Apple'))!;
    expect(Object.entries(apple.extracted)).toEqual([
      ['Price', ['9.99', '12.50']],
      ['__proto__', ['Apple']],
    ]);
    expect(Object.getPrototypeOf(apple.extracted)).toBe(Object.prototype);
    expect(rows.find((r) => r.url.endsWith('/banana'))!.extracted).toEqual({});
  });

  it('refuses an unknown sort or status class and a bad page', async () => {
    await expect(file.query({ ...BASE, sort: 'nope' as never })).rejects.toThrow(/cannot sort results by "nope"/);
    await expect(file.query({ ...BASE, statusClass: '1xx' as never })).rejects.toThrow(/unknown status class "1xx"/);
    await expect(file.query({ ...BASE, offset: -1 })).rejects.toThrow(/offset must be/);
    await expect(file.query({ ...BASE, limit: 0 })).rejects.toThrow(/limit must be/);
  });
});

withPg.describe('results of a cluster crawl in PostgreSQL, as those of a crawl file', () => {
  const CRAWL = 'readers';
  let db: FreshDatabase;
  let client: PgClient;

  beforeAll(async () => {
    db = await freshDatabase('results_readers');
    client = await connect(db.url);
    const schema = crawlSchema(CRAWL);
    await client.query(REGISTRY_DDL);
    await client.query('INSERT INTO trawl.crawls (id, schema_version, settings, threads, lease_ms) VALUES ($1, $2, $3, 2, 30000)', [
      CRAWL,
      PG_SCHEMA_VERSION,
      JSON.stringify(SETTINGS),
    ]);
    await client.query(crawlDdl(schema));
    for (const [table, rows] of [
      ['hosts', HOSTS],
      ['urls', URLS],
      ['results', [...RESULTS].reverse()],
      ['links', LINKS],
      ['extracted', EXTRACTED],
    ] as const) {
      for (const row of rows) {
        const cols = Object.keys(row);
        await client.query(
          `INSERT INTO ${schema}.${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
          Object.values(row),
        );
      }
    }
  });

  afterAll(async () => {
    await client?.end().catch(() => undefined);
    await db?.drop();
  });

  // Link Score is the Results table's (ClusterResults, below), not the bare query's: compared without it here (nor
  // whether the file's scores were still being computed when its page was read).
  const LINK_SCORE_SORTS: readonly string[] = ['link_score', 'unique_inlinks'];
  const withoutLinkScore = ({ scoresPending: _, ...p }: ResultsPage): ResultsPage => ({
    ...p,
    rows: p.rows.map((r) => ({ ...r, link_score: null, unique_inlinks: null })),
  });

  it('gives the same page for every sort both ways', async () => {
    for (const sort of RESULT_SORT_COLUMNS.filter((s) => !LINK_SCORE_SORTS.includes(s))) {
      for (const descending of [false, true]) {
        const q = { ...BASE, sort, descending };
        expect({ q, page: await queryClusterResults(client, CRAWL, q) }).toEqual({ q, page: withoutLinkScore(await file.query(q)) });
      }
    }
    const pg = await queryClusterResults(client, CRAWL, { ...BASE, sort: 'link_score', descending: true });
    expect(pg.rows.every((r) => r.link_score === null && r.unique_inlinks === null)).toBe(true);
  });

  it('gives the same page for every text and status class, and pages alike', async () => {
    for (const text of TEXTS) {
      for (const statusClass of STATUS_CLASSES) {
        const q = { ...BASE, text, statusClass, sort: 'title' as const, offset: 1, limit: 3 };
        expect({ q, page: await queryClusterResults(client, CRAWL, q) }).toEqual({ q, page: withoutLinkScore(await file.query(q)) });
      }
    }
  });

  it('gives a cluster crawl its Link Scores, as a crawl file has them (ClusterResults computes them from the store)', async () => {
    const views = new ClusterResults(db.url, CRAWL);
    try {
      for (const sort of ['link_score', 'unique_inlinks'] as const) {
        for (const descending of [false, true]) {
          const q: ResultsQuery = { ...BASE, sort, descending };
          expect({ q, page: await views.query(q) }).toEqual({ q, page: await file.query(q) });
        }
      }
      const scored = (await views.query({ ...BASE, sort: 'link_score', descending: true })).rows;
      expect(scored.filter((r) => (r.link_score ?? 0) > 0).length).toBeGreaterThan(1);
    } finally {
      await views.close();
    }
  });

  it('refuses what a crawl file refuses', async () => {
    await expect(queryClusterResults(client, CRAWL, { ...BASE, sort: 'nope' as never })).rejects.toThrow(/cannot sort results by "nope"/);
    await expect(queryClusterResults(client, CRAWL, { ...BASE, statusClass: '1xx' as never })).rejects.toThrow(
      /unknown status class "1xx"/,
    );
  });
});
