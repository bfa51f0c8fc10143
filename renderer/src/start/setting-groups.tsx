// The start form's collapsible groups of settings, a component each: what each shows inside its group (the
// group itself, closed with a summary of what it is set to, is StartPanel's).
import type { CrawlSettingsInput, SettingsProblem } from '../../../shared/settings.ts';
import { formatBytes, formatInt } from '../format.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { Check, NumberField, fieldAttrs, fieldError, linesField, numberInput } from './form-fields.tsx';
import type { FormBinding } from './form-fields.tsx';
import { PatternTester } from './PatternTester.tsx';
import { RuleEditor } from './RuleEditor.tsx';
import { RESOURCE_OPTIONS, SCOPE_OPTIONS } from './start-form-model.ts';

/** Which URLs the crawl fetches: the scope, allowed hosts, include and exclude patterns, and a tester for them. */
export function ScopeSettings({ binding }: { binding: FormBinding }) {
  const { t } = useTranslation('start');
  const { form, ids, set } = binding;
  const d = binding.defaults?.settings;
  const scopeOption = SCOPE_OPTIONS.find((o) => o.value === form.scope);
  return (
    <>
      <label className="field field-wide" htmlFor={`${ids}-scope`}>
        <span className="field-label">{t('scope.hostsCrawled')}</span>
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
          {t('scope.scopeHint', { explain: scopeOption?.explain ?? '', default: d?.scope ?? 'same-host' })}
        </span>
        {fieldError(binding, 'scope')}
      </label>
      {linesField(binding, 'allowedHosts', t('scope.allowedHosts'), t('scope.allowedHostsHint'), t('scope.none'))}
      {linesField(binding, 'include', t('scope.include'), t('scope.includeHint'), t('scope.everyUrl'))}
      {linesField(binding, 'exclude', t('scope.exclude'), t('scope.excludeHint'), t('scope.none'))}
      {linesField(binding, 'stripQueryParams', t('scope.stripParams'), t('scope.stripParamsHint'), t('scope.none'))}
      <div className="field-grid">
        <NumberField
          label={t('scope.maxUrlLength')}
          hint={t('scope.maxUrlLengthHint', { default: formatInt(d?.maxUrlLength ?? 2048) })}
          error={fieldError(binding, 'maxUrlLength')}
          input={numberInput(binding, 'maxUrlLength')}
        />
      </div>
      <Check
        label={t('scope.followNofollow')}
        hint={t('scope.followNofollowHint')}
        error={fieldError(binding, 'followNofollow')}
        input={{ ...fieldAttrs(binding, 'followNofollow'), checked: form.followNofollow, onChange: (v) => set('followNofollow', v) }}
      />
      <PatternTester idPrefix={ids} form={form} scopeLabel={scopeOption?.label ?? form.scope} />
    </>
  );
}

/** Headers sent with every request, and HTTP basic authentication. */
export function RequestSettings({ binding }: { binding: FormBinding }) {
  const { t } = useTranslation('start');
  const { form, ids, errors, set } = binding;
  return (
    <>
      <label className="field field-wide" htmlFor={`${ids}-headers`}>
        <span className="field-label">{t('request.headers')}</span>
        <textarea
          {...fieldAttrs(binding, 'headers')}
          className="list-input"
          rows={Math.min(8, Math.max(2, form.headers.split('\n').length))}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          placeholder={t('request.headersPlaceholder')}
          value={form.headers}
          onChange={(e) => set('headers', e.currentTarget.value)}
        />
        <span className="field-hint">{t('request.headersHint')}</span>
        {fieldError(binding, 'headers')}
      </label>
      <fieldset className="check-set" aria-describedby={errors.has('basicAuth') ? `${ids}-basicAuth-error` : undefined}>
        <legend className="field-label">{t('request.basicAuth')}</legend>
        <div className="field-grid">
          <label className="field" htmlFor={`${ids}-auth-username`}>
            <span className="field-hint">{t('request.username')}</span>
            <input
              id={`${ids}-auth-username`}
              data-testid="setting-basic-auth-username"
              type="text"
              autoComplete="off"
              spellCheck={false}
              placeholder={t('request.none')}
              aria-invalid={errors.has('basicAuth') || undefined}
              value={form.basicAuth.username}
              onChange={(e) => set('basicAuth', { ...form.basicAuth, username: e.currentTarget.value })}
            />
          </label>
          <label className="field" htmlFor={`${ids}-auth-password`}>
            <span className="field-hint">{t('request.password')}</span>
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
        {t('request.credentialsNote')}
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
  const { t } = useTranslation('start');
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
      <span className="field-hint">{t('extraction.hint')}</span>
    </>
  );
}

