// Duplicate content in the URL detail (issue 18.1), through the commands the renderer sends over either transport
// (runCommand: the argument schema, then the session): a page's main-text words, its exact duplicates, its
// near-duplicates closest first with their similarity, what differs from one of them, and the near-duplicate
// threshold changed after the crawl (contentOptions) with the detail and the counts following, nothing fetched.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Handlers, runCommand, sessionHandlers } from '../../electron/host/command-handlers.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { startDuplicateSite, type DuplicateSite } from '../helpers/duplicate-site.ts';
import { runCli } from '../helpers/cli.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { askUntil } from '../helpers/ask-until.ts';
import { openCrawlFile } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { computeContentAnalysis, contentAnalysisDue, setContentOptions } from '../../electron/engine/analysis/near-duplicates.ts';
import { computeContentAnalysisOffThread, prepareContentAnalysis } from '../../electron/engine/analysis/near-duplicates-thread.ts';

let site: DuplicateSite;
let dir: string;
let session: CrawlSession;
let handlers: Handlers;
let file: string;

beforeAll(async () => {
  site = await startDuplicateSite({ moreNear: true });
  dir = tempDir();
  file = path.join(dir, 'site.trawl');
  const run = await runCli([site.url('/'), '--threads', '2', '--no-sitemaps', '--db', file, '--quiet']);
  expect(run.code, run.stderr).toBe(0);
  session = new CrawlSession({ crawlsDir: dir, spawner: spawner(), cpuCount: 2 });
  await session.openCrawl(file);
  // Only the session's commands are called here: the host's own are never reached.
  handlers = sessionHandlers(session) as Handlers;
}, 120_000);

afterAll(async () => {
  await session?.close();
  await site?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A page's detail once the crawl's analysis is there: asked again while it is computed, as the detail pane does. */
const detailOf = async (p: string) =>
  (
    await askUntil(
      async () => (await runCommand(handlers, 'urlDetail', [{ url: site.url(p) }]))!,
      (d) => !d.contentPending,
    )
  ).at(-1)!;
const near = async (p: string) => (await detailOf(p)).content!.near.items.map((m) => [new URL(m.url).pathname, m.similarity]);

describe('duplicate content in the URL detail', () => {
  it('gives a page’s words, exact duplicates and near-duplicates closest first', async () => {
    const a = (await detailOf('/a')).content!;
    expect(a).toMatchObject({ main_words: 300, compared: true, low: false, near: { items: [], total: 0 } });
    expect(a.exact.total).toBe(1);
    expect(a.exact.items.map((m) => [new URL(m.url).pathname, m.similarity])).toEqual([['/a-copy', 1]]);

    const n2 = (await detailOf('/near-2')).content!;
    expect(n2.main_words).toBe(600);
    expect(n2.options.threshold).toBe(0.9);
    expect(n2.near.total).toBe(2);
    // /near-3 differs from /near-2 by one word, /near-1 by three.
    const listed = n2.near.items.map((m) => [new URL(m.url).pathname, m.similarity] as const);
    expect(listed.map(([p]) => p)).toEqual(['/near-3', '/near-1']);
    expect(listed[0]![1]).toBeGreaterThan(listed[1]![1]);
    for (const [, s] of listed) expect(s).toBeGreaterThanOrEqual(0.9);

    // Not indexable: not compared by default, its words still given.
    expect((await detailOf('/a-noindex')).content).toMatchObject({ main_words: 300, compared: false });
    expect((await detailOf('/thin')).content).toMatchObject({ main_words: 30, low: true });
  });

  it('says what differs from a near-duplicate: the sentences only on each page', async () => {
    const d = await detailOf('/near-2');
    const other = d.content!.near.items.find((m) => m.url.endsWith('/near-1'))!;
    const diff = (await runCommand(handlers, 'contentDiff', [d.url_id, other.url_id]))!;
    const removed = diff.ops.filter((o) => o.op === 'removed').map((o) => o.text);
    const added = diff.ops.filter((o) => o.op === 'added').map((o) => o.text);
    // /near-2 changed words 100, 300 and 500: three sentences of 12 words each, one per change.
    expect(removed).toHaveLength(3);
    expect(removed.map((t) => /changed(\d+)/.exec(t)?.[1])).toEqual(['100', '300', '500']);
    expect(added).toHaveLength(3);
    expect(added.some((t) => t.includes('changed'))).toBe(false);
    expect(diff.ops.filter((o) => o.op === 'same')).toHaveLength(50 - 3);
    expect(diff.truncated).toBe(false);
  });

  it('changes the threshold after the crawl: the detail and the counts follow, nothing is fetched', async () => {
    const requests = site.requests();
    expect(await runCommand(handlers, 'contentOptions', [{}])).toEqual({ threshold: 0.9, allPages: false, lowContentWords: 200 });
    expect((await runCommand(handlers, 'filterCounts', []))['content-near-duplicates']).toBe(3);
    await expect(runCommand(handlers, 'contentOptions', [{ threshold: 0.4 }])).rejects.toThrow(/invalid arguments for contentOptions/);
    await expect(runCommand(handlers, 'contentOptions', [{ treshold: 0.97 }])).rejects.toThrow(/invalid arguments/);

    expect(await runCommand(handlers, 'contentOptions', [{ threshold: 0.97 }])).toMatchObject({ threshold: 0.97 });
    expect((await near('/near-2')).map(([p]) => p)).toEqual(['/near-3']);
    expect(await near('/near-1')).toEqual([]);
    expect((await runCommand(handlers, 'filterCounts', []))['content-near-duplicates']).toBe(2);
    const page = await runCommand(handlers, 'queryFiltered', [
      { filter: 'content-near-duplicates', text: '', sort: 'url', descending: false, offset: 0, limit: 10 },
    ]);
    expect(page.rows.map((r) => new URL(r.url).pathname)).toEqual(['/near-2', '/near-3']);

    await runCommand(handlers, 'contentOptions', [{ threshold: 0.9 }]);
    expect((await near('/near-2')).map(([p]) => p)).toEqual(['/near-3', '/near-1']);
    expect(site.requests()).toBe(requests);
  });

  it('computes the analysis in a worker thread, the same as in the calling thread, and takes it as the file’s', async () => {
    const db = openCrawlFile(file, { readonly: true });
    try {
      const options = { threshold: 0.95, allPages: true, lowContentWords: 100 };
      const here = computeContentAnalysis(db, options);
      const there = await computeContentAnalysisOffThread(file, options);
      const { ms: _a, ...h } = here;
      const { ms: _b, ...t } = there;
      expect(t).toEqual(h);
      expect(here.match.some((m) => m >= 0)).toBe(true);

      setContentOptions(db.name, options);
      expect(contentAnalysisDue(db)).toBe(true);
      await prepareContentAnalysis(db);
      // Taken: the views' refresh now only fills their TEMP table.
      expect(contentAnalysisDue(db)).toBe(false);
    } finally {
      db.close();
    }
  });
});
