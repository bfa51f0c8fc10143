// The start form's settings always in view: the seed URLs (typed, pasted or read from a file), the mode, threads,
// depth and page limits, robots.txt and the user agent.
import { userAgentChoiceOf, userAgentChoices } from '../../../shared/user-agents.ts';
import { formatBytes, formatInt } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useCrawlStore } from '../store/context.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { NumberField, fieldAttrs, fieldError, numberInput } from './form-fields.tsx';
import type { FormBinding } from './form-fields.tsx';
import { MAX_LIST_FILE_BYTES, MODE_OPTIONS, ROBOTS_MODES, seedLines } from './start-form-model.ts';

/** The settings above the groups; `onSubmit` starts the crawl (Ctrl+Enter in the seeds). */
export function BasicSettings({ binding, onSubmit }: { binding: FormBinding; onSubmit: () => void }) {
  const store = useCrawlStore();
  const { t } = useTranslation('start');
  const { form, ids, errors, set } = binding;
  const d = binding.defaults?.settings;
  const uaChoices = userAgentChoices(d?.userAgent ?? form.userAgent);
  const userAgentChoice = d ? userAgentChoiceOf(form.userAgent, d.userAgent) : null;

  const robotsLabel = (mode: (typeof ROBOTS_MODES)[number]) =>
    mode === 'ignore' ? t('basic.robotsIgnore') : mode === 'report' ? t('basic.robotsReport') : t('basic.robotsRespect');

  const readListFile = async (file: File) => {
    if (file.size > MAX_LIST_FILE_BYTES) {
      notify(store, 'error', t('basic.fileTooLarge', { file: file.name, size: formatBytes(MAX_LIST_FILE_BYTES) }));
      return;
    }
    try {
      const text = await file.text();
      const n = seedLines(text).seeds.length;
      set('seeds', text);
      notify(store, 'info', t('basic.fileRead', { count: n, n: formatInt(n), file: file.name }));
    } catch (err) {
      notify(store, 'error', t('basic.fileUnreadable', { file: file.name, error: err instanceof Error ? err.message : String(err) }));
    }
  };

  return (
    <>
      <label className="field field-wide" htmlFor={`${ids}-seeds`}>
        <span className="field-label">{form.mode === 'list' ? t('basic.listLabel') : t('basic.seedsLabel')}</span>
        <textarea
          {...fieldAttrs(binding, 'seeds')}
          name="seeds"
          className="seeds"
          rows={5}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          placeholder={t('basic.seedsPlaceholder')}
          value={form.seeds}
          onChange={(e) => set('seeds', e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) onSubmit();
          }}
        />
        {fieldError(binding, 'seeds')}
      </label>
      {form.mode === 'list' && (
        <label className="field file-field" htmlFor={`${ids}-list-file`}>
          <span className="field-label">{t('basic.uploadList')}</span>
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
          <span className="field-hint">{t('basic.uploadHint')}</span>
        </label>
      )}

      <fieldset className="check-set" aria-describedby={errors.has('mode') ? `${ids}-mode-error` : undefined}>
        <legend className="field-label">{t('basic.mode')}</legend>
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
          {t('basic.modeHint', {
            explain: MODE_OPTIONS.find((o) => o.value === form.mode)?.explain ?? '',
            default: MODE_OPTIONS.find((o) => o.value === (d?.mode ?? 'spider'))?.label.toLowerCase() ?? '',
          })}
        </span>
        {fieldError(binding, 'mode')}
      </fieldset>

      <div className="field-grid">
        <NumberField
          label={t('basic.threads')}
          hint={t('basic.threadsHint', { default: d?.threads ?? 5, max: binding.defaults?.limits.threads.max ?? 200 })}
          error={fieldError(binding, 'threads')}
          input={numberInput(binding, 'threads')}
        />
        {form.mode === 'list' ? (
          <NumberField
            label={t('basic.maxDepth')}
            hint={t('basic.maxDepthListHint')}
            placeholder="0"
            error={fieldError(binding, 'maxDepth')}
            input={{ ...numberInput(binding, 'maxDepth'), value: '', disabled: true }}
          />
        ) : (
          <NumberField
            label={t('basic.maxDepth')}
            hint={t('basic.blankUnlimited')}
            placeholder={t('basic.unlimited')}
            error={fieldError(binding, 'maxDepth')}
            input={numberInput(binding, 'maxDepth')}
          />
        )}
        <NumberField
          label={t('basic.maxPages')}
          hint={t('basic.blankUnlimited')}
          placeholder={t('basic.unlimited')}
          error={fieldError(binding, 'maxPages')}
          input={numberInput(binding, 'maxPages')}
        />
        <label className="field" htmlFor={`${ids}-robots`}>
          <span className="field-label">{t('basic.robots')}</span>
          <select
            {...fieldAttrs(binding, 'robots')}
            value={form.robots}
            onChange={(e) => set('robots', ROBOTS_MODES.find((m) => m === e.currentTarget.value) ?? 'respect')}
          >
            <option value="respect">{t('basic.robotsRespect')}</option>
            <option value="ignore">{t('basic.robotsIgnore')}</option>
            <option value="report">{t('basic.robotsReport')}</option>
          </select>
          <span className="field-hint">{t('basic.robotsHint', { default: robotsLabel(d?.robots ?? 'respect') })}</span>
          {fieldError(binding, 'robots')}
        </label>
      </div>

      <label className="field field-wide" htmlFor={`${ids}-userAgent`}>
        <span className="field-label">{t('basic.userAgent')}</span>
        <select
          id={`${ids}-userAgentChoice`}
          data-testid="setting-user-agent-choice"
          aria-label={t('basic.userAgentPreset')}
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
          <option value="custom">{t('basic.custom')}</option>
        </select>
        <input
          {...fieldAttrs(binding, 'userAgent')}
          type="text"
          spellCheck={false}
          value={form.userAgent}
          placeholder={d?.userAgent ?? ''}
          onChange={(e) => set('userAgent', e.currentTarget.value)}
        />
        <span className="field-hint">{t('basic.userAgentHint')}</span>
        {fieldError(binding, 'userAgent')}
      </label>
    </>
  );
}
