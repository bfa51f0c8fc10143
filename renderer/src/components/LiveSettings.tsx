// Settings that can change safely while a crawl runs, beside the thread slider: the URLs/s cap (set, change or
// remove) and exclude patterns (added live, dropping the queued URLs they match, and saying how many). The
// patterns added so far come from the snapshots, so every window showing the crawl lists them. On a cluster crawl
// both are the whole cluster's: the cap is shared out over its live nodes, an exclude reaches every node.
import { useId, useState } from 'react';
import { errorMessage } from '../api/connection.ts';
import { formatInt } from '../format.ts';
import { useApi, useCrawl } from '../store/context.tsx';
import { useBusyCommand } from './use-command.ts';
import { isOffline } from '../api/connection.ts';
import { i18next, useTranslation } from '../i18n/i18n.ts';

/** LIMITS.maxUrlsPerSecond of the settings. */
export const MAX_RATE = 10_000;

/** The cap typed, as a number the host takes, or why not. */
export function parseRate(text: string): { ok: true; value: number } | { ok: false; problem: string } {
  const t = text.trim();
  const n = Number(t);
  if (t === '' || !Number.isFinite(n)) return { ok: false, problem: i18next.t('liveSettings.typeNumber', { ns: 'live' }) };
  if (n <= 0) return { ok: false, problem: i18next.t('liveSettings.capPositive', { ns: 'live' }) };
  if (n > MAX_RATE) return { ok: false, problem: i18next.t('liveSettings.capMax', { ns: 'live', max: formatInt(MAX_RATE) }) };
  return { ok: true, value: n };
}

export function rateText(cap: number | null): string {
  return cap === null ? i18next.t('liveSettings.noCap', { ns: 'live' }) : i18next.t('liveSettings.cap', { ns: 'live', cap });
}

export function droppedText(dropped: number): string {
  return i18next.t('liveSettings.dropped', { ns: 'live', count: dropped, formatted: formatInt(dropped) });
}

type ExcludeOutcome = { ok: true; pattern: string; dropped: number } | { ok: false; error: string };

