// A crawl with JavaScript rendering, end to end through the CLI, on a client-rendered site (test/helpers/spa-site.ts):
// without --render the crawl sees the shell alone; with it, every page with its script-made title, links marked as
// found only in the rendered DOM, a script-injected noindex taking the page out of the index (the raw HTML said
// indexable), the script and its JSON fetched once for the whole crawl, and no browser left afterwards.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';
import { chromiumProcesses, testChromium } from '../helpers/render-fixtures.ts';

/**
 * Browser processes started by the CLI runs of this file: they inherit this mark in their environment (other tests
 * and other programs on the machine run Chromium too, at the same time).
 */
const MARK = `trawl-render-crawl-${process.pid}-${Date.now()}`;
function ourBrowsers(): number[] {
  return chromiumProcesses()
    .map((p) => p.pid)
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`TRAWL_TEST_MARK=${MARK}`);
      } catch {
        return false; // gone, or not ours to read
      }
    });
}
const env = { TRAWL_TEST_MARK: MARK };
import { serveSpaSite, type SpaSite } from '../helpers/spa-site.ts';

const chromium = testChromium();
if (!chromium.path) console.warn(`render crawl tests skipped: ${chromium.why}`);

describe.skipIf(!chromium.path)('crawling with --render', () => {
  let site: SpaSite;
  let dir: string;
  beforeAll(async () => {
    site = await serveSpaSite(5);
    dir = tempDir('trawl-render-crawl-');
  });
  afterAll(async () => {
    await site?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds only the shell without rendering', async () => {
    const db = path.join(dir, 'raw.trawl');
    const run = await runCli([`${site.origin}/`, '--db', db, '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const file = new Database(db, { readonly: true });
    try {
      expect(file.prepare('SELECT count(*) AS n FROM results').get()).toEqual({ n: 1 });
      expect(file.prepare('SELECT count(*) AS n FROM renders').get()).toEqual({ n: 0 });
    } finally {
      file.close();
    }
  });

  it('renders every page, reads what the scripts made, and leaves no browser behind', async () => {
    site.hits.clear();
    const db = path.join(dir, 'rendered.trawl');
    const run = await runCli([`${site.origin}/`, '--render', '--chromium', chromium.path!, '--db', db, '--quiet'], env);
    expect(run.code, run.stderr).toBe(0);
    const file = new Database(db, { readonly: true });
    try {
      const renders = file
        .prepare(
          `SELECT u.url, r.title, r.h1, r.h2, r.h2_count AS h2Count, r.lang, r.raw_lang AS rawLang, r.meta_robots AS robots, r.canonical, r.error, r.raw_indexability AS raw, r.raw_title AS rawTitle,
                  s.title AS shownTitle, s.h1 AS shownH1, s.lang AS shownLang, s.indexability, s.indexability_reason AS reason
           FROM renders r JOIN urls u ON u.id = r.url_id JOIN results s ON s.url_id = r.url_id ORDER BY u.url`,
        )
        .all() as Record<string, string | null>[];
      expect(renders.map((r) => r.url)).toEqual(site.pages.map((p) => `${site.origin}${p}`).sort());
      for (const r of renders) {
        expect(r.error).toBeNull();
        expect(r.rawTitle).toBe('Loading…');
        expect(r.title).toBe(r.url === `${site.origin}/` ? 'Home of the SPA' : `SPA page ${r.url!.split('/').pop()}`);
        expect(r.h1).toBe(r.title);
        expect(r).toMatchObject({ h2: `Section of ${r.title}`, h2Count: 1, lang: 'en-GB', rawLang: 'en' });
        // The results row shows the page as rendered (what search engines read); the shell's fields stay in renders.
        expect(r).toMatchObject({ shownTitle: r.title, shownH1: r.title, shownLang: 'en-GB' });
      }
      const noindex = renders.find((r) => r.url!.endsWith('/p/3'))!;
      expect(noindex).toMatchObject({
        robots: 'noindex',
        canonical: `${site.origin}/p/1`,
        indexability: 'non-indexable',
        raw: 'indexable',
      });
      // The links exist only in the rendered DOM, and are marked so: six pages each linking the six (page 3's link to
      // page 1 is its canonical, the first way it names it).
      expect(file.prepare('SELECT count(*) AS n, sum(rendered) AS rendered FROM links').get()).toEqual({ n: 36, rendered: 36 });
      expect(file.prepare("SELECT count(*) AS n FROM links WHERE kind = 'canonical'").get()).toEqual({ n: 1 });
    } finally {
      file.close();
    }
    // Six pages load the script and its JSON: the crawl fetched each once.
    expect(site.hits.get('/app.js')).toBe(1);
    expect(site.hits.get('/api/pages.json')).toBe(1);
    expect(ourBrowsers()).toEqual([]);
  });

  it('refuses --render without a browser, saying how to get one', async () => {
    const db = path.join(dir, 'none.trawl');
    const run = await runCli([`${site.origin}/`, '--render', '--chromium', path.join(dir, 'no-such-chromium'), '--db', db, '--quiet']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--render needs a Chromium: --chromium .*no-such-chromium: no executable file there; install one/);
    expect(fs.existsSync(db)).toBe(false);
  });
});

describe.skipIf(!chromium.path)('a rendering crawl stopped or killed', () => {
  let site: SpaSite;
  let dir: string;
  beforeAll(async () => {
    // Pages that never go quiet: each render waits out --render-wait, so the crawl is mid-render when it is stopped.
    site = await serveSpaSite(8, { restless: true });
    dir = tempDir('trawl-render-stop-');
  });
  afterAll(async () => {
    await site?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Polls (loosely bounded) until `done` says yes of our browsers; returns them. */
  async function browsersWhen(done: (pids: number[]) => boolean, ms: number): Promise<number[]> {
    const end = Date.now() + ms;
    for (;;) {
      const pids = ourBrowsers();
      if (done(pids) || Date.now() > end) return pids;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  for (const how of ['SIGINT', 'SIGKILL'] as const) {
    it(`leaves no browser when the CLI gets ${how} mid-render`, async () => {
      const db = path.join(dir, `${how}.trawl`);
      const { child, done } = startCli(
        [`${site.origin}/`, '--render', '--render-wait', '20000', '--chromium', chromium.path!, '--db', db, '--quiet'],
        env,
      );
      expect((await browsersWhen((pids) => pids.length > 0, 30_000)).length).toBeGreaterThan(0);
      // Let a render start in the browser.
      await new Promise((r) => setTimeout(r, 1_500));
      child.kill(how);
      const run = await done;
      if (how === 'SIGINT') expect(run.code, run.stderr).toBe(130);
      else expect(run.signal).toBe('SIGKILL');
      expect(await browsersWhen((pids) => pids.length === 0, 15_000)).toEqual([]);
    });
  }
});
