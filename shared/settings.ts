// The crawl "order" (Heritrix's word): every setting of one crawl, validated once before anything is created.
// Shared by the engine, the CLI and the renderer, so it imports neither `node:` nor `electron`.
import * as z from './zod.ts';
import { CONTENT_SELECTOR, DEFAULT_CONTENT_EXCLUDE } from './content.ts';
import { makePatternTest, SCOPES, type Scope } from './scope.ts';
import {
  allowedHost,
  basicAuth,
  customHeaders,
  extractionRule,
  addProblem,
  HEADER_VALUE,
  issueMessage,
  m,
  MAX_EXTRACTION_RULES,
  paramName,
  seedUrl,
  urlPattern,
} from './settings-fields.ts';
import { message, type MessageCode, type MessageParams } from './messages.ts';
import { DEFAULT_MAX_URL_LENGTH, MAX_URL_LENGTH } from './url/canonical.ts';
import { makeNormaliser } from './url/normalise.ts';

export const DEFAULT_USER_AGENT = 'Trawl/0.1 (+https://github.com/trawl-crawler/trawl)';

export const LIMITS = {
  threads: { min: 1, max: 200 },
  processes: { min: 1, max: 64 },
  delayMs: { max: 60_000 },
  /** Heritrix's polite rule: delay = clamp(5 x last fetch duration, 3 s, 30 s). */
  polite: { factor: 5, minMs: 3_000, maxMs: 30_000 },
  /** robots.txt Crawl-delay is honoured up to this cap so one hostile file cannot stall a crawl. */
  crawlDelayCapMs: 30_000,
  maxUrlsPerSecond: 10_000,
  /** Longer URLs are out of scope: recorded in the link graph, never fetched. */
  maxUrlLength: { min: 64, max: MAX_URL_LENGTH, default: DEFAULT_MAX_URL_LENGTH },
  renderWaitMs: { max: 60_000 },
  renderPages: { max: 32 },
} as const;

