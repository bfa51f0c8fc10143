import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import type { ResultRow, ResultSortColumn, ResultsPage, ResultsQuery, StatusClass } from '../../shared/crawler-api.ts';
import { RESULT_SORT_COLUMNS } from '../../shared/crawler-api.ts';
import type { CrawlSnapshot, StateChange } from '../../shared/snapshot.ts';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { sleep, spawner, tempDir } from '../helpers/engine.ts';
import { askUntil } from '../helpers/ask-until.ts';

const FILE_NAME = /^127\.0\.0\.1-\d{8}-\d{6}(-\d+)?\.trawl$/;
const TEXT_COLUMNS = new Set<ResultSortColumn>(['url', 'content_type', 'title']);

function newSession(dir = tempDir()): CrawlSession {
  // As on a 3-core machine: two worker processes.
  return new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 3 });
}

/** Resolves with the state change that satisfies `test`. */
function waitForState(session: CrawlSession, test: (c: StateChange) => boolean, timeoutMs = 30_000): Promise<StateChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      session.off('state', check);
      reject(new Error(`timed out waiting for a state change; snapshot ${JSON.stringify(session.snapshot()?.counters)}`));
    }, timeoutMs);
    const check = (c: StateChange) => {
      if (!test(c)) return;
      clearTimeout(timer);
      session.off('state', check);
      resolve(c);
    };
    session.on('state', check);
  });
}
const finished = (session: CrawlSession) => waitForState(session, (c) => c.to === 'finished');

function query(overrides: Partial<ResultsQuery> = {}): ResultsQuery {
  return { offset: 0, limit: 1000, sort: 'seq', descending: false, text: '', statusClass: null, ...overrides };
}

/** Every row of the crawl_results view, straight from the file. */
function viewRows(file: string): ResultRow[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT * FROM crawl_results ORDER BY seq').all() as ResultRow[];
  } finally {
    db.close();
  }
}

/** The order the session promises: by the column (text case-insensitively), empty cells last, then by seq. */
function expectSorted(rows: ResultRow[], sort: ResultSortColumn, descending: boolean): void {
  const key = (r: ResultRow) => {
    const v = r[sort] ?? null;
    return typeof v === 'string' && TEXT_COLUMNS.has(sort) ? v.toLowerCase() : v;
  };
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    const ka = key(a);
    const kb = key(b);
    const where = `${sort} ${descending ? 'desc' : 'asc'} at ${i}: ${JSON.stringify(ka)} then ${JSON.stringify(kb)}`;
    if (sort === 'seq') {
      expect(descending ? a.seq > b.seq : a.seq < b.seq, where).toBe(true);
      continue;
    }
    if (ka === null) {
      expect(kb, where).toBeNull();
      expect(a.seq < b.seq, where).toBe(true);
    } else if (kb !== null) {
      if (ka === kb) expect(a.seq < b.seq, where).toBe(true);
      else expect(descending ? ka > kb : ka < kb, where).toBe(true);
    }
  }
}

function statusClassOf(code: number | null): StatusClass {
  if (code === null) return 'none';
  return `${Math.floor(code / 100)}xx` as StatusClass;
}

