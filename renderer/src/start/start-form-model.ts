// The start form's model, with no React in it: the form's fields as typed (text, so a half-typed number stays
// as typed), the form filled from the host's defaults or a preset, the settings it sends, the command line it
// copies, and the host's problems mapped back onto fields and the collapsible groups that hold them.
import { DEFAULT_CONTENT_EXCLUDE } from '../../../shared/content.ts';
import type { CrawlDefaults } from '../../../shared/crawler-api.ts';
import { cliCommandFor } from '../../../shared/cli-command.ts';
import type { CrawlMode, CrawlSettings, CrawlSettingsInput, ResourceType, Scope, SettingsProblem } from '../../../shared/settings.ts';
import type { ParseKeys } from 'i18next';
import { formatInt } from '../format.ts';
import { i18next } from '../i18n/i18n.ts';
import { problemText } from '../i18n/host-messages.ts';
import type { RuleForm } from './rule-form.ts';

/** The start form's strings (i18n/en/start.ts), in the language shown when called. */
export const t = i18next.getFixedT(null, 'start');
/** A key of the start form's strings. */
export type StartKey = ParseKeys<'start'>;

/** A choice of the form whose label is read in the language shown when asked for. */
export function labelled<V extends string>(value: V, label: StartKey): { value: V; label: string } {
  return {
    value,
    get label() {
      return t(label);
    },
  };
}

/** A choice of the form whose label and explanation are read in the language shown when asked for. */
export function option<V extends string>(value: V, label: StartKey, explain: StartKey): { value: V; label: string; explain: string } {
  return {
    value,
    get label() {
      return t(label);
    },
    get explain() {
      return t(explain);
    },
  };
}

// The settings schema's enums, restated so the page does not import the validation library; `satisfies` keeps
// them in step with it.
/** Crawl modes, with what each does. */
export const MODE_OPTIONS = [
  option('spider', 'modes.spider', 'modes.spiderExplain'),
  option('list', 'modes.list', 'modes.listExplain'),
] as const satisfies readonly { value: CrawlMode; label: string; explain: string }[];
/** robots.txt modes. */
export const ROBOTS_MODES = ['respect', 'ignore', 'report'] as const satisfies readonly CrawlSettings['robots'][];
/** Crawl scopes, with what each means. */
export const SCOPE_OPTIONS = [
  option('same-host', 'scopes.sameHost', 'scopes.sameHostExplain'),
  option('subdomains', 'scopes.subdomains', 'scopes.subdomainsExplain'),
  option('domain', 'scopes.domain', 'scopes.domainExplain'),
  option('hosts', 'scopes.hosts', 'scopes.hostsExplain'),
] as const satisfies readonly { value: Scope; label: string; explain: string }[];
/** Resource types that can be checked, in the form's order. */
export const RESOURCE_OPTIONS = [
  Object.assign(labelled('images', 'resources.images'), { explain: '<img src>, srcset' }),
  Object.assign(labelled('scripts', 'resources.scripts'), { explain: '<script src>' }),
  Object.assign(labelled('stylesheets', 'resources.stylesheets'), { explain: '<link rel="stylesheet">' }),
] as const satisfies readonly { value: ResourceType; label: string; explain: string }[];
export interface StartForm {
  seeds: string;
  mode: CrawlMode;
  threads: string;
  maxDepth: string;
  maxPages: string;
  robots: CrawlSettings['robots'];
  userAgent: string;
  // Headers and authentication
  /** "Name: value", one a line. */
  headers: string;
  basicAuth: { username: string; password: string };
  // Custom extraction
  extraction: readonly RuleForm[];
  // Scope
  scope: Scope;
  /** One per line, as the list fields below. */
  allowedHosts: string;
  include: string;
  exclude: string;
  stripQueryParams: string;
  maxUrlLength: string;
  followNofollow: boolean;
  // What to check
  checkResources: readonly ResourceType[];
  checkExternal: boolean;
  // Duplicate content's content area (issue 18.1), one selector a line
  contentInclude: string;
  contentExclude: string;
  // JavaScript rendering
  render: boolean;
  renderWaitMs: string;
  viewport: string;
  renderPages: string;
  renderBlock: string;
  // XML sitemaps (issue 17)
  crawlLinkedSitemaps: boolean;
  crawlSitemapUrls: boolean;
  sitemaps: string;
  // Politeness and retries
  delayMs: string;
  polite: boolean;
  maxUrlsPerSecond: string;
  maxPerHost: string;
  maxAttempts: string;
  retryDelayMs: string;
  maxRetryAfterMs: string;
  // More
  processes: string;
  responseTimeoutMs: string;
  connectTimeoutMs: string;
  firstByteTimeoutMs: string;
  processingBudgetMs: string;
  maxBodyBytes: string;
}

