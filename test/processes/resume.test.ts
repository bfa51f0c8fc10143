import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { duplicates, isAlive, sleep, tempDir } from '../helpers/engine.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { childrenOf } from '../../electron/bench/process-sampler.ts';
import { COMMIT_WINDOW_MS } from '../../electron/engine/frontier/sqlite/sqlite-store.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe('kill -9 of the whole crawl, then --resume', () => {
  it('completes with the same URLs as an uninterrupted crawl, refetching only what was in flight or in the last commit window', async () => {
    const delayMs = 40;
    site = await startFixtureSite({ pages: 120, linksPerPage: 4, delayMs });
    const dbPath = path.join(tempDir(), 'resumable.trawl');
    const threads = 4;
    const first = startCli([site.url('/p/0'), '--db', dbPath, '--threads', String(threads)]);
    while (site.fetchedPaths().length < 40) await sleep(20);
    const workers = childrenOf(first.child.pid!);
    expect(workers.length).toBeGreaterThan(0);
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    const fetchedBefore = site.fetchedPaths().length;
    expect(fetchedBefore).toBeLessThan(120);

    // Orphaned workers notice the lost parent and leave on their own.
    for (let i = 0; i < 100 && workers.some(isAlive); i++) await sleep(50);
    expect(workers.filter(isAlive)).toEqual([]);

    const second = await runCli(['--resume', dbPath, '--out', path.join(path.dirname(dbPath), 'out.csv')]);
    expect(second.stderr).toContain(`Resuming ${dbPath}`);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/Finished \(completed\): 120 crawled, 0 failed, 0 still queued/);

    const fetched = site.fetchedPaths();
    expect([...new Set(fetched)].sort()).toEqual(site.pagePaths().sort());
    // Fetched twice: at most the URL each thread had in flight at the kill, and the pages recorded in the group
    // commit's last open window (each thread finishes a page at most every delayMs). Nothing else.
    const window = threads * Math.ceil(COMMIT_WINDOW_MS / delayMs);
    expect(duplicates(fetched).length).toBeLessThanOrEqual(threads + window);
    const csv = fs.readFileSync(path.join(path.dirname(dbPath), 'out.csv'), 'utf8');
    expect(csv.trim().split('\r\n')).toHaveLength(121);
  });

  it('refuses to resume a file that is not a crawl, with exit status 2', async () => {
    const dir = tempDir();
    const bogus = path.join(dir, 'notes.trawl');
    fs.writeFileSync(bogus, 'just some text');
    const run = await runCli(['--resume', bogus]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/notes\.trawl is not a Trawl crawl file/);
    expect(fs.readFileSync(bogus, 'utf8')).toBe('just some text');
    const missing = await runCli(['--resume', path.join(dir, 'nope.trawl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.trawl does not exist/);
  });
});
