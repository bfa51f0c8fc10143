// Command-line arguments of `npm run crawl`, turned into crawl settings; every mistake is named at once.
import { type ContentAnalysisOptions, contentAnalysisOptions } from '../../shared/content.ts';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CrawlSettingsInput, ParsedSettings, SettingsProblem } from '../../shared/settings.ts';
import { validateSettings } from '../../shared/settings.ts';
import { CLI_OPTION_OF } from '../../shared/cli-command.ts';
import { EXPORT_FORMATS, type ExportFormat, type FilterId } from '../../shared/analysis.ts';
import {
  findBulkReport,
  findExportTab,
  findPictureData,
  isBulkReportId,
  type BulkReportId,
  type PictureDataId,
} from '../../shared/bulk-reports.ts';

export const USAGE = `Usage: npm run crawl -- <seed URL>... [options]
       npm run crawl -- --list URLS.txt [options]
       npm run crawl -- --config SETTINGS.json [seed URL...] [options]
       npm run crawl -- --resume FILE [--threads N] [--out FILE.csv]
       npm run crawl -- --list-tabs
       npm run crawl -- <seed URL>... | --resume FILE  --export-tabs TAB,... --bulk-export REPORT,... --output-folder DIR
       npm run crawl -- --store postgres://... <seed URL>... [options]    (a crawl several nodes can share)
       npm run crawl -- --store postgres://... --join CRAWL_ID [--node-name NAME]
       npm run crawl -- --store postgres://... --crawl CRAWL_ID --control pause|resume|stop|status
       npm run crawl -- --store postgres://... --crawl CRAWL_ID --set-threads N | --out FILE.csv
       npm run crawl -- --store postgres://... --crawl CRAWL_ID --export-tabs TAB,... --bulk-export REPORT,... --output-folder DIR

Crawls from the seed URLs, following links within the scope (the seeds' hosts unless --scope says
otherwise), and reports what it found.

Options (defaults in brackets):
  --list FILE          list mode: crawl exactly the URLs in FILE (one a line; blank lines and # comments
                       skipped), following redirects but no links [spider mode: follow links from the seeds]
  --config FILE        settings from a JSON file (the names of the crawl file's settings, e.g. {"threads": 8,
                       "exclude": ["/tag/"]}); options given on the command line win
  --mode MODE          spider (follow links from the seeds) or list (crawl exactly the seeds) [spider]
  --threads N          crawl threads, URLs in progress at once, 1-200 [5]
  --processes N        worker processes hosting the threads [CPU cores minus one, at least 1]
  --max-depth N        link hops from a seed; redirects do not count [unlimited]
  --max-pages N        stop after this many URLs [unlimited]
  --scope MODE         which hosts are crawled [same-host]: same-host (the seeds' host[:port]),
                       subdomains (the seeds' hosts and their subdomains), domain (the seeds' registrable
                       domains, e.g. example.co.uk, and their subdomains), hosts (the seeds' and --allow-host's)
  --allow-host HOST    also crawl this host or host:port, in any scope (repeatable) [none]
  --include REGEX      crawl only URLs matching one of these regular expressions (RE2 syntax; repeatable) [all]
  --exclude REGEX      do not crawl URLs matching this regular expression (repeatable) [none]
  --max-url-length N   do not crawl URLs longer than this, 64-8192 [2048]
  --strip-param NAME   remove this query parameter from every URL before dedup; utm_* matches a prefix
                       (repeatable) [none]
  --db FILE            keep the crawl in this SQLite file (.trawl), to reopen or resume [temporary, removed at exit]
  --out FILE.csv       write the results as CSV (UTF-8 with BOM, opens in Excel); a name ending in .xlsx
                       writes an XLSX workbook instead (numbers as numbers, frozen header, filter)
  --resume FILE        continue an interrupted crawl from its file (its settings are kept); with --export-tabs or
                       --bulk-export, a finished crawl is exported as it is (--out too), nothing crawled
  --list-tabs          list the tabs (--export-tabs), bulk reports and pictures' data (--bulk-export) by id and name
  --export-tabs T,...  after the crawl, write each tab (explorer filter) named, by id (status-4xx) or name
                       ("Response codes:Client error (4xx)"), as one file in --output-folder (repeatable); with
                       --store, of the crawl just run there, or of --crawl CRAWL_ID without crawling
  --bulk-export R,...  after the crawl, write each bulk report named (client-error-inlinks, redirect-chains...) or
                       a picture's data (site-structure, crawl-map, depth-charts: always CSV), as one file in
                       --output-folder (repeatable)
  --output-folder DIR  where --export-tabs and --bulk-export write (<id>.csv), made if missing [current folder]
  --export-format F    csv or xlsx, for --export-tabs and --bulk-export [csv]
  --near-duplicate-threshold PCT  the content tabs' near-duplicate similarity, 50 to 100 [90]
  --duplicates-all-pages  the content tabs compare every parsed page, not only indexable ones
  --low-content-words N   the low-content tab's word count threshold [200]
  --user-agent TEXT    User-Agent header [Trawl/0.1 (+https://github.com/trawl-crawler/trawl)]
  --robots MODE        respect (never fetch what robots.txt disallows), ignore, or report (fetch it, and
                       mark it in results.robots_disallowed) [respect]
  --ignore-robots      the same as --robots ignore
  --follow-nofollow    follow rel=nofollow links and pages' nofollow directives [not followed, but recorded]
  --check TYPES        also fetch these resources for their status: images, scripts, stylesheets,
                       comma-separated or repeated [none]
  --check-external     fetch links outside the scope once, for their status; never followed [recorded only]
  --header 'N: V'      an extra request header, sent only to hosts in scope (repeatable) [none]
  --auth USER:PASS     HTTP basic authentication, sent only to hosts in scope (kept in the crawl file) [none]
  --extract RULE       a custom extraction column, as JSON (repeatable): {"name": "price", "type": "css",
                       "expression": ".price", "output": "text"|"attribute"|"html", "attribute": "href",
                       "all": false}, or type "regex" over the HTML (its first group, if any) [none]
  --delay MS           wait between two fetches from one host [0]
  --polite             per host: one fetch at a time, wait clamp(5 x fetch time, 3 s, 30 s)
  --max-rate N         at most N fetches started per second overall [no cap]
  --max-per-host N     fetches in flight to one host at most [as many as threads]
  --timeout MS         whole-response timeout [20000]
  --connect-timeout MS time allowed to connect [10000]
  --first-byte-timeout MS
                       time allowed for the response head [15000]
  --processing-budget MS
                       time a URL may take beyond its fetch timeouts; past it its worker is replaced and
                       the URL recorded as "processing timeout" [10000]
  --max-body BYTES     largest body read, compressed or not [10485760]
  --max-attempts N     fetches per URL at most; network errors, 5xx and 429 are retried [3]
  --max-retry-after MS longest Retry-After honoured [60000]
  --retry-delay MS     first retry's wait (jittered, doubling each time) [1000]
  --sitemap URL|FILE   read this XML sitemap (sitemap index, .gz or plain text) too, from the site or a local
                       file (repeatable) [none]
  --no-sitemaps        do not read the sitemaps robots.txt names nor /sitemap.xml [read, except in list mode]
  --no-sitemap-urls    record URLs found only in sitemaps without crawling them [crawled]
  --sitemap-out FILE   after the crawl (or of --store's --crawl), write a sitemap of its indexable 200 HTML pages
                       (lastmod from Last-Modified; past 50,000 URLs or 50 MB, FILE is a sitemap index naming
                       FILE-1.xml, FILE-2.xml...)
  --render             also render each HTML page in a browser (a system Chromium, see --chromium) and read
                       what its scripts make: fields, links, directives, errors [off]
  --render-wait MS     longest wait for a page's scripts after load; ends earlier when quiet [5000]
  --viewport V         desktop, mobile or WIDTHxHEIGHT [desktop]
  --render-pages N     pages rendering at once [the machine's cores minus one, at most 4]
  --render-block REGEX a sub-resource a render never loads, e.g. analytics (repeatable) [none]
  --chromium PATH      the Chromium or Chrome that renders [found on the machine]
  --content-include S,... the content area compared for duplicate content: element names, .classes or #ids
                       (only their text counts) [the whole page]
  --content-exclude S,... areas whose text never counts ('' for none) [nav,header,footer]
  --store URL          keep the crawl in this PostgreSQL database (postgres://user:password@host:5432/db)
                       instead of a file, so other nodes can --join it; prints the crawl's ID
  --join CRAWL_ID      work on a crawl of the --store as one more node (its settings are the crawl's);
                       nodes may join and leave at any time, Ctrl-C leaves (the node's URLs go back)
                       A crawl in the store with --auth or --header needs TRAWL_CLUSTER_KEY (the same
                       secret, 16+ characters, in every node's environment): it seals the credentials
  --node-name NAME     this node's name in the cluster [hostname-pid]
  --lease-seconds S    a claimed URL stays its node's this long without a heartbeat; then any node takes it
                       (for a new crawl in a --store) [30]
  --crawl CRAWL_ID     the crawl of the --store that --control, --set-threads, --out, --export-tabs or
                       --bulk-export act on
  --control CMD        pause, resume or stop every node of the crawl, or print its status
  --set-threads N      the whole cluster's crawl threads, shared out over its nodes
  --quiet              no progress line
  -h, --help           this help

Exit status: 0 the crawl finished, 1 the crawl failed, 2 bad arguments, 130 stopped by Ctrl-C.`;