/** Form fields typed one item a line; the host names their problems "<field>.<index among the non-blank lines>". */
export const LIST_FIELDS = [
  'seeds',
  'allowedHosts',
  'include',
  'exclude',
  'stripQueryParams',
  'renderBlock',
  'sitemaps',
  'contentInclude',
  'contentExclude',
] as const;
export type ListField = (typeof LIST_FIELDS)[number];

export function formFromDefaults(d: CrawlDefaults | null): StartForm {
  return formFromSettings(d?.settings);
}

/** The form showing `s` (a preset's settings over the defaults); seeds blank. */
export function formFromSettings(s: Omit<CrawlSettings, 'seeds'> | undefined): StartForm {
  const str = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  const lines = (v: readonly string[] | undefined) => (v ?? []).join('\n');
  return {
    seeds: '',
    mode: s?.mode ?? 'spider',
    threads: str(s?.threads ?? 5),
    maxDepth: str(s?.maxDepth),
    maxPages: str(s?.maxPages),
    robots: s?.robots ?? 'respect',
    userAgent: s?.userAgent ?? '',
    headers: headersText(s?.headers ?? {}),
    basicAuth: { username: s?.basicAuth?.username ?? '', password: s?.basicAuth?.password ?? '' },
    extraction: (s?.extraction ?? []).map((r) => ({
      name: r.name,
      type: r.type,
      expression: r.expression,
      output: r.output,
      attribute: r.attribute ?? '',
      all: r.all,
    })),
    scope: s?.scope ?? 'same-host',
    allowedHosts: lines(s?.allowedHosts),
    include: lines(s?.include),
    exclude: lines(s?.exclude),
    stripQueryParams: lines(s?.stripQueryParams),
    maxUrlLength: str(s?.maxUrlLength),
    followNofollow: s?.followNofollow ?? false,
    checkResources: s?.checkResources ?? [],
    checkExternal: s?.checkExternal ?? false,
    contentInclude: lines(s?.contentInclude),
    contentExclude: lines(s?.contentExclude ?? DEFAULT_CONTENT_EXCLUDE),
    render: s?.render ?? false,
    renderWaitMs: str(s?.renderWaitMs),
    viewport: s?.viewport ?? 'desktop',
    renderPages: str(s?.renderPages),
    renderBlock: lines(s?.renderBlock),
    crawlLinkedSitemaps: s?.crawlLinkedSitemaps ?? true,
    crawlSitemapUrls: s?.crawlSitemapUrls ?? true,
    sitemaps: lines(s?.sitemaps),
    delayMs: str(s?.delayMs ?? 0),
    polite: s?.polite ?? false,
    maxUrlsPerSecond: str(s?.maxUrlsPerSecond),
    maxPerHost: str(s?.maxPerHost),
    maxAttempts: str(s?.maxAttempts),
    retryDelayMs: str(s?.retryDelayMs),
    maxRetryAfterMs: str(s?.maxRetryAfterMs),
    processes: str(s?.processes),
    responseTimeoutMs: str(s?.responseTimeoutMs),
    connectTimeoutMs: str(s?.connectTimeoutMs),
    firstByteTimeoutMs: str(s?.firstByteTimeoutMs),
    processingBudgetMs: str(s?.processingBudgetMs),
    maxBodyBytes: str(s?.maxBodyBytes),
  };
}

/** The lines that are not blank, trimmed, with the line each came from (problems name "<field>.<index>"). */
export function seedLines(text: string): { seeds: string[]; lineOf: number[] } {
  const seeds: string[] = [];
  const lineOf: number[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, i) => {
    const t = line.trim();
    if (t) {
      seeds.push(t);
      lineOf.push(i + 1);
    }
  });
  return { seeds, lineOf };
}

