// The crawls folder's files: their names (`<host>-<YYYYMMDD-HHMMSS>.trawl`), what a crawl file says about itself
// (seeds, state, counts) and the listing of the folder, newest first. Plain functions over the file system and
// short-lived read-only connections; the session decides which file is in view.
import fs from 'node:fs';
import path from 'node:path';
import type { CrawlFileInfo } from '../../../shared/crawler-api.ts';
import type { Message } from '../../../shared/messages.ts';
import { EMPTY_LABEL, type CrawlLabel, labelProblems, normaliseLabel, settingsSummaryParts } from '../../../shared/crawl-label.ts';
import { type Db, closeCrawlFile, openCrawlFile, readMeta } from '../frontier/sqlite/crawl-file.ts';
import { ELAPSED_META } from '../frontier/sqlite/sqlite-store.ts';
import { UrlState } from '../frontier/model.ts';

export const CRAWL_FILE_EXT = '.trawl';
/** listCrawls() returns at most this many files, the newest. */
export const MAX_LISTED_CRAWLS = 200;

/** What listCrawls/openCrawl say about a crawl file, read through a short-lived read-only connection. */
export function readCrawlFileInfo(file: string): CrawlFileInfo {
  // Reads only what every schema version has: an older file is listed as it is, without an upgraded copy.
  const db = openCrawlFile(file, { readonly: true, asStored: true });
  try {
    return db.transaction(() => {
      let seeds: string[] = [];
      let summaryParts: Message[] = [];
      try {
        const settings = JSON.parse(readMeta(db, 'settings') ?? '{}') as Record<string, unknown>;
        if (Array.isArray(settings['seeds'])) seeds = settings['seeds'].filter((s): s is string => typeof s === 'string');
        summaryParts = settingsSummaryParts(settings);
      } catch {
        // unreadable settings: show the file without seeds rather than hide it
      }
      const counts = db
        .prepare('SELECT coalesce(sum(state = ?), 0) AS crawled, coalesce(sum(state = ?), 0) AS failed FROM urls')
        .get(UrlState.done, UrlState.failed) as { crawled: number; failed: number };
      const queued = (db.prepare('SELECT coalesce(sum(queued), 0) AS n FROM hosts').get() as { n: number }).n;
      const elapsed = Number(readMeta(db, ELAPSED_META) ?? Number.NaN);
      return {
        file,
        seeds,
        createdAt: readMeta(db, 'created_at') ?? '',
        state: readMeta(db, 'state') ?? 'unknown',
        finishReason: readMeta(db, 'finish_reason'),
        crawled: counts.crawled,
        queued,
        failed: counts.failed,
        ...readCrawlLabel(db),
        summary: summaryParts.map((p) => p.text).join(' · '),
        summaryParts,
        elapsedMs: Number.isFinite(elapsed) && elapsed >= 0 ? elapsed : null,
      };
    })();
  } finally {
    db.close();
  }
}

/** The crawl's name, description and tags; empty for a file of a version without them (read as stored). */
export function readCrawlLabel(db: Db): CrawlLabel {
  const tables = db
    .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('crawl_label', 'crawl_tags')")
    .get() as {
    n: number;
  };
  if (tables.n < 2) return { ...EMPTY_LABEL, tags: [] };
  const row = db.prepare('SELECT name, description FROM crawl_label WHERE id = 1').get() as
    | { name: string; description: string }
    | undefined;
  const tags = db.prepare('SELECT tag FROM crawl_tags ORDER BY rowid').pluck().all() as string[];
  return { name: row?.name ?? '', description: row?.description ?? '', tags };
}

/**
 * Writes a crawl's name, description and tags into its file, in one transaction (a file of an older version is
 * upgraded in place first, as for a crawl). The crawl may be running in this very process: its connection holds a
 * write transaction for up to 50 ms at a time and commits on a timer of this event loop, so a busy file is tried
 * again after a pause that lets that timer run (SQLite's own busy wait would block it, and time out). `checkpoint`:
 * fold the WAL into the file afterwards, so the `.trawl` alone stays the whole crawl; not while the crawl runs, whose
 * own connection does that when it finishes.
 */
export async function writeCrawlLabel(file: string, input: CrawlLabel, options: { checkpoint: boolean }): Promise<CrawlLabel> {
  const problems = labelProblems(input);
  if (problems.length) throw new Error(problems.map((p) => `${p.field}: ${p.message}`).join('; '));
  const label = normaliseLabel(input);
  const db = openCrawlFile(file);
  try {
    db.pragma('busy_timeout = 0');
    const write = db.transaction(() => {
      db.prepare(
        `INSERT INTO crawl_label (id, name, description, updated_at) VALUES (1, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description, updated_at = excluded.updated_at`,
      ).run(label.name, label.description, new Date().toISOString());
      db.exec('DELETE FROM crawl_tags');
      const put = db.prepare('INSERT INTO crawl_tags (tag) VALUES (?)');
      for (const tag of label.tags) put.run(tag);
    });
    const deadline = Date.now() + LABEL_WRITE_PATIENCE_MS;
    for (;;) {
      try {
        write.immediate();
        break;
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        const busy = typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
        if (!busy || Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  } finally {
    if (options.checkpoint) closeCrawlFile(db);
    else db.close();
  }
  return label;
}

/** How long a label write waits for a busy crawl file. */
const LABEL_WRITE_PATIENCE_MS = 10_000;

/** Last write to a crawl file, its WAL included (a running crawl writes to the WAL, not the file). */
function lastWritten(file: string): number {
  let t = 0;
  for (const f of [file, `${file}-wal`]) {
    try {
      t = Math.max(t, fs.statSync(f).mtimeMs);
    } catch {
      // no WAL (or the file went away meanwhile)
    }
  }
  return t;
}

/** The crawl files of `dir`, most recently written first; files that are not crawls are left out. */
export function listCrawlFiles(dir: string): CrawlFileInfo[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const files = names
    .filter((n) => n.endsWith(CRAWL_FILE_EXT))
    .map((n) => path.join(dir, n))
    .filter((f) => {
      try {
        return fs.statSync(f).isFile();
      } catch {
        return false;
      }
    })
    .map((f) => ({ f, t: lastWritten(f) }))
    .sort((a, b) => b.t - a.t || (a.f < b.f ? 1 : -1));
  const out: CrawlFileInfo[] = [];
  for (const { f } of files) {
    if (out.length >= MAX_LISTED_CRAWLS) break;
    try {
      out.push(readCrawlFileInfo(f));
    } catch {
      // not a crawl file (or one this version cannot read): not listed
    }
  }
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `<host>-<YYYYMMDD-HHMMSS>` in local time; the host reduced to characters safe in any file system. */
export function crawlFileStem(seed: string, now = new Date()): string {
  let host = 'crawl';
  try {
    host = new URL(seed).hostname.replace(/[^A-Za-z0-9.-]+/g, '_').replace(/^[._-]+|[._-]+$/g, '') || 'crawl';
  } catch {
    // validated already; keep the fallback
  }
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${host.slice(0, 100)}-${stamp}`;
}

/** `<dir>/<host>-<YYYYMMDD-HHMMSS>.trawl`, with `-2`, `-3`... when that name is taken. */
export function newCrawlPath(dir: string, seed: string): string {
  const stem = crawlFileStem(seed);
  for (let n = 1; ; n++) {
    const file = path.join(dir, `${stem}${n === 1 ? '' : `-${n}`}${CRAWL_FILE_EXT}`);
    if (!fs.existsSync(file)) return file;
  }
}

/** Removes a crawl file and its WAL, shared-memory and journal files. */
export function removeCrawlFile(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
}