describe('CrawlSession', () => {
  let site: FixtureSite;
  let dir: string;
  let session: CrawlSession;
  let firstFile: string;
  const snapshots: CrawlSnapshot[] = [];
  const states: StateChange[] = [];

  beforeAll(async () => {
    const html = (title: string, links: string[]) =>
      `<!doctype html><title>${title}</title><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body>`;
    site = await startFixtureSite({
      pages: 30,
      linksPerPage: 3,
      // One page answers slowly, so the first crawl is still running for a while after its first rows are in.
      delayMs: (p) => (p === '/p/29' ? 400 : 5),
      robotsTxt: 'User-agent: *\nDisallow: /private\n',
      routes: {
        '/start': (_req, res) =>
          void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(html('Start here', ['/p/0', '/moved', '/missing', '/boom', '/private/secret', '/special', '/empty'])),
        '/moved': (_req, res) => void res.writeHead(301, { location: '/p/1' }).end(),
        '/missing': (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not here</title>'),
        '/boom': (_req, res) => void res.writeHead(500, { 'content-type': 'text/plain' }).end('boom'),
        '/special': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('100% off_sale', ['/p/2'])),
        '/empty': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>no title at all</p>'),
      },
    });
    dir = tempDir();
    session = newSession(dir);
    session.on('snapshot', (s) => snapshots.push(s));
    session.on('state', (s) => states.push(s));
  });

  afterAll(async () => {
    await session?.close();
    await site?.close();
  });

  it('answers with the defaults and limits, and with the problems of invalid settings, creating nothing', async () => {
    const defaults = await session.defaults();
    expect(defaults.settings.seeds).toEqual([]);
    expect(defaults.settings.threads).toBe(5);
    expect(defaults.limits.threads).toEqual({ min: 1, max: 200 });

    const bad = await session.start({ seeds: ['notaurl'], threads: 0, bogus: 1 });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.problems).toEqual(
      expect.arrayContaining([
        { field: 'seeds.0', message: expect.stringContaining('not a valid URL'), code: 'badUrl', params: { value: 'notaurl' } },
        { field: 'threads', message: 'must be at least 1', code: 'atLeast', params: { min: 1 } },
        { field: 'bogus', message: 'unknown setting', code: 'unknownSetting' },
      ]),
    );
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(session.currentFile()).toBeNull();
    expect(session.snapshot()).toBeNull();
    expect(await session.queryResults(query({ offset: 40 }))).toEqual({ total: 0, offset: 40, rows: [], extractionRules: [] });
    expect(await session.exportCsv(new PassThrough())).toEqual({ ok: false, error: expect.stringContaining('no crawl is open') });
    await expect(session.pause()).rejects.toThrow(/no crawl has been started/);
    await expect(session.stop()).rejects.toThrow(/no crawl has been started/);
    await expect(session.setThreads(3)).rejects.toThrow(/no crawl has been started/);
    await expect(session.setMaxRate(3)).rejects.toThrow(/no crawl has been started/);
    await expect(session.addExclude('/x')).rejects.toThrow(/no crawl has been started/);
  });

  it('starts a crawl in a new file of the crawls folder, refuses a second one while it runs, and forwards its events', async () => {
    const started = await session.start({ seeds: [site.url('/start')], threads: 3 });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    firstFile = started.file;
    expect(path.dirname(firstFile)).toBe(dir);
    expect(path.basename(firstFile)).toMatch(FILE_NAME);
    expect(session.currentFile()).toBe(firstFile);
    expect(session.isRunning()).toBe(true);

    await expect(session.start({ seeds: [site.url('/p/3')] })).rejects.toThrow(/a crawl is already running/);
    await expect(session.resumeCrawl(firstFile)).rejects.toThrow(/a crawl is already running/);
    await expect(session.openCrawl(path.join(dir, 'other.trawl'))).rejects.toThrow(/a crawl is running/);
    await session.setThreads(4);

    // The results can be read while the crawl writes them: once the first rows are in, a page of them (not an
    // empty page that would pass for a consistent one).
    let running: boolean;
    let mid: ResultsPage;
    for (;;) {
      running = session.isRunning();
      mid = await session.queryResults(query());
      if (mid.total > 0 || !running) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(running).toBe(true);
    expect(mid.total).toBeGreaterThan(0);
    expect(mid.rows.length).toBe(mid.total);
    expect(mid.rows.every((r) => typeof r.url === 'string' && r.url.startsWith(site.origin))).toBe(true);

    const end = await finished(session);
    expect(end.reason).toBe('completed');
    expect(states.map((s) => s.to)).toEqual(['preparing', 'running', 'stopping', 'finished']);
    expect(snapshots.length).toBeGreaterThan(0);
    expect(snapshots.at(-1)!.state).toBe('finished');
    expect(session.snapshot()!.state).toBe('finished');
    expect(session.snapshot()!.threadTarget).toBe(4);
    expect(session.isRunning()).toBe(false);
    await expect(session.pause()).rejects.toThrow(/it has finished/);
  });

  it('returns the rows of the crawl_results view, sorted by every column both ways in SQL', async () => {
    const all = viewRows(firstFile);
    // 30 pages, /start, /moved, /missing, /boom, /private/secret, /special, /empty.
    expect(all).toHaveLength(37);
    // The crawl just finished: its final Link Scores are being computed, and a page comes at once with the scores it
    // has (scoresPending), then with them: asked again as the table does.
    const page = (
      await askUntil(
        () => session.queryResults(query()),
        (p) => !p.scoresPending,
      )
    ).at(-1)!;
    expect(page.scoresPending).toBeUndefined();
    expect(page.total).toBe(37);
    expect(page.offset).toBe(0);
    // The view's columns, Link Score's (computed, not in the file's view), and the extracted values (none: this
    // crawl has no extraction rules).
    expect(page.rows.map(({ link_score, unique_inlinks, ...r }) => r)).toEqual(all.map((r) => ({ ...r, extracted: {} })));
    expect(Object.keys(page.rows[0]!)).toEqual([...Object.keys(all[0]!), 'link_score', 'unique_inlinks', 'extracted']);
    expect(page.rows.find((r) => r.status_code === 200)!.link_score).toEqual(expect.any(Number));
    expect(page.extractionRules).toEqual([]);

    for (const sort of RESULT_SORT_COLUMNS) {
      for (const descending of [false, true]) {
        const { rows, total } = await session.queryResults(query({ sort, descending }));
        expect(total).toBe(37);
        expect(rows.map((r) => r.seq).sort((a, b) => a - b)).toEqual(all.map((r) => r.seq));
        expectSorted(rows, sort, descending);
      }
    }
    // Nulls last in both directions, e.g. status codes of URLs that got no response.
    const byStatus = (await session.queryResults(query({ sort: 'status_code' }))).rows;
    expect(byStatus.at(-1)!.status_code).toBeNull();
    expect(byStatus[0]!.status_code).toBe(200);
    const byStatusDesc = (await session.queryResults(query({ sort: 'status_code', descending: true }))).rows;
    expect(byStatusDesc[0]!.status_code).toBe(500);
    expect(byStatusDesc.at(-1)!.status_code).toBeNull();
    // Sorting by inlinks really sorts by the counted links.
    const byInlinks = (await session.queryResults(query({ sort: 'inlinks', descending: true }))).rows;
    expect(byInlinks[0]!.inlinks).toBe(Math.max(...all.map((r) => r.inlinks)));
  });

  it('filters by text (case-insensitive, % and _ literal) on url, title and error, and by status class', async () => {
    const all = viewRows(firstFile);
    const texts = ['page 1', 'PAGE 1', '/P/2', '%', '_', '100% off', 'off_sale', 'robots', 'moved', 'zzz-nothing'];
    for (const text of texts) {
      const needle = text.toLowerCase();
      const expected = all.filter((r) => [r.url, r.title, r.error].some((v) => v !== null && v.toLowerCase().includes(needle)));
      const got = await session.queryResults(query({ text }));
      expect(
        got.rows.map((r) => r.seq),
        text,
      ).toEqual(expected.map((r) => r.seq));
      expect(got.total, text).toBe(expected.length);
    }
    expect((await session.queryResults(query({ text: '%' }))).rows.map((r) => r.title)).toEqual(['100% off_sale']);
    expect((await session.queryResults(query({ text: 'robots' }))).rows.map((r) => r.url)).toEqual([site.url('/private/secret')]);

    for (const statusClass of ['2xx', '3xx', '4xx', '5xx', 'none'] as const) {
      const expected = all.filter((r) => statusClassOf(r.status_code) === statusClass);
      expect(expected.length, statusClass).toBeGreaterThan(0);
      const got = await session.queryResults(query({ statusClass }));
      expect(
        got.rows.map((r) => r.seq),
        statusClass,
      ).toEqual(expected.map((r) => r.seq));
      expect(got.total).toBe(expected.length);
    }
    const none = await session.queryResults(query({ statusClass: 'none' }));
    expect(none.rows.map((r) => r.url)).toEqual([site.url('/private/secret')]);

    // Both filters together, sorted and paged.
    const both = await session.queryResults(
      query({ text: 'page', statusClass: '2xx', sort: 'title', descending: true, limit: 5, offset: 2 }),
    );
    const expected = all.filter((r) => r.status_code !== null && r.status_code < 300 && (r.title ?? '').toLowerCase().includes('page'));
    expect(both.total).toBe(expected.length);
    expect(both.rows).toHaveLength(5);
    expectSorted(both.rows, 'title', true);
  });

  it('pages through the results with offset and limit, the total staying that of the whole filter', async () => {
    const whole = (await session.queryResults(query({ sort: 'url' }))).rows;
    const paged: ResultRow[] = [];
    for (let offset = 0; ; offset += 8) {
      const page = await session.queryResults(query({ sort: 'url', offset, limit: 8 }));
      expect(page.total).toBe(37);
      expect(page.offset).toBe(offset);
      paged.push(...page.rows);
      if (page.rows.length < 8) break;
    }
    expect(paged).toEqual(whole);
    expect(await session.queryResults(query({ offset: 500 }))).toEqual({ total: 37, offset: 500, rows: [], extractionRules: [] });
    await expect(session.queryResults(query({ sort: 'r.seq; DROP TABLE results' as ResultSortColumn }))).rejects.toThrow(/cannot sort/);
  });

  it('exports the current crawl as CSV, to a file or a stream', async () => {
    const out = path.join(tempDir(), 'export.csv');
    const result = await session.exportCsv(out);
    expect(result).toEqual({ ok: true, rows: 37, file: out });
    const csv = fs.readFileSync(out, 'utf8');
    expect(csv.startsWith('\uFEFFurl,kind,status_code,')).toBe(true);
    expect(csv.trim().split('\r\n')).toHaveLength(38);

    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    expect(await session.exportCsv(stream)).toEqual({ ok: true, rows: 37, file: null });
    expect(Buffer.concat(chunks).toString('utf8')).toBe(csv);

    const failed = await session.exportCsv(firstFile);
    expect(failed.ok).toBe(false);
  });

  it('stops a crawl, lists the crawl files newest first, opens an earlier one and resumes the stopped one', async () => {
    const slow = await startFixtureSite({ pages: 60, linksPerPage: 3, delayMs: 60 });
    try {
      const started = await session.start({ seeds: [slow.url('/p/0')], threads: 2 });
      expect(started.ok).toBe(true);
      if (!started.ok) return;
      const second = started.file;
      expect(second).not.toBe(firstFile);
      expect(path.basename(second)).toMatch(FILE_NAME);
      while ((session.snapshot()?.counters.crawled ?? 0) < 6) await sleep(20);
      await session.pause();
      await waitForState(session, (c) => c.to === 'paused');
      await session.resume();
      await session.stop();
      expect(session.snapshot()!.state).toBe('finished');
      expect(session.snapshot()!.reason).toBe('stopped');

      // A file that is not a crawl, and one that is not a .trawl file, are left out of the list.
      fs.writeFileSync(path.join(dir, 'junk.trawl'), 'not a crawl');
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello');
      const list = await session.listCrawls();
      expect(list.map((c) => c.file)).toEqual([second, firstFile]);
      const [stopped, done] = list as [(typeof list)[0], (typeof list)[0]];
      expect(stopped.seeds).toEqual([slow.url('/p/0')]);
      expect(stopped.state).toBe('finished');
      expect(stopped.finishReason).toBe('stopped');
      expect(stopped.crawled).toBeGreaterThanOrEqual(6);
      expect(stopped.queued).toBeGreaterThan(0);
      expect(stopped.crawled + stopped.queued).toBeLessThanOrEqual(60);
      expect(done).toMatchObject({ seeds: [site.url('/start')], state: 'finished', finishReason: 'completed', queued: 0 });
      expect(done.crawled).toBe(36); // every fetch with a response; the robots-blocked URL failed
      expect(Date.parse(done.createdAt)).toBeLessThanOrEqual(Date.parse(stopped.createdAt));

      // Opening the first crawl switches the results (and the export) to it.
      expect((await session.queryResults(query())).total).toBe(stopped.crawled);
      const opened = await session.openCrawl(firstFile);
      expect(opened).toEqual(done);
      expect(session.currentFile()).toBe(firstFile);
      expect(session.snapshot()).toBeNull();
      expect((await session.queryResults(query())).total).toBe(37);
      await expect(session.openCrawl(path.join(dir, 'junk.trawl'))).rejects.toThrow(/is not a Trawl crawl file/);
      expect(session.currentFile()).toBe(firstFile);

      const junk = await session.resumeCrawl(path.join(dir, 'junk.trawl'));
      expect(junk).toEqual({
        ok: false,
        problems: [{ field: 'file', message: expect.stringMatching(/junk\.trawl is not a Trawl crawl file/) }],
      });
      const missing = await session.resumeCrawl(path.join(dir, 'missing.trawl'));
      expect(missing).toEqual({ ok: false, problems: [{ field: 'file', message: expect.stringMatching(/does not exist/) }] });

      // Resuming the stopped crawl finishes it, fetching only what was left.
      const fetchedBefore = slow.fetchedPaths().length;
      const resumed = await session.resumeCrawl(second);
      expect(resumed).toEqual({ ok: true, file: second });
      expect(session.currentFile()).toBe(second);
      const end = await finished(session);
      expect(end.reason).toBe('completed');
      expect(new Set(slow.fetchedPaths()).size).toBe(60);
      expect(slow.fetchedPaths().length - fetchedBefore).toBeLessThanOrEqual(60 - stopped.crawled + 2);
      const page = await session.queryResults(query());
      expect(page.total).toBe(60);
      const info = (await session.listCrawls())[0]!;
      expect(info).toMatchObject({ file: second, state: 'finished', finishReason: 'completed', crawled: 60, queued: 0 });
    } finally {
      await slow.close();
    }
  });

  it('deletes a crawl of the folder with its WAL, never the one running, and empties the view when it was shown', async () => {
    const slow = await startFixtureSite({ pages: 40, delayMs: 100 });
    const dir = tempDir();
    const other = newSession(dir);
    let cleared = 0;
    other.on('cleared', () => cleared++);
    try {
      const started = await other.start({ seeds: [slow.url('/p/0')], threads: 2 });
      expect(started.ok).toBe(true);
      if (!started.ok) return;
      while ((other.snapshot()?.counters.crawled ?? 0) < 2) await sleep(20);
      await expect(other.deleteCrawl(started.file)).rejects.toThrow(/is the crawl running; stop it first/);
      expect(fs.existsSync(started.file)).toBe(true);
      await other.stop();

      // Not in the crawls folder, or not a crawl: refused, and nothing is removed.
      const outside = path.join(tempDir(), 'elsewhere.trawl');
      fs.copyFileSync(started.file, outside);
      await expect(other.deleteCrawl(outside)).rejects.toThrow(/only crawls of the crawls folder/);
      expect(fs.existsSync(outside)).toBe(true);
      const notACrawl = path.join(dir, 'notes.trawl');
      fs.writeFileSync(notACrawl, 'not a crawl');
      await expect(other.deleteCrawl(notACrawl)).rejects.toThrow();
      expect(fs.existsSync(notACrawl)).toBe(true);

      // The finished crawl is still in view: deleting it empties the view, and the file goes with its -wal and -shm.
      expect(other.currentFile()).toBe(started.file);
      const left = await other.deleteCrawl(started.file);
      expect(left.map((c) => c.file)).not.toContain(started.file);
      for (const f of [started.file, `${started.file}-wal`, `${started.file}-shm`]) expect(fs.existsSync(f)).toBe(false);
      expect(other.currentFile()).toBeNull();
      expect(other.snapshot()).toBeNull();
      expect(cleared).toBe(1);
    } finally {
      await other.close();
      await slow.close();
    }
  });

  it('stops a running crawl on close', async () => {
    const slow = await startFixtureSite({ pages: 40, delayMs: 100 });
    const other = newSession();
    try {
      const started = await other.start({ seeds: [slow.url('/p/0')], threads: 2 });
      expect(started.ok).toBe(true);
      while ((other.snapshot()?.counters.crawled ?? 0) < 2) await sleep(20);
      await other.close();
      expect(other.snapshot()!.state).toBe('finished');
      expect(other.snapshot()!.reason).toBe('stopped');
      expect((await other.listCrawls())[0]!.queued).toBeGreaterThan(0);
    } finally {
      await slow.close();
    }
  });
});

