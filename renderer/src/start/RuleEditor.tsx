// The start form's custom extraction rules: add and remove rules, edit each (name, CSS or regex, what it reads,
// first match or all), and try them on a sample URL first. The host fetches and parses that URL in a worker, as
// the crawl would; what the rules found comes back and is shown as text, never as markup.
import { useState } from 'react';
import type { ExtractionTest, ExtractionTestResult } from '../../../shared/crawler-api.ts';
import type { CrawlSettingsInput, ExtractionRule, SettingsProblem } from '../../../shared/settings.ts';
import { useApi } from '../store/context.tsx';
import { useBusyCommand } from '../components/use-command.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { problemText } from '../i18n/host-messages.ts';
import type { RuleForm } from './rule-form.ts';
import { newRule } from './rule-form.ts';
import { labelled } from './start-form-model.ts';

// The settings schema's enums, restated so the page does not import the validation library (as in
// start-form-model.ts); their labels are read in the language shown when asked for.
/** Kinds of extraction rule. */
export const EXTRACTION_TYPE_OPTIONS = [
  labelled('css', 'rules.typeCss'),
  labelled('regex', 'rules.typeRegex'),
] as const satisfies readonly { value: ExtractionRule['type']; label: string }[];
/** What a CSS rule reads from each element it selects. */
export const EXTRACTION_OUTPUT_OPTIONS = [
  labelled('text', 'rules.outputText'),
  labelled('attribute', 'rules.outputAttribute'),
  labelled('html', 'rules.outputHtml'),
] as const satisfies readonly { value: ExtractionRule['output']; label: string }[];

export interface RuleEditorProps {
  idPrefix: string;
  rules: readonly RuleForm[];
  onChange: (rules: RuleForm[]) => void;
  /** Problems by form field ("extraction.0.expression", "extraction"), as problemsByField gives them. */
  errors: ReadonlyMap<string, string[]>;
  /** The first seed, offered as the URL to test on. */
  firstSeed: string;
  /** The whole form's settings (the test uses the user agent, headers and timeouts too). */
  settingsForTest: () => Omit<CrawlSettingsInput, 'seeds'>;
  /** Problems of the test's settings, for the form to mark. */
  onProblems: (problems: SettingsProblem[]) => void;
}

/** MAX_EXTRACTION_RULES of the settings. */
export const MAX_RULES = 30;

