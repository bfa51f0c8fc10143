// A new crawl: seed URLs (one a line; paste many) and every setting of the crawl, each showing its default: the
// ones that matter most always in view, the rest in groups (scope, what to check, politeness and retries) that
// say what they are set to while closed. The host validates; whatever it refuses comes back field by field and is
// shown under that field, its group opened. This is the form's state and layout; what it holds and sends is
// start-form-model.ts, its fields BasicSettings.tsx and setting-groups.tsx.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import type { CrawlPreset } from '../../../shared/crawler-api.ts';
import type { CrawlSettings, SettingsProblem } from '../../../shared/settings.ts';
import { copyText } from '../clipboard.ts';
import { formatInt, formatWhen } from '../format.ts';
import { notify, showCrawl } from '../store/crawl-store.ts';
import { isLiveState } from '../store/crawl-view.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useBusyCommand } from '../components/use-command.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { problemText } from '../i18n/host-messages.ts';
import { BasicSettings } from './BasicSettings.tsx';
import type { FormBinding } from './form-fields.tsx';
import { browserStorage, forgetLastSettings, formWithLast, loadLastSettings, saveLastSettings } from './last-settings.ts';
import { PresetsPanel, presetsSummary, usePresets } from './PresetsBar.tsx';
import {
  CheckSettings,
  ExtractionSettings,
  MoreSettings,
  PolitenessSettings,
  RenderSettings,
  SitemapSettings,
  RequestSettings,
  ScopeSettings,
} from './setting-groups.tsx';
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
  t as startT,
} from './start-form-model.ts';
import type { FormGroup, StartForm } from './start-form-model.ts';

/** Where the form's settings came from, said above the form. */
type Origin = { kind: 'defaults' } | { kind: 'last'; at: number; seedsKept: boolean } | { kind: 'preset'; name: string };

/** "3 fields are invalid": said beside Start crawl when it refused to start. */
export function invalidFieldsText(count: number): string {
  return startT('panel.invalidCount', { count, n: formatInt(count) });
}