/** A number when the text is one; blank is `blank`; anything else goes as typed so the host names the problem. */
function numeric(text: string, blank: null | undefined): number | string | null | undefined {
  const t = text.trim();
  if (t === '') return blank;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

export function settingsFromForm(form: StartForm): CrawlSettingsInput {
  const lines = (text: string) => seedLines(text).seeds;
  const input: Record<string, unknown> = {
    seeds: lines(form.seeds),
    mode: form.mode,
    threads: numeric(form.threads, undefined),
    maxDepth: numeric(form.maxDepth, null),
    maxPages: numeric(form.maxPages, null),
    robots: form.robots,
    userAgent: form.userAgent.trim() === '' ? undefined : form.userAgent,
    headers: parseHeaderLines(form.headers).headers,
    basicAuth: form.basicAuth.username.trim() === '' && form.basicAuth.password === '' ? null : { ...form.basicAuth },
    extraction: form.extraction.map(ruleFromForm),
    scope: form.scope,
    allowedHosts: lines(form.allowedHosts),
    include: lines(form.include),
    exclude: lines(form.exclude),
    stripQueryParams: lines(form.stripQueryParams),
    maxUrlLength: numeric(form.maxUrlLength, undefined),
    followNofollow: form.followNofollow,
    // In the form's order, whatever order they were ticked in.
    checkResources: RESOURCE_OPTIONS.map((o) => o.value).filter((t) => form.checkResources.includes(t)),
    checkExternal: form.checkExternal,
    contentInclude: lines(form.contentInclude),
    contentExclude: lines(form.contentExclude),
    render: form.render,
    renderWaitMs: numeric(form.renderWaitMs, undefined),
    viewport: form.viewport.trim() || undefined,
    renderPages: numeric(form.renderPages, null),
    renderBlock: lines(form.renderBlock),
    crawlLinkedSitemaps: form.crawlLinkedSitemaps,
    crawlSitemapUrls: form.crawlSitemapUrls,
    sitemaps: lines(form.sitemaps),
    delayMs: numeric(form.delayMs, undefined),
    polite: form.polite,
    maxUrlsPerSecond: numeric(form.maxUrlsPerSecond, null),
    maxPerHost: numeric(form.maxPerHost, null),
    maxAttempts: numeric(form.maxAttempts, undefined),
    retryDelayMs: numeric(form.retryDelayMs, undefined),
    maxRetryAfterMs: numeric(form.maxRetryAfterMs, undefined),
    processes: numeric(form.processes, null),
    responseTimeoutMs: numeric(form.responseTimeoutMs, undefined),
    connectTimeoutMs: numeric(form.connectTimeoutMs, undefined),
    firstByteTimeoutMs: numeric(form.firstByteTimeoutMs, undefined),
    processingBudgetMs: numeric(form.processingBudgetMs, undefined),
    maxBodyBytes: numeric(form.maxBodyBytes, undefined),
  };
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  // Wrong types go through on purpose: the host's validation says what is wrong, field by field.
  return input as CrawlSettingsInput;
}

/** The settings of the form without the seeds: what a preset keeps, and what a rule test runs with. */
export function settingsWithoutSeeds(form: StartForm): Omit<CrawlSettingsInput, 'seeds'> {
  const { seeds: _seeds, ...rest } = settingsFromForm(form);
  return rest;
}

/** A rule as the settings take it: the attribute only where it is read, the output only for CSS. */
export function ruleFromForm(rule: RuleForm): Record<string, unknown> {
  const css = rule.type === 'css';
  return {
    name: rule.name,
    type: rule.type,
    expression: rule.expression,
    output: css ? rule.output : 'text',
    ...(css && rule.output === 'attribute' ? { attribute: rule.attribute } : {}),
    all: rule.all,
  };
}

/** Headers a line each, as the form shows them. */
export function headersText(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/**
 * "Name: value" lines as headers. What only the form can see is a problem here (a line without a colon, a name
 * given twice); everything else about names and values is the host's to check.
 */
export function parseHeaderLines(text: string): { headers: Record<string, string>; problems: SettingsProblem[] } {
  const entries: [string, string][] = [];
  const problems: SettingsProblem[] = [];
  const { seeds: lines, lineOf } = seedLines(text);
  lines.forEach((line, i) => {
    const colon = line.indexOf(':');
    if (colon <= 0) {
      problems.push({ field: 'headers', message: t('problems.headerNoColon', { line: lineOf[i] }) });
      return;
    }
    const name = line.slice(0, colon).trim();
    if (entries.some(([n]) => n === name))
      problems.push({ field: 'headers', message: t('problems.headerTwice', { line: lineOf[i], name }) });
    entries.push([name, line.slice(colon + 1).trim()]);
  });
  // fromEntries: every name is an own property, "__proto__" included.
  return { headers: Object.fromEntries(entries), problems };
}

/** Problems the form finds before asking the host: the host could not see them once the lines are an object. */
export function formProblems(form: StartForm): SettingsProblem[] {
  return parseHeaderLines(form.headers).problems;
}

/**
 * The `npm run crawl -- ...` line for the form: its settings over the defaults (the command line checks them as
 * a crawl would), or null before the host's defaults are known.
 */
export function cliCommandFromForm(form: StartForm, defaults: CrawlDefaults | null): string | null {
  if (!defaults) return null;
  const settings = { ...defaults.settings, ...settingsFromForm(form) } as CrawlSettings;
  return cliCommandFor(settings, defaults.settings);
}

/** The largest list of URLs read from a file, in bytes. */
export const MAX_LIST_FILE_BYTES = 50 * 1024 * 1024;

/** The line numbers of each list field's items (see seedLines). */
export type LineNumbers = Partial<Record<ListField, readonly number[]>>;

export function lineNumbers(form: Pick<StartForm, ListField>): LineNumbers {
  return Object.fromEntries(LIST_FIELDS.map((f) => [f, seedLines(form[f]).lineOf]));
}

/**
 * Problems by form field: "include.2" goes under include, as "line 4: …" when the field is typed a line an item
 * (the index counts non-blank lines only); "checkResources.0" under checkResources.
 */
export function problemsByField(problems: readonly SettingsProblem[], lines: LineNumbers): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (field: string, message: string) => out.set(field, [...(out.get(field) ?? []), message]);
  for (const p of problems) {
    const m = /^([^.]+)\.(\d+)$/.exec(p.field);
    const keyed = /^(headers|basicAuth)\.(.+)$/.exec(p.field);
    if (keyed) {
      // "headers.X-Token", "basicAuth.username": under the field, naming the header or the part.
      const message = problemText(p);
      add(keyed[1]!, message.includes(`"${keyed[2]}"`) ? message : `${keyed[2]}: ${message}`);
    } else if (m) {
      const line = (lines as Record<string, readonly number[] | undefined>)[m[1]!]?.[Number(m[2])];
      add(m[1]!, line ? t('problems.onLine', { line, message: problemText(p) }) : problemText(p));
    } else add(p.field, problemText(p));
  }
  return out;
}

/** The collapsible groups of the form, and the fields in each (a group with a problem opens). */
export const FORM_GROUPS = {
  scope: ['scope', 'allowedHosts', 'include', 'exclude', 'stripQueryParams', 'maxUrlLength', 'followNofollow'],
  request: ['headers', 'basicAuth'],
  extraction: ['extraction'],
  check: ['checkResources', 'checkExternal', 'contentInclude', 'contentExclude'],
  render: ['render', 'renderWaitMs', 'viewport', 'renderPages', 'renderBlock'],
  sitemaps: ['crawlLinkedSitemaps', 'crawlSitemapUrls', 'sitemaps'],
  politeness: ['delayMs', 'polite', 'maxUrlsPerSecond', 'maxPerHost', 'maxAttempts', 'retryDelayMs', 'maxRetryAfterMs'],
  more: ['processes', 'responseTimeoutMs', 'connectTimeoutMs', 'firstByteTimeoutMs', 'processingBudgetMs', 'maxBodyBytes'],
} as const satisfies Record<string, readonly (keyof StartForm)[]>;
export type FormGroup = keyof typeof FORM_GROUPS;

/** Every field the form shows; a problem with any other field is listed under the form. */
export const FORM_FIELDS = new Set<string>([
  'seeds',
  'mode',
  'threads',
  'maxDepth',
  'maxPages',
  'robots',
  'userAgent',
  ...Object.values(FORM_GROUPS).flat(),
]);

/** The groups holding a field with a problem. */
export function groupsWithProblems(problems: readonly SettingsProblem[]): Set<FormGroup> {
  const fields = new Set(problems.map((p) => p.field.split('.')[0] ?? ''));
  const groups = new Set<FormGroup>();
  for (const [group, members] of Object.entries(FORM_GROUPS) as [FormGroup, readonly string[]][]) {
    if (members.some((f) => fields.has(f))) groups.add(group);
  }
  return groups;
}

/** Options of a count: `count` picks the plural, `n` is shown (formatted as numbers are). */
const counted = (n: number) => ({ count: n, n: formatInt(n) });

/** What a closed group is set to, in a few words: the form stays short and still shows every setting. */
export function groupSummary(group: FormGroup, form: StartForm): string {
  const n = (field: ListField) => seedLines(form[field]).seeds.length;
  const parts: string[] = [];
  switch (group) {
    case 'scope': {
      parts.push(SCOPE_OPTIONS.find((o) => o.value === form.scope)?.label ?? form.scope);
      if (n('allowedHosts')) parts.push(t('summary.hosts', counted(n('allowedHosts'))));
      if (n('include')) parts.push(t('summary.include', counted(n('include'))));
      if (n('exclude')) parts.push(t('summary.exclude', counted(n('exclude'))));
      if (n('stripQueryParams')) parts.push(t('summary.stripped', counted(n('stripQueryParams'))));
      if (form.followNofollow) parts.push(t('summary.followsNofollow'));
      break;
    }
    case 'request': {
      const headers = Object.keys(parseHeaderLines(form.headers).headers).length;
      parts.push(headers ? t('summary.headers', counted(headers)) : t('summary.none'));
      if (form.basicAuth.username.trim()) parts.push(t('summary.basicAuthAs', { user: form.basicAuth.username.trim() }));
      break;
    }
    case 'extraction': {
      const names = form.extraction.map((r) => r.name.trim()).filter(Boolean);
      parts.push(
        form.extraction.length ? t('summary.rules', { ...counted(form.extraction.length), names: names.join(', ') }) : t('summary.none'),
      );
      break;
    }
    case 'check': {
      const types = RESOURCE_OPTIONS.filter((o) => form.checkResources.includes(o.value)).map((o) => o.value);
      parts.push([t('summary.pages'), ...types].join(', '));
      if (form.checkExternal) parts.push(t('summary.externalLinks'));
      break;
    }
    case 'render': {
      parts.push(form.render ? t('summary.rendering', { viewport: form.viewport }) : t('summary.notRendering'));
      break;
    }
    case 'sitemaps': {
      parts.push(form.crawlLinkedSitemaps ? t('summary.linkedSitemaps') : t('summary.noLinkedSitemaps'));
      if (n('sitemaps')) parts.push(t('summary.givenSitemaps', counted(n('sitemaps'))));
      if (!form.crawlSitemapUrls) parts.push(t('summary.sitemapUrlsRecorded'));
      break;
    }
    case 'politeness': {
      const delay = form.delayMs.trim();
      if (form.polite) parts.push(t('summary.politePreset'));
      else parts.push(delay === '' || delay === '0' ? t('summary.noDelay') : t('summary.delay', { ms: delay }));
      if (form.maxUrlsPerSecond.trim()) parts.push(t('summary.urlsPerSecond', { n: form.maxUrlsPerSecond.trim() }));
      if (form.maxPerHost.trim()) parts.push(t('summary.perHost', { n: form.maxPerHost.trim() }));
      const attempts = form.maxAttempts.trim();
      if (attempts) parts.push(attempts === '1' ? t('summary.noRetries') : t('summary.attempts', { n: attempts }));
      break;
    }
    case 'more': {
      const processes = form.processes.trim();
      if (processes) parts.push(t('summary.processes', { count: Number(processes), n: processes }));
      const timeout = form.responseTimeoutMs.trim();
      const seconds = Number(timeout) / 1000;
      if (timeout)
        parts.push(Number.isFinite(seconds) ? t('summary.timeoutSeconds', { seconds }) : t('summary.timeout', { value: timeout }));
      if (!parts.length) parts.push(t('summary.moreNothingSet'));
      break;
    }
  }
  return parts.join(' · ');
}
