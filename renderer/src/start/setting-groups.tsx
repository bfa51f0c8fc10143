// The start form's collapsible groups of settings, a component each: what each shows inside its group (the
// group itself, closed with a summary of what it is set to, is StartPanel's).
import type { CrawlSettingsInput, SettingsProblem } from '../../../shared/settings.ts';
import { formatBytes, formatInt } from '../format.ts';
import { Check, NumberField, fieldAttrs, fieldError, linesField, numberInput } from './form-fields.tsx';
import type { FormBinding } from './form-fields.tsx';
import { PatternTester } from './PatternTester.tsx';
import { RuleEditor } from './RuleEditor.tsx';
import { RESOURCE_OPTIONS, SCOPE_OPTIONS } from './start-form-model.ts';

/** Which URLs the crawl fetches: the scope, allowed hosts, include and exclude patterns, and a tester for them. */
export function ScopeSettings({ binding }: { binding: FormBinding }) {
  const { form, ids, set } = binding;
  const d = binding.defaults?.settings;
  const scopeOption = SCOPE_OPTIONS.find((o) => o.value === form.scope);
  return (
    <>
      <label className="field field-wide" htmlFor={`${ids}-scope`}>
        <span className="field-label">Hosts crawled</span>
        <select
          {...fieldAttrs(binding, 'scope')}
          value={form.scope}
          onChange={(e) => set('scope', SCOPE_OPTIONS.find((o) => o.value === e.currentTarget.value)?.value ?? 'same-host')}
        >
          {SCOPE_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label} ({o.value})
            </option>
          ))}
        </select>
        <span className="field-hint">
          {scopeOption?.explain}; default {d?.scope ?? 'same-host'}
        </span>
        {fieldError(binding, 'scope')}
      </label>
      {linesField(
        binding,
        'allowedHosts',
        'Allowed hosts, one per line',
        'crawled in every scope, e.g. cdn.example.com or example.com:8080; "listed hosts" needs one',
        'none',
      )}
      {linesField(binding, 'include', 'Include, one regex per line', 'when any are given, only URLs matching one are crawled', 'every URL')}
      {linesField(
        binding,
        'exclude',
        'Exclude, one regex per line',
        'URLs matching any are not crawled (regexes are case-sensitive, matched anywhere in the URL)',
        'none',
      )}
      {linesField(
        binding,
        'stripQueryParams',
        'Strip query parameters, one per line',
        'removed before URLs are compared; utm_* matches a prefix',
        'none',
      )}
      <div className="field-grid">
        <NumberField
          label="Max URL length"
          hint={`default ${formatInt(d?.maxUrlLength ?? 2048)}, 64–8,192`}
          error={fieldError(binding, 'maxUrlLength')}
          input={numberInput(binding, 'maxUrlLength')}
        />
      </div>
      <Check
        label="Follow nofollow links"
        hint={'rel="nofollow" and pages whose meta robots or X-Robots-Tag says nofollow; default: recorded, not followed'}
        error={fieldError(binding, 'followNofollow')}
        input={{ ...fieldAttrs(binding, 'followNofollow'), checked: form.followNofollow, onChange: (v) => set('followNofollow', v) }}
      />
      <PatternTester idPrefix={ids} form={form} scopeLabel={scopeOption?.label ?? form.scope} />
    </>
  );
}

/** Headers sent with every request, and HTTP basic authentication. */
export function RequestSettings({ binding }: { binding: FormBinding }) {
  const { form, ids, errors, set } = binding;
  return (
    <>
      <label className="field field-wide" htmlFor={`${ids}-headers`}>
        <span className="field-label">Request headers, "Name: value" per line</span>
        <textarea
          {...fieldAttrs(binding, 'headers')}
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
        {fieldError(binding, 'headers')}
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
        {fieldError(binding, 'basicAuth')}
      </fieldset>
      <p className="form-note" data-testid="credentials-note">
        Headers and credentials are sent only to the exact origins (scheme, host and port) of the seeds and allowed hosts, never from an
        https seed to plain http, nor to other hosts, ports or subdomains the scope crawls, nor to external links checked. The desktop app
        keeps them encrypted with the system keychain; the CLI and web console keep them in the crawl file, readable by you only. Exports
        and the CLI command never show them.
      </p>
    </>
  );
}

interface ExtractionSettingsProps {
  binding: FormBinding;
  /** The first seed, offered as the URL to test the rules on. */
  firstSeed: string;
  /** The whole form's settings, which the rule test runs with. */
  settingsForTest: () => Omit<CrawlSettingsInput, 'seeds'>;
  /** Problems of the test's settings, for the form to mark. */
  onProblems: (problems: SettingsProblem[]) => void;
}

/** The custom extraction rules, with a test on a sample URL. */
export function ExtractionSettings({ binding, firstSeed, settingsForTest, onProblems }: ExtractionSettingsProps) {
  const { form, ids, errors, set } = binding;
  return (
    <>
      <RuleEditor
        idPrefix={ids}
        rules={form.extraction}
        onChange={(rules) => set('extraction', rules)}
        errors={errors}
        firstSeed={firstSeed}
        settingsForTest={settingsForTest}
        onProblems={onProblems}
      />
      <span className="field-hint">
        each rule adds a column to the results and the CSV; a CSS rule reads each element it selects, a regex runs over the HTML source
      </span>
    </>
  );
}

