// A new crawl: seed URLs (one a line; paste many) and every setting of the crawl, each showing its default: the
// ones that matter most always in view, the rest in groups (scope, what to check, politeness and retries) that
// say what they are set to while closed. The host validates; whatever it refuses comes back field by field and is
// shown under that field, its group opened.
import { useEffect, useId, useMemo, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import type { CrawlDefaults, CrawlPreset } from '../../../shared/crawler-api.ts';
import { cliCommandFor } from '../../../shared/cli-command.ts';
import { userAgentChoiceOf, userAgentChoices } from '../../../shared/user-agents.ts';
import { copyText } from '../clipboard.ts';
import type { CrawlMode, CrawlSettings, CrawlSettingsInput, ResourceType, Scope, SettingsProblem } from '../../../shared/settings.ts';
import { formatBytes, formatInt } from '../format.ts';
import { isLiveState, notify, showCrawl } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useBusyCommand } from './use-command.ts';
import { RuleEditor } from './RuleEditor.tsx';
import type { RuleForm } from './RuleEditor.tsx';
import { PatternTester } from './PatternTester.tsx';
import { PresetsPanel, presetsSummary, usePresets } from './PresetsBar.tsx';

// The settings schema's enums, restated so the page does not import the validation library; `satisfies` keeps
// them in step with it.
/** Crawl modes, with what each does. */
export const MODE_OPTIONS = [
  { value: 'spider', label: 'Follow links', explain: 'crawl the seeds and the pages they link to, within the scope' },
  { value: 'list', label: 'Only these URLs', explain: 'crawl exactly the URLs listed (redirects followed, links recorded, not followed)' },
] as const satisfies readonly { value: CrawlMode; label: string; explain: string }[];
/** robots.txt modes. */
const ROBOTS_MODES = ['respect', 'ignore', 'report'] as const satisfies readonly CrawlSettings['robots'][];
/** Crawl scopes, with what each means. */
export const SCOPE_OPTIONS = [
  { value: 'same-host', label: 'same host', explain: "the seeds' hosts (host:port); http and https count as one" },
  { value: 'subdomains', label: 'subdomains', explain: "the seeds' host names and every name below them, on any port" },
  { value: 'domain', label: 'whole domain', explain: "the seeds' registrable domains (example.co.uk) and every name below them" },
  { value: 'hosts', label: 'listed hosts', explain: "the seeds' hosts and those listed under Allowed hosts" },
] as const satisfies readonly { value: Scope; label: string; explain: string }[];
/** Resource types that can be checked, in the form's order. */
export const RESOURCE_OPTIONS = [
  { value: 'images', label: 'Images', explain: '<img src>, srcset' },
  { value: 'scripts', label: 'Scripts', explain: '<script src>' },
  { value: 'stylesheets', label: 'Stylesheets', explain: '<link rel="stylesheet">' },
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
  maxBodyBytes: string;
}

/** Form fields typed one item a line; the host names their problems "<field>.<index among the non-blank lines>". */
export const LIST_FIELDS = ['seeds', 'allowedHosts', 'include', 'exclude', 'stripQueryParams'] as const;
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
    extraction: (s?.extraction ?? []).map((r) => ({ name: r.name, type: r.type, expression: r.expression, output: r.output, attribute: r.attribute ?? '', all: r.all })),
    scope: s?.scope ?? 'same-host',
    allowedHosts: lines(s?.allowedHosts),
    include: lines(s?.include),
    exclude: lines(s?.exclude),
    stripQueryParams: lines(s?.stripQueryParams),
    maxUrlLength: str(s?.maxUrlLength),
    followNofollow: s?.followNofollow ?? false,
    checkResources: s?.checkResources ?? [],
    checkExternal: s?.checkExternal ?? false,
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
      problems.push({ field: 'headers', message: `line ${lineOf[i]}: write "Name: value"` });
      return;
    }
    const name = line.slice(0, colon).trim();
    if (entries.some(([n]) => n === name)) problems.push({ field: 'headers', message: `line ${lineOf[i]}: "${name}" is given twice` });
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
      add(keyed[1]!, p.message.includes(`"${keyed[2]}"`) ? p.message : `${keyed[2]}: ${p.message}`);
    } else if (m) {
      const line = (lines as Record<string, readonly number[] | undefined>)[m[1]!]?.[Number(m[2])];
      add(m[1]!, line ? `line ${line}: ${p.message}` : p.message);
    } else add(p.field, p.message);
  }
  return out;
}