/** What besides pages is fetched for its status: resources, external links. */
export function CheckSettings({ binding }: { binding: FormBinding }) {
  const { t } = useTranslation('start');
  const { form, ids, errors, set } = binding;
  const d = binding.defaults?.settings;
  return (
    <>
      <fieldset className="check-set" aria-describedby={errors.has('checkResources') ? `${ids}-checkResources-error` : undefined}>
        <legend className="field-label">{t('check.resources')}</legend>
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
          {t('check.resourcesHint', {
            explain: RESOURCE_OPTIONS.map((o) => o.explain).join(', '),
            default: d?.checkResources.length ? d.checkResources.join(', ') : t('check.pagesOnly'),
          })}
        </span>
        {fieldError(binding, 'checkResources')}
      </fieldset>
      <Check
        label={t('check.checkExternal')}
        hint={t('check.checkExternalHint')}
        error={fieldError(binding, 'checkExternal')}
        input={{ ...fieldAttrs(binding, 'checkExternal'), checked: form.checkExternal, onChange: (v) => set('checkExternal', v) }}
      />
      {linesField(binding, 'contentInclude', t('check.contentInclude'), t('check.contentIncludeHint'), t('check.wholePage'))}
      {linesField(binding, 'contentExclude', t('check.contentExclude'), t('check.contentExcludeHint'), t('scope.none'))}
    </>
  );
}

/** JavaScript rendering: pages loaded in a browser too, and what their scripts make read (issue 16). */
export function RenderSettings({ binding }: { binding: FormBinding }) {
  const { t } = useTranslation('start');
  const { form, set } = binding;
  const d = binding.defaults?.settings;
  const preset = form.viewport === 'desktop' || form.viewport === 'mobile' ? form.viewport : 'custom';
  return (
    <>
      <Check
        label={t('render.render')}
        hint={t('render.renderHint')}
        error={fieldError(binding, 'render')}
        input={{ ...fieldAttrs(binding, 'render'), checked: form.render, onChange: (v) => set('render', v) }}
      />
      <div className="field-grid">
        <NumberField
          label={t('render.wait')}
          hint={t('render.waitHint', { default: formatInt(d?.renderWaitMs ?? 5000) })}
          error={fieldError(binding, 'renderWaitMs')}
          input={numberInput(binding, 'renderWaitMs')}
        />
        <NumberField
          label={t('render.pages')}
          hint={t('render.pagesHint')}
          placeholder={t('render.pagesDefault')}
          error={fieldError(binding, 'renderPages')}
          input={numberInput(binding, 'renderPages')}
        />
        <label className="field" htmlFor={`${binding.ids}-viewport`}>
          <span className="field-label">{t('render.viewport')}</span>
          <select
            data-testid="setting-viewport-choice"
            aria-label={t('render.viewportPreset')}
            value={preset}
            onChange={(e) => set('viewport', e.currentTarget.value === 'custom' ? '1280x800' : e.currentTarget.value)}
          >
            <option value="desktop">{t('render.desktop')}</option>
            <option value="mobile">{t('render.mobile')}</option>
            <option value="custom">{t('render.custom')}</option>
          </select>
          <input
            {...fieldAttrs(binding, 'viewport')}
            type="text"
            value={form.viewport}
            onChange={(e) => set('viewport', e.currentTarget.value)}
          />
          <span className="field-hint">{t('render.viewportHint')}</span>
          {fieldError(binding, 'viewport')}
        </label>
      </div>
      {linesField(binding, 'renderBlock', t('render.block'), t('render.blockHint'), t('render.none'))}
    </>
  );
}

/** XML sitemaps (issue 17): the ones robots.txt names and /sitemap.xml, those given, and what becomes of their URLs. */
export function SitemapSettings({ binding }: { binding: FormBinding }) {
  const { t } = useTranslation('start');
  const { form, set } = binding;
  return (
    <>
      <Check
        label={t('sitemaps.linked')}
        hint={t('sitemaps.linkedHint')}
        error={fieldError(binding, 'crawlLinkedSitemaps')}
        input={{
          ...fieldAttrs(binding, 'crawlLinkedSitemaps'),
          checked: form.crawlLinkedSitemaps,
          onChange: (v) => set('crawlLinkedSitemaps', v),
        }}
      />
      <Check
        label={t('sitemaps.crawlUrls')}
        hint={t('sitemaps.crawlUrlsHint')}
        error={fieldError(binding, 'crawlSitemapUrls')}
        input={{ ...fieldAttrs(binding, 'crawlSitemapUrls'), checked: form.crawlSitemapUrls, onChange: (v) => set('crawlSitemapUrls', v) }}
      />
      {linesField(binding, 'sitemaps', t('sitemaps.given'), t('sitemaps.givenHint'), t('sitemaps.none'))}
    </>
  );
}