export function StartPanel() {
  const api = useApi();
  const store = useCrawlStore();
  const defaults = useCrawl((s) => s.defaults);
  // A cluster crawl in view is not in the way: starting a local crawl detaches from it.
  const live = useCrawl((s) => isLiveState(s.state) && s.opened === null && s.cluster === null);
  // The form starts from the last crawl's settings, kept across reloads (last-settings.ts), or the defaults.
  const [last] = useState(() => loadLastSettings(browserStorage()));
  const [origin, setOrigin] = useState<Origin>(() =>
    last ? { kind: 'last', at: last.savedAt, seedsKept: last.seedsKept } : { kind: 'defaults' },
  );
  const [form, setForm] = useState<StartForm>(() => formWithLast(formFromDefaults(defaults), last));
  const [touched, setTouched] = useState(false);
  // Changed since the settings the line above the form names (the last crawl's, a preset's, the defaults).
  const [edited, setEdited] = useState(false);
  // Start crawl was refused: say how many fields are invalid beside it, and take the analyst to the first.
  const [refused, setRefused] = useState(false);
  const focusFirstInvalid = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [problems, setProblems] = useState<SettingsProblem[]>([]);
  const [open, setOpen] = useState<ReadonlySet<FormGroup>>(() => new Set());
  const [presetsOpen, setPresetsOpen] = useState(false);
  const presets = usePresets();
  const [busy, run] = useBusyCommand();
  const ids = useId();
  const { t } = useTranslation('start');

  // The host's defaults arrive after the first render; fill them in, under the last crawl's settings the page loaded
  // with (until Reset to defaults), unless the analyst already typed. A crawl started since changes the line above
  // the form, not the form: what was typed stays, headers and password included.
  const lastAtLoad = useRef(last);
  useEffect(() => {
    if (defaults && !touched) setForm((f) => ({ ...formWithLast(formFromDefaults(defaults), lastAtLoad.current), seeds: f.seeds }));
  }, [defaults, touched]);

  const seeds = useMemo(() => seedLines(form.seeds).seeds, [form.seeds]);
  const lines = useMemo(() => lineNumbers(form), [form]);
  const errors = useMemo(() => problemsByField(problems, lines), [problems, lines]);
  const otherProblems = problems.filter((p) => !FORM_FIELDS.has(p.field.split('.')[0] ?? ''));
  const groupsInError = useMemo(() => groupsWithProblems(problems), [problems]);

  // After a refused start has opened the groups in error: scroll to the first invalid field, in the form's order, and focus it.
  useEffect(() => {
    if (!focusFirstInvalid.current) return;
    focusFirstInvalid.current = false;
    const el = formRef.current;
    const first = el?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? el?.querySelector<HTMLElement>('.form-problems');
    if (!first) return;
    first.scrollIntoView({ block: 'center' });
    first.focus({ preventScroll: true });
  }, [problems, open]);

  const set = <K extends keyof StartForm>(key: K, value: StartForm[K]) => {
    setTouched(true);
    setEdited(true);
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
    setEdited(false);
    setOrigin({ kind: 'preset', name: preset.name });
    setProblems([]);
    // Over the defaults: a setting newer than the preset takes its default. A preset keeps no credentials: the
    // headers and basic authentication typed in the form stay.
    setForm((f) => ({
      ...formFromSettings({ ...defaults?.settings, ...preset.settings } as Omit<CrawlSettings, 'seeds'>),
      seeds: f.seeds,
      headers: f.headers,
      basicAuth: f.basicAuth,
    }));
    notify(store, 'info', t('panel.loadedPreset', { name: preset.name }));
  };

  const copyCommand = async () => {
    const command = cliCommandFromForm(form, defaults);
    if (command === null) return;
    const ok = await copyText(command);
    const copied = command.includes('***') ? t('panel.copiedWithCredentials', { command }) : t('panel.copied', { command });
    notify(store, ok ? 'info' : 'error', ok ? copied : t('panel.copyFailed'));
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
    const refuse = (found: SettingsProblem[]) => {
      setRefused(true);
      focusFirstInvalid.current = true;
      showProblems(found);
    };
    const local = formProblems(form);
    if (local.length) return refuse(local);
    const result = await run(t('panel.commandStart'), () => api.start(settingsFromForm(form)));
    if (!result) return;
    if (result.ok) {
      setProblems([]);
      setRefused(false);
      // The next form (after a reload too) starts from these settings.
      const storage = browserStorage();
      saveLastSettings(storage, form);
      const kept = loadLastSettings(storage);
      // The form stays as it is (its headers and password too, for this session): it now holds the last crawl's settings.
      setEdited(false);
      setOrigin(kept ? { kind: 'last', at: kept.savedAt, seedsKept: kept.seedsKept } : { kind: 'defaults' });
      showCrawl(store, result.file, null);
    } else {
      // A problem in a closed group must not go unseen.
      refuse(result.problems);
    }
  };

  const resetToDefaults = () => {
    setForm((f) => ({ ...formFromDefaults(defaults), seeds: f.seeds }));
    setTouched(false);
    setEdited(false);
    setProblems([]);
    setRefused(false);
    // Reset means reset: a reload starts from the defaults too, until the next crawl starts.
    forgetLastSettings(browserStorage());
    lastAtLoad.current = null;
    setOrigin({ kind: 'defaults' });
  };
  const invalidCount = refused ? errors.size : 0;

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
    <form ref={formRef} className="panel start-panel" onSubmit={(e) => void submit(e)} aria-label={t('panel.formLabel')} noValidate>
      <div className="panel-bar">
        <h2 className="panel-title">{t('panel.title')}</h2>
        <span className="panel-note">{seeds.length ? t('panel.seedCount', { count: seeds.length, n: formatInt(seeds.length) }) : ''}</span>
      </div>
      <div className="form-body">
        <p className="form-origin" data-testid="settings-origin" data-origin={origin.kind}>
          <span>{originText(origin, edited)}</span>
          {(origin.kind !== 'defaults' || edited) && (
            <>
              {' · '}
              <button type="button" className="link-button" data-testid="reset-settings" onClick={resetToDefaults}>
                {t('panel.resetToDefaults')}
              </button>
            </>
          )}
        </p>
        <details
          className="advanced form-group form-group-presets"
          data-testid="group-presets"
          open={presetsOpen}
          onToggle={(e) => setPresetsOpen(e.currentTarget.open)}
        >
          <summary>
            <span className="group-title">{t('panel.presets')}</span>
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

        {group('scope', t('groups.scope'), <ScopeSettings binding={binding} />)}
        {group('request', t('groups.request'), <RequestSettings binding={binding} />)}
        {group(
          'extraction',
          t('groups.extraction'),
          <ExtractionSettings
            binding={binding}
            firstSeed={seeds[0] ?? ''}
            settingsForTest={() => settingsWithoutSeeds(form)}
            onProblems={showProblems}
          />,
        )}
        {group('check', t('groups.check'), <CheckSettings binding={binding} />)}
        {group('render', t('groups.render'), <RenderSettings binding={binding} />)}
        {group('sitemaps', t('groups.sitemaps'), <SitemapSettings binding={binding} />)}
        {group('politeness', t('groups.politeness'), <PolitenessSettings binding={binding} />)}
        {group('more', t('groups.more'), <MoreSettings binding={binding} />)}

        {otherProblems.length > 0 && (
          <ul className="form-problems" role="alert">
            {otherProblems.map((p, i) => (
              <li key={i}>
                {p.field}: {problemText(p)}
              </li>
            ))}
          </ul>
        )}
      </div>
      {/* Refused: the actions keep to the foot of the sidebar, so the count of invalid fields stays in sight. */}
      <div className="form-actions" data-sticky={invalidCount > 0 || undefined}>
        <button
          type="submit"
          className="btn btn-primary"
          data-testid="start"
          disabled={busy || live}
          title={live ? t('panel.runningTitle') : t('panel.startTitle')}
        >
          <span className="icon icon-play" aria-hidden="true" />
          {busy ? t('panel.starting') : t('panel.startCrawl')}
        </button>
        {invalidCount > 0 && (
          <span className="form-invalid-count" data-testid="start-invalid" data-count={invalidCount} role="alert">
            {invalidFieldsText(invalidCount)}
          </span>
        )}
        <div className="form-secondary">
          <button
            type="button"
            className="btn btn-quiet btn-small"
            data-testid="copy-cli"
            disabled={!defaults}
            title={t('panel.copyCliTitle')}
            onClick={() => void copyCommand()}
          >
            {t('panel.copyCli')}
          </button>
        </div>
      </div>
    </form>
  );
}

/** The line above the form: where its settings came from, and the rule (kept from the last crawl, across reloads). */
export function originText(origin: Origin, edited: boolean): string {
  switch (origin.kind) {
    case 'defaults':
      return edited ? startT('origin.defaultsChanged') : startT('origin.defaults');
    case 'last': {
      const when = formatWhen(new Date(origin.at).toISOString());
      if (origin.seedsKept) return edited ? startT('origin.lastChanged', { when }) : startT('origin.last', { when });
      return edited ? startT('origin.lastNoSeedsChanged', { when }) : startT('origin.lastNoSeeds', { when });
    }
    case 'preset':
      return edited ? startT('origin.presetChanged', { name: origin.name }) : startT('origin.preset', { name: origin.name });
  }
}
