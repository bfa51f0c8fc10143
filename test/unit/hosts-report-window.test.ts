// The hosts report read a window at a time, as the workbench's virtual table scrolls through every host: the
// windows put together are the whole sorted list with its totals, a scroll through an unchanged file reads the
// hosts' order once (not a full sort per window), and a change to the file (a crawl that runs, on its own
// connection) shows in the first window at once and in later windows once the kept order is a second old.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { openCrawlForAnalysis } from '../../electron/engine/analysis/index.ts';
import { HOST_ORDER_MAX_AGE_MS, hostOrderReads, hostsReport } from '../../electron/engine/analysis/hosts-report.ts';
import { HOST_SORT_COLUMNS, type HostReportRow, type HostSortColumn } from '../../shared/analysis.ts';
import { parseSettings } from '../../shared/settings.ts';

const HOSTS = 250;
const WINDOW = 100;
let dir: string;
let writer: Db;
let reader: Db;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-hosts-window-'));
  const file = path.join(dir, 'hosts.trawl');
  writer = createCrawlFile(file, parseSettings({ seeds: ['http://h0.test/'] }));
  const insert = writer.prepare(
    'INSERT INTO hosts (origin, crawled, failed, http_errors, bytes, queued, in_flight, next_fetch_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  writer.transaction(() => {
    for (let i = 0; i < HOSTS; i++) {
      // Many ties in each column: the order must still be total (id breaks them) for windows to meet exactly.
      insert.run(`http://h${i}.test`, (i * 37) % 11, i % 3, i % 4, (i * 7919) % 1000, 1 + (i % 5), i % 2, (i * 13) % 7);
    }
    // An idle host (out of scope, never fetched): counted only when idle hosts are asked for.
    insert.run('http://idle.test', 0, 0, 0, 0, 0, 0, 0);
  })();
  reader = openCrawlForAnalysis(file);
});
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(() => {
  reader.close();
  writer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function scroll(db: Db, sort: HostSortColumn, descending: boolean, includeIdle = false): { rows: HostReportRow[]; totals: unknown[] } {
  const rows: HostReportRow[] = [];
  const totals: unknown[] = [];
  for (let offset = 0; ; offset += WINDOW) {
    const page = hostsReport(db, { sort, descending, offset, limit: WINDOW, includeIdle });
    expect(page.offset).toBe(offset);
    totals.push({ total: page.total, ...page.totals });
    rows.push(...page.rows);
    if (page.rows.length < WINDOW) break;
  }
  return { rows, totals };
}

/** What one query over all hosts gives: the order to compare the windows with. */
function wholeList(db: Db, sort: HostSortColumn, descending: boolean, includeIdle = false): string[] {
  const expr = sort === 'errors' ? '(failed + http_errors)' : sort;
  const where = includeIdle ? '' : 'WHERE (queued > 0 OR in_flight > 0 OR crawled > 0 OR failed > 0)';
  return db
    .prepare(`SELECT origin FROM hosts ${where} ORDER BY ${expr} ${descending ? 'DESC' : 'ASC'}, origin ASC`)
    .pluck()
    .all() as string[];
}

describe('hosts report windows', () => {
  it('puts together, window by window, the whole sorted list with the same totals in every window', () => {
    for (const sort of HOST_SORT_COLUMNS) {
      for (const descending of [false, true]) {
        const { rows, totals } = scroll(reader, sort, descending);
        expect(rows.map((r) => r.origin)).toEqual(wholeList(reader, sort, descending));
        expect(new Set(rows.map((r) => r.host_id)).size).toBe(rows.length);
        expect(totals.length).toBe(3);
        for (const t of totals) expect(t).toEqual(totals[0]);
        expect(totals[0]).toMatchObject({ total: HOSTS, crawled: rows.reduce((s, r) => s + r.crawled, 0) });
      }
    }
    const withIdle = scroll(reader, 'origin', false, true);
    expect(withIdle.rows.map((r) => r.origin)).toEqual(wholeList(reader, 'origin', false, true));
    expect(withIdle.rows.at(-1)?.origin).toBe('http://idle.test');
  });

  it('reads the order of the hosts once for a scroll through an unchanged file, not once per window', () => {
    const before = hostOrderReads(reader);
    const first = scroll(reader, 'bytes', true);
    // The first window reads the top rows alone; the second reads the order; the third reuses it.
    expect(hostOrderReads(reader) - before).toBe(1);
    // Back up and down again, and the same scroll once more: no more reads.
    for (const offset of [0, 200, 100, 0, 100, 200]) hostsReport(reader, { sort: 'bytes', descending: true, offset, limit: WINDOW });
    expect(scroll(reader, 'bytes', true).rows).toEqual(first.rows);
    expect(hostOrderReads(reader) - before).toBe(1);
    // Another order is another read.
    scroll(reader, 'bytes', false);
    expect(hostOrderReads(reader) - before).toBe(2);
  });

  it('shows a change to the file in the first window at once, and in later windows once the kept order is old', () => {
    scroll(reader, 'crawled', true);
    const last = wholeList(reader, 'crawled', true).at(-1)!;
    const reads = hostOrderReads(reader);
    let clock = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    // The crawl (another connection) fetches a great deal from the host that was last.
    writer.prepare('UPDATE hosts SET crawled = 1000, bytes = bytes + 1 WHERE origin = ?').run(last);
    const top = hostsReport(reader, { sort: 'crawled', descending: true, offset: 0, limit: WINDOW });
    expect(top.rows[0]).toMatchObject({ origin: last, crawled: 1000 });
    expect(top.totals.crawled).toBe(sumCrawled(reader));
    // A window past the first within the order's age: the kept order, the rows as they are now.
    const tail = hostsReport(reader, { sort: 'crawled', descending: true, offset: 200, limit: WINDOW });
    expect(tail.rows.at(-1)).toMatchObject({ origin: last, crawled: 1000 });
    expect(hostOrderReads(reader)).toBe(reads);
    // Once the order is older than that, the file's new order.
    clock += HOST_ORDER_MAX_AGE_MS + 1;
    const fresh = hostsReport(reader, { sort: 'crawled', descending: true, offset: 200, limit: WINDOW });
    expect(fresh.rows.map((r) => r.origin)).not.toContain(last);
    expect(hostOrderReads(reader)).toBe(reads + 1);
    const again = scroll(reader, 'crawled', true);
    expect(again.rows.map((r) => r.origin)).toEqual(wholeList(reader, 'crawled', true));
    expect(hostOrderReads(reader)).toBe(reads + 1);
  });
});

function sumCrawled(db: Db): number {
  return db.prepare('SELECT sum(crawled) FROM hosts').pluck().get() as number;
}