export function RuleEditor({ idPrefix, rules, onChange, errors, firstSeed, settingsForTest, onProblems }: RuleEditorProps) {
  const api = useApi();
  const [testUrl, setTestUrl] = useState('');
  const [busy, run] = useBusyCommand();
  const { t } = useTranslation('start');
  const [outcome, setOutcome] = useState<{ result: ExtractionTest; rules: string[] } | null>(null);
  const [urlProblems, setUrlProblems] = useState<string[]>([]);

  const update = (i: number, patch: Partial<RuleForm>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const url = testUrl.trim() || firstSeed;

  const test = async () => {
    setUrlProblems([]);
    const result: ExtractionTestResult | undefined = await run(t('rules.commandTest'), () => api.testExtraction(url, settingsForTest()));
    if (!result) return;
    if (result.ok) {
      const { ok: _ok, ...tested } = result;
      setOutcome({ result: tested, rules: rules.map((r) => r.name.trim()) });
      onProblems([]);
    } else {
      setOutcome(null);
      setUrlProblems(result.problems.filter((p) => p.field === 'url').map(problemText));
      onProblems(result.problems.filter((p) => p.field !== 'url'));
    }
  };

  const err = (field: string) => errors.get(field);
  return (
    <div className="rule-editor" data-testid="rule-editor">
      {rules.length === 0 && <p className="field-hint">{t('rules.none')}</p>}
      {rules.map((rule, i) => {
        const id = `${idPrefix}-rule-${i}`;
        const css = rule.type === 'css';
        const fieldErrors = (name: string) => err(`extraction.${i}.${name}`);
        return (
          <fieldset key={i} className="rule" data-testid={`rule-${i}`} aria-label={t('rules.ruleLabel', { n: i + 1 })}>
            <div className="rule-head">
              <label className="field rule-name" htmlFor={`${id}-name`}>
                <span className="field-label">{t('rules.columnName')}</span>
                <input
                  id={`${id}-name`}
                  data-testid={`rule-${i}-name`}
                  type="text"
                  spellCheck={false}
                  value={rule.name}
                  aria-invalid={!!fieldErrors('name') || undefined}
                  onChange={(e) => update(i, { name: e.currentTarget.value })}
                />
              </label>
              <button
                type="button"
                className="btn btn-quiet btn-small rule-remove"
                aria-label={t('rules.remove', { name: rule.name || i + 1 })}
                title={t('rules.removeTitle')}
                onClick={() => onChange(rules.filter((_, j) => j !== i))}
              >
                ✕
              </button>
            </div>
            <Messages messages={fieldErrors('name')} />
            <div className="field-grid">
              <label className="field" htmlFor={`${id}-type`}>
                <span className="field-label">{t('rules.type')}</span>
                <select
                  id={`${id}-type`}
                  data-testid={`rule-${i}-type`}
                  value={rule.type}
                  onChange={(e) =>
                    update(i, { type: EXTRACTION_TYPE_OPTIONS.find((o) => o.value === e.currentTarget.value)?.value ?? 'css' })
                  }
                >
                  {EXTRACTION_TYPE_OPTIONS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field" htmlFor={`${id}-output`}>
                <span className="field-label">{t('rules.reads')}</span>
                <select
                  id={`${id}-output`}
                  data-testid={`rule-${i}-output`}
                  value={css ? rule.output : 'text'}
                  disabled={!css}
                  title={css ? undefined : t('rules.regexReadsTitle')}
                  onChange={(e) =>
                    update(i, { output: EXTRACTION_OUTPUT_OPTIONS.find((o) => o.value === e.currentTarget.value)?.value ?? 'text' })
                  }
                >
                  {css ? (
                    EXTRACTION_OUTPUT_OPTIONS.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))
                  ) : (
                    <option value="text">{t('rules.firstGroup')}</option>
                  )}
                </select>
              </label>
            </div>
            <label className="field" htmlFor={`${id}-expression`}>
              <span className="field-label">{css ? t('rules.cssSelector') : t('rules.regex')}</span>
              <input
                id={`${id}-expression`}
                data-testid={`rule-${i}-expression`}
                className="mono-input"
                type="text"
                spellCheck={false}
                autoCapitalize="off"
                autoCorrect="off"
                placeholder={css ? t('rules.cssPlaceholder') : t('rules.regexPlaceholder')}
                value={rule.expression}
                aria-invalid={!!fieldErrors('expression') || undefined}
                onChange={(e) => update(i, { expression: e.currentTarget.value })}
              />
              <Messages messages={fieldErrors('expression')} />
            </label>
            {css && rule.output === 'attribute' && (
              <label className="field" htmlFor={`${id}-attribute`}>
                <span className="field-label">{t('rules.attribute')}</span>
                <input
                  id={`${id}-attribute`}
                  data-testid={`rule-${i}-attribute`}
                  type="text"
                  spellCheck={false}
                  placeholder={t('rules.attributePlaceholder')}
                  value={rule.attribute}
                  aria-invalid={!!fieldErrors('attribute') || undefined}
                  onChange={(e) => update(i, { attribute: e.currentTarget.value })}
                />
                <Messages messages={fieldErrors('attribute')} />
              </label>
            )}
            <label className="check" htmlFor={`${id}-all`}>
              <input
                id={`${id}-all`}
                data-testid={`rule-${i}-all`}
                type="checkbox"
                checked={rule.all}
                onChange={(e) => update(i, { all: e.currentTarget.checked })}
              />
              <span className="check-label">{t('rules.every')}</span>
            </label>
            <Messages messages={[...(err(`extraction.${i}`) ?? []), ...(fieldErrors('output') ?? []), ...(fieldErrors('all') ?? [])]} />
          </fieldset>
        );
      })}
      <Messages messages={err('extraction')} />
      <div className="rule-actions">
        <button
          type="button"
          className="btn btn-small"
          data-testid="add-rule"
          disabled={rules.length >= MAX_RULES}
          onClick={() => onChange([...rules, newRule(rules)])}
        >
          {t('rules.add')}
        </button>
      </div>

      {rules.length > 0 && (
        <div className="rule-test">
          <label className="field" htmlFor={`${idPrefix}-test-url`}>
            <span className="field-label">{t('rules.testOn')}</span>
            <div className="inline-row">
              <input
                id={`${idPrefix}-test-url`}
                data-testid="rule-test-url"
                className="mono-input"
                type="text"
                spellCheck={false}
                placeholder={firstSeed || 'https://example.com/page'}
                value={testUrl}
                aria-invalid={urlProblems.length > 0 || undefined}
                onChange={(e) => setTestUrl(e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    if (url && !busy) void test();
                  }
                }}
              />
              <button type="button" className="btn btn-small" data-testid="rule-test" disabled={busy || !url} onClick={() => void test()}>
                {busy ? t('rules.testing') : t('rules.test')}
              </button>
            </div>
            <span className="field-hint">{t('rules.testHint')}</span>
            <Messages messages={urlProblems} />
          </label>
          {outcome && <RuleTestOutcome result={outcome.result} rules={outcome.rules} />}
        </div>
      )}
    </div>
  );
}

/** What each rule found on the sample page, as text; or why nothing could be read. */
export function RuleTestOutcome({ result, rules }: { result: ExtractionTest; rules: readonly string[] }) {
  const { t } = useTranslation('start');
  const names = [...new Set([...rules.filter((r) => Object.hasOwn(result.values, r)), ...Object.keys(result.values)])];
  return (
    <div className="rule-test-result" data-testid="rule-test-result" role="status">
      <div className="rule-test-head">
        <span className="rule-test-status">{result.statusCode === null ? t('rules.noResponse') : result.statusCode}</span>
        <span className="rule-test-url" title={result.url}>
          {result.url}
        </span>
      </div>
      {result.problem && <div className="rule-test-problem">{result.problem}</div>}
      {!result.problem && (
        <dl className="rule-test-values">
          {names.map((name) => {
            const values = Object.hasOwn(result.values, name) ? result.values[name]! : [];
            return (
              <div key={name} className="rule-test-rule" data-rule={name} data-matches={values.length}>
                <dt>
                  {name} <span className="rule-test-count">{t('rules.matches', { count: values.length })}</span>
                </dt>
                {values.map((v, i) => (
                  <dd key={i} className="rule-test-value">
                    {v}
                  </dd>
                ))}
              </div>
            );
          })}
        </dl>
      )}
    </div>
  );
}

function Messages({ messages }: { messages: readonly string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <span className="field-error" role="alert">
      {messages.map((m, i) => (
        <span key={i}>{m}</span>
      ))}
    </span>
  );
}
