// How the analyst views follow the crawl in view: load once when it (or what they ask) changes, then while it
// runs again at most every `intervalMs`, and only when it moved on; once more when it finishes.
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/connection.ts';
import { isLiveState } from '../store/crawl-view.ts';
import { useCrawl } from '../store/context.tsx';
import { SCORES_PENDING_RETRY_MS as PENDING_RETRY_MS } from '../results/results-window.ts';

/** Whether a crawl is in view at all (started, resumed or opened). */
export function useHasCrawl(): boolean {
  return useCrawl((s) => s.file !== null || s.opened !== null || s.hasSnapshot);
}

/** True while the crawl in view runs. */
export function useLive(): boolean {
  return useCrawl((s) => isLiveState(s.state) && s.opened === null);
}

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  /** Loads again now (after an action that changed the data). */
  reload: () => void;
}

/**
 * The answer of `load` for the crawl in view. `key` says what is asked (a filter, a page...): a new key loads at
 * once and drops older answers. While the crawl runs it loads again every `intervalMs` if the counters moved.
 * `merge` folds an answer into the last one (live chart updates); by default an answer replaces it. `pending` says
 * an answer came before what the host computes over the whole crawl (its Link Scores, its duplicate content): it is
 * loaded again after PENDING_RETRY_MS, until it comes whole.
 */
export function useLiveQuery<T>(
  key: string,
  load: (previous: T | null) => Promise<T>,
  intervalMs: number,
  options: { enabled?: boolean; merge?: (previous: T | null, next: T) => T; pending?: (answer: T) => boolean } = {},
): Loaded<T> {
  const enabled = options.enabled ?? true;
  const crawlKey = useCrawl((s) => s.crawlKey);
  const live = useLive();
  const version = useCrawl((s) => s.counters.crawled + s.counters.failed + s.counters.queued);
  const [state, setState] = useState<{ key: string; data: T | null; error: string | null }>({ key: '', data: null, error: null });
  const latest = useRef({ load, merge: options.merge, version });
  latest.current = { load, merge: options.merge, version };
  const generation = useRef(0);
  const dataRef = useRef<T | null>(null);
  const seenVersion = useRef(-1);
  const busy = useRef(false);
  const fullKey = `${crawlKey}|${key}`;

  const run = (fresh: boolean) => {
    if (!enabled) return;
    const gen = fresh ? ++generation.current : generation.current;
    if (fresh) dataRef.current = null;
    if (busy.current && !fresh) return;
    busy.current = true;
    seenVersion.current = latest.current.version;
    const previous = dataRef.current;
    latest.current.load(previous).then(
      (answer) => {
        if (gen !== generation.current) return;
        busy.current = false;
        const merged = latest.current.merge ? latest.current.merge(previous, answer) : answer;
        dataRef.current = merged;
        setState({ key: fullKey, data: merged, error: null });
      },
      (err: unknown) => {
        if (gen !== generation.current) return;
        busy.current = false;
        setState((s) => ({ key: fullKey, data: s.key === fullKey ? s.data : null, error: errorMessage(err) }));
      },
    );
  };
  const runRef = useRef(run);
  runRef.current = run;

  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => runRef.current(true), [fullKey, enabled]);

  useEffect(() => {
    if (!live || !enabled) return;
    const timer = setInterval(() => {
      if (latest.current.version !== seenVersion.current) runRef.current(false);
    }, intervalMs);
    return () => {
      clearInterval(timer);
      // The crawl finished (or the view closes): the last rows it wrote.
      runRef.current(false);
    };
  }, [live, enabled, intervalMs]);

  const pending = state.key === fullKey && state.data !== null && options.pending?.(state.data) === true;
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => runRef.current(false), PENDING_RETRY_MS);
    return () => clearTimeout(timer);
  }, [pending, state]);

  const current = state.key === fullKey ? state : { data: null, error: null };
  return { data: current.data, error: current.error, reload: () => runRef.current(false) };
}
