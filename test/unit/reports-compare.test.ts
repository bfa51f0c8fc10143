// The Reports' throughput while a crawl runs (its last bucket, still filling, flagged so it is not drawn as a dip)
// and the comparison's reason for each removed URL (what the newer crawl knew of it), on synthetic crawl files.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSyntheticCrawl, syntheticUrl } from '../../electron/engine/analysis/synthetic-crawl.ts';
import { overTime } from '../../electron/engine/analysis/charts-data.ts';
import { COMPARISON_CSV_COLUMNS, CrawlComparison, removedReason } from '../../electron/engine/analysis/compare.ts';
import { UrlState } from '../../electron/engine/frontier/model.ts';
import { urlKey } from '../../shared/url/url-key.ts';
import { REMOVED_REASONS } from '../../shared/analysis.ts';
import { tempDir } from '../helpers/engine.ts';

const dir = tempDir('trawl-reports-compare-');
const START = 1_800_000_000_000; // a whole second: rows 2 ms apart fill buckets from its start
const oldFile = path.join(dir, 'old.trawl');
const newFile = path.join(dir, 'new.trawl');
{
  buildSyntheticCrawl(oldFile, { results: 300, startAt: START }).db.close();
  const neu = buildSyntheticCrawl(newFile, { results: 300, startAt: START, variant: 1 });
  // Variant 1 drops pages 53, 106, 159, 212 and 265. The newer crawl met four of them, and left them unfetched:
  const insert = neu.db.prepare(
    "INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at, kind) VALUES (?, ?, ?, 1, 1, ?, 0, 'page')",
  );
  const met: [number, number][] = [
    [53, UrlState.outOfScope],
    [106, UrlState.tooDeep],
    [159, UrlState.queued],
    [212, UrlState.nofollow],
  ];
  met.forEach(([i, state], n) => insert.run(100_000 + n, syntheticUrl(i), urlKey(syntheticUrl(i)), state));
  neu.db.close();
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('throughput over time', () => {
  it('flags the last bucket while it is still filling, and not once it has ended', () => {
    const db = buildSyntheticCrawl(path.join(dir, 'time.trawl'), { results: 900, startAt: START }).db;
    try {
      // 900 rows 2 ms apart: buckets at START (500 rows) and START + 1 s (400 rows, the last at START + 1798).
      const during = overTime(db, { bucketMs: 1000, nowMs: START + 1800 });
      expect(during.rows.map((r) => r.pages)).toEqual([500, 400]);
      expect(during.open_bucket).toBe(true);
      const after = overTime(db, { bucketMs: 1000, nowMs: START + 2000 });
      expect(after.open_bucket).toBe(false);
      expect(after.rows).toEqual(during.rows);
    } finally {
      db.close();
    }
  });
});

describe('why a removed URL is gone', () => {
  it('names the reason from the state the newer crawl left it in, or that it never met it', () => {
    const c = CrawlComparison.open(oldFile, newFile);
    try {
      const removed = c.page('removed').rows;
      expect(Object.fromEntries(removed.map((r) => [r.url, r.removed_reason]))).toEqual({
        [syntheticUrl(53)]: 'out-of-scope',
        [syntheticUrl(106)]: 'too-deep',
        [syntheticUrl(159)]: 'not-reached',
        [syntheticUrl(212)]: 'nofollow',
        [syntheticUrl(265)]: 'not-linked',
      });
      expect(c.page('added').rows.every((r) => r.removed_reason === null)).toBe(true);
      expect(c.page('changed').rows.every((r) => r.removed_reason === null)).toBe(true);
      // Still by index: the reason's look-up adds no scan of the newer crawl's URLs.
      expect(c.explain('removed')).not.toMatch(/\bSCAN ub\b|AUTOMATIC|MATERIALIZE/);
    } finally {
      c.close();
    }
    expect(removedReason(UrlState.redirectCut)).toBe('redirect-cut');
    expect(removedReason(UrlState.claimed)).toBe('not-reached');
    for (const words of Object.values(REMOVED_REASONS)) expect(words).toMatch(/^[a-z]/);
  });

  it('writes the reason in the comparison CSV, empty for URLs not removed', async () => {
    const c = CrawlComparison.open(oldFile, newFile);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (b: Buffer) => chunks.push(b));
    try {
      await c.exportCsv(out);
    } finally {
      c.close();
    }
    expect(COMPARISON_CSV_COLUMNS[COMPARISON_CSV_COLUMNS.length - 1]).toBe('removed_reason');
    const rows = parse(Buffer.concat(chunks).toString('utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.url === syntheticUrl(53))?.removed_reason).toBe(REMOVED_REASONS['out-of-scope']);
    expect(rows.find((r) => r.url === syntheticUrl(265))?.removed_reason).toBe(REMOVED_REASONS['not-linked']);
    expect(rows.filter((r) => r.change !== 'removed').every((r) => r.removed_reason === '')).toBe(true);
  });
});
