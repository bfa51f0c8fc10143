// Command-line arguments of `npm run crawl`, turned into crawl settings; every mistake is named at once.
import { parseArgs } from 'node:util';
import type { CrawlSettingsInput, SettingsProblem } from '../../shared/settings.ts';
import { validateSettings } from '../../shared/settings.ts';

export const USAGE = `Usage: npm run crawl -- <seed URL>... [options]
       npm run crawl -- --resume FILE [--threads N] [--out FILE.csv]

Crawls from the seed URLs, following links within the scope (the seeds' hosts unless --scope says
otherwise), and reports what it found.

Options (defaults in brackets):
  --threads N          crawl threads, URLs in progress at once, 1-200 [5]
  --processes N        worker processes hosting the threads [CPU cores minus one, at least 1]
  --max-depth N        link hops from a seed; redirects do not count [unlimited]
  --max-pages N        stop after this many URLs [unlimited]
  --scope MODE         which hosts are crawled [same-host]: same-host (the seeds' host[:port]),
                       subdomains (the seeds' hosts and their subdomains), domain (the seeds' registrable
                       domains, e.g. example.co.uk, and their subdomains), hosts (the seeds' and --allow-host's)
  --allow-host HOST    also crawl this host or host:port, in any scope (repeatable) [none]
  --include REGEX      crawl only URLs matching one of these JavaScript regular expressions (repeatable) [all]
  --exclude REGEX      do not crawl URLs matching this regular expression (repeatable) [none]
  --max-url-length N   do not crawl URLs longer than this, 64-8192 [2048]
  --strip-param NAME   remove this query parameter from every URL before dedup; utm_* matches a prefix
                       (repeatable) [none]
  --db FILE            keep the crawl in this SQLite file (.trawl), to reopen or resume [temporary, removed at exit]
  --out FILE.csv       write the results as CSV (UTF-8 with BOM, opens in Excel)
  --resume FILE        continue an interrupted crawl from its file (its settings are kept)
  --user-agent TEXT    User-Agent header [Trawl/0.1 (+https://github.com/trawl-crawler/trawl)]
  --robots MODE        respect (never fetch what robots.txt disallows), ignore, or report (fetch it, and
                       mark it in results.robots_disallowed) [respect]
  --ignore-robots      the same as --robots ignore
  --follow-nofollow    follow rel=nofollow links and pages' nofollow directives [not followed, but recorded]
  --check TYPES        also fetch these resources for their status: images, scripts, stylesheets,
                       comma-separated or repeated [none]
  --check-external     fetch links outside the scope once, for their status; never followed [recorded only]
  --delay MS           wait between two fetches from one host [0]
  --polite             per host: one fetch at a time, wait clamp(5 x fetch time, 3 s, 30 s)
  --max-rate N         at most N fetches started per second overall [no cap]
  --max-per-host N     fetches in flight to one host at most [as many as threads]
  --timeout MS         whole-response timeout [20000]
  --first-byte-timeout MS
                       time allowed for the response head [15000]
  --max-body BYTES     largest body read, compressed or not [10485760]
  --max-attempts N     fetches per URL at most; network errors, 5xx and 429 are retried [3]
  --retry-delay MS     first retry's wait (jittered, doubling each time) [1000]
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
  out: { type: 'string' },
  resume: { type: 'string' },
  'user-agent': { type: 'string' },
  'ignore-robots': { type: 'boolean' },
  robots: { type: 'string' },
  'follow-nofollow': { type: 'boolean' },
  check: { type: 'string', multiple: true },
  'check-external': { type: 'boolean' },
  delay: { type: 'string' },
  polite: { type: 'boolean' },
  'max-rate': { type: 'string' },
  'max-per-host': { type: 'string' },
  timeout: { type: 'string' },
  'first-byte-timeout': { type: 'string' },
  'max-body': { type: 'string' },
  'max-attempts': { type: 'string' },
  'retry-delay': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Which option sets which setting, so errors name what the user typed. */
const OPTION_OF_SETTING: Record<string, string> = {
  seeds: 'seed URL',
  threads: '--threads',
  processes: '--processes',
  maxDepth: '--max-depth',
  maxPages: '--max-pages',
  scope: '--scope',
  allowedHosts: '--allow-host',
  include: '--include',
  exclude: '--exclude',
  maxUrlLength: '--max-url-length',
  stripQueryParams: '--strip-param',
  userAgent: '--user-agent',
  delayMs: '--delay',
  maxUrlsPerSecond: '--max-rate',
  maxPerHost: '--max-per-host',
  robots: '--robots',
  checkResources: '--check',
  checkExternal: '--check-external',
  responseTimeoutMs: '--timeout',
  firstByteTimeoutMs: '--first-byte-timeout',
  maxBodyBytes: '--max-body',
  maxAttempts: '--max-attempts',
  retryDelayMs: '--retry-delay',
};

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface CliRequest {
  mode: 'new' | 'resume';
  /** Settings for a new crawl (validated), or the overrides for a resumed one. */
  settings: CrawlSettingsInput;
  db: string | null;
  out: string | null;
  resume: string | null;
  quiet: boolean;
  help: boolean;
}

function number(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  // Number('') is 0 and Number('12abc') is NaN; both must be reported, so keep NaN for the validator.
  return value.trim() === '' ? Number.NaN : Number(value);
}

function describe(problem: SettingsProblem): string {
  const [head, ...rest] = problem.field.split('.');
  const option = OPTION_OF_SETTING[head ?? ''] ?? head;
  const where = head === 'seeds' && rest.length ? `seed URL #${Number(rest[0]) + 1}` : option;
  return `${where}: ${problem.message}`;
}