/** How hard hosts are pressed, and how failures are retried. */
export function PolitenessSettings({ binding }: { binding: FormBinding }) {
  const { t } = useTranslation('start');
  const { form, set } = binding;
  const d = binding.defaults?.settings;
  return (
    <>
      <div className="field-grid">
        <NumberField
          label={t('politeness.delay')}
          hint={t('politeness.defaultHint', { default: formatInt(d?.delayMs ?? 0) })}
          error={fieldError(binding, 'delayMs')}
          input={numberInput(binding, 'delayMs')}
        />
        <NumberField
          label={t('politeness.urlsPerSecond')}
          hint={t('politeness.noCapHint')}
          placeholder={t('politeness.noCap')}
          error={fieldError(binding, 'maxUrlsPerSecond')}
          input={numberInput(binding, 'maxUrlsPerSecond')}
        />
        <NumberField
          label={t('politeness.maxPerHost')}
          hint={t('politeness.maxPerHostHint')}
          placeholder={t('politeness.threads')}
          error={fieldError(binding, 'maxPerHost')}
          input={numberInput(binding, 'maxPerHost')}
        />
        <NumberField
          label={t('politeness.maxAttempts')}
          hint={t('politeness.maxAttemptsHint', { default: d?.maxAttempts ?? 3 })}
          error={fieldError(binding, 'maxAttempts')}
          input={numberInput(binding, 'maxAttempts')}
        />
        <NumberField
          label={t('politeness.retryDelay')}
          hint={t('politeness.retryDelayHint', { default: formatInt(d?.retryDelayMs ?? 1000) })}
          error={fieldError(binding, 'retryDelayMs')}
          input={numberInput(binding, 'retryDelayMs')}
        />
        <NumberField
          label={t('politeness.maxRetryAfter')}
          hint={t('politeness.maxRetryAfterHint', { default: formatInt(d?.maxRetryAfterMs ?? 60000) })}
          error={fieldError(binding, 'maxRetryAfterMs')}
          input={numberInput(binding, 'maxRetryAfterMs')}
        />
      </div>
      <Check
        label={t('politeness.polite')}
        hint={t('politeness.politeHint')}
        error={fieldError(binding, 'polite')}
        input={{ ...fieldAttrs(binding, 'polite'), checked: form.polite, onChange: (v) => set('polite', v) }}
      />
    </>
  );
}

/** Worker processes, timeouts and the largest body read. */
export function MoreSettings({ binding }: { binding: FormBinding }) {
  const { t } = useTranslation('start');
  const d = binding.defaults?.settings;
  return (
    <div className="field-grid">
      <NumberField
        label={t('more.processes')}
        hint={t('more.processesHint')}
        placeholder={t('more.auto')}
        error={fieldError(binding, 'processes')}
        input={numberInput(binding, 'processes')}
      />
      <NumberField
        label={t('more.responseTimeout')}
        hint={t('more.defaultHint', { default: formatInt(d?.responseTimeoutMs ?? 20000) })}
        error={fieldError(binding, 'responseTimeoutMs')}
        input={numberInput(binding, 'responseTimeoutMs')}
      />
      <NumberField
        label={t('more.connectTimeout')}
        hint={t('more.defaultHint', { default: formatInt(d?.connectTimeoutMs ?? 10000) })}
        error={fieldError(binding, 'connectTimeoutMs')}
        input={numberInput(binding, 'connectTimeoutMs')}
      />
      <NumberField
        label={t('more.firstByteTimeout')}
        hint={t('more.firstByteTimeoutHint', { default: formatInt(d?.firstByteTimeoutMs ?? 15000) })}
        error={fieldError(binding, 'firstByteTimeoutMs')}
        input={numberInput(binding, 'firstByteTimeoutMs')}
      />
      <NumberField
        label={t('more.processingBudget')}
        hint={t('more.processingBudgetHint', { default: formatInt(d?.processingBudgetMs ?? 10000) })}
        error={fieldError(binding, 'processingBudgetMs')}
        input={numberInput(binding, 'processingBudgetMs')}
      />
      <NumberField
        label={t('more.maxBody')}
        hint={t('more.defaultHint', { default: formatBytes(d?.maxBodyBytes ?? 10485760) })}
        error={fieldError(binding, 'maxBodyBytes')}
        input={numberInput(binding, 'maxBodyBytes')}
      />
    </div>
  );
}