/** The collapsible groups of the form, and the fields in each (a group with a problem opens). */
export const FORM_GROUPS = {
  scope: ['scope', 'allowedHosts', 'include', 'exclude', 'stripQueryParams', 'maxUrlLength', 'followNofollow'],
  request: ['headers', 'basicAuth'],
  extraction: ['extraction'],
  check: ['checkResources', 'checkExternal'],
  politeness: ['delayMs', 'polite', 'maxUrlsPerSecond', 'maxPerHost', 'maxAttempts', 'retryDelayMs', 'maxRetryAfterMs'],
  more: ['processes', 'responseTimeoutMs', 'connectTimeoutMs', 'firstByteTimeoutMs', 'maxBodyBytes'],
} as const satisfies Record<string, readonly (keyof StartForm)[]>;
export type FormGroup = keyof typeof FORM_GROUPS;

const FORM_FIELDS = new Set<string>(['seeds', 'mode', 'threads', 'maxDepth', 'maxPages', 'robots', 'userAgent', ...Object.values(FORM_GROUPS).flat()]);

/** The groups holding a field with a problem. */
export function groupsWithProblems(problems: readonly SettingsProblem[]): Set<FormGroup> {
  const fields = new Set(problems.map((p) => p.field.split('.')[0] ?? ''));
  const groups = new Set<FormGroup>();
  for (const [group, members] of Object.entries(FORM_GROUPS) as [FormGroup, readonly string[]][]) {
    if (members.some((f) => fields.has(f))) groups.add(group);
  }
  return groups;
}

const count = (n: number, one: string, many = `${one}s`) => `${formatInt(n)} ${n === 1 ? one : many}`;

