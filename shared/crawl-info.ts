// What the session answers about crawls and their files: the crawl files listed, the defaults shown before a
// start, a start's outcome, an extraction test and an export. No node:, no electron: the renderer imports this.
import type { Message } from './messages.ts';
import type { CrawlSettings, SettingsProblem } from './settings.ts';

/** A crawl file the app knows about. */
export interface CrawlFileInfo {
  /** Absolute path of the .trawl file (desktop) or its name in the crawls folder (web console). */
  file: string;
  seeds: string[];
  createdAt: string;
  state: string;
  finishReason: string | null;
  crawled: number;
  queued: number;
  /** URLs that failed (no response). */
  failed: number;
  /** What the analyst called it, described and tagged it (kept in the crawl file); empty for a file without. */
  name: string;
  description: string;
  tags: string[];
  /** Its settings on one line (mode, scope, threads, limits...). */
  summary: string;
  /** The same, part by part, for the renderer to say in its language (its parts joined with " · " are `summary`). */
  summaryParts?: Message[];
  /** Time the crawl ran, paused time left out, over all its sessions; null when its file does not say (an older file). */
  elapsedMs?: number | null;
  /** The crawl this host runs now (listCrawls says so): not an earlier crawl while it runs. */
  running?: true;
}

/** What the renderer shows before a crawl starts: defaults and limits of every setting. */
export interface CrawlDefaults {
  settings: CrawlSettings;
  limits: { threads: { min: number; max: number } };
}

export type StartResult = { ok: true; file: string } | { ok: false; problems: SettingsProblem[] };

/** What the extraction rules found on one sample URL, fetched and parsed by a worker as the crawl would. */
export interface ExtractionTest {
  url: string;
  statusCode: number | null;
  contentType: string | null;
  /** Why nothing could be read: a fetch error, a redirect (with its target), or not an HTML page. */
  problem: string | null;
  /** Values per rule name, as the crawl would record them. */
  values: Record<string, string[]>;
}

/** Invalid settings (or URL, as field "url") come back as problems, field by field. */
export type ExtractionTestResult = ({ ok: true } & ExtractionTest) | { ok: false; problems: SettingsProblem[] };

/** `rows` and `file` are null where the browser does the writing (a web console download). */
export type ExportResult = { ok: true; rows: number | null; file: string | null } | { ok: false; error: string };
