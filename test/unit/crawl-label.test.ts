// A crawl's name, description and tags, kept in its file: written through the session (as both hosts do), read
// back by the crawls list, carried by the file alone, refused when malformed, and added to files of version 2 by the
// schema upgrade. Real SQLite files; no crawl runs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createCrawlFile, SCHEMA_VERSION } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { readCrawlFileInfo } from '../../electron/engine/session/crawl-files.ts';
import { CrawlSession } from '../../electron/engine/session/crawl-session.ts';
import { crawlMatches, parseTagList, settingsSummary } from '../../shared/crawl-label.ts';
import { parseSettings } from '../../shared/settings.ts';
import { spawner, tempDir } from '../helpers/engine.ts';
import { downgradeToVersion2 } from '../helpers/old-crawl-file.ts';

const sessions: CrawlSession[] = [];
afterAll(async () => {
  for (const s of sessions) await s.close();
});

function setup(settings: Record<string, unknown> = {}): { session: CrawlSession; dir: string; file: string } {
  const dir = tempDir('trawl-label-');
  const session = new CrawlSession({ crawlsDir: dir, spawner: spawner(), schedules: { pollMs: 0 } });
  sessions.push(session);
  const file = path.join(dir, 'example.com-20260101-120000.trawl');
  createCrawlFile(file, parseSettings({ seeds: ['https://example.com/'], ...settings })).close();
  return { session, dir, file };
}

const digest = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const version = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string }).value;
  } finally {
    db.close();
  }
};

describe('crawl labels', () => {
  it('lists a crawl with its settings summary and counts, unnamed until named', async () => {
    const { session, file } = setup({ threads: 3, maxDepth: 2, exclude: ['/tag/'], robots: 'ignore' });
    const [info] = await session.listCrawls();
    expect(info).toMatchObject({ file, name: '', description: '', tags: [], crawled: 0, failed: 0, queued: 0 });
    expect(info!.summary).toBe('spider · same host · 3 threads · depth ≤ 2 · 1 exclude · robots.txt ignored');
  });

  it('names, describes and tags a crawl in its file, which carries them alone', async () => {
    const { session, file } = setup();
    const info = await session.labelCrawl(file, {
      name: '  Before the launch ',
      description: 'Staging, after the redirects were fixed.\nSecond line.',
      tags: ['SEO', ' launch ', 'seo', ''],
    });
    expect(info).toMatchObject({
      name: 'Before the launch',
      description: 'Staging, after the redirects were fixed.\nSecond line.',
      tags: ['SEO', 'launch'],
    });
    // The .trawl alone holds them (the WAL folded into it): a copy of it, without -wal and -shm, is listed labelled.
    expect(fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0).toBe(0);
    const copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-label-copy-'));
    const copy = path.join(copyDir, 'copy.trawl');
    fs.copyFileSync(file, copy);
    expect(readCrawlFileInfo(copy)).toMatchObject({ name: 'Before the launch', tags: ['SEO', 'launch'] });
    // Plain tables, for any SQLite tool.
    const db = new Database(copy, { readonly: true });
    expect(db.prepare('SELECT name FROM crawl_label').all()).toEqual([{ name: 'Before the launch' }]);
    expect(db.prepare('SELECT tag FROM crawl_tags ORDER BY rowid').pluck().all()).toEqual(['SEO', 'launch']);
    db.close();

    // Relabelled: the tags are replaced, in the new order.
    const again = await session.labelCrawl(file, { name: 'Launch', description: '', tags: ['launch', 'weekly'] });
    expect(again).toMatchObject({ name: 'Launch', description: '', tags: ['launch', 'weekly'] });
    expect((await session.listCrawls())[0]).toMatchObject({ name: 'Launch', tags: ['launch', 'weekly'] });
  });

  it('refuses a malformed label, naming the field, and changes nothing', async () => {
    const { session, file } = setup();
    await session.labelCrawl(file, { name: 'Kept', description: '', tags: ['kept'] });
    const before = digest(file);
    await expect(session.labelCrawl(file, { name: 'two\nlines', description: '', tags: [] })).rejects.toThrow(/name: must be one line/);
    await expect(session.labelCrawl(file, { name: 'x', description: '', tags: ['a,b'] })).rejects.toThrow(
      /tags: "a,b" may not hold a comma/,
    );
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    await expect(session.labelCrawl(file, { name: 'x', description: '', tags: many })).rejects.toThrow(/tags: at most 20 tags/);
    await expect(session.labelCrawl(file, { name: 'x'.repeat(201), description: '', tags: [] })).rejects.toThrow(/name: at most 200/);
    expect(digest(file)).toBe(before);
    expect(readCrawlFileInfo(file)).toMatchObject({ name: 'Kept', tags: ['kept'] });

    const notACrawl = path.join(path.dirname(file), 'notes.trawl');
    fs.writeFileSync(notACrawl, 'not a crawl');
    await expect(session.labelCrawl(notACrawl, { name: 'x', description: '', tags: [] })).rejects.toThrow(/notes\.trawl/);
    expect(fs.readFileSync(notACrawl, 'utf8')).toBe('not a crawl');
  });

  it('lists a file of version 2 as it is, and upgrades it in place when labelled', async () => {
    const { session, file } = setup();
    const db = new Database(file);
    downgradeToVersion2(db);
    db.close();
    const before = digest(file);
    expect((await session.listCrawls())[0]).toMatchObject({ file, name: '', tags: [] });
    // Opened to look at: read as stored (it lacks only the label tables), never copied nor written.
    await session.openCrawl(file);
    await session.queryResults({ offset: 0, limit: 10, sort: 'seq', descending: false, text: '', statusClass: null });
    expect(digest(file)).toBe(before);
    expect(version(file)).toBe('2');

    const info = await session.labelCrawl(file, { name: 'Old crawl', description: 'from before labels', tags: ['archive'] });
    expect(info).toMatchObject({ name: 'Old crawl', tags: ['archive'] });
    expect(version(file)).toBe(String(SCHEMA_VERSION));
  });
});

describe('the crawls list search and summary', () => {
  const crawl = {
    name: 'Launch check',
    description: 'staging',
    file: 'shop.test-20260101-120000.trawl',
    seeds: ['https://shop.test/'],
    tags: ['SEO', 'weekly'],
  };
  it('matches every word against the name, seeds, file, description and tags', () => {
    expect(crawlMatches(crawl, '')).toBe(true);
    expect(crawlMatches(crawl, 'launch')).toBe(true);
    expect(crawlMatches(crawl, 'shop.test')).toBe(true);
    expect(crawlMatches(crawl, '#seo')).toBe(true);
    expect(crawlMatches(crawl, 'weekly staging')).toBe(true);
    expect(crawlMatches(crawl, 'weekly other')).toBe(false);
    expect(crawlMatches(crawl, '#launch')).toBe(false);
  });
  it('reads tags typed with commas', () => {
    expect(parseTagList(' seo, launch ,, SEO ,weekly')).toEqual(['seo', 'launch', 'weekly']);
  });
  it('summarises list mode and politeness', () => {
    expect(settingsSummary({ mode: 'list', threads: 5, polite: true, maxUrlsPerSecond: 2, extraction: [{}] })).toBe(
      'list · 5 threads · polite · ≤ 2 URLs/s · 1 extraction rule',
    );
  });
});
