// The bulk reports at scale: on a synthetic crawl file of 100,000 results, no statement a report runs walks a table
// (each reads one index range, then looks rows up by key), and the link reports hold exactly the links a plain join
// finds. No timings here: electron/bench/bulk-reports-bench.ts has those (BENCHMARKS.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_REPORT_IDS } from '../../shared/bulk-reports.ts';
import { bulkReport, bulkReportSql } from '../../electron/engine/analysis/bulk-reports.ts';
import { buildSyntheticCrawl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { openCrawlFile, type Db } from '../../electron/engine/frontier/sqlite/crawl-file.ts';

let dir: string;
let db: Db;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-bulk-scale-'));
  const file = path.join(dir, 'crawl.trawl');
  buildSyntheticCrawl(file, { results: 100_000 }).db.close();
  db = openCrawlFile(file, { readonly: true });
}, 120_000);
afterAll(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A table walked whole, row by row (an index walked whole is another thing). */
const TABLE_SCAN = /\bSCAN (r|u|s|l|cu|results|urls|links)\b(?! USING)/;

function plan(sql: string): string {
  const named = [...new Set(sql.match(/@\w+/g) ?? [])];
  const params = named.length ? [Object.fromEntries(named.map((n) => [n.slice(1), 1]))] : Array((sql.match(/\?/g) ?? []).length).fill(1);
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
}

const rowsOf = (id: (typeof BULK_REPORT_IDS)[number]) => [...bulkReport(db, id).pages].flat();
const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;

describe('bulk reports on 100,000 URLs', () => {
  it('never walks a table: an index range for the subjects, look-ups by key after', () => {
    for (const id of BULK_REPORT_IDS) {
      const [subjects, ...lookups] = bulkReportSql(db, id);
      // Images missing alt text (issue 18.3) starts from uses of images, a range of image_uses_alt; all hreflang
      // alternates (18.5) from the hreflang table's key, every row of which is a row of the report; the others from URLs.
      expect(plan(subjects!), id).toMatch(
        id === 'images-missing-alt'
          ? /USING (COVERING )?INDEX image_uses_alt/
          : id === 'hreflang-alternates'
            ? /^SCAN h$/
            : /USING (COVERING )?INDEX results_(status|indexability|canonical)/,
      );
      for (const sql of [subjects!, ...lookups]) expect(plan(sql), `${id}: ${sql}`).not.toMatch(TABLE_SCAN);
      for (const sql of lookups) expect(plan(sql), `${id}: ${sql}`).toMatch(/^SEARCH/);
    }
  });

  it('lists exactly the links a plain join finds, each once', () => {
    const links = (where: string) =>
      count(`SELECT count(*) AS n FROM links l NOT INDEXED JOIN results r NOT INDEXED ON r.url_id = l.to_id WHERE ${where}`);
    const expected = {
      'client-error-inlinks': links('r.status_code BETWEEN 400 AND 499'),
      'server-error-inlinks': links('r.status_code BETWEEN 500 AND 599'),
      'no-response-inlinks': links('r.status_code IS NULL'),
      'non-indexable-inlinks': links("r.indexability = 'non-indexable'"),
    };
    for (const [id, n] of Object.entries(expected)) {
      expect(n, id).toBeGreaterThan(100);
      const rows = rowsOf(id as keyof typeof expected);
      expect(rows, id).toHaveLength(n);
      expect(new Set(rows.map((r) => `${r[0]} ${r[1]}`)).size, id).toBe(n);
    }
  });

  it('starts a redirect chain at every redirect found as a link, and ends each where its hops say', () => {
    const starts = count(`SELECT count(*) AS n FROM results r NOT INDEXED JOIN urls u ON u.id = r.url_id
      WHERE r.status_code BETWEEN 300 AND 399 AND r.redirect_url IS NOT NULL AND u.redirect_hops = 0`);
    const rows = rowsOf('redirect-chains');
    const chains = new Map<unknown, unknown[][]>();
    for (const r of rows) chains.set(r[0], [...(chains.get(r[0]) ?? []), r]);
    expect(chains.size).toBe(starts);
    for (const hops of chains.values()) {
      expect(hops.map((h) => h[1])).toEqual(hops.map((_, i) => i + 1));
      expect(hops.every((h) => h[5] === hops.length)).toBe(true);
      // Each hop redirects to the next one's URL.
      for (let i = 0; i + 1 < hops.length; i++) expect(hops[i]![4]).toBe(hops[i + 1]![2]);
    }
  });
});
