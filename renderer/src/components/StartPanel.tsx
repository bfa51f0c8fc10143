// A new crawl: seed URLs (one a line; paste many) and the settings that matter most, each showing its default.
// The host validates; whatever it refuses comes back field by field and is shown under that field.
import { useEffect, useId, useMemo, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import type { CrawlDefaults } from '../../../shared/crawler-api.ts';
import type { CrawlSettings, CrawlSettingsInput, SettingsProblem } from '../../../shared/settings.ts';
import { formatBytes, formatInt } from '../format.ts';
import { isLiveState, showCrawl } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useBusyCommand } from './use-command.ts';

/** robots.txt modes (the settings schema's enum, without importing the validation library into the page). */
const ROBOTS_MODES: readonly CrawlSettings['robots'][] = ['respect', 'ignore', 'report'];

export interface StartForm {
  seeds: string;
  threads: string;
  maxDepth: string;
  maxPages: string;
  robots: CrawlSettings['robots'];
  userAgent: string;
  delayMs: string;
  polite: boolean;
  maxUrlsPerSecond: string;
  processes: string;
  responseTimeoutMs: string;
  connectTimeoutMs: string;
  maxBodyBytes: string;
}

export function formFromDefaults(d: CrawlDefaults | null): StartForm {
  const s = d?.settings;
  const str = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
  return {
    seeds: '',
    threads: str(s?.threads ?? 5),
    maxDepth: str(s?.maxDepth),
    maxPages: str(s?.maxPages),
    robots: s?.robots ?? 'respect',
    userAgent: s?.userAgent ?? '',
    delayMs: str(s?.delayMs ?? 0),
    polite: s?.polite ?? false,
    maxUrlsPerSecond: str(s?.maxUrlsPerSecond),
    processes: str(s?.processes),
    responseTimeoutMs: str(s?.responseTimeoutMs),
    connectTimeoutMs: str(s?.connectTimeoutMs),
    maxBodyBytes: str(s?.maxBodyBytes),
  };
}

/** The seed lines that are not blank, with the line each came from (problems name "seeds.<index>"). */
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
  const input: Record<string, unknown> = {
    seeds: seedLines(form.seeds).seeds,
    threads: numeric(form.threads, undefined),
    maxDepth: numeric(form.maxDepth, null),
    maxPages: numeric(form.maxPages, null),
    robots: form.robots,
    userAgent: form.userAgent.trim() === '' ? undefined : form.userAgent,
    delayMs: numeric(form.delayMs, undefined),
    polite: form.polite,
    maxUrlsPerSecond: numeric(form.maxUrlsPerSecond, null),
    processes: numeric(form.processes, null),
    responseTimeoutMs: numeric(form.responseTimeoutMs, undefined),
    connectTimeoutMs: numeric(form.connectTimeoutMs, undefined),
    maxBodyBytes: numeric(form.maxBodyBytes, undefined),
  };
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  // Wrong types go through on purpose: the host's validation says what is wrong, field by field.
  return input as CrawlSettingsInput;
}