/** What besides pages is fetched for its status: resources, external links. */
export function CheckSettings({ binding }: { binding: FormBinding }) {
  const { form, ids, errors, set } = binding;
  const d = binding.defaults?.settings;
  return (
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
          {RESOURCE_OPTIONS.map((o) => o.explain).join(', ')}; default{' '}
          {d?.checkResources.length ? d.checkResources.join(', ') : 'none: pages only'}
        </span>
        {fieldError(binding, 'checkResources')}
      </fieldset>
      <Check
        label="Check external links"
        hint="fetch links out of scope once for their status, never following them further; default off"
        error={fieldError(binding, 'checkExternal')}
        input={{ ...fieldAttrs(binding, 'checkExternal'), checked: form.checkExternal, onChange: (v) => set('checkExternal', v) }}
      />
    </>
  );
}

/** How hard hosts are pressed, and how failures are retried. */
export function PolitenessSettings({ binding }: { binding: FormBinding }) {
  const { form, set } = binding;
  const d = binding.defaults?.settings;
  return (
    <>
      <div className="field-grid">
        <NumberField
          label="Delay per host, ms"
          hint={`default ${formatInt(d?.delayMs ?? 0)}`}
          error={fieldError(binding, 'delayMs')}
          input={numberInput(binding, 'delayMs')}
        />
        <NumberField
          label="URLs/s cap"
          hint="blank: no cap"
          placeholder="no cap"
          error={fieldError(binding, 'maxUrlsPerSecond')}
          input={numberInput(binding, 'maxUrlsPerSecond')}
        />
        <NumberField
          label="Max per host"
          hint="fetches at once; blank: as many as threads"
          placeholder="threads"
          error={fieldError(binding, 'maxPerHost')}
          input={numberInput(binding, 'maxPerHost')}
        />
        <NumberField
          label="Max attempts"
          hint={`per URL, default ${d?.maxAttempts ?? 3}, 1–10`}
          error={fieldError(binding, 'maxAttempts')}
          input={numberInput(binding, 'maxAttempts')}
        />
        <NumberField
          label="Retry delay, ms"
          hint={`first retry, doubling; default ${formatInt(d?.retryDelayMs ?? 1000)}`}
          error={fieldError(binding, 'retryDelayMs')}
          input={numberInput(binding, 'retryDelayMs')}
        />
        <NumberField
          label="Max Retry-After, ms"
          hint={`honoured up to; default ${formatInt(d?.maxRetryAfterMs ?? 60000)}`}
          error={fieldError(binding, 'maxRetryAfterMs')}
          input={numberInput(binding, 'maxRetryAfterMs')}
        />
      </div>
      <Check
        label="Polite preset"
        hint="one fetch at a time per host, then wait 5× its fetch time (3–30 s)"
        error={fieldError(binding, 'polite')}
        input={{ ...fieldAttrs(binding, 'polite'), checked: form.polite, onChange: (v) => set('polite', v) }}
      />
    </>
  );
}

/** Worker processes, timeouts and the largest body read. */
export function MoreSettings({ binding }: { binding: FormBinding }) {
  const d = binding.defaults?.settings;
  return (
    <div className="field-grid">
      <NumberField
        label="Worker processes"
        hint="blank: cores − 1"
        placeholder="auto"
        error={fieldError(binding, 'processes')}
        input={numberInput(binding, 'processes')}
      />
      <NumberField
        label="Response timeout, ms"
        hint={`default ${formatInt(d?.responseTimeoutMs ?? 20000)}`}
        error={fieldError(binding, 'responseTimeoutMs')}
        input={numberInput(binding, 'responseTimeoutMs')}
      />
      <NumberField
        label="Connect timeout, ms"
        hint={`default ${formatInt(d?.connectTimeoutMs ?? 10000)}`}
        error={fieldError(binding, 'connectTimeoutMs')}
        input={numberInput(binding, 'connectTimeoutMs')}
      />
      <NumberField
        label="First-byte timeout, ms"
        hint={`to the response head; default ${formatInt(d?.firstByteTimeoutMs ?? 15000)}`}
        error={fieldError(binding, 'firstByteTimeoutMs')}
        input={numberInput(binding, 'firstByteTimeoutMs')}
      />
      <NumberField
        label="Processing budget, ms"
        hint={`time a URL may take beyond its fetch timeouts; past it its worker is replaced and the URL recorded as "processing timeout"; default ${formatInt(d?.processingBudgetMs ?? 10000)}`}
        error={fieldError(binding, 'processingBudgetMs')}
        input={numberInput(binding, 'processingBudgetMs')}
      />
      <NumberField
        label="Max body, bytes"
        hint={`default ${formatBytes(d?.maxBodyBytes ?? 10485760)}`}
        error={fieldError(binding, 'maxBodyBytes')}
        input={numberInput(binding, 'maxBodyBytes')}
      />
    </div>
  );
}