const OPTIONS = {
  threads: { type: 'string' },
  processes: { type: 'string' },
  'max-depth': { type: 'string' },
  'max-pages': { type: 'string' },
  scope: { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'max-url-length': { type: 'string' },
  'strip-param': { type: 'string', multiple: true },
  db: { type: 'string' },
  list: { type: 'string' },
  config: { type: 'string' },
  out: { type: 'string' },
  resume: { type: 'string' },
  'user-agent': { type: 'string' },
  'ignore-robots': { type: 'boolean' },
  robots: { type: 'string' },
  'follow-nofollow': { type: 'boolean' },
  check: { type: 'string', multiple: true },
  extract: { type: 'string', multiple: true },
  header: { type: 'string', multiple: true },
  auth: { type: 'string' },
  'check-external': { type: 'boolean' },
  delay: { type: 'string' },
  polite: { type: 'boolean' },
  'max-rate': { type: 'string' },
  'max-per-host': { type: 'string' },
  timeout: { type: 'string' },
  mode: { type: 'string' },
  'connect-timeout': { type: 'string' },
  'max-retry-after': { type: 'string' },
  'first-byte-timeout': { type: 'string' },
  'processing-budget': { type: 'string' },
  'max-body': { type: 'string' },
  'max-attempts': { type: 'string' },
  'retry-delay': { type: 'string' },
  render: { type: 'boolean' },
  'render-wait': { type: 'string' },
  viewport: { type: 'string' },
  'render-pages': { type: 'string' },
  'render-block': { type: 'string', multiple: true },
  'content-include': { type: 'string', multiple: true },
  'content-exclude': { type: 'string', multiple: true },
  'near-duplicate-threshold': { type: 'string' },
  'duplicates-all-pages': { type: 'boolean' },
  'low-content-words': { type: 'string' },
  sitemap: { type: 'string', multiple: true },
  'no-sitemaps': { type: 'boolean' },
  'no-sitemap-urls': { type: 'boolean' },
  chromium: { type: 'string' },
  store: { type: 'string' },
  join: { type: 'string' },
  'node-name': { type: 'string' },
  'lease-seconds': { type: 'string' },
  crawl: { type: 'string' },
  control: { type: 'string' },
  'set-threads': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'list-tabs': { type: 'boolean' },
  'export-tabs': { type: 'string', multiple: true },
  'bulk-export': { type: 'string', multiple: true },
  'output-folder': { type: 'string' },
  'export-format': { type: 'string' },
  'sitemap-out': { type: 'string' },
} as const;

/** Which option sets which setting, so errors name what the user typed. */
const OPTION_OF_SETTING: Record<string, string> = {
  seeds: 'seed URL',
  ...Object.fromEntries(Object.entries(CLI_OPTION_OF).map(([setting, { option }]) => [setting, option])),
};

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What --store asks for: a new shared crawl, one more node on one, or a command to one. */
export interface StoreRequest {
  url: string;
  join: string | null;
  crawl: string | null;
  nodeName: string | undefined;
  leaseMs: number | undefined;
  control: 'pause' | 'resume' | 'stop' | 'status' | null;
  setThreads: number | null;
}

/**
 * new: a new crawl, its settings parsed here (the edge: nothing after parses them again); resume: a crawl file
 * continued, with the overrides given; join: a node added to a shared crawl; control: a command to one; help: --help.
 */
export type CliRequest = CliOptions &
  ({ mode: 'new'; settings: ParsedSettings } | { mode: 'resume' | 'join' | 'control' | 'help'; settings: CrawlSettingsInput });

interface CliOptions {
  store: StoreRequest | null;
  db: string | null;
  out: string | null;
  resume: string | null;
  /** --chromium: the browser that renders (--render); null: found on the machine. */
  chromium: string | null;
  quiet: boolean;
  help: boolean;
  /** --list-tabs: print the tabs and bulk reports, crawl nothing. */
  listTabs: boolean;
  /** --export-tabs / --bulk-export: files written after the crawl (or from a finished crawl file); null for none. */
  exports: TabExports | null;
  /** --sitemap-out FILE: a sitemap.xml of the crawl's indexable pages, written after the crawl. */
  sitemapOut: string | null;
  /** --sitemap FILE (a path, not a URL): local sitemaps a new crawl reads before it starts, absolute. */
  sitemapFiles: string[];
}

/** What --export-tabs and --bulk-export ask for: tabs and reports (checked, deduplicated), where, in what format. */
export interface TabExports {
  tabs: FilterId[];
  reports: BulkReportId[];
  /** The pictures' data (--bulk-export takes them too), always CSV. */
  pictures: PictureDataId[];
  folder: string;
  format: ExportFormat;
  /** The content tabs' parameters (duplicate content, issue 18.1). */
  content: ContentAnalysisOptions;
}

/** Names given as NAME,NAME (and repeated), each found by `find`, or a UsageError naming every one that is not. */
function namesOf<T>(given: string[] | undefined, option: string, what: string, find: (name: string) => T | null): T[] {
  const names = (given ?? [])
    .flatMap((g) => g.split(','))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const found: T[] = [];
  const bad: string[] = [];
  for (const name of names) {
    const hit = find(name);
    if (hit === null) bad.push(name);
    else if (!found.includes(hit)) found.push(hit);
  }
  if (bad.length) {
    throw new UsageError(
      `${option}: unknown ${what}${bad.length > 1 ? 's' : ''} ${bad.map((b) => `"${b}"`).join(', ')}; npm run crawl -- --list-tabs lists them (by id or name)`,
    );
  }
  return found;
}

/** The export options, checked before anything is crawled; null when no tab or report is asked for. */
function tabExportsOf(v: Record<string, string | boolean | string[] | undefined>): TabExports | null {
  const tabs = namesOf(v['export-tabs'] as string[] | undefined, '--export-tabs', 'tab', (n) => findExportTab(n)?.id ?? null);
  // --bulk-export names bulk reports and the pictures' data alike (their ids differ).
  const named = namesOf<BulkReportId | PictureDataId>(
    v['bulk-export'] as string[] | undefined,
    '--bulk-export',
    'bulk report',
    (n) => findBulkReport(n) ?? findPictureData(n),
  );
  const reports = named.filter(isBulkReportId);
  const pictures = named.filter((n): n is PictureDataId => !isBulkReportId(n));
  const format = (v['export-format'] as string | undefined) ?? 'csv';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--export-format must be csv or xlsx (got "${format}")`);
  const folder = v['output-folder'] as string | undefined;
  const content = contentOptionsOf(v);
  if (tabs.length === 0 && reports.length === 0 && pictures.length === 0) {
    const stray = ['output-folder', 'export-format', 'near-duplicate-threshold', 'duplicates-all-pages', 'low-content-words'].find(
      (o) => v[o] !== undefined,
    );
    if (stray) throw new UsageError(`--${stray} goes with --export-tabs or --bulk-export`);
    return null;
  }
  return { tabs, reports, pictures, folder: folder ?? '.', format: format as ExportFormat, content };
}

/** --near-duplicate-threshold (a percentage), --duplicates-all-pages and --low-content-words, checked. */
function contentOptionsOf(v: Record<string, string | boolean | string[] | undefined>): ContentAnalysisOptions {
  const given: Partial<ContentAnalysisOptions> = {};
  const pct = v['near-duplicate-threshold'] as string | undefined;
  if (pct !== undefined) {
    const n = Number(pct.trim().replace(/%$/, ''));
    if (pct.trim() === '' || !Number.isFinite(n) || n < 50 || n > 100)
      throw new UsageError(`--near-duplicate-threshold must be a percentage from 50 to 100 (got "${pct}")`);
    given.threshold = n / 100;
  }
  const words = v['low-content-words'] as string | undefined;
  if (words !== undefined) {
    const n = Number(words);
    if (words.trim() === '' || !Number.isInteger(n) || n < 0 || n > 100_000)
      throw new UsageError(`--low-content-words must be a whole number from 0 to 100000 (got "${words}")`);
    given.lowContentWords = n;
  }
  if (v['duplicates-all-pages'] === true) given.allPages = true;
  return contentAnalysisOptions(given);
}

/** A comma-separated option, repeatable: its items, trimmed ("" gives an empty list). */
function csvList(values: string[] | undefined): string[] | undefined {
  return values
    ?.flatMap((c) => c.split(','))
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

function number(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  // Number('') is 0 and Number('12abc') is NaN; both must be reported, so keep NaN for the validator.
  return value.trim() === '' ? Number.NaN : Number(value);
}

/** Where seed number i came from, for messages: a line of the --list file, or the i-th seed URL. */
type SeedOrigin = (i: number) => string;

function describe(problem: SettingsProblem, seedOrigin: SeedOrigin = (i) => `seed URL #${i + 1}`): string {
  const [head, ...rest] = problem.field.split('.');
  const option = OPTION_OF_SETTING[head ?? ''] ?? head;
  const where = head === 'seeds' && rest.length ? seedOrigin(Number(rest[0])) : option;
  return `${where}: ${problem.message}`;
}

/** Reads a text file named on the command line; the CLI passes fs, tests may pass a map. */
export type ReadText = (path: string) => string;

function readNamed(readText: ReadText, path: string, option: string): string {
  try {
    return readText(path);
  } catch (err) {
    throw new UsageError(`${option} ${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** One --header "Name: value". */
function headerLine(text: string): [string, string] {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new UsageError(`--header: "${text}" is not "Name: value"`);
  return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
}

/** --auth user:password (the password may contain ":"). */
function authOf(text: string): { username: string; password: string } {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new UsageError('--auth: give user:password');
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** One --extract rule: a JSON object such as {"name": "price", "type": "css", "expression": ".price"}. */
function jsonRule(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(
      `--extract: each rule is a JSON object such as '{"name":"price","type":"css","expression":".price"}' (${(err as Error).message})`,
    );
  }
}

/** The settings object of a --config file, or a UsageError saying what is wrong with it. */
function configFrom(text: string, path: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--config ${path}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`--config ${path}: must hold one JSON object of settings, e.g. {"threads": 8}`);
  }
  return value as Record<string, unknown>;
}

/** The URLs of a --list file with their line numbers: one a line, blank lines and # comments skipped. */
export function listFileUrls(text: string): { urls: string[]; lines: number[] } {
  const urls: string[] = [];
  const lines: number[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) return;
    urls.push(t);
    lines.push(i + 1);
  });
  return { urls, lines };
}

const isHttpUrl = (s: string) => /^https?:\/\//i.test(s);

/** --sitemap values that are not http(s) URLs: files, which must exist (their absolute paths). */
function sitemapFilesOf(values: readonly string[]): string[] {
  return values
    .filter((s) => !isHttpUrl(s))
    .map((s) => {
      const file = path.resolve(s);
      if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
        throw new UsageError(`--sitemap: ${s} is neither an http(s) URL nor a file`);
      }
      return file;
    });
}

export function parseCli(argv: string[], readText: ReadText = (p) => fs.readFileSync(p, 'utf8')): CliRequest {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  const { values: v, positionals } = parsed;
  const base = {
    db: v.db ?? null,
    out: v.out ?? null,
    resume: v.resume ?? null,
    chromium: v.chromium ?? null,
    quiet: v.quiet ?? false,
    help: v.help ?? false,
    listTabs: v['list-tabs'] ?? false,
    exports: null as TabExports | null,
    sitemapOut: v['sitemap-out'] ?? null,
    sitemapFiles: sitemapFilesOf(v.sitemap ?? []),
  };
  if (base.help || base.listTabs) return { mode: 'help', settings: { seeds: [] }, store: null, ...base };
  base.exports = tabExportsOf(v);
  const store = storeRequest(v);
  if (store && base.sitemapFiles.length)
    throw new UsageError('--sitemap FILE is read into a crawl file; a crawl in --store reads sitemaps from their URLs (--sitemap URL)');

  const settings: Record<string, unknown> = {
    threads: number(v.threads),
    processes: number(v.processes),
    maxDepth: number(v['max-depth']),
    maxPages: number(v['max-pages']),
    scope: v.scope,
    allowedHosts: v['allow-host'],
    include: v.include,
    exclude: v.exclude,
    maxUrlLength: number(v['max-url-length']),
    stripQueryParams: v['strip-param'],
    userAgent: v['user-agent'],
    robots: v.robots ?? (v['ignore-robots'] ? 'ignore' : undefined),
    followNofollow: v['follow-nofollow'] ? true : undefined,
    checkResources: v.check
      ?.flatMap((c) => c.split(','))
      .map((c) => c.trim())
      .filter((c) => c !== ''),
    checkExternal: v['check-external'] ? true : undefined,
    extraction: v.extract?.map((rule) => jsonRule(rule)),
    headers: v.header ? Object.fromEntries(v.header.map(headerLine)) : undefined,
    basicAuth: v.auth === undefined ? undefined : authOf(v.auth),
    delayMs: number(v.delay),
    polite: v.polite,
    maxUrlsPerSecond: number(v['max-rate']),
    maxPerHost: number(v['max-per-host']),
    responseTimeoutMs: number(v.timeout),
    firstByteTimeoutMs: number(v['first-byte-timeout']),
    processingBudgetMs: number(v['processing-budget']),
    connectTimeoutMs: number(v['connect-timeout']),
    maxRetryAfterMs: number(v['max-retry-after']),
    mode: v.mode,
    maxBodyBytes: number(v['max-body']),
    maxAttempts: number(v['max-attempts']),
    retryDelayMs: number(v['retry-delay']),
    render: v.render ? true : undefined,
    renderWaitMs: number(v['render-wait']),
    viewport: v.viewport,
    renderPages: number(v['render-pages']),
    renderBlock: v['render-block'],
    contentInclude: csvList(v['content-include']),
    contentExclude: csvList(v['content-exclude']),
    sitemaps: v.sitemap?.filter(isHttpUrl),
    crawlLinkedSitemaps: v['no-sitemaps'] ? false : undefined,
    crawlSitemapUrls: v['no-sitemap-urls'] ? false : undefined,
  };
  for (const k of Object.keys(settings)) if (settings[k] === undefined) delete settings[k];
  // A --config file underneath: what the command line says wins.
  const config = v.config === undefined ? {} : configFrom(readNamed(readText, v.config, '--config'), v.config);

  if (store && (store.join !== null || store.crawl !== null)) {
    if (positionals.length || v.config !== undefined || v.list !== undefined) {
      throw new UsageError(
        `${store.join !== null ? '--join' : '--crawl'} names a crawl that has its own seeds and settings; give no seed URLs, --config or --list`,
      );
    }
    const given = Object.keys(settings);
    if (given.length) {
      throw new UsageError(
        `a crawl in the store keeps its settings (not ${given.map((k) => OPTION_OF_SETTING[k] ?? k).join(', ')})${given.includes('threads') ? "; change the cluster's threads with --set-threads N" : ''}`,
      );
    }
    return { mode: store.join !== null ? 'join' : 'control', settings: { seeds: [] }, store, ...base };
  }

  if (base.resume !== null) {
    if (positionals.length) throw new UsageError('--resume continues a crawl with its own seeds; give no seed URLs with it');
    if (base.db !== null) throw new UsageError('--resume FILE already names the crawl file; drop --db');
    if (v.config !== undefined || v.list !== undefined)
      throw new UsageError('a resumed crawl keeps its settings and seeds; drop --config and --list');
    const changed = Object.keys(settings).filter((k) => k !== 'threads');
    if (changed.length) {
      throw new UsageError(
        `a resumed crawl keeps its settings; only --threads can change (not ${changed.map((k) => OPTION_OF_SETTING[k] ?? k).join(', ')})`,
      );
    }
    const check = validateSettings({ seeds: ['http://resume.invalid/'], ...settings });
    if (!check.ok) throw new UsageError(check.problems.map((p) => describe(p)).join('\n'));
    return { mode: 'resume', settings: settings as CrawlSettingsInput, store: null, ...base };
  }

  // Seeds: the command line's, then the --list file's; else the --config file's.
  let seeds: unknown = config.seeds;
  let seedOrigin: SeedOrigin | undefined;
  if (v.list !== undefined) {
    const list = listFileUrls(readNamed(readText, v.list, '--list'));
    if (list.urls.length === 0 && positionals.length === 0) throw new UsageError(`--list ${v.list}: holds no URLs (one a line)`);
    seeds = [...positionals, ...list.urls];
    settings.mode = 'list';
    seedOrigin = (i) => (i < positionals.length ? `seed URL #${i + 1}` : `--list ${v.list} line ${list.lines[i - positionals.length]}`);
  } else if (positionals.length > 0) {
    seeds = positionals;
  }
  if (seeds === undefined) throw new UsageError('give at least one seed URL, e.g. npm run crawl -- https://example.com/');
  const input = { ...config, seeds, ...settings };
  const check = validateSettings(input);
  if (!check.ok) throw new UsageError(check.problems.map((p) => describe(p, seedOrigin)).join('\n'));
  return { mode: 'new', settings: check.settings, store, ...base };
}

/** The --store options, checked against each other; null without --store. */
function storeRequest(v: Record<string, string | boolean | string[] | undefined>): StoreRequest | null {
  const str = (name: string) => v[name] as string | undefined;
  const storeOnly = ['join', 'node-name', 'lease-seconds', 'crawl', 'control', 'set-threads'].filter((o) => v[o] !== undefined);
  const url = str('store');
  if (url === undefined) {
    if (storeOnly.length)
      throw new UsageError(`--${storeOnly[0]} works on a crawl in a PostgreSQL store: add --store postgres://user:password@host/database`);
    return null;
  }
  if (v.db !== undefined || v.resume !== undefined)
    throw new UsageError('--store keeps the crawl in PostgreSQL; drop --db and --resume (they name a crawl file)');
  const join = str('join') ?? null;
  const crawl = str('crawl') ?? null;
  if (join !== null && crawl !== null)
    throw new UsageError('give --join CRAWL_ID (to work on it) or --crawl CRAWL_ID (to command it), not both');
  const control = str('control') ?? null;
  if (control !== null && !['pause', 'resume', 'stop', 'status'].includes(control)) {
    throw new UsageError(`--control must be pause, resume, stop or status (got "${control}")`);
  }
  const setThreadsText = str('set-threads');
  const setThreads = setThreadsText === undefined ? null : Number(setThreadsText);
  if (setThreads !== null && !(Number.isInteger(setThreads) && setThreads >= 1 && setThreads <= 1000)) {
    throw new UsageError(`--set-threads must be a whole number from 1 to 1000 (got "${setThreadsText}")`);
  }
  if ((control !== null || setThreads !== null) && crawl === null)
    throw new UsageError(`--${control !== null ? 'control' : 'set-threads'} needs --crawl CRAWL_ID`);
  if (
    crawl !== null &&
    control === null &&
    setThreads === null &&
    v.out === undefined &&
    v['export-tabs'] === undefined &&
    v['bulk-export'] === undefined &&
    v['sitemap-out'] === undefined
  ) {
    throw new UsageError(
      '--crawl CRAWL_ID needs --control, --set-threads, --out, --export-tabs, --bulk-export or --sitemap-out (to work on the crawl, use --join)',
    );
  }
  const leaseText = str('lease-seconds');
  const lease = leaseText === undefined ? undefined : Number(leaseText);
  if (lease !== undefined && !(lease >= 0.3 && lease <= 3600))
    throw new UsageError(`--lease-seconds must be from 0.3 to 3600 (got "${leaseText}")`);
  if (lease !== undefined && join !== null)
    throw new UsageError("--lease-seconds is set when the crawl is created; a node joining uses the crawl's");
  return {
    url,
    join,
    crawl,
    nodeName: str('node-name'),
    leaseMs: lease === undefined ? undefined : Math.round(lease * 1000),
    control: control as StoreRequest['control'],
    setThreads,
  };
}