/** What a closed group is set to, in a few words: the form stays short and still shows every setting. */
export function groupSummary(group: FormGroup, form: StartForm): string {
  const n = (field: ListField) => seedLines(form[field]).seeds.length;
  const parts: string[] = [];
  switch (group) {
    case 'scope': {
      parts.push(SCOPE_OPTIONS.find((o) => o.value === form.scope)?.label ?? form.scope);
      if (n('allowedHosts')) parts.push(`+${count(n('allowedHosts'), 'host')}`);
      if (n('include')) parts.push(`${formatInt(n('include'))} include`);
      if (n('exclude')) parts.push(`${formatInt(n('exclude'))} exclude`);
      if (n('stripQueryParams')) parts.push(`${count(n('stripQueryParams'), 'param')} stripped`);
      if (form.followNofollow) parts.push('follows nofollow');
      break;
    }
    case 'request': {
      const headers = Object.keys(parseHeaderLines(form.headers).headers).length;
      parts.push(headers ? count(headers, 'header') : 'none');
      if (form.basicAuth.username.trim()) parts.push(`basic auth as ${form.basicAuth.username.trim()}`);
      break;
    }
    case 'extraction': {
      const names = form.extraction.map((r) => r.name.trim()).filter(Boolean);
      parts.push(form.extraction.length ? `${count(form.extraction.length, 'rule')}: ${names.join(', ')}` : 'none');
      break;
    }
    case 'check': {
      const types = RESOURCE_OPTIONS.filter((o) => form.checkResources.includes(o.value)).map((o) => o.value);
      parts.push(['pages', ...types].join(', '));
      if (form.checkExternal) parts.push('external links');
      break;
    }
    case 'politeness': {
      const delay = form.delayMs.trim();
      if (form.polite) parts.push('polite preset');
      else parts.push(delay === '' || delay === '0' ? 'no delay' : `${delay} ms delay`);
      if (form.maxUrlsPerSecond.trim()) parts.push(`≤ ${form.maxUrlsPerSecond.trim()} URLs/s`);
      if (form.maxPerHost.trim()) parts.push(`≤ ${form.maxPerHost.trim()} per host`);
      const attempts = form.maxAttempts.trim();
      if (attempts) parts.push(attempts === '1' ? 'no retries' : `${attempts} attempts`);
      break;
    }
    case 'more': {
      const processes = form.processes.trim();
      if (processes) parts.push(`${processes} ${processes === '1' ? 'process' : 'processes'}`);
      const timeout = form.responseTimeoutMs.trim();
      const seconds = Number(timeout) / 1000;
      if (timeout) parts.push(Number.isFinite(seconds) ? `${seconds} s timeout` : `timeout ${timeout}`);
      if (!parts.length) parts.push('processes, timeouts, body size');
      break;
    }
  }
  return parts.join(' · ');
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export function StartPanel() {
  const api = useApi();
  const store = useCrawlStore();
  const defaults = useCrawl((s) => s.defaults);
  // A cluster crawl in view is not in the way: starting a local crawl detaches from it.
  const live = useCrawl((s) => isLiveState(s.state) && s.opened === null && s.cluster === null);
  const [form, setForm] = useState<StartForm>(() => formFromDefaults(defaults));
  const [touched, setTouched] = useState(false);
  const [problems, setProblems] = useState<SettingsProblem[]>([]);
  const [open, setOpen] = useState<ReadonlySet<FormGroup>>(() => new Set());
  const [presetsOpen, setPresetsOpen] = useState(false);
  const presets = usePresets();
  const [busy, run] = useBusyCommand();
  const ids = useId();

  // The host's defaults arrive after the first render; fill them in unless the analyst already typed.
  useEffect(() => {
    if (defaults && !touched) setForm((f) => ({ ...formFromDefaults(defaults), seeds: f.seeds }));
  }, [defaults, touched]);

  const seeds = useMemo(() => seedLines(form.seeds).seeds, [form.seeds]);
  const lines = useMemo(() => lineNumbers(form), [form]);
  const errors = useMemo(() => problemsByField(problems, lines), [problems, lines]);
  const otherProblems = problems.filter((p) => !FORM_FIELDS.has(p.field.split('.')[0] ?? ''));
  const groupsInError = useMemo(() => groupsWithProblems(problems), [problems]);

  const set = <K extends keyof StartForm>(key: K, value: StartForm[K]) => {
    setTouched(true);
    setForm((f) => ({ ...f, [key]: value }));
    if (problems.length) setProblems((ps) => ps.filter((p) => p.field.split('.')[0] !== key));
  };

  /** Shows problems found outside a start (a rule test, a preset save), opening their groups. */
  const showProblems = (found: SettingsProblem[]) => {
    setProblems(found);
    const inError = groupsWithProblems(found);
    if (inError.size) setOpen((g) => new Set([...g, ...inError]));
  };

  const loadPreset = (preset: CrawlPreset) => {
    setTouched(true);
    setProblems([]);
    // Over the defaults: a setting newer than the preset takes its default.
    setForm((f) => ({ ...formFromSettings({ ...defaults?.settings, ...preset.settings } as Omit<CrawlSettings, 'seeds'>), seeds: f.seeds }));
    notify(store, 'info', `Loaded preset "${preset.name}"`);
  };

  const copyCommand = async () => {
    const command = cliCommandFromForm(form, defaults);
    if (command === null) return;
    const ok = await copyText(command);
    notify(store, ok ? 'info' : 'error', ok ? `Copied: ${command}` : 'Could not copy the command');
  };

  const readListFile = async (file: File) => {
    if (file.size > MAX_LIST_FILE_BYTES) {
      notify(store, 'error', `${file.name} is larger than ${formatBytes(MAX_LIST_FILE_BYTES)}; split the list`);
      return;
    }
    try {
      const text = await file.text();
      const n = seedLines(text).seeds.length;
      set('seeds', text);
      notify(store, 'info', `Read ${formatInt(n)} URL${n === 1 ? '' : 's'} from ${file.name}`);
    } catch (err) {
      notify(store, 'error', `Could not read ${file.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const toggleGroup = (group: FormGroup, isOpen: boolean) =>
    setOpen((g) => {
      if (g.has(group) === isOpen) return g;
      const next = new Set(g);
      if (isOpen) next.add(group);
      else next.delete(group);
      return next;
    });

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (busy || live) return;
    const local = formProblems(form);
    if (local.length) return showProblems(local);
    const result = await run('Start', () => api.start(settingsFromForm(form)));
    if (!result) return;
    if (result.ok) {
      setProblems([]);
      showCrawl(store, result.file, null);
    } else {
      // A problem in a closed group must not go unseen.
      showProblems(result.problems);
    }
  };

  const d = defaults?.settings;
  const field = (name: keyof StartForm) => ({
    id: `${ids}-${name}`,
    'data-testid': `setting-${kebab(name)}`,
    'aria-invalid': errors.has(name) || undefined,
    'aria-describedby': errors.has(name) ? `${ids}-${name}-error` : undefined,
  });
  const err = (name: string) => <FieldError id={`${ids}-${name}-error`} messages={errors.get(name)} />;
  const num = (name: keyof StartForm & NumberFieldName) => ({ ...field(name), value: form[name], onChange: (v: string) => set(name, v) });
  const list = (name: ListField, label: string, hint: string, placeholder: string) => (
    <LinesField label={label} hint={hint} placeholder={placeholder} error={err(name)} input={{ ...field(name), name, value: form[name], onChange: (v) => set(name, v) }} />
  );
  const group = (name: FormGroup, title: string, children: ReactNode) => (
    <details
      className="advanced form-group"
      data-testid={`group-${name}`}
      data-invalid={groupsInError.has(name) || undefined}
      open={open.has(name)}
      onToggle={(e) => toggleGroup(name, e.currentTarget.open)}
    >
      <summary>
        <span className="group-title">{title}</span>
        <span className="group-summary">{groupSummary(name, form)}</span>
      </summary>
      <div className="group-body">{children}</div>
    </details>
  );
  const scopeOption = SCOPE_OPTIONS.find((o) => o.value === form.scope);
  const uaChoices = userAgentChoices(d?.userAgent ?? form.userAgent);
  const userAgentChoice = d ? userAgentChoiceOf(form.userAgent, d.userAgent) : null;

  return (
    <form className="panel start-panel" onSubmit={(e) => void submit(e)} aria-label="new crawl" noValidate>
      <div className="panel-bar">
        <h2 className="panel-title">New crawl</h2>
        <span className="panel-note">{seeds.length ? `${formatInt(seeds.length)} seed URL${seeds.length === 1 ? '' : 's'}` : ''}</span>
      </div>
      <div className="form-body">
        <details className="advanced form-group form-group-presets" data-testid="group-presets" open={presetsOpen} onToggle={(e) => setPresetsOpen(e.currentTarget.open)}>
          <summary>
            <span className="group-title">Presets</span>
            <span className="group-summary">{presetsSummary(presets.presets, presets.error)}</span>
          </summary>
          <div className="group-body">
            <PresetsPanel
              idPrefix={ids}
              state={presets}
              current={() => settingsWithoutSeeds(form)}
              formProblems={() => formProblems(form)}
              onLoad={loadPreset}
              onProblems={showProblems}
            />
          </div>
        </details>

        <label className="field field-wide" htmlFor={`${ids}-seeds`}>
          <span className="field-label">{form.mode === 'list' ? 'URLs to crawl, one per line' : 'Seed URLs, one per line'}</span>
          <textarea
            {...field('seeds')}
            name="seeds"
            className="seeds"
            rows={5}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            placeholder={'https://example.com/\nhttps://docs.example.com/start'}
            value={form.seeds}
            onChange={(e) => set('seeds', e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit();
            }}
          />
          {err('seeds')}
        </label>
        {form.mode === 'list' && (
          <label className="field file-field" htmlFor={`${ids}-list-file`}>
            <span className="field-label">Or upload a list</span>
            <input
              id={`${ids}-list-file`}
              data-testid="list-file"
              type="file"
              accept=".txt,.csv,text/plain"
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = '';
                if (file) void readListFile(file);
              }}
            />
            <span className="field-hint">a .txt file of URLs, one per line; read here, replacing the list above</span>
          </label>
        )}

        <fieldset className="check-set" aria-describedby={errors.has('mode') ? `${ids}-mode-error` : undefined}>
          <legend className="field-label">Mode</legend>
          <div className="check-row">
            {MODE_OPTIONS.map((o) => (
              <label key={o.value} className="check" htmlFor={`${ids}-mode-${o.value}`} title={o.explain}>
                <input
                  id={`${ids}-mode-${o.value}`}
                  data-testid={`setting-mode-${o.value}`}
                  type="radio"
                  name="mode"
                  value={o.value}
                  aria-invalid={errors.has('mode') || undefined}
                  checked={form.mode === o.value}
                  onChange={() => set('mode', o.value)}
                />
                <span className="check-label">{o.label}</span>
              </label>
            ))}
          </div>
          <span className="field-hint">
            {MODE_OPTIONS.find((o) => o.value === form.mode)?.explain}; default {MODE_OPTIONS.find((o) => o.value === (d?.mode ?? 'spider'))?.label.toLowerCase()}
          </span>
          {err('mode')}
        </fieldset>

        <div className="field-grid">
          <NumberField label="Threads" hint={`default ${d?.threads ?? 5}, 1–${defaults?.limits.threads.max ?? 200}`} error={err('threads')} input={num('threads')} />
          {form.mode === 'list' ? (
            <NumberField label="Max depth" hint="list mode: the listed URLs only" placeholder="0" error={err('maxDepth')} input={{ ...num('maxDepth'), value: '', disabled: true }} />
          ) : (
            <NumberField label="Max depth" hint="blank: unlimited" placeholder="unlimited" error={err('maxDepth')} input={num('maxDepth')} />
          )}
          <NumberField label="Max pages" hint="blank: unlimited" placeholder="unlimited" error={err('maxPages')} input={num('maxPages')} />
          <label className="field" htmlFor={`${ids}-robots`}>
            <span className="field-label">robots.txt</span>
            <select {...field('robots')} value={form.robots} onChange={(e) => set('robots', ROBOTS_MODES.find((m) => m === e.currentTarget.value) ?? 'respect')}>
              <option value="respect">respect</option>
              <option value="ignore">ignore</option>
              <option value="report">fetch all, report disallowed</option>
            </select>
            <span className="field-hint">default {d?.robots ?? 'respect'}</span>
            {err('robots')}
          </label>
        </div>

        <label className="field field-wide" htmlFor={`${ids}-userAgent`}>
          <span className="field-label">User agent</span>
          <select
            id={`${ids}-userAgentChoice`}
            data-testid="setting-user-agent-choice"
            aria-label="user agent preset"
            value={userAgentChoice?.id ?? 'custom'}
            onChange={(e) => {
              const choice = uaChoices.find((c) => c.id === e.currentTarget.value);
              // Custom keeps what is typed, for editing.
              if (choice) set('userAgent', choice.value);
            }}
          >
            {uaChoices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
            <option value="custom">Custom…</option>
          </select>
          <input {...field('userAgent')} type="text" spellCheck={false} value={form.userAgent} placeholder={d?.userAgent ?? ''} onChange={(e) => set('userAgent', e.currentTarget.value)} />
          <span className="field-hint">only the header changes; robots.txt is read for Trawl's group or *</span>
          {err('userAgent')}
        </label>

        {group(
          'scope',
          'Scope',
          <>
            <label className="field field-wide" htmlFor={`${ids}-scope`}>
              <span className="field-label">Hosts crawled</span>
              <select {...field('scope')} value={form.scope} onChange={(e) => set('scope', SCOPE_OPTIONS.find((o) => o.value === e.currentTarget.value)?.value ?? 'same-host')}>
                {SCOPE_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label} ({o.value})
                  </option>
                ))}
              </select>
              <span className="field-hint">
                {scopeOption?.explain}; default {d?.scope ?? 'same-host'}
              </span>
              {err('scope')}
            </label>
            {list('allowedHosts', 'Allowed hosts, one per line', 'crawled in every scope, e.g. cdn.example.com or example.com:8080; "listed hosts" needs one', 'none')}
            {list('include', 'Include, one regex per line', 'when any are given, only URLs matching one are crawled', 'every URL')}
            {list('exclude', 'Exclude, one regex per line', 'URLs matching any are not crawled (regexes are case-sensitive, matched anywhere in the URL)', 'none')}
            {list('stripQueryParams', 'Strip query parameters, one per line', 'removed before URLs are compared; utm_* matches a prefix', 'none')}
            <div className="field-grid">
              <NumberField
                label="Max URL length"
                hint={`default ${formatInt(d?.maxUrlLength ?? 2048)}, 64–8,192`}
                error={err('maxUrlLength')}
                input={num('maxUrlLength')}
              />
            </div>
            <Check
              label="Follow nofollow links"
              hint={'rel="nofollow" and pages whose meta robots or X-Robots-Tag says nofollow; default: recorded, not followed'}
              error={err('followNofollow')}
              input={{ ...field('followNofollow'), checked: form.followNofollow, onChange: (v) => set('followNofollow', v) }}
            />
            <PatternTester idPrefix={ids} form={form} scopeLabel={scopeOption?.label ?? form.scope} />
          </>,
        )}

        {group(
          'request',
          'Headers & authentication',
          <>
            <label className="field field-wide" htmlFor={`${ids}-headers`}>
              <span className="field-label">Request headers, "Name: value" per line</span>
              <textarea
                {...field('headers')}
                className="list-input"
                rows={Math.min(8, Math.max(2, form.headers.split('\n').length))}
                spellCheck={false}
                autoCapitalize="off"
                autoCorrect="off"
                placeholder={'Cookie: session=…\nAccept-Language: en-GB'}
                value={form.headers}
                onChange={(e) => set('headers', e.currentTarget.value)}
              />
              <span className="field-hint">added to every request; default none</span>
              {err('headers')}
            </label>
            <fieldset className="check-set" aria-describedby={errors.has('basicAuth') ? `${ids}-basicAuth-error` : undefined}>
              <legend className="field-label">HTTP basic authentication</legend>
              <div className="field-grid">
                <label className="field" htmlFor={`${ids}-auth-username`}>
                  <span className="field-hint">Username</span>
                  <input
                    id={`${ids}-auth-username`}
                    data-testid="setting-basic-auth-username"
                    type="text"
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="none"
                    aria-invalid={errors.has('basicAuth') || undefined}
                    value={form.basicAuth.username}
                    onChange={(e) => set('basicAuth', { ...form.basicAuth, username: e.currentTarget.value })}
                  />
                </label>
                <label className="field" htmlFor={`${ids}-auth-password`}>
                  <span className="field-hint">Password</span>
                  <input
                    id={`${ids}-auth-password`}
                    data-testid="setting-basic-auth-password"
                    type="password"
                    autoComplete="new-password"
                    aria-invalid={errors.has('basicAuth') || undefined}
                    value={form.basicAuth.password}
                    onChange={(e) => set('basicAuth', { ...form.basicAuth, password: e.currentTarget.value })}
                  />
                </label>
              </div>
              {err('basicAuth')}
            </fieldset>
            <p className="form-note" data-testid="credentials-note">
              Headers and credentials are sent only to hosts in the crawl's scope (never to external links checked), and are kept in the crawl file with
              every other setting, in plain text.
            </p>
          </>,
        )}

        {group(
          'extraction',
          'Custom extraction',
          <>
            <RuleEditor
              idPrefix={ids}
              rules={form.extraction}
              onChange={(rules) => set('extraction', rules)}
              errors={errors}
              firstSeed={seeds[0] ?? ''}
              settingsForTest={() => settingsWithoutSeeds(form)}
              onProblems={showProblems}
            />
            <span className="field-hint">each rule adds a column to the results and the CSV; a CSS rule reads each element it selects, a regex runs over the HTML source</span>
          </>,
        )}

        {group(
          'check',
          'What to check',
          <>
            <fieldset className="check-set" aria-describedby={errors.has('checkResources') ? `${ids}-checkResources-error` : undefined}>
              <legend className="field-label">Resources, fetched for their status (never parsed)</legend>
              <div className="check-row">
                {RESOURCE_OPTIONS.map((o) => (
                  <label key={o.value} className="check" htmlFor={`${ids}-check-${o.value}`} title={o.explain}>
                    <input
                      id={`${ids}-check-${o.value}`}
                      data-testid={`setting-check-${o.value}`}
                      type="checkbox"
                      aria-invalid={errors.has('checkResources') || undefined}
                      checked={form.checkResources.includes(o.value)}
                      onChange={(e) => {
                        const others = form.checkResources.filter((t) => t !== o.value);
                        set('checkResources', e.currentTarget.checked ? [...others, o.value] : others);
                      }}
                    />
                    <span className="check-label">{o.label}</span>
                  </label>
                ))}
              </div>
              <span className="field-hint">
                {RESOURCE_OPTIONS.map((o) => o.explain).join(', ')}; default {d?.checkResources.length ? d.checkResources.join(', ') : 'none: pages only'}
              </span>
              {err('checkResources')}
            </fieldset>
            <Check
              label="Check external links"
              hint="fetch links out of scope once for their status, never following them further; default off"
              error={err('checkExternal')}
              input={{ ...field('checkExternal'), checked: form.checkExternal, onChange: (v) => set('checkExternal', v) }}
            />
          </>,
        )}

        {group(
          'politeness',
          'Politeness & retries',
          <>
            <div className="field-grid">
              <NumberField label="Delay per host, ms" hint={`default ${formatInt(d?.delayMs ?? 0)}`} error={err('delayMs')} input={num('delayMs')} />
              <NumberField label="URLs/s cap" hint="blank: no cap" placeholder="no cap" error={err('maxUrlsPerSecond')} input={num('maxUrlsPerSecond')} />
              <NumberField label="Max per host" hint="fetches at once; blank: as many as threads" placeholder="threads" error={err('maxPerHost')} input={num('maxPerHost')} />
              <NumberField label="Max attempts" hint={`per URL, default ${d?.maxAttempts ?? 3}, 1–10`} error={err('maxAttempts')} input={num('maxAttempts')} />
              <NumberField label="Retry delay, ms" hint={`first retry, doubling; default ${formatInt(d?.retryDelayMs ?? 1000)}`} error={err('retryDelayMs')} input={num('retryDelayMs')} />
              <NumberField label="Max Retry-After, ms" hint={`honoured up to; default ${formatInt(d?.maxRetryAfterMs ?? 60000)}`} error={err('maxRetryAfterMs')} input={num('maxRetryAfterMs')} />
            </div>
            <Check
              label="Polite preset"
              hint="one fetch at a time per host, then wait 5× its fetch time (3–30 s)"
              error={err('polite')}
              input={{ ...field('polite'), checked: form.polite, onChange: (v) => set('polite', v) }}
            />
          </>,
        )}

        {group(
          'more',
          'More settings',
          <div className="field-grid">
            <NumberField label="Worker processes" hint="blank: cores − 1" placeholder="auto" error={err('processes')} input={num('processes')} />
            <NumberField label="Response timeout, ms" hint={`default ${formatInt(d?.responseTimeoutMs ?? 20000)}`} error={err('responseTimeoutMs')} input={num('responseTimeoutMs')} />
            <NumberField label="Connect timeout, ms" hint={`default ${formatInt(d?.connectTimeoutMs ?? 10000)}`} error={err('connectTimeoutMs')} input={num('connectTimeoutMs')} />
            <NumberField label="First-byte timeout, ms" hint={`to the response head; default ${formatInt(d?.firstByteTimeoutMs ?? 15000)}`} error={err('firstByteTimeoutMs')} input={num('firstByteTimeoutMs')} />
            <NumberField label="Max body, bytes" hint={`default ${formatBytes(d?.maxBodyBytes ?? 10485760)}`} error={err('maxBodyBytes')} input={num('maxBodyBytes')} />
          </div>,
        )}

        {otherProblems.length > 0 && (
          <ul className="form-problems" role="alert">
            {otherProblems.map((p, i) => (
              <li key={i}>
                {p.field}: {p.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" data-testid="start" disabled={busy || live} title={live ? 'A crawl is running; stop it first' : 'Start crawling (Ctrl+Enter)'}>
          <span className="icon icon-play" aria-hidden="true" />
          {busy ? 'Starting…' : 'Start crawl'}
        </button>
        <div className="form-secondary">
          <button
            type="button"
            className="btn btn-quiet btn-small"
            data-testid="copy-cli"
            disabled={!defaults}
            title="Copy the npm run crawl -- … line that runs these settings"
            onClick={() => void copyCommand()}
          >
            Copy as CLI command
          </button>
          {touched && (
            <button
              type="button"
              className="btn btn-quiet btn-small"
              onClick={() => {
                setForm((f) => ({ ...formFromDefaults(defaults), seeds: f.seeds }));
                setTouched(false);
                setProblems([]);
              }}
            >
              Reset settings
            </button>
          )}
        </div>
      </div>
    </form>
  );
}

/** The form fields typed as numbers. */
type NumberFieldName = {
  [K in keyof StartForm]: StartForm[K] extends string ? (K extends ListField | 'userAgent' | 'headers' ? never : K) : never;
}[keyof StartForm];

interface FieldAttrs {
  id: string;
  'data-testid': string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface NumberInput extends FieldAttrs {
  value: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}

function NumberField({ label, hint, placeholder, error, input }: { label: string; hint: string; placeholder?: string; error: ReactNode; input: NumberInput }) {
  const { onChange, ...rest } = input;
  return (
    <label className="field" htmlFor={input.id}>
      <span className="field-label">{label}</span>
      <input {...rest} type="text" inputMode="decimal" autoComplete="off" spellCheck={false} placeholder={placeholder} onChange={(e) => onChange(e.currentTarget.value)} />
      <span className="field-hint">{hint}</span>
      {error}
    </label>
  );
}

interface ListInput extends NumberInput {
  name: string;
}

/** A textarea taking one item a line (hosts, patterns, parameter names). */
function LinesField({ label, hint, placeholder, error, input }: { label: string; hint: string; placeholder: string; error: ReactNode; input: ListInput }) {
  const { onChange, ...rest } = input;
  const rows = Math.min(8, Math.max(2, input.value.split('\n').length));
  return (
    <label className="field field-wide" htmlFor={input.id}>
      <span className="field-label">{label}</span>
      <textarea {...rest} className="list-input" rows={rows} spellCheck={false} autoCapitalize="off" autoCorrect="off" placeholder={placeholder} onChange={(e) => onChange(e.currentTarget.value)} />
      <span className="field-hint">{hint}</span>
      {error}
    </label>
  );
}

interface CheckInput extends FieldAttrs {
  checked: boolean;
  onChange: (checked: boolean) => void;
}

function Check({ label, hint, error, input }: { label: string; hint: string; error?: ReactNode; input: CheckInput }) {
  const { onChange, ...rest } = input;
  return (
    <>
      <label className="check" htmlFor={input.id}>
        <input {...rest} type="checkbox" onChange={(e) => onChange(e.currentTarget.checked)} />
        <span>
          <span className="check-label">{label}</span>
          <span className="field-hint">{hint}</span>
        </span>
      </label>
      {error}
    </>
  );
}

function FieldError({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <span className="field-error" id={id} role="alert">
      {messages.map((m, i) => (
        <span key={i}>{m}</span>
      ))}
    </span>
  );
}
