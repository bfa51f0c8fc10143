// Try the scope on sample URLs before crawling: for each pasted URL, whether the form's scope, allowed hosts,
// include and exclude patterns, URL length and stripped parameters would let the crawl fetch it, and if not,
// why. The same functions the engine uses (shared/scope.ts, shared/url/normalise.ts), run in the page.
import { useMemo, useState } from 'react';
import { mustCompile } from '../../../shared/pattern.ts';
import { makeScopeReason } from '../../../shared/scope.ts';
import { DEFAULT_MAX_URL_LENGTH } from '../../../shared/url/canonical.ts';
import { makeNormaliser } from '../../../shared/url/normalise.ts';
import { useTranslation } from '../i18n/i18n.ts';
import type { StartForm } from './start-form-model.ts';
import { t } from './start-form-model.ts';

/** Sample URLs looked at, at most. */
export const MAX_SAMPLES = 200;

export interface PatternVerdict {
  /** As pasted. */
  url: string;
  /** The URL as the crawl knows it (canonical, parameters stripped), or null when it cannot be crawled at all. */
  normalised: string | null;
  crawled: boolean;
  /** Why not, or what happens to it. */
  why: string;
}

export type PatternTest = { ok: true; verdicts: PatternVerdict[] } | { ok: false; problem: string };

type ScopeForm = Pick<StartForm, 'seeds' | 'mode' | 'scope' | 'allowedHosts' | 'include' | 'exclude' | 'stripQueryParams' | 'maxUrlLength'>;

/** Non-blank lines, trimmed (as the form reads its list fields). */
const lines = (text: string) =>
  text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * The verdict of the form's scope settings on each sample URL (one a line), as the crawl would judge a link;
 * `scopeLabel` names the scope in the reasons.
 */
export function patternVerdicts(form: ScopeForm, samples: string, scopeLabel: string = form.scope): PatternTest {
  const include = lines(form.include);
  const exclude = lines(form.exclude);
  const typedLength = Number(form.maxUrlLength.trim());
  const maxUrlLength =
    form.maxUrlLength.trim() !== '' && Number.isInteger(typedLength) && typedLength > 0 ? typedLength : DEFAULT_MAX_URL_LENGTH;
  const normalise = makeNormaliser({ stripQueryParams: lines(form.stripQueryParams) });
  const seeds = lines(form.seeds)
    .map((s) => normalise(s))
    .filter((s): s is string => s !== null);
  let reason: (url: string) => string | null;
  try {
    reason = makeScopeReason({
      seeds,
      scope: form.scope,
      allowedHosts: lines(form.allowedHosts).map((h) => h.toLowerCase()),
      include,
      exclude,
      maxUrlLength,
    });
  } catch (err) {
    return { ok: false, problem: t('tester.fixPattern', { error: err instanceof Error ? err.message : String(err) }) };
  }
  const verdicts = lines(samples)
    .slice(0, MAX_SAMPLES)
    .map((url): PatternVerdict => {
      const normalised = normalise(url);
      if (normalised === null) return { url, normalised, crawled: false, why: t('tester.notHttp') };
      const why = reason(normalised);
      const shown = normalised === url ? '' : t('tester.asNormalised', { url: normalised });
      switch (why) {
        case null:
          return {
            url,
            normalised,
            crawled: true,
            why: form.mode === 'list' ? t('tester.inScopeList', { shown }) : t('tester.crawledWhenLinked', { shown }),
          };
        case 'host':
          return {
            url,
            normalised,
            crawled: false,
            why:
              seeds.length === 0 && lines(form.allowedHosts).length === 0
                ? t('tester.noSeed')
                : t('tester.outsideScope', { host: new URL(normalised).host, scope: scopeLabel }),
          };
        case 'too long':
          return { url, normalised, crawled: false, why: t('tester.tooLong', { length: normalised.length, max: maxUrlLength }) };
        case 'excluded': {
          const pattern = exclude.find((p) => mustCompile(p).test(normalised));
          return {
            url,
            normalised,
            crawled: false,
            why: pattern === undefined ? t('tester.excludedNoPattern') : t('tester.excluded', { pattern }),
          };
        }
        case 'not included':
          return { url, normalised, crawled: false, why: t('tester.notIncluded', { shown }) };
        default:
          return { url, normalised, crawled: false, why };
      }
    });
  return { ok: true, verdicts };
}

export function PatternTester({ idPrefix, form, scopeLabel }: { idPrefix: string; form: ScopeForm; scopeLabel: string }) {
  const { t, i18n } = useTranslation('start');
  const [samples, setSamples] = useState('');
  // The verdicts are sentences: said again in the language shown when it changes.
  const language = i18n.language;
  const result = useMemo(
    () => (samples.trim() && language ? patternVerdicts(form, samples, scopeLabel) : null),
    [form, samples, scopeLabel, language],
  );
  const rows = Math.min(6, Math.max(2, samples.split('\n').length));
  return (
    <div className="pattern-tester" data-testid="pattern-tester">
      <label className="field field-wide" htmlFor={`${idPrefix}-samples`}>
        <span className="field-label">{t('tester.label')}</span>
        <textarea
          id={`${idPrefix}-samples`}
          data-testid="pattern-samples"
          className="list-input"
          rows={rows}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          placeholder={t('tester.placeholder')}
          value={samples}
          onChange={(e) => setSamples(e.currentTarget.value)}
        />
        <span className="field-hint">{t('tester.hint')}</span>
      </label>
      {result && !result.ok && (
        <div className="field-error" role="alert">
          {result.problem}
        </div>
      )}
      {result?.ok && (
        <ul className="pattern-verdicts" aria-label={t('tester.verdicts')}>
          {result.verdicts.map((v, i) => (
            <li key={i} className="pattern-verdict" data-crawled={v.crawled} title={v.normalised ?? v.url}>
              <span className="pattern-mark" aria-hidden="true">
                {v.crawled ? '✓' : '✗'}
              </span>
              <span className="pattern-text">
                <span className="pattern-url">{v.url}</span>
                <span className="pattern-why">{v.crawled ? v.why : t('tester.notCrawled', { why: v.why })}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
