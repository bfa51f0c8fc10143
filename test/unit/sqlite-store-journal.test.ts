// The crawl file's writer keeps its savepoints' rollback copies in memory. Each store call inside the group commit
// is a savepoint, and SQLite spilled the pages it changed to a temporary file past 64 KiB: on the PostgreSQL manual
// 47,000 writes (100 MB) to /var/tmp for a 1.5 MB crawl file, a sixth of the parent's CPU. Linux only: the test
// looks for such a file among the process's open descriptors (SQLite unlinks it at once, so only /proc shows it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Claim } from '../../electron/engine/frontier/frontier-store.ts';
import { createCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { SqliteFrontierStore } from '../../electron/engine/frontier/sqlite/sqlite-store.ts';
import { parseSettings } from '../../shared/settings.ts';
import { fetchedPage } from '../helpers/page-result.ts';

type PageClaim = Extract<Claim, { kind: 'page' }>;

/** Files this process has open that SQLite made as temporary files (named etilqs_*, deleted at once). */
function sqliteTempFiles(): string[] {
  const out: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      if (target.includes('etilqs_')) out.push(target);
    } catch {
      // closed while listing
    }
  }
  return out;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('the SQLite store writer', () => {
  it('records pages inside the group commit without temporary files, and commits them', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-journal-'));
    dirs.push(dir);
    const file = path.join(dir, 'crawl.trawl');
    const settings = parseSettings({ seeds: ['http://a.test/'], robots: 'ignore', threads: 10 });
    const db = createCrawlFile(file, settings);
    const store = new SqliteFrontierStore(db, settings, file);
    await store.addSeeds(settings.seeds);
    const seen: string[][] = [];
    let recorded = 0;
    // No await that lets a timer run: every call below is in one group transaction, each a savepoint in it.
    for (let round = 0; round < 6; round++) {
      const claims = (await store.claim(10)).filter((c): c is PageClaim => c.kind === 'page');
      expect(claims.length).toBeGreaterThan(0);
      await store.recordPages(
        claims.map((claim, i) => ({
          claim,
          result: fetchedPage(
            claim.url,
            Array.from({ length: 150 }, (_, k) => `http://a.test/r${round}/p${i}/link-${k}-${'x'.repeat(40)}`),
            { inScope: () => true },
          ),
        })),
      );
      recorded += claims.length;
      seen.push(sqliteTempFiles());
    }
    expect(db.inTransaction).toBe(true);
    expect(seen.flat()).toEqual([]);
    await store.close();

    // What was recorded in the group is in the file.
    const { default: Database } = await import('better-sqlite3');
    const check = new Database(file, { readonly: true });
    try {
      const { n } = check.prepare('SELECT count(*) AS n FROM results').get() as { n: number };
      expect(n).toBe(recorded);
    } finally {
      check.close();
    }
  });
});