describe('CrawlSession: live settings, rule tests, extracted values and presets', () => {
  let site: FixtureSite;
  let dir: string;
  let session: CrawlSession;
  const heading = { name: 'heading', type: 'css', expression: 'h1' } as const;

  beforeAll(async () => {
    site = await startFixtureSite({
      pages: 40,
      linksPerPage: 3,
      delayMs: (p) => (p.startsWith('/p/') && Number(p.slice(3)) >= 10 ? 80 : 0),
    });
    dir = tempDir();
    session = newSession(dir);
  });

  afterAll(async () => {
    await session?.close();
    await site?.close();
  });

  it("gives each row the values of the crawl's extraction rules, with one query per page of rows", async () => {
    const started = await session.start({
      seeds: [site.url('/p/0'), site.url('/p/1'), site.url('/p/2')],
      mode: 'list',
      extraction: [
        heading,
        { name: 'links', type: 'css', expression: 'li a', output: 'attribute', attribute: 'href', all: true },
        { name: 'nothing', type: 'regex', expression: 'no-such-(\\d+)' },
      ],
    });
    expect(started.ok).toBe(true);
    await finished(session);
    const page = await session.queryResults(query());
    expect(page.extractionRules).toEqual(['heading', 'links', 'nothing']);
    expect(page.rows.map((r) => r.url).sort()).toEqual([site.url('/p/0'), site.url('/p/1'), site.url('/p/2')]);
    for (const row of page.rows) {
      const n = /\/p\/(\d+)$/.exec(row.url)![1];
      // A rule that found nothing is left out.
      expect(Object.keys(row.extracted).sort(), row.url).toEqual(['heading', 'links']);
      expect(row.extracted['heading']).toEqual([`Heading ${n}`]);
      expect(row.extracted['links']!.length).toBeGreaterThan(1);
      expect(row.extracted['links']!.every((href) => /^\/p\/\d+$/.test(href))).toBe(true);
    }
    // Sorted and paged, each row keeps its own values.
    const second = await session.queryResults(query({ sort: 'url', descending: true, offset: 1, limit: 1 }));
    expect(second.rows).toHaveLength(1);
    expect(second.rows[0]!.url).toBe(site.url('/p/1'));
    expect(second.rows[0]!.extracted['heading']).toEqual(['Heading 1']);
    // The explorer's rows carry them too, for its column per rule.
    const explorer = await session.queryFiltered({ filter: 'html', text: '', sort: 'url', descending: false, offset: 0, limit: 10 });
    expect(explorer.extractionRules).toEqual(['heading', 'links', 'nothing']);
    expect(explorer.rows.map((r) => [r.url, r.extracted['heading']])).toEqual(
      [0, 1, 2].map((n) => [site.url(`/p/${n}`), [`Heading ${n}`]]),
    );
    expect(explorer.rows.every((r) => !Object.hasOwn(r.extracted, 'nothing'))).toBe(true);
  });

  it('tests extraction rules on one URL in a worker, and names what is wrong with the URL or the rules', async () => {
    const result = await session.testExtraction(site.url('/p/3'), {
      extraction: [heading, { name: 'title', type: 'regex', expression: '<title>([^<]*)</title>' }],
    });
    expect(result).toEqual({
      ok: true,
      url: site.url('/p/3'),
      statusCode: 200,
      contentType: 'text/html; charset=utf-8',
      problem: null,
      values: { heading: ['Heading 3'], title: ['Page 3'] },
    });

    const missing = await session.testExtraction(site.url('/nothing-here'), { extraction: [heading] });
    expect(missing.ok && missing.statusCode).toBe(404);

    expect(await session.testExtraction('not a url', { extraction: [heading] })).toEqual({
      ok: false,
      problems: [{ field: 'url', message: expect.stringContaining('not a valid URL'), code: 'badUrl', params: { value: 'not a url' } }],
    });
    expect(await session.testExtraction(site.url('/p/3'), { extraction: [{ name: 'bad', type: 'css', expression: 'h1[[' }] })).toEqual({
      ok: false,
      problems: [
        {
          field: 'extraction.0.expression',
          message: expect.stringMatching(/^invalid CSS selector/),
          code: 'badSelector',
          params: { error: expect.any(String) },
        },
      ],
    });
    expect(await session.testExtraction(site.url('/p/3'), {})).toEqual({
      ok: false,
      problems: [{ field: 'extraction', message: 'add a rule to test first' }],
    });
    expect(await session.testExtraction(site.url('/p/3'), { seeds: [site.url('/p/4')], extraction: [heading] })).toMatchObject({
      ok: false,
      problems: [{ field: 'seeds' }],
    });

    // One test at a time.
    const first = session.testExtraction(site.url('/p/12'), { extraction: [heading] });
    await expect(session.testExtraction(site.url('/p/4'), { extraction: [heading] })).rejects.toThrow(/a rule test is already running/);
    expect(await first).toMatchObject({ ok: true, values: { heading: ['Heading 12'] } });
  });

  it('changes the URLs/s cap and adds excludes while a crawl runs, saying how many queued URLs were dropped', async () => {
    const started = await session.start({ seeds: [site.url('/p/0')], threads: 2 });
    expect(started.ok).toBe(true);
    while ((session.snapshot()?.counters.queued ?? 0) < 5) await sleep(20);
    await session.setMaxRate(50);
    expect(session.snapshot()!.maxUrlsPerSecond).toBe(50);
    await session.setMaxRate(null);
    expect(session.snapshot()!.maxUrlsPerSecond).toBeNull();

    const { dropped } = await session.addExclude('/p/\\d*[13579]$');
    expect(dropped).toBeGreaterThan(0);
    expect(session.snapshot()!.liveExcludes).toEqual(['/p/\\d*[13579]$']);
    await expect(session.addExclude('(')).rejects.toThrow(/^invalid exclude pattern "\(": /);
    expect(session.snapshot()!.liveExcludes).toEqual(['/p/\\d*[13579]$']);

    await finished(session);
    const urls = (await session.queryResults(query())).rows.map((r) => r.url);
    expect(urls.filter((u) => /[13579]$/.test(u)).length).toBeLessThan(20);
    await expect(session.addExclude('/p/2')).rejects.toThrow(/it has finished/);
    await expect(session.setMaxRate(5)).rejects.toThrow(/it has finished/);
  });

  it('saves, lists, replaces and deletes named presets in one JSON file of the crawls folder', async () => {
    const presetsDir = tempDir();
    const presets = newSession(presetsDir);
    const file = path.join(presetsDir, 'trawl-presets.json');
    expect(await presets.listPresets()).toEqual([]);

    // An include pattern no placeholder seed could match is still a valid preset.
    const saved = await presets.savePreset('Docs, polite', {
      polite: true,
      include: ['^https://docs\\.'],
      extraction: [heading],
      headers: { 'X-Token': 'abc' },
    });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(saved.presets).toHaveLength(1);
    const [docs] = saved.presets as [(typeof saved.presets)[0]];
    expect(docs.name).toBe('Docs, polite');
    expect(Date.parse(docs.savedAt)).toBeGreaterThan(0);
    expect(docs.settings).not.toHaveProperty('seeds');
    expect(docs.settings).toMatchObject({
      polite: true,
      include: ['^https://docs\\.'],
      extraction: [{ ...heading, output: 'text', all: false }],
      headers: {}, // a preset keeps no credentials (secrets-at-rest.test.ts)
      basicAuth: null,
      threads: 5,
    });
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: number; presets: unknown[] };
    expect(stored.version).toBe(1);
    expect(stored.presets).toEqual(saved.presets);
    // Written through a temporary file, which is gone.
    expect(fs.readdirSync(presetsDir)).toEqual(['trawl-presets.json']);

    // Same name in other letters: replaced. Listed by name.
    const replaced = await presets.savePreset('docs, POLITE', { delayMs: 500 });
    expect(replaced.ok && replaced.presets.map((p) => [p.name, p.settings.delayMs, p.settings.polite])).toEqual([
      ['docs, POLITE', 500, false],
    ]);
    await presets.savePreset('A first one', { threads: 9 });
    expect((await presets.listPresets()).map((p) => p.name)).toEqual(['A first one', 'docs, POLITE']);

    // Invalid settings and names come back as problems; seeds are not a preset's.
    expect(await presets.savePreset('Bad', { threads: 0, exclude: ['('] })).toEqual({
      ok: false,
      problems: [
        { field: 'threads', message: 'must be at least 1', code: 'atLeast', params: { min: 1 } },
        {
          field: 'exclude.0',
          message: expect.stringMatching(/^invalid regular expression/),
          code: 'badRegexIn',
          params: expect.objectContaining({ value: '(' }),
        },
      ],
    });
    expect(await presets.savePreset('Seeds', { seeds: ['https://a.test/'] })).toEqual({
      ok: false,
      problems: [{ field: 'seeds', message: 'a preset holds settings, not seed URLs' }],
    });
    for (const bad of ['', ' padded', '../escape', 'a/b', 'x'.repeat(61), 'new\nline']) {
      expect(await presets.savePreset(bad, {}), JSON.stringify(bad)).toMatchObject({ ok: false, problems: [{ field: 'name' }] });
    }

    expect((await presets.deletePreset('a FIRST one')).map((p) => p.name)).toEqual(['docs, POLITE']);
    await expect(presets.deletePreset('A first one')).rejects.toThrow('there is no preset named "A first one"');
    expect(await presets.listCrawls()).toEqual([]);
  });

  it('reports a damaged presets file instead of dropping it, and leaves it as it is', async () => {
    const presetsDir = tempDir();
    const presets = newSession(presetsDir);
    const file = path.join(presetsDir, 'trawl-presets.json');
    for (const [text, why] of [
      ['{"version":1,"presets":[{"name":"Kept"', /is not valid JSON/],
      ['[]', /is damaged \(not a JSON object\)/],
      ['{"version":7,"presets":[]}', /is damaged \(version 7, expected 1\)/],
      ['{"version":1,"presets":[{"name":"../x","savedAt":"","settings":{}}]}', /is damaged \(preset 1 has no valid name\)/],
      ['{"version":1,"presets":[{"name":"ok","savedAt":"","settings":null}]}', /is damaged \(preset "ok" has no settings object\)/],
      [
        '{"version":1,"presets":[{"name":"ok","savedAt":"","settings":{"threads":0}}]}',
        /is damaged \(preset "ok" has invalid settings: threads: must be at least 1\)/,
      ],
      [
        '{"version":1,"presets":[{"name":"ok","savedAt":"","settings":{"seeds":["https://a.test/"]}}]}',
        /is damaged \(preset "ok" holds seeds\)/,
      ],
    ] as const) {
      fs.writeFileSync(file, text);
      await expect(presets.listPresets(), text).rejects.toThrow(why);
      await expect(presets.savePreset('New', {}), text).rejects.toThrow(why);
      await expect(presets.deletePreset('ok'), text).rejects.toThrow(why);
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
    }
    expect(fs.readdirSync(presetsDir)).toEqual(['trawl-presets.json']);

    // A preset from before a setting existed takes that setting's default.
    fs.writeFileSync(file, '{"version":1,"presets":[{"name":"Old","savedAt":"2026-01-01T00:00:00.000Z","settings":{"polite":true}}]}');
    const [old] = await presets.listPresets();
    expect(old!.settings).toMatchObject({ polite: true, threads: 5, extraction: [], headers: {}, basicAuth: null });
  });
});

