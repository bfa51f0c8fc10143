// Named configuration presets in the start form: save every setting but the seeds and the credentials under a name, load one back
// into the form, delete one. The host keeps them (one file in the crawls folder) and checks them as it would a
// crawl's settings; a presets file it cannot read is shown as such, not as "no presets".
import { useCallback, useEffect, useState } from 'react';
import type { CrawlPreset } from '../../../shared/crawler-api.ts';
import { PRESET_NAME_MAX_LENGTH, presetNameProblem } from '../../../shared/crawler-api.ts';
import type { CrawlSettingsInput, SettingsProblem } from '../../../shared/settings.ts';
import { errorMessage } from '../api/connection.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useBusyCommand } from '../components/use-command.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { problemText } from '../i18n/host-messages.ts';
import { t as startT } from './start-form-model.ts';

export interface PresetsProps {
  idPrefix: string;
  /** The form's settings, seeds left out. */
  current: () => Omit<CrawlSettingsInput, 'seeds'>;
  /** Problems the form finds itself (header lines); a preset is not saved while there are any. */
  formProblems: () => SettingsProblem[];
  onLoad: (preset: CrawlPreset) => void;
  /** Problems of the settings being saved, for the form to mark. */
  onProblems: (problems: SettingsProblem[]) => void;
}

/** What the Presets group says while closed. */
export function presetsSummary(presets: readonly CrawlPreset[] | null, error: string | null): string {
  if (error) return startT('presets.unreadable');
  if (presets === null) return '…';
  return presets.length ? startT('presets.saved', { count: presets.length }) : startT('presets.noneSaved');
}

export function usePresets(): { presets: CrawlPreset[] | null; error: string | null; reload: () => void; set: (p: CrawlPreset[]) => void } {
  const api = useApi();
  const connected = useCrawl((s) => s.connection.state === 'connected');
  const [presets, setPresets] = useState<CrawlPreset[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!connected) return;
    let cancelled = false;
    api.listPresets().then(
      (list) => {
        if (cancelled) return;
        setPresets(list);
        setError(null);
      },
      (err: unknown) => {
        if (cancelled) return;
        setError(errorMessage(err));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [api, connected, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const set = useCallback((list: CrawlPreset[]) => {
    setPresets(list);
    setError(null);
  }, []);
  return { presets, error, reload, set };
}

export function PresetsPanel({
  idPrefix,
  current,
  formProblems,
  onLoad,
  onProblems,
  state,
}: PresetsProps & { state: ReturnType<typeof usePresets> }) {
  const api = useApi();
  const store = useCrawlStore();
  const { presets, error, reload, set } = state;
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, run] = useBusyCommand();
  const { t } = useTranslation('start');
  const selected = presets?.find((p) => p.name === chosen) ?? null;

  const save = async () => {
    const trimmed = name.trim();
    const problem = presetNameProblem(trimmed);
    if (problem) return setNameProblem(problem);
    const local = formProblems();
    if (local.length) return onProblems(local);
    const result = await run(t('presets.commandSave'), () => api.savePreset(trimmed, current()));
    if (!result) return;
    if (result.ok) {
      const replaced = presets?.some((p) => p.name.toLowerCase() === trimmed.toLowerCase()) ?? false;
      set(result.presets);
      setChosen(trimmed);
      setName('');
      setNameProblem(null);
      onProblems([]);
      notify(store, 'info', replaced ? t('presets.replacedNotice', { name: trimmed }) : t('presets.savedNotice', { name: trimmed }));
    } else {
      setNameProblem(
        result.problems
          .filter((p) => p.field === 'name')
          .map(problemText)
          .join('; ') || null,
      );
      onProblems(result.problems.filter((p) => p.field !== 'name'));
    }
  };

  const remove = async (preset: CrawlPreset) => {
    if (confirming !== preset.name) return setConfirming(preset.name);
    setConfirming(null);
    const left = await run(t('presets.commandDelete'), () => api.deletePreset(preset.name));
    if (!left) return;
    set(left);
    setChosen('');
    notify(store, 'info', t('presets.deletedNotice', { name: preset.name }));
  };

  return (
    <div className="presets" data-testid="presets">
      {error ? (
        <div className="field-error" role="alert" data-testid="presets-error">
          <span>{t('presets.couldNotRead', { error })}</span>
          <button type="button" className="btn btn-small" onClick={reload}>
            {t('presets.tryAgain')}
          </button>
        </div>
      ) : (
        <div className="inline-row">
          <select
            id={`${idPrefix}-preset`}
            data-testid="preset-select"
            aria-label={t('presets.savedPreset')}
            value={selected ? selected.name : ''}
            disabled={!presets?.length}
            onChange={(e) => {
              setChosen(e.currentTarget.value);
              setConfirming(null);
            }}
          >
            <option value="">{presets?.length ? t('presets.choose') : t('presets.noPresets')}</option>
            {presets?.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-small"
            data-testid="preset-load"
            disabled={!selected || busy}
            onClick={() => selected && onLoad(selected)}
          >
            {t('presets.load')}
          </button>
          <button
            type="button"
            className={confirming && confirming === selected?.name ? 'btn btn-small btn-danger' : 'btn btn-small'}
            data-testid="preset-delete"
            disabled={!selected || busy}
            onClick={() => selected && void remove(selected)}
          >
            {confirming && confirming === selected?.name ? t('presets.reallyDelete') : t('presets.delete')}
          </button>
        </div>
      )}
      <label className="field" htmlFor={`${idPrefix}-preset-name`}>
        <span className="field-label">{t('presets.saveAs')}</span>
        <div className="inline-row">
          <input
            id={`${idPrefix}-preset-name`}
            data-testid="preset-name"
            type="text"
            maxLength={PRESET_NAME_MAX_LENGTH}
            placeholder={selected?.name ?? t('presets.presetName')}
            value={name}
            aria-invalid={nameProblem !== null || undefined}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameProblem(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void save();
              }
            }}
          />
          <button type="button" className="btn btn-small" data-testid="preset-save" disabled={busy || !!error} onClick={() => void save()}>
            {t('presets.save')}
          </button>
        </div>
        <span className="field-hint">{t('presets.hint')}</span>
        {nameProblem && (
          <span className="field-error" role="alert">
            {nameProblem}
          </span>
        )}
      </label>
    </div>
  );
}