export function parseCli(argv: string[]): CliRequest {
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
    quiet: v.quiet ?? false,
    help: v.help ?? false,
  };
  if (base.help) return { mode: 'new', settings: { seeds: [] }, ...base };

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
    checkResources: v.check?.flatMap((c) => c.split(',')).map((c) => c.trim()).filter((c) => c !== ''),
    checkExternal: v['check-external'] ? true : undefined,
    delayMs: number(v.delay),
    polite: v.polite,
    maxUrlsPerSecond: number(v['max-rate']),
    maxPerHost: number(v['max-per-host']),
    responseTimeoutMs: number(v.timeout),
    firstByteTimeoutMs: number(v['first-byte-timeout']),
    maxBodyBytes: number(v['max-body']),
    maxAttempts: number(v['max-attempts']),
    retryDelayMs: number(v['retry-delay']),
  };
  for (const k of Object.keys(settings)) if (settings[k] === undefined) delete settings[k];

  if (base.resume !== null) {
    if (positionals.length) throw new UsageError('--resume continues a crawl with its own seeds; give no seed URLs with it');
    if (base.db !== null) throw new UsageError('--resume FILE already names the crawl file; drop --db');
    const changed = Object.keys(settings).filter((k) => k !== 'threads');
    if (changed.length) {
      throw new UsageError(`a resumed crawl keeps its settings; only --threads can change (not ${changed.map((k) => OPTION_OF_SETTING[k] ?? k).join(', ')})`);
    }
    const check = validateSettings({ seeds: ['http://resume.invalid/'], ...settings });
    if (!check.ok) throw new UsageError(check.problems.map(describe).join('\n'));
    return { mode: 'resume', settings: settings as CrawlSettingsInput, ...base };
  }

  if (positionals.length === 0) throw new UsageError('give at least one seed URL, e.g. npm run crawl -- https://example.com/');
  const input = { seeds: positionals, ...settings };
  const check = validateSettings(input);
  if (!check.ok) throw new UsageError(check.problems.map(describe).join('\n'));
  return { mode: 'new', settings: check.settings, ...base };
}