describe('CrawlSession: the analyst workbench (explorer, detail, queue, hosts, charts, exports, comparison)', () => {
  let site: FixtureSite;
  let dir: string;
  let session: CrawlSession;
  /** The site as the second crawl sees it: one page gone, one new, one retitled. */
  let second = false;
  let slow = false;
  const files: string[] = [];

  beforeAll(async () => {
    const html = (title: string, links: string[]) =>
      `<!doctype html><title>${title}</title><body>${links.map((l) => `<a href="${l}">anchor ${l}</a>`).join(' ')}</body>`;
    site = await startFixtureSite({
      pages: 30,
      linksPerPage: 3,
      delayMs: () => (slow ? 150 : 0),
      routes: {
        '/start': (_req, res) =>
          void res
            .writeHead(200, { 'content-type': 'text/html', 'x-trawl-test': '<b>yes</b>' })
            .end(html('Start', ['/p/0', '/moved', '/missing', '/untitled', '/changing', second ? '/only-new' : '/only-old'])),
        '/moved': (_req, res) => void res.writeHead(301, { location: '/p/1' }).end(),
        '/missing': (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not here</title>'),
        '/untitled': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>no title</p>'),
        '/changing': (_req, res) =>
          void res.writeHead(200, { 'content-type': 'text/html' }).end(html(second ? 'New title' : 'Old title', [])),
        '/only-old': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Old only', [])),
        '/only-new': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('New only', [])),
      },
    });
    dir = tempDir();
    session = newSession(dir);
  });

  afterAll(async () => {
    await session?.close();
    await site?.close();
  });

  it('refuses every analysis query before a crawl is open', async () => {
    await expect(session.filterCounts()).rejects.toThrow(/no crawl is open/);
    await expect(session.chartData({ kind: 'status', afterSeq: null, fromMs: null, bucketMs: null })).rejects.toThrow(/no crawl is open/);
    expect(await session.viewExportProblem({ filter: 'all', text: '', columns: ['url'], headerPreset: 'trawl' })).toMatch(
      /no crawl is open/,
    );
  });

  it('counts and lists filters, and details one URL with its headers, chain and inlinks with anchors', async () => {
    const started = await session.start({ seeds: [site.url('/start')], threads: 3 });
    expect(started.ok).toBe(true);
    await finished(session);
    files.push(session.currentFile()!);

    const counts = await session.filterCounts();
    expect(counts['status-4xx']).toBe(1);
    expect(counts['status-3xx']).toBe(1);
    expect(counts['title-missing']).toBe(1);
    expect(counts.all).toBe(viewRows(files[0]!).length);

    const page = await session.queryFiltered({ filter: 'status-4xx', text: '', sort: 'seq', descending: false, offset: 0, limit: 50 });
    expect(page.total).toBe(1);
    expect(page.rows.map((r) => r.url)).toEqual([site.url('/missing')]);
    expect(page.extractionRules).toEqual([]);
    const searched = await session.queryFiltered({ filter: 'html', text: 'untitled', sort: 'url', descending: true, offset: 0, limit: 50 });
    expect(searched.rows.map((r) => r.url)).toEqual([site.url('/untitled')]);

    const start = await session.urlDetail({ url: site.url('/start') });
    expect(start!.response_headers!['x-trawl-test']).toBe('<b>yes</b>');
    expect(start!.outlinks.rows.map((l) => l.to_url)).toContain(site.url('/missing'));
    const missing = await session.urlDetail({ url: site.url('/missing') });
    expect(missing!.inlinks.rows).toEqual([
      expect.objectContaining({ from_url: site.url('/start'), anchor: 'anchor /missing', kind: 'a' }),
    ]);
    const more = await session.urlInlinks(missing!.url_id, null);
    expect(more.total).toBe(1);
    const out = await session.urlOutlinks(start!.url_id, null);
    expect(out.total).toBe(start!.outlinks.total);
    const moved = await session.urlDetail({ url: site.url('/moved') });
    expect(moved!.redirect_chain.hops.map((h) => h.url)).toEqual([site.url('/moved'), site.url('/p/1')]);
    expect(await session.urlDetail({ url: site.url('/never-linked') })).toBeNull();
  });

  it('reports hosts and draws charts whole and since a seq, and exports a chart and a view as CSV', async () => {
    const hosts = await session.hostsReport({ sort: 'crawled', descending: true, offset: 0, limit: 10, text: '', includeIdle: false });
    expect(hosts.rows[0]!.origin).toBe(site.origin);
    expect(hosts.rows[0]!.http_errors).toBe(1);

    const status = await session.chartData({ kind: 'status', afterSeq: null, fromMs: null, bucketMs: null });
    expect(status.kind).toBe('status');
    if (status.kind !== 'status') return;
    expect(status.rows.find((r) => r.status_code === 404)?.count).toBe(1);
    const since = await session.chartData({ kind: 'status', afterSeq: status.last_seq, fromMs: null, bucketMs: null });
    expect(since.kind === 'status' && since.total).toBe(0);
    for (const kind of ['depth', 'response-time', 'over-time'] as const) {
      const data = await session.chartData({ kind, afterSeq: null, fromMs: null, bucketMs: null });
      expect(data.rows.length, kind).toBeGreaterThan(0);
    }

    const chartFile = path.join(dir, 'status.csv');
    expect(await session.exportChartCsv('status', chartFile)).toEqual({ ok: true, rows: status.rows.length, file: chartFile });
    expect(fs.readFileSync(chartFile, 'utf8').split('\r\n')[0]).toBe('\ufeffstatus_code,count');

    const viewFile = path.join(dir, 'view.csv');
    const view = { filter: 'status-4xx', text: '', columns: ['url', 'status_code', 'title'], headerPreset: 'screaming-frog' } as const;
    expect(await session.exportView({ ...view, columns: [...view.columns] }, viewFile)).toEqual({ ok: true, rows: 1, file: viewFile });
    expect(fs.readFileSync(viewFile, 'utf8').trim().split('\r\n')).toEqual(['Address,Status Code,Title 1', `${site.url('/missing')},404,`]);
    // A text narrows the view as it narrows the explorer; streams work as files do.
    const stream = new PassThrough();
    let csv = '';
    stream.on('data', (d) => (csv += d));
    expect((await session.exportView({ filter: 'html', text: 'untitled', columns: ['url'], headerPreset: 'trawl' }, stream)).ok).toBe(true);
    expect(csv.trim().split('\r\n')).toEqual(['url', site.url('/untitled')]);
    expect(await session.exportView({ ...view, columns: ['url', 'no_such'] }, viewFile)).toEqual({
      ok: false,
      error: 'unknown column "no_such"',
    });
    // The external view lists URLs never fetched: they are exported too, with their inlinks.
    const externalFile = path.join(dir, 'external.csv');
    // (each fixture page links to its own http://elsewhere.invalid/from/N).
    const external = await session.exportView(
      { filter: 'external', text: 'elsewhere', columns: ['url', 'status_code', 'inlinks'], headerPreset: 'trawl' },
      externalFile,
    );
    const lines = fs.readFileSync(externalFile, 'utf8').trim().split('\r\n');
    expect(lines[0]).toBe('url,status_code,inlinks'); // (trim() took the BOM)
    expect(external).toEqual({ ok: true, rows: lines.length - 1, file: externalFile });
    expect(lines.length - 1).toBeGreaterThan(0);
    for (const line of lines.slice(1)) expect(line).toMatch(/^http:\/\/elsewhere\.invalid\/from\/\d+,,1$/);
  });

  it('inspects the queue of a running crawl by host, prefix and text, and the exclude drops what it matched', async () => {
    slow = true;
    try {
      await session.start({ seeds: [site.url('/p/0')], threads: 1 });
      files.push(session.currentFile()!);
      let hosts = await session.queueHosts({ offset: 0, limit: 10, text: '' });
      for (let i = 0; i < 100 && hosts.queued < 4; i++) {
        await sleep(50);
        hosts = await session.queueHosts({ offset: 0, limit: 10, text: '' });
      }
      expect(hosts.rows[0]!.origin).toBe(site.origin);
      const hostId = hosts.rows[0]!.host_id;
      const prefixes = await session.queuePrefixes({ hostId, segments: 1, under: null, limit: 10 });
      expect(prefixes!.groups[0]!.prefix).toBe('/p/');
      const found = await session.queueSearch({ text: '/p/', hostId, under: '/p/', after: null, limit: 2 });
      expect(found.rows).toHaveLength(2);
      expect(found.next).not.toBeNull();
      const { dropped } = await session.addExclude('/p/');
      expect(dropped).toBeGreaterThan(0);
      expect((await session.queueSearch({ text: '/p/', hostId: null, under: null, after: null, limit: 10 })).rows).toEqual([]);
      await session.stop();
    } finally {
      slow = false;
    }
  });

  it('compares two crawls of the site: added, removed, changed with the fields, and as CSV', async () => {
    second = true;
    await session.start({ seeds: [site.url('/start')], threads: 3 });
    await finished(session);
    files.push(session.currentFile()!);
    const q = { oldFile: files[0]!, newFile: files[2]!, wordThresholdPercent: 10 };
    const summary = await session.compareCrawls(q);
    expect([summary.added, summary.removed]).toEqual([1, 1]);
    expect(summary.by_field.title).toBe(1);
    const added = await session.comparePage(q, 'added', null);
    expect(added.rows.map((r) => r.url)).toEqual([site.url('/only-new')]);
    const changed = await session.comparePage(q, 'changed', null);
    expect(changed.rows.find((r) => r.url === site.url('/changing'))).toMatchObject({
      fields: ['title'],
      old: { title: 'Old title' },
      new: { title: 'New title' },
    });
    const csvFile = path.join(dir, 'compare.csv');
    const result = await session.exportComparison(q, csvFile);
    expect(result).toEqual({ ok: true, rows: summary.added + summary.removed + summary.changed, file: csvFile });
    expect(fs.readFileSync(csvFile, 'utf8').split('\r\n')[0]!.startsWith('\ufeffchange,url,changed_fields')).toBe(true);
    await expect(session.compareCrawls({ ...q, newFile: q.oldFile })).rejects.toThrow(/two different crawls/);
  });
});