export function LiveSettings() {
  const api = useApi();
  const state = useCrawl((s) => s.state);
  const opened = useCrawl((s) => s.opened !== null);
  const cap = useCrawl((s) => s.maxUrlsPerSecond);
  const excludes = useCrawl((s) => s.liveExcludes);
  const cluster = useCrawl((s) => s.cluster !== null);
  const offline = useCrawl((s) => isOffline(s.connection));
  const live = !opened && !offline && (state === 'preparing' || state === 'running' || state === 'pausing' || state === 'paused');
  const [rate, setRate] = useState('');
  const [rateProblem, setRateProblem] = useState<string | null>(null);
  const [pattern, setPattern] = useState('');
  const [outcome, setOutcome] = useState<ExcludeOutcome | null>(null);
  const [rateBusy, runRate] = useBusyCommand();
  const [excludeBusy, setExcludeBusy] = useState(false);
  const { t } = useTranslation('live');

  /** Sets the cap typed, or (remove) lifts the cap. */
  const applyRate = async (remove: boolean) => {
    let value: number | null = null;
    if (!remove) {
      const parsed = parseRate(rate);
      if (!parsed.ok) return setRateProblem(parsed.problem);
      value = parsed.value;
    }
    setRateProblem(null);
    const done = await runRate(value === null ? t('liveSettings.removeCap') : t('liveSettings.setCap'), () =>
      api.setMaxRate(value).then(() => true),
    );
    if (done) setRate('');
  };

  const addExclude = async () => {
    const p = pattern.trim();
    if (!p || excludeBusy) return;
    setExcludeBusy(true);
    try {
      const { dropped } = await api.addExclude(p);
      setOutcome({ ok: true, pattern: p, dropped });
      setPattern('');
    } catch (err) {
      // The engine names what is wrong with the pattern: shown here, where it was typed.
      setOutcome({ ok: false, error: errorMessage(err) });
    } finally {
      setExcludeBusy(false);
    }
  };

  const id = useId();
  const why = live ? undefined : offline && !opened ? t('liveSettings.noConnection') : t('liveSettings.whileRunning');
  return (
    <div
      className="live-settings"
      role="group"
      aria-label={t('liveSettings.group')}
      data-live={live || undefined}
      data-cluster={cluster || undefined}
    >
      <div className="live-field" title={why ?? (cluster ? t('liveSettings.clusterCapTitle') : t('liveSettings.capTitle'))}>
        <label className="live-label" htmlFor={`${id}-rate`}>
          {t('liveSettings.capLabel')}
        </label>
        <input
          id={`${id}-rate`}
          data-testid="live-max-rate"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          size={5}
          placeholder={t('liveSettings.capPlaceholder')}
          value={rate}
          disabled={!live}
          aria-invalid={rateProblem !== null || undefined}
          aria-describedby={rateProblem ? `${id}-rate-problem` : undefined}
          onChange={(e) => {
            setRate(e.currentTarget.value);
            setRateProblem(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void applyRate(false);
          }}
        />
        <button
          type="button"
          className="btn btn-small"
          data-testid="live-max-rate-apply"
          disabled={!live || rateBusy || rate.trim() === ''}
          onClick={() => void applyRate(false)}
        >
          {cap === null ? t('liveSettings.set') : t('liveSettings.change')}
        </button>
        {cap !== null && (
          <button
            type="button"
            className="btn btn-small btn-quiet"
            data-testid="live-max-rate-remove"
            disabled={!live || rateBusy}
            onClick={() => void applyRate(true)}
          >
            {t('liveSettings.remove')}
          </button>
        )}
        <span className="live-note" data-testid="live-max-rate-now" data-value={cap ?? undefined}>
          {live ? rateText(cap) : ''}
        </span>
        {rateProblem && (
          <span className="live-problem" id={`${id}-rate-problem`} role="alert">
            {rateProblem}
          </span>
        )}
      </div>
      <div
        className="live-field live-exclude"
        title={why ?? (cluster ? t('liveSettings.clusterExcludeTitle') : t('liveSettings.excludeTitle'))}
      >
        <label className="live-label" htmlFor={`${id}-exclude`}>
          {t('liveSettings.exclude')}
        </label>
        <input
          id={`${id}-exclude`}
          data-testid="live-exclude"
          className="mono-input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('liveSettings.excludePlaceholder')}
          value={pattern}
          disabled={!live}
          aria-invalid={outcome?.ok === false || undefined}
          onChange={(e) => setPattern(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void addExclude();
          }}
        />
        <button
          type="button"
          className="btn btn-small"
          data-testid="live-exclude-add"
          disabled={!live || excludeBusy || pattern.trim() === ''}
          onClick={() => void addExclude()}
        >
          {t('liveSettings.add')}
        </button>
        {outcome && (
          <span
            className={outcome.ok ? 'live-note live-outcome' : 'live-problem'}
            data-testid="live-exclude-result"
            data-dropped={outcome.ok ? outcome.dropped : undefined}
            role={outcome.ok ? 'status' : 'alert'}
            title={outcome.ok ? t('liveSettings.excluded', { pattern: outcome.pattern }) : outcome.error}
          >
            {outcome.ok ? droppedText(outcome.dropped) : outcome.error}
          </span>
        )}
      </div>
      {excludes.length > 0 && !opened && (
        <div className="live-excludes" data-testid="live-excludes" aria-label={t('liveSettings.excludesLabel')}>
          <span className="live-label">{t('liveSettings.excludedLive')}</span>
          {excludes.map((p) => (
            <code key={p} className="live-pattern" data-pattern={p}>
              {p}
            </code>
          ))}
        </div>
      )}
    </div>
  );
}
