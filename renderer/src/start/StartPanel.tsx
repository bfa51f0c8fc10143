// A new crawl: seed URLs (one a line; paste many) and every setting of the crawl, each showing its default: the
// ones that matter most always in view, the rest in groups (scope, what to check, politeness and retries) that
// say what they are set to while closed. The host validates; whatever it refuses comes back field by field and is
// shown under that field, its group opened. This is the form's state and layout; what it holds and sends is
// start-form-model.ts, its fields BasicSettings.tsx and setting-groups.tsx.
import { useEffect, useId, useMemo, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import type { CrawlPreset } from '../../../shared/crawler-api.ts';
import type { CrawlSettings, SettingsProblem } from '../../../shared/settings.ts';
import { copyText } from '../clipboard.ts';
import { formatInt } from '../format.ts';
import { notify, showCrawl } from '../store/crawl-store.ts';
import { isLiveState } from '../store/crawl-view.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useBusyCommand } from '../components/use-command.ts';
import { BasicSettings } from './BasicSettings.tsx';
import type { FormBinding } from './form-fields.tsx';
import { PresetsPanel, presetsSummary, usePresets } from './PresetsBar.tsx';
import { CheckSettings, ExtractionSettings, MoreSettings, PolitenessSettings, RequestSettings, ScopeSettings } from './setting-groups.tsx';
import {
  FORM_FIELDS,
  cliCommandFromForm,
  formFromDefaults,
  formFromSettings,
  formProblems,
  groupSummary,
  groupsWithProblems,
  lineNumbers,
  problemsByField,
  seedLines,
  settingsFromForm,
  settingsWithoutSeeds,
} from './start-form-model.ts';
import type { FormGroup, StartForm } from './start-form-model.ts';

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
    // Over the defaults: a setting newer than the preset takes its default. A preset keeps no credentials: the
    // headers and basic authentication typed in the form stay.
    setForm((f) => ({
      ...formFromSettings({ ...defaults?.settings, ...preset.settings } as Omit<CrawlSettings, 'seeds'>),
      seeds: f.seeds,
      headers: f.headers,
      basicAuth: f.basicAuth,
    }));
    notify(store, 'info', `Loaded preset "${preset.name}"`);
  };

  const copyCommand = async () => {
    const command = cliCommandFromForm(form, defaults);
    if (command === null) return;
    const ok = await copyText(command);
    const note = command.includes('***') ? ' (credentials shown as ***: fill them in)' : '';
    notify(store, ok ? 'info' : 'error', ok ? `Copied: ${command}${note}` : 'Could not copy the command');
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

  const binding: FormBinding = { form, defaults, ids, errors, set };
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

  return (
    <form className="panel start-panel" onSubmit={(e) => void submit(e)} aria-label="new crawl" noValidate>
      <div className="panel-bar">
        <h2 className="panel-title">New crawl</h2>
        <span className="panel-note">{seeds.length ? `${formatInt(seeds.length)} seed URL${seeds.length === 1 ? '' : 's'}` : ''}</span>
      </div>
      <div className="form-body">
        <details
          className="advanced form-group form-group-presets"
          data-testid="group-presets"
          open={presetsOpen}
          onToggle={(e) => setPresetsOpen(e.currentTarget.open)}
        >
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

        <BasicSettings binding={binding} onSubmit={() => void submit()} />

        {group('scope', 'Scope', <ScopeSettings binding={binding} />)}
        {group('request', 'Headers & authentication', <RequestSettings binding={binding} />)}
        {group(
          'extraction',
          'Custom extraction',
          <ExtractionSettings
            binding={binding}
            firstSeed={seeds[0] ?? ''}
            settingsForTest={() => settingsWithoutSeeds(form)}
            onProblems={showProblems}
          />,
        )}
        {group('check', 'What to check', <CheckSettings binding={binding} />)}
        {group('politeness', 'Politeness & retries', <PolitenessSettings binding={binding} />)}
        {group('more', 'More settings', <MoreSettings binding={binding} />)}

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
        <button
          type="submit"
          className="btn btn-primary"
          data-testid="start"
          disabled={busy || live}
          title={live ? 'A crawl is running; stop it first' : 'Start crawling (Ctrl+Enter)'}
        >
          <span className="icon icon-play" aria-hidden="true" />
          {busy ? 'Starting…' : 'Start crawl'}
        </button>
        <div className="form-secondary">
          <button
            type="button"
            className="btn btn-quiet btn-small"
            data-testid="copy-cli"
            disabled={!defaults}
            title="Copy the npm run crawl -- … line that runs these settings (the password and header values as ***: fill them in)"
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
