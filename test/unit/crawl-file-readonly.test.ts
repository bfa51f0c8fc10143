// Issue 13, finding 8: a read-only open (viewing, exporting, comparing) never writes the file it opens. A file of an
// older schema version is read through an upgraded temporary copy; only an open to crawl (resume) upgrades it in place.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createCrawlFile, openCrawlFile, SCHEMA_VERSION } from '../../electron/engine/frontier/sqlite/crawl-file.ts';
import { exportCsv } from '../../electron/engine/export/csv-export.ts';
import { CrawlComparison } from '../../electron/engine/analysis/compare.ts';
import { readCrawlFileInfo } from '../../electron/engine/session/crawl-files.ts';
import { parseSettings } from '../../shared/settings.ts';
import { downgradeToVersion1 } from '../helpers/old-crawl-file.ts';

/** A crawl file as version 1 wrote it: today's schema without what version 2 added, with one fetched page. */
function versionOneFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-readonly-')), 'old.trawl');
  const db = createCrawlFile(file, parseSettings({ seeds: ['http://a.test/'] }));
  downgradeToVersion1(db);
  db.prepare('INSERT INTO hosts (id, origin) VALUES (1, ?)').run('http://a.test');
  db.prepare('INSERT INTO urls (id, url, url_key, host_id, depth, state, discovered_at) VALUES (1, ?, 0, 1, 0, 2, 0)').run(
    'http://a.test/',
  );
  db.prepare('INSERT INTO results (url_id, status_code, size_bytes, crawl_depth, title, fetched_at) VALUES (1, 200, 42, 0, ?, 0)').run(
    'Old title',
  );
  db.close();
  return file;
}

const digest = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const upgradedCopies = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('trawl-upgraded-'));

describe('a read-only open of an older crawl file', () => {
  it('reads it upgraded, through a temporary copy, and leaves the file as it was', async () => {
    const file = versionOneFile();
    const before = digest(file);
    const copiesBefore = upgradedCopies();

    const db = openCrawlFile(file, { readonly: true });
    expect(db.readonly).toBe(true);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
    expect(db.prepare('SELECT url, status_code, title, h1_count FROM crawl_results').all()).toEqual([
      { url: 'http://a.test/', status_code: 200, title: 'Old title', h1_count: null },
    ]);
    expect(db.prepare('SELECT crawled, bytes FROM hosts').get()).toEqual({ crawled: 1, bytes: 42 });
    db.close();
    expect(digest(file)).toBe(before);
    // The copy goes with the connection.
    expect(upgradedCopies()).toEqual(copiesBefore);

    // An export opens read-only too.
    const out = path.join(path.dirname(file), 'old.csv');
    expect(await exportCsv(file, out)).toEqual({ rows: 1 });
    expect(fs.readFileSync(out, 'utf8')).toContain('Old title');

    expect(digest(file)).toBe(before);
    const raw = openCrawlFile(file, { readonly: true });
    raw.close();
    const check = new Database(file, { readonly: true });
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: '1' });
    expect(check.prepare("SELECT count(*) AS n FROM meta WHERE key LIKE 'upgraded_from_%'").get()).toEqual({ n: 0 });
    check.close();

    // Opened to crawl, it is upgraded in place.
    const writable = openCrawlFile(file);
    expect(writable.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(SCHEMA_VERSION) });
    writable.close();
    expect(digest(file)).not.toBe(before);
  });

  it('still refuses a file it cannot read, naming the file', () => {
    const file = versionOneFile();
    const db = new Database(file);
    db.exec('DROP TABLE links');
    db.close();
    const before = digest(file);
    const copiesBefore = upgradedCopies();
    expect(() => openCrawlFile(file, { readonly: true })).toThrow(`${file} has crawl file version 1 and could not be upgraded`);
    expect(digest(file)).toBe(before);
    expect(upgradedCopies()).toEqual(copiesBefore);
  });

  it('compares two older files through their upgraded copies, and lists one as it is, changing neither', () => {
    const oldFile = versionOneFile();
    const newFile = versionOneFile();
    const before = [digest(oldFile), digest(newFile)];
    const copiesBefore = upgradedCopies();

    const comparison = CrawlComparison.open(oldFile, newFile);
    expect(comparison.summary()).toMatchObject({ old_urls: 1, new_urls: 1 });
    comparison.close();
    expect(upgradedCopies()).toEqual(copiesBefore);

    // The list reads only what every version has: no copy is made for it.
    expect(readCrawlFileInfo(oldFile)).toMatchObject({ seeds: ['http://a.test/'], crawled: 1 });
    expect(upgradedCopies()).toEqual(copiesBefore);
    expect([digest(oldFile), digest(newFile)]).toEqual(before);
  });
});
