// Settings that can change safely while a crawl runs, beside the thread slider: the URLs/s cap (set, change or
// remove) and exclude patterns (added live, dropping the queued URLs they match, and saying how many). The
// patterns added so far come from the snapshots, so every window showing the crawl lists them. A cluster crawl's
// cap and excludes are its nodes' settings (in the PostgreSQL store), which nothing here can change: its live view
// shows the cap and says where it is set, and offers no inputs the host would only refuse.
import { useId, useState } from 'react';
import { errorMessage } from '../api/connection.ts';
import { formatInt } from '../format.ts';
import { useApi, useCrawl } from '../store/context.tsx';
import { useBusyCommand } from './use-command.ts';
import { isOffline } from '../api/connection.ts';

/** LIMITS.maxUrlsPerSecond of the settings. */
export const MAX_RATE = 10_000;

/** The cap typed, as a number the host takes, or why not. */
export function parseRate(text: string): { ok: true; value: number } | { ok: false; problem: string } {
  const t = text.trim();
  const n = Number(t);
  if (t === '' || !Number.isFinite(n)) return { ok: false, problem: 'type a number of URLs per second' };
  if (n <= 0) return { ok: false, problem: 'the cap must be more than 0 (or remove it)' };
  if (n > MAX_RATE) return { ok: false, problem: `the cap can be at most ${formatInt(MAX_RATE)}` };
  return { ok: true, value: n };
}

export function rateText(cap: number | null): string {
  return cap === null ? 'now: no cap' : `now: ≤ ${cap}/s`;
}

export function droppedText(dropped: number): string {
  return `dropped ${formatInt(dropped)} queued URL${dropped === 1 ? '' : 's'}`;
}

type ExcludeOutcome = { ok: true; pattern: string; dropped: number } | { ok: false; error: string };

/** Said on screen, beside a cluster crawl's cap, in place of the inputs. */
export const CLUSTER_SETTINGS_NOTE = "cap and excludes: set by the nodes' settings";
const CLUSTER_SETTINGS_WHY =
  "A cluster crawl's URLs/s cap and exclude patterns are in its settings in the PostgreSQL store, which its nodes apply; from here only pause, resume, stop and the thread count reach them";

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

  /** Sets the cap typed, or (remove) lifts the cap. */
  const applyRate = async (remove: boolean) => {
    let value: number | null = null;
    if (!remove) {
      const parsed = parseRate(rate);
      if (!parsed.ok) return setRateProblem(parsed.problem);
      value = parsed.value;
    }
    setRateProblem(null);
    const done = await runRate(value === null ? 'Remove the URLs/s cap' : 'Set the URLs/s cap', () =>
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
  if (cluster) {
    return (
      <div className="live-settings" role="group" aria-label="live settings" data-cluster="true" title={CLUSTER_SETTINGS_WHY}>
        <div className="live-field">
          <span className="live-label">URLs/s cap</span>
          <span className="live-note" data-testid="live-max-rate-now" data-value={cap ?? undefined}>
            {rateText(cap)}
          </span>
        </div>
        <span className="live-note" data-testid="live-settings-cluster">
          {CLUSTER_SETTINGS_NOTE}
        </span>
      </div>
    );
  }
  const why = live ? undefined : offline && !opened ? 'No connection to the Trawl host' : 'Can be changed while a crawl runs';
  return (
    <div className="live-settings" role="group" aria-label="live settings" data-live={live || undefined}>
      <div className="live-field" title={why ?? 'At most this many fetches started per second, over all hosts; applies at once'}>
        <label className="live-label" htmlFor={`${id}-rate`}>
          URLs/s cap
        </label>
        <input
          id={`${id}-rate`}
          data-testid="live-max-rate"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          size={5}
          placeholder="e.g. 20"
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
          {cap === null ? 'Set' : 'Change'}
        </button>
        {cap !== null && (
          <button
            type="button"
            className="btn btn-small btn-quiet"
            data-testid="live-max-rate-remove"
            disabled={!live || rateBusy}
            onClick={() => void applyRate(true)}
          >
            Remove
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
        title={why ?? 'A regular expression: matching URLs are no longer crawled, and the queued ones are dropped now'}
      >
        <label className="live-label" htmlFor={`${id}-exclude`}>
          Exclude
        </label>
        <input
          id={`${id}-exclude`}
          data-testid="live-exclude"
          className="mono-input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          placeholder="regex, e.g. /tag/"
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
          Add
        </button>
        {outcome && (
          <span
            className={outcome.ok ? 'live-note live-outcome' : 'live-problem'}
            data-testid="live-exclude-result"
            data-dropped={outcome.ok ? outcome.dropped : undefined}
            role={outcome.ok ? 'status' : 'alert'}
            title={outcome.ok ? `excluded ${outcome.pattern}` : outcome.error}
          >
            {outcome.ok ? droppedText(outcome.dropped) : outcome.error}
          </span>
        )}
      </div>
      {excludes.length > 0 && !opened && (
        <div className="live-excludes" data-testid="live-excludes" aria-label="exclude patterns added live">
          <span className="live-label">Excluded live</span>
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
