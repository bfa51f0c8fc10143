// The command line of a crawl: which `npm run crawl` option sets each setting, and the one line that runs a
// given set of settings ("copy as CLI command" in the UI). Shared by the CLI's parser and the renderer, so it
// imports neither `node:` nor `electron`. A test holds every setting to having an option here.
import { redactSecrets } from './credentials.ts';
import type { CrawlSettings } from './settings.ts';

/**
 * number: --opt N; text: --opt VALUE; list: --opt repeated per item; csv: --opt a,b; flag: --opt when true;
 * json-list: --opt repeated per item, each a JSON object; headers: --opt "Name: value" per header;
 * auth: --opt user:password; off-flag: --opt when false (a setting on by default).
 */
export type CliOptionKind = 'number' | 'text' | 'list' | 'csv' | 'flag' | 'json-list' | 'headers' | 'auth' | 'off-flag';

export const CLI_OPTION_OF: Record<Exclude<keyof CrawlSettings, 'seeds'>, { option: string; kind: CliOptionKind }> = {
  mode: { option: '--mode', kind: 'text' },
  threads: { option: '--threads', kind: 'number' },
  processes: { option: '--processes', kind: 'number' },
  maxDepth: { option: '--max-depth', kind: 'number' },
  maxPages: { option: '--max-pages', kind: 'number' },
  scope: { option: '--scope', kind: 'text' },
  allowedHosts: { option: '--allow-host', kind: 'list' },
  include: { option: '--include', kind: 'list' },
  exclude: { option: '--exclude', kind: 'list' },
  maxUrlLength: { option: '--max-url-length', kind: 'number' },
  stripQueryParams: { option: '--strip-param', kind: 'list' },
  userAgent: { option: '--user-agent', kind: 'text' },
  checkResources: { option: '--check', kind: 'csv' },
  checkExternal: { option: '--check-external', kind: 'flag' },
  followNofollow: { option: '--follow-nofollow', kind: 'flag' },
  extraction: { option: '--extract', kind: 'json-list' },
  headers: { option: '--header', kind: 'headers' },
  basicAuth: { option: '--auth', kind: 'auth' },
  robots: { option: '--robots', kind: 'text' },
  delayMs: { option: '--delay', kind: 'number' },
  maxPerHost: { option: '--max-per-host', kind: 'number' },
  polite: { option: '--polite', kind: 'flag' },
  maxUrlsPerSecond: { option: '--max-rate', kind: 'number' },
  connectTimeoutMs: { option: '--connect-timeout', kind: 'number' },
  firstByteTimeoutMs: { option: '--first-byte-timeout', kind: 'number' },
  responseTimeoutMs: { option: '--timeout', kind: 'number' },
  processingBudgetMs: { option: '--processing-budget', kind: 'number' },
  maxBodyBytes: { option: '--max-body', kind: 'number' },
  maxAttempts: { option: '--max-attempts', kind: 'number' },
  retryDelayMs: { option: '--retry-delay', kind: 'number' },
  maxRetryAfterMs: { option: '--max-retry-after', kind: 'number' },
  render: { option: '--render', kind: 'flag' },
  renderWaitMs: { option: '--render-wait', kind: 'number' },
  viewport: { option: '--viewport', kind: 'text' },
  renderPages: { option: '--render-pages', kind: 'number' },
  renderBlock: { option: '--render-block', kind: 'list' },
  crawlLinkedSitemaps: { option: '--no-sitemaps', kind: 'off-flag' },
  crawlSitemapUrls: { option: '--no-sitemap-urls', kind: 'off-flag' },
  sitemaps: { option: '--sitemap', kind: 'list' },
  contentInclude: { option: '--content-include', kind: 'csv' },
  contentExclude: { option: '--content-exclude', kind: 'csv' },
};

/** A word for a POSIX shell: as it is when it is safe, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `npm run crawl -- ...` line that runs `settings`: the seeds, then every setting that differs from
 * `defaults` (the settings parsed from just the seeds). The credentials are printed as placeholders
 * (`--auth user:***`, `--header 'Cookie: ***'`: fill them in), since the line is copied to clipboards, chats and
 * shell histories; only `secrets: 'reveal'` prints them (the round-trip test of the options).
 */
export function cliCommandFor(
  settings: CrawlSettings,
  defaults: CrawlSettings,
  options: { secrets?: 'placeholders' | 'reveal' } = {},
): string {
  if (options.secrets !== 'reveal') settings = redactSecrets(settings);
  const words: string[] = ['npm', 'run', 'crawl', '--', ...settings.seeds];
  for (const [key, { option, kind }] of Object.entries(CLI_OPTION_OF) as [
    keyof typeof CLI_OPTION_OF,
    (typeof CLI_OPTION_OF)[keyof typeof CLI_OPTION_OF],
  ][]) {
    const value = settings[key];
    if (JSON.stringify(value) === JSON.stringify(defaults[key])) continue;
    if (kind === 'flag') {
      if (value === true) words.push(option);
    } else if (kind === 'off-flag') {
      if (value === false) words.push(option);
    } else if (kind === 'list') {
      for (const item of value as string[]) words.push(option, item);
    } else if (kind === 'headers') {
      for (const [name, v] of Object.entries(value as Record<string, string>)) words.push(option, `${name}: ${v}`);
    } else if (kind === 'auth') {
      const auth = value as { username: string; password: string } | null;
      if (auth) words.push(option, `${auth.username}:${auth.password}`);
    } else if (kind === 'json-list') {
      for (const item of value as object[]) words.push(option, JSON.stringify(item));
    } else if (kind === 'csv') {
      // An empty list against a default that is not (contentExclude) is given as ''.
      words.push(option, (value as string[]).join(','));
    } else if (value !== null) {
      words.push(option, String(value));
    }
  }
  return words.map(shellWord).join(' ');
}