/** Resource types that can be checked (fetched for their status, never parsed), as Screaming Frog's "check images/CSS/JS". */
export const RESOURCE_TYPES = ['images', 'scripts', 'stylesheets'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const CRAWL_MODES = ['spider', 'list'] as const;
export type CrawlMode = (typeof CRAWL_MODES)[number];

// The host rules are scope.ts's; named here too, beside the other choices a form offers.
export { SCOPES, type Scope };

export { EXTRACTION_OUTPUTS, EXTRACTION_TYPES, MAX_CUSTOM_HEADERS, MAX_EXTRACTION_RULES, type ExtractionRule } from './settings-fields.ts';

const list = <T extends z.ZodType>(item: T, code: MessageCode) => z.array(item, { error: m(code) }).default([]);

/** An element name, a .class or an #id: a content area (issue 18.1). */
const contentSelector = z
  .string({ error: m('contentSelector') })
  .trim()
  .transform((s) => (s.startsWith('.') || s.startsWith('#') ? s : s.toLowerCase()))
  .pipe(z.string().regex(CONTENT_SELECTOR, m('contentSelector')));

const int = (min: number, max: number) =>
  z
    .number({ error: m('wholeNumber', { min, max }) })
    .int(m('wholeNumber', { min, max }))
    .min(min, m('atLeast', { min }))
    .max(max, m('atMost', { max }));

export const crawlSettingsSchema = z
  .object({
    /** Where the crawl starts; at least one http(s) URL. In list mode, the URLs crawled. */
    seeds: z.array(seedUrl, { error: m('listOfUrls') }).min(1, m('oneSeed')),
    /**
     * spider: follow links from the seeds; list: crawl exactly the seeds (depth 0: their links are recorded, not
     * followed; redirects are followed, as they name the same page).
     */
    mode: z.enum(CRAWL_MODES, { error: m('oneOf', { choices: CRAWL_MODES.join(', ') }) }).default('spider'),
    /** Crawl threads: URLs in progress at once. */
    threads: int(LIMITS.threads.min, LIMITS.threads.max).default(5),
    /** Worker OS processes hosting the threads; null = one per CPU core but one (at least one), never more than threads. */
    processes: int(LIMITS.processes.min, LIMITS.processes.max).nullable().default(null),
    /** Link hops from a seed; null = unlimited. Redirects do not count as a hop. */
    maxDepth: int(0, 1_000_000).nullable().default(null),
    /** Fetches (pages, redirects and errors) before the crawl ends with reason "page limit"; null = unlimited. */
    maxPages: int(1, 1_000_000_000).nullable().default(null),
    /**
     * Which hosts are crawled: same-host (a seed's host[:port]), subdomains (a seed's host and its subdomains),
     * domain (a seed's registrable domain and its subdomains), hosts (a seed's host or one in allowedHosts).
     */
    scope: z.enum(SCOPES, { error: m('oneOf', { choices: SCOPES.join(', ') }) }).default('same-host'),
    /** Hosts (host or host:port) crawled besides the seeds' in every scope; scope "hosts" needs at least one. */
    allowedHosts: list(allowedHost, 'listOfHosts'),
    /** Regular expressions; when any are given, a URL must match one of them to be crawled. */
    include: list(urlPattern, 'listOfPatterns'),
    /** Regular expressions; a URL matching any of them is not crawled. */
    exclude: list(urlPattern, 'listOfPatterns'),
    /** URLs longer than this (in their normal form) are not crawled. */
    maxUrlLength: int(LIMITS.maxUrlLength.min, LIMITS.maxUrlLength.max).default(LIMITS.maxUrlLength.default),
    /** Query parameters removed from every URL before dedup; a trailing * matches a prefix (utm_*). */
    stripQueryParams: list(paramName, 'listOfParams'),
    userAgent: z
      .string()
      .trim()
      .min(1, m('notEmpty'))
      .max(512, m('atMostChars', { max: 512 }))
      .regex(HEADER_VALUE, m('badHeaderValue'))
      .default(DEFAULT_USER_AGENT),
    /** Resources fetched for their status (img/srcset, script src, link rel=stylesheet); none by default. */
    checkResources: z
      .array(z.enum(RESOURCE_TYPES, { error: m('oneOf', { choices: RESOURCE_TYPES.join(', ') }) }), {
        error: m('listOfChoices', { choices: RESOURCE_TYPES.join(', ') }),
      })
      .default([])
      .transform((types) => [...new Set(types)]),
    /** Fetch links (and checked resources) outside the scope once, for their status; never followed further. */
    checkExternal: z.boolean().default(false),
    /** Custom extraction rules: each adds a column of values read from every HTML page. */
    extraction: z
      .array(extractionRule, { error: m('listOfRules') })
      .max(MAX_EXTRACTION_RULES, m('atMostRules', { max: MAX_EXTRACTION_RULES }))
      .default([])
      // Run even when a rule is invalid, so a duplicate name is named along with everything else.
      .superRefine(
        (rules, ctx) => {
          const seen = new Set<string>();
          (rules as unknown[]).forEach((r, i) => {
            const name = (r as { name?: unknown } | null)?.name;
            if (typeof name !== 'string') return;
            const key = name.trim().toLowerCase();
            if (seen.has(key)) addProblem(ctx, [i, 'name'], 'ruleNameTaken', { name: name.trim() });
            seen.add(key);
          });
        },
        { when: ({ value }) => Array.isArray(value) },
      ),
    /**
     * Extra request headers (e.g. a cookie or an API token): credentials, sent only to the exact origins of the seeds
     * and allowed hosts, never from https to http (shared/credentials.ts); kept apart from the other settings.
     */
    headers: customHeaders,
    /** HTTP basic authentication: a credential, sent and kept as `headers` are. */
    basicAuth,
    /** Follow links marked nofollow (rel="nofollow", or a page's meta robots / X-Robots-Tag); recorded either way. */
    followNofollow: z.boolean().default(false),
    /**
     * respect: never fetch what robots.txt disallows; ignore: fetch everything without reading robots.txt;
     * report: fetch everything, and mark what robots.txt disallows (results.robots_disallowed).
     */
    robots: z.enum(['respect', 'ignore', 'report'], { error: m('robotsChoice') }).default('respect'),
    /** Fixed wait between two fetches from one host (one fetch at a time per host when > 0). */
    delayMs: int(0, LIMITS.delayMs.max).default(0),
    /** Fetches in flight to one host at most; null = as many as there are threads. A delay means one at a time. */
    maxPerHost: int(1, LIMITS.threads.max).nullable().default(null),
    /** Heritrix's polite preset: per-host delay = clamp(5 x last fetch time, 3 s, 30 s), one fetch at a time per host. */
    polite: z.boolean().default(false),
    /** Global cap on fetches started per second across all hosts; null = no cap. */
    maxUrlsPerSecond: z
      .number()
      .positive(m('moreThanZero'))
      .max(LIMITS.maxUrlsPerSecond, m('atMost', { max: LIMITS.maxUrlsPerSecond }))
      .nullable()
      .default(null),
    connectTimeoutMs: int(100, 120_000).default(10_000),
    /** Time from sending the request to the response head (the server's "first byte"). */
    firstByteTimeoutMs: int(100, 600_000).default(15_000),
    /** Whole-response timeout: headers and body together. */
    responseTimeoutMs: int(100, 600_000).default(20_000),
    /**
     * Time a job may take beyond its fetch timeouts (parsing, extraction). Past that deadline the engine's watchdog
     * kills the worker process (a hung job blocks every thread it hosts), replaces it, and records the URL as
     * "processing timeout".
     */
    processingBudgetMs: int(100, 600_000).default(10_000),
    /** Bodies larger than this (compressed or decompressed) are cut off and recorded as "too large". */
    maxBodyBytes: int(1024, 1024 * 1024 * 1024).default(10 * 1024 * 1024),
    /** Fetches of one URL at most: network errors, 5xx and 429 are tried again, with backoff. */
    maxAttempts: int(1, 10).default(3),
    /** First retry waits about this long (jittered), doubling with each further attempt. */
    retryDelayMs: int(0, 600_000).default(1_000),
    /** A server's Retry-After (429, 503) is honoured up to this long. */
    maxRetryAfterMs: int(0, 3_600_000).default(60_000),
    /**
     * JavaScript rendering: each HTML page fetched is also loaded in a browser (its sub-resources fetched by the
     * crawl), and what its scripts made is read too: fields, links and directives (issue 16; electron/engine/render).
     */
    render: z.boolean().default(false),
    /** Longest wait for a page's scripts after its load event; a render ends earlier once network and DOM are quiet. */
    renderWaitMs: int(0, LIMITS.renderWaitMs.max).default(5_000),
    /** desktop, mobile, or WIDTHxHEIGHT. */
    viewport: z
      .string()
      .regex(/^(desktop|mobile|[1-9]\d{1,4}x[1-9]\d{1,4})$/, m('badViewport'))
      .default('desktop'),
    /** Pages rendering at once; null = the machine's default (renderPagesDefault in electron/engine/render). */
    renderPages: int(1, LIMITS.renderPages.max).nullable().default(null),
    /** Regular expressions of sub-resource URLs a render never loads (analytics, ads); recorded as blocked. */
    renderBlock: list(urlPattern, 'listOfPatterns'),
    /**
     * XML sitemaps (issue 17): read the sitemaps robots.txt names (Sitemap: lines) and /sitemap.xml of each seed's host,
     * through the crawl's politeness and robots.txt (not in list mode; a crawl file only, not a cluster crawl).
     */
    crawlLinkedSitemaps: z.boolean().default(true),
    /** URLs found only in sitemaps are crawled too; when false they are recorded (for the sitemap filters), not fetched. */
    crawlSitemapUrls: z.boolean().default(true),
    /** Sitemaps to read by URL (sitemap, sitemap index, gzip or text), whatever crawlLinkedSitemaps says. */
    sitemaps: list(seedUrl, 'listOfUrls'),
    // Duplicate content (issue 18.1): the content area whose text is compared. Element names, .class or #id.
    /** Only the text inside these areas counts (none: the whole page's visible text). */
    contentInclude: list(contentSelector, 'listOfSelectors'),
    /** Text inside these areas never counts. */
    contentExclude: z.array(contentSelector, { error: m('listOfSelectors') }).default([...DEFAULT_CONTENT_EXCLUDE]),
  })
  .strict()
  // Checks across fields; run even when other fields are invalid (so every problem is named at once), but
  // only once the fields they read are valid themselves.
  .superRefine(checkScope, { when: ({ value, issues }) => isObject(value) && !issues.some((i) => SCOPE_FIELDS.has(String(i.path?.[0]))) });

const SCOPE_FIELDS = new Set(['scope', 'allowedHosts', 'include', 'exclude', 'maxUrlLength', 'stripQueryParams']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type ScopeFields = Pick<CrawlSettings, 'scope' | 'allowedHosts' | 'include' | 'exclude' | 'maxUrlLength' | 'stripQueryParams'>;

function checkScope(settings: ScopeFields & { seeds: unknown; headers?: unknown; basicAuth?: unknown }, ctx: z.RefinementCtx): void {
  const headers = settings.headers;
  if (
    settings.basicAuth &&
    headers &&
    typeof headers === 'object' &&
    Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')
  ) {
    addProblem(ctx, ['basicAuth'], 'authTwice');
  }
  if (settings.scope === 'hosts' && settings.allowedHosts.length === 0) {
    addProblem(ctx, ['allowedHosts'], 'hostsNeeded');
  }
  // Seeds are held to the same include/exclude patterns and length as every other URL (the host rule always
  // lets them through: it is built from them). Seeds that are not valid URLs are reported on their own.
  if (!Array.isArray(settings.seeds)) return;
  const normalise = makeNormaliser(settings);
  const patterns = makePatternTest(settings);
  settings.seeds.forEach((seed: unknown, i) => {
    if (typeof seed !== 'string' || !URL.canParse(seed)) return;
    const protocol = new URL(seed).protocol;
    if (protocol !== 'http:' && protocol !== 'https:') return;
    const url = normalise(seed); // null only when longer than a URL may ever be
    const length = url?.length ?? seed.length;
    if (url === null || length > settings.maxUrlLength) {
      return addProblem(ctx, ['seeds', i], 'seedTooLong', { seed: shorten(seed), length, max: settings.maxUrlLength });
    }
    const verdict = patterns(url);
    if (verdict !== null) {
      if (verdict === 'excluded') {
        const pattern = String(settings.exclude.find((p) => new RegExp(p).test(url)));
        addProblem(ctx, ['seeds', i], 'seedExcluded', { seed: shorten(seed), pattern });
      } else addProblem(ctx, ['seeds', i], 'seedNotIncluded', { seed: shorten(seed) });
    }
  });
}

function shorten(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

/** Every setting of a crawl, as validated, with its defaults filled in: the shape (see ParsedSettings). */
export type CrawlSettings = z.output<typeof crawlSettingsSchema>;

/** Marks settings that went through validateSettings/parseSettings; a type only, never present at run time. */
declare const parsedBrand: unique symbol;

/**
 * CrawlSettings that were parsed. Only validateSettings and parseSettings make one (the brand cannot be written
 * anywhere else), so the controller, the worker pool and the workers, which take ParsedSettings, cannot be handed
 * an unchecked object: settings are parsed once, where they enter (the start form, the command line, a crawl
 * file or store read back), and passed on as they are.
 */
export type ParsedSettings = CrawlSettings & { readonly [parsedBrand]: true };
export type CrawlSettingsInput = z.input<typeof crawlSettingsSchema>;

export interface SettingsProblem {
  /** Dotted path of the setting, e.g. "seeds.0" or "threads". */
  field: string;
  /** In English (the CLI prints it); the renderer shows `code` in its language when it has one. */
  message: string;
  /** The catalogue's message (messages.ts) this is, with its parameters; none for zod's own messages. */
  code?: MessageCode;
  params?: MessageParams;
}

/** Thrown when settings are invalid; lists every problem at once. */
export class SettingsError extends Error {
  readonly problems: SettingsProblem[];
  constructor(problems: SettingsProblem[]) {
    super(`Invalid crawl settings:\n${problems.map((p) => `  - ${p.field}: ${p.message}`).join('\n')}`);
    this.name = 'SettingsError';
    this.problems = problems;
  }
}

export type ValidationResult = { ok: true; settings: ParsedSettings } | { ok: false; problems: SettingsProblem[] };

export function validateSettings(input: unknown): ValidationResult {
  const parsed = crawlSettingsSchema.safeParse(input);
  // The one place the brand is given: these settings passed every check.
  if (parsed.success) return { ok: true, settings: parsed.data as ParsedSettings };
  const problems: SettingsProblem[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // A setting named "" is named as such: a problem always names a field.
      for (const key of issue.keys) problems.push({ field: [...issue.path, key].join('.') || '""', ...coded(message('unknownSetting')) });
      continue;
    }
    const field = issue.path.length ? issue.path.join('.') : '(settings)';
    const known = issueMessage(issue);
    problems.push({ field, ...(known ? coded(known) : { message: issue.message }) });
  }
  return { ok: false, problems };
}

/** A problem's message and its code (and parameters, if any). */
function coded(msg: { code: MessageCode; params?: MessageParams; text: string }): Pick<SettingsProblem, 'message' | 'code' | 'params'> {
  return msg.params === undefined ? { message: msg.text, code: msg.code } : { message: msg.text, code: msg.code, params: msg.params };
}

/** Validates and fills in defaults, or throws a SettingsError naming every invalid field. */
export function parseSettings(input: unknown): ParsedSettings {
  const result = validateSettings(input);
  if (!result.ok) throw new SettingsError(result.problems);
  return result.settings;
}

/**
 * The one check of a thread count outside a settings object (a live change of the pool): a whole number in
 * LIMITS.threads, or a RangeError saying so.
 */
export function checkThreadCount(n: number): void {
  if (!Number.isInteger(n) || n < LIMITS.threads.min || n > LIMITS.threads.max) {
    throw new RangeError(`threads must be a whole number from ${LIMITS.threads.min} to ${LIMITS.threads.max} (got ${n})`);
  }
}

/** The depth limit the crawl applies: list mode crawls the seeds only. */
export function effectiveMaxDepth(settings: Pick<CrawlSettings, 'mode' | 'maxDepth'>): number | null {
  return settings.mode === 'list' ? 0 : settings.maxDepth;
}

/** The per-host wait after a fetch that took `fetchMs`, before robots.txt Crawl-delay is applied. */
export function politenessDelayMs(settings: Pick<CrawlSettings, 'delayMs' | 'polite'>, fetchMs: number): number {
  if (!settings.polite) return settings.delayMs;
  const { factor, minMs, maxMs } = LIMITS.polite;
  return Math.max(settings.delayMs, Math.min(maxMs, Math.max(minMs, factor * fetchMs)));
}

/** True when a host may only have one fetch in flight (any per-host delay implies spacing between fetches). */
export function isSerialPerHost(settings: Pick<CrawlSettings, 'delayMs' | 'polite'>, crawlDelayMs: number): boolean {
  return settings.polite || settings.delayMs > 0 || crawlDelayMs > 0;
}
