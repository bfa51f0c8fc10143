// The start form's settings always in view: the seed URLs (typed, pasted or read from a file), the mode, threads,
// depth and page limits, robots.txt and the user agent.
import { userAgentChoiceOf, userAgentChoices } from '../../../shared/user-agents.ts';
import { formatBytes, formatInt } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useCrawlStore } from '../store/context.tsx';
import { NumberField, fieldAttrs, fieldError, numberInput } from './form-fields.tsx';
import type { FormBinding } from './form-fields.tsx';
import { MAX_LIST_FILE_BYTES, MODE_OPTIONS, ROBOTS_MODES, seedLines } from './start-form-model.ts';

/** The settings above the groups; `onSubmit` starts the crawl (Ctrl+Enter in the seeds). */
export function BasicSettings({ binding, onSubmit }: { binding: FormBinding; onSubmit: () => void }) {
  const store = useCrawlStore();
  const { form, ids, errors, set } = binding;
  const d = binding.defaults?.settings;
  const uaChoices = userAgentChoices(d?.userAgent ?? form.userAgent);
  const userAgentChoice = d ? userAgentChoiceOf(form.userAgent, d.userAgent) : null;

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

  return (
    <>
      <label className="field field-wide" htmlFor={`${ids}-seeds`}>
        <span className="field-label">{form.mode === 'list' ? 'URLs to crawl, one per line' : 'Seed URLs, one per line'}</span>
        <textarea
          {...fieldAttrs(binding, 'seeds')}
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
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) onSubmit();
          }}
        />
        {fieldError(binding, 'seeds')}
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
          {MODE_OPTIONS.find((o) => o.value === form.mode)?.explain}; default{' '}
          {MODE_OPTIONS.find((o) => o.value === (d?.mode ?? 'spider'))?.label.toLowerCase()}
        </span>
        {fieldError(binding, 'mode')}
      </fieldset>

      <div className="field-grid">
        <NumberField
          label="Threads"
          hint={`default ${d?.threads ?? 5}, 1–${binding.defaults?.limits.threads.max ?? 200}`}
          error={fieldError(binding, 'threads')}
          input={numberInput(binding, 'threads')}
        />
        {form.mode === 'list' ? (
          <NumberField
            label="Max depth"
            hint="list mode: the listed URLs only"
            placeholder="0"
            error={fieldError(binding, 'maxDepth')}
            input={{ ...numberInput(binding, 'maxDepth'), value: '', disabled: true }}
          />
        ) : (
          <NumberField
            label="Max depth"
            hint="blank: unlimited"
            placeholder="unlimited"
            error={fieldError(binding, 'maxDepth')}
            input={numberInput(binding, 'maxDepth')}
          />
        )}
        <NumberField
          label="Max pages"
          hint="blank: unlimited"
          placeholder="unlimited"
          error={fieldError(binding, 'maxPages')}
          input={numberInput(binding, 'maxPages')}
        />
        <label className="field" htmlFor={`${ids}-robots`}>
          <span className="field-label">robots.txt</span>
          <select
            {...fieldAttrs(binding, 'robots')}
            value={form.robots}
            onChange={(e) => set('robots', ROBOTS_MODES.find((m) => m === e.currentTarget.value) ?? 'respect')}
          >
            <option value="respect">respect</option>
            <option value="ignore">ignore</option>
            <option value="report">fetch all, report disallowed</option>
          </select>
          <span className="field-hint">default {d?.robots ?? 'respect'}</span>
          {fieldError(binding, 'robots')}
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
        <input
          {...fieldAttrs(binding, 'userAgent')}
          type="text"
          spellCheck={false}
          value={form.userAgent}
          placeholder={d?.userAgent ?? ''}
          onChange={(e) => set('userAgent', e.currentTarget.value)}
        />
        <span className="field-hint">only the header changes; robots.txt is read for Trawl's group or *</span>
        {fieldError(binding, 'userAgent')}
      </label>
    </>
  );
}