/** Problems by field; seed problems also get the line number they are on. */
export function problemsByField(problems: readonly SettingsProblem[], lineOf: readonly number[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (field: string, message: string) => out.set(field, [...(out.get(field) ?? []), message]);
  for (const p of problems) {
    const seed = /^seeds\.(\d+)$/.exec(p.field);
    if (seed) {
      const line = lineOf[Number(seed[1])];
      add('seeds', line ? `line ${line}: ${p.message}` : p.message);
    } else add(p.field, p.message);
  }
  return out;
}

const FORM_FIELDS = new Set(['seeds', 'threads', 'maxDepth', 'maxPages', 'robots', 'userAgent', 'delayMs', 'polite', 'maxUrlsPerSecond', 'processes', 'responseTimeoutMs', 'connectTimeoutMs', 'maxBodyBytes']);

export function StartPanel() {
  const api = useApi();
  const store = useCrawlStore();
  const defaults = useCrawl((s) => s.defaults);
  const live = useCrawl((s) => isLiveState(s.state) && s.opened === null);
  const [form, setForm] = useState<StartForm>(() => formFromDefaults(defaults));
  const [touched, setTouched] = useState(false);
  const [problems, setProblems] = useState<SettingsProblem[]>([]);
  const [busy, run] = useBusyCommand();
  const ids = useId();

  // The host's defaults arrive after the first render; fill them in unless the analyst already typed.
  useEffect(() => {
    if (defaults && !touched) setForm((f) => ({ ...formFromDefaults(defaults), seeds: f.seeds }));
  }, [defaults, touched]);

  const { lineOf, seeds } = useMemo(() => seedLines(form.seeds), [form.seeds]);
  const errors = useMemo(() => problemsByField(problems, lineOf), [problems, lineOf]);
  const otherProblems = problems.filter((p) => !FORM_FIELDS.has(p.field.split('.')[0] ?? ''));

  const set = <K extends keyof StartForm>(key: K, value: StartForm[K]) => {
    setTouched(true);
    setForm((f) => ({ ...f, [key]: value }));
    if (problems.length) setProblems((ps) => ps.filter((p) => p.field.split('.')[0] !== key));
  };

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (busy || live) return;
    const result = await run('Start', () => api.start(settingsFromForm(form)));
    if (!result) return;
    if (result.ok) {
      setProblems([]);
      showCrawl(store, result.file, null);
    } else setProblems(result.problems);
  };

  const d = defaults?.settings;
  const field = (name: keyof StartForm) => ({
    id: `${ids}-${name}`,
    'aria-invalid': errors.has(name) || undefined,
    'aria-describedby': errors.has(name) ? `${ids}-${name}-error` : undefined,
  });
  const err = (name: string) => <FieldError id={`${ids}-${name}-error`} messages={errors.get(name)} />;

  return (
    <form className="panel start-panel" onSubmit={(e) => void submit(e)} aria-label="new crawl" noValidate>
      <div className="panel-bar">
        <h2 className="panel-title">New crawl</h2>
        <span className="panel-note">{seeds.length ? `${formatInt(seeds.length)} seed URL${seeds.length === 1 ? '' : 's'}` : ''}</span>
      </div>
      <div className="form-body">
        <label className="field field-wide" htmlFor={`${ids}-seeds`}>
          <span className="field-label">Seed URLs, one per line</span>
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

        <div className="field-grid">
          <NumberField label="Threads" hint={`default ${d?.threads ?? 5}, 1–${defaults?.limits.threads.max ?? 200}`} error={err('threads')} input={{ ...field('threads'), value: form.threads, onChange: (v) => set('threads', v) }} />
          <NumberField label="Max depth" hint="blank: unlimited" placeholder="unlimited" error={err('maxDepth')} input={{ ...field('maxDepth'), value: form.maxDepth, onChange: (v) => set('maxDepth', v) }} />
          <NumberField label="Max pages" hint="blank: unlimited" placeholder="unlimited" error={err('maxPages')} input={{ ...field('maxPages'), value: form.maxPages, onChange: (v) => set('maxPages', v) }} />
          <NumberField label="Delay per host, ms" hint={`default ${d?.delayMs ?? 0}`} error={err('delayMs')} input={{ ...field('delayMs'), value: form.delayMs, onChange: (v) => set('delayMs', v) }} />
          <NumberField label="URLs/s cap" hint="blank: no cap" placeholder="no cap" error={err('maxUrlsPerSecond')} input={{ ...field('maxUrlsPerSecond'), value: form.maxUrlsPerSecond, onChange: (v) => set('maxUrlsPerSecond', v) }} />
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

        <label className="check" htmlFor={`${ids}-polite`}>
          <input {...field('polite')} type="checkbox" checked={form.polite} onChange={(e) => set('polite', e.currentTarget.checked)} />
          <span>
            <span className="check-label">Polite preset</span>
            <span className="field-hint">one fetch at a time per host, then wait 5× its fetch time (3–30 s)</span>
          </span>
        </label>
        {err('polite')}

        <label className="field field-wide" htmlFor={`${ids}-userAgent`}>
          <span className="field-label">User agent</span>
          <input {...field('userAgent')} type="text" spellCheck={false} value={form.userAgent} placeholder={d?.userAgent ?? ''} onChange={(e) => set('userAgent', e.currentTarget.value)} />
          {err('userAgent')}
        </label>

        <details className="advanced">
          <summary>More settings</summary>
          <div className="field-grid">
            <NumberField label="Worker processes" hint="blank: cores − 1" placeholder="auto" error={err('processes')} input={{ ...field('processes'), value: form.processes, onChange: (v) => set('processes', v) }} />
            <NumberField label="Response timeout, ms" hint={`default ${formatInt(d?.responseTimeoutMs ?? 20000)}`} error={err('responseTimeoutMs')} input={{ ...field('responseTimeoutMs'), value: form.responseTimeoutMs, onChange: (v) => set('responseTimeoutMs', v) }} />
            <NumberField label="Connect timeout, ms" hint={`default ${formatInt(d?.connectTimeoutMs ?? 10000)}`} error={err('connectTimeoutMs')} input={{ ...field('connectTimeoutMs'), value: form.connectTimeoutMs, onChange: (v) => set('connectTimeoutMs', v) }} />
            <NumberField label="Max body, bytes" hint={`default ${formatBytes(d?.maxBodyBytes ?? 10485760)}`} error={err('maxBodyBytes')} input={{ ...field('maxBodyBytes'), value: form.maxBodyBytes, onChange: (v) => set('maxBodyBytes', v) }} />
          </div>
        </details>

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
        {touched && (
          <button
            type="button"
            className="btn btn-quiet"
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
    </form>
  );
}

interface NumberInput {
  id: string;
  value: string;
  onChange: (value: string) => void;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
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
