// The live worker grid: one cell per crawl thread. A cell subscribes to its own thread only (the store keeps a
// thread's object while it is unchanged), and its "time in step" to the one shared clock.
import { memo, useEffect, useRef, useState } from 'react';
import { PROCESSOR_CHAIN } from '../../../shared/processors.ts';
import type { ThreadStatus } from '../../../shared/snapshot.ts';
import { STEP_LABELS, THREAD_STEPS } from '../../../shared/steps.ts';
import { formatBytes, formatInt, formatStepTime } from '../format.ts';
import { isLiveState } from '../store/crawl-store.ts';
import { useApi, useCrawl, useStuck, useThread } from '../store/context.tsx';
import { useCommand } from './use-command.ts';
import { LiveSettings } from './LiveSettings.tsx';

export function ThreadsPanel() {
  return (
    <section className="panel threads-panel" aria-label="crawl threads">
      <div className="panel-bar">
        <h2 className="panel-title">Threads</h2>
        <ThreadSlider />
        <LiveSettings />
        <StepLegend />
        <ProcessorLegend />
      </div>
      <ThreadGrid />
    </section>
  );
}

/** Sends a new pool size once the slider rests for this long. */
const SLIDER_DEBOUNCE_MS = 300;

export function ThreadSlider() {
  const api = useApi();
  const command = useCommand();
  const target = useCrawl((s) => s.threadTarget);
  const state = useCrawl((s) => s.state);
  const opened = useCrawl((s) => s.opened !== null);
  const limits = useCrawl((s) => s.defaults?.limits.threads) ?? { min: 1, max: 200 };
  const live = !opened && (state === 'preparing' || state === 'running' || state === 'pausing' || state === 'paused');
  const [value, setValue] = useState(target);
  // What we asked for last: snapshots still carrying the old target must not snap the slider back.
  const asked = useRef<{ value: number; until: number } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    const a = asked.current;
    if (a && a.value !== target && Date.now() < a.until) return;
    asked.current = null;
    if (!timer.current) setValue(target);
  }, [target]);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const change = (n: number) => {
    setValue(n);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      asked.current = { value: n, until: Date.now() + 3_000 };
      void command('Change threads', () => api.setThreads(n));
    }, SLIDER_DEBOUNCE_MS);
  };

  return (
    <label className="thread-slider" title={live ? 'Resize the pool live: new threads start at once, removed ones finish their URL first' : 'Threads can be changed while a crawl runs'}>
      <span className="thread-slider-label">Pool</span>
      <input
        type="range"
        data-testid="thread-slider"
        min={limits.min}
        max={limits.max}
        step={1}
        value={Math.max(limits.min, Math.min(limits.max, value || limits.min))}
        disabled={!live}
        aria-valuetext={`${value} threads`}
        onChange={(e) => change(Number(e.currentTarget.value))}
      />
      <output className="thread-target" data-testid="thread-target" data-value={value}>
        {value > 0 && !opened ? value : '–'}
      </output>
      <span className="thread-slider-unit">threads</span>
    </label>
  );
}

function StepLegend() {
  const counts = useCrawl((s) => s.stepCounts);
  return (
    <ul className="step-legend" aria-label="threads per step">
      {THREAD_STEPS.map((step) => {
        const n = counts[step] ?? 0;
        return (
          <li key={step} className="legend-item" data-step={step} data-empty={n === 0 || undefined}>
            <span className="legend-swatch" aria-hidden="true" />
            {STEP_LABELS[step]}
            <span className="legend-count">{n}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** What a processor does, for its tooltip; unknown names (a newer engine) get none. */
const PROCESSOR_INFO = new Map(PROCESSOR_CHAIN.map((p) => [p.name, p]));

export function processorTitle(name: string): string | undefined {
  const p = PROCESSOR_INFO.get(name);
  return p ? `${p.name} (${p.stage}): ${p.does}` : undefined;
}

/** The chain every URL goes through, in order: the names the cells show, explained on hover. */
export function ProcessorLegend() {
  const chain = PROCESSOR_CHAIN.map((p, i) => `${i + 1}. ${p.name} (${p.stage}): ${p.does}`).join('\n');
  return (
    <span className="chain-legend" data-testid="processor-chain" tabIndex={0} title={`Every URL goes through this chain of processors; a thread shows the one it is in.\n\n${chain}`} aria-label={`processor chain: ${PROCESSOR_CHAIN.map((p) => p.name).join(', ')}`}>
      processor chain
    </span>
  );
}

export function ThreadGrid() {
  const ids = useCrawl((s) => s.threadIds);
  const state = useCrawl((s) => s.state);
  const opened = useCrawl((s) => s.opened !== null);
  if (opened || ids.length === 0) {
    return (
      <div className="grid-empty">
        {opened
          ? 'Looking at an earlier crawl: its results are below. Start or resume a crawl to see threads at work.'
          : isLiveState(state)
            ? 'Starting threads…'
            : 'No threads running. Start a crawl to watch every thread work here.'}
      </div>
    );
  }
  return (
    <div className="thread-grid" role="list" aria-label={`${ids.length} threads`}>
      {ids.map((id) => (
        <ThreadCell key={id} id={id} />
      ))}
    </div>
  );
}

/** A cell that re-renders only when its own thread changes (or its "stuck" flag flips). */
export const ThreadCell = memo(function ThreadCell({ id }: { id: number }) {
  const thread = useThread(id);
  const stuck = useStuck(id);
  if (!thread) return null;
  return <ThreadCellView thread={thread} stuck={stuck} />;
});

export function ThreadCellView({ thread: t, stuck }: { thread: ThreadStatus; stuck: boolean }) {
  return (
    <div className="cell" role="listitem" data-thread-id={t.id} data-step={t.step} data-processor={t.processor ?? undefined} data-stuck={stuck ? 'true' : undefined}>
      <div className="cell-head">
        <span className="cell-id">#{t.id}</span>
        <span className="cell-step">{STEP_LABELS[t.step]}</span>
        <StepTime since={t.stepSince} />
      </div>
      <div className="cell-url" title={t.url ?? undefined}>
        {t.url ?? '—'}
      </div>
      <div className="cell-foot">
        {/* The step's processor, first on the line below the step (the head has no room beside "about to get URI"). */}
        {t.processor && (
          <span className="cell-processor" title={processorTitle(t.processor) ?? t.processor}>
            {t.processor}
          </span>
        )}
        <span title="pages done">{formatInt(t.pagesDone)} pg</span>
        <span className={t.errors ? 'cell-errors has-errors' : 'cell-errors'} title="errors">
          {formatInt(t.errors)} err
        </span>
        {t.step === 'fetching' && t.bytes > 0 && <span className="cell-bytes">{formatBytes(t.bytes)}</span>}
        <span className="cell-worker" title={t.pid ? `${t.worker} (pid ${t.pid})` : t.worker}>
          {t.worker}
        </span>
      </div>
    </div>
  );
}

/** "Time in step", from the store's shared clock: one timer for the whole grid. */
function StepTime({ since }: { since: number }) {
  const now = useCrawl((s) => s.now);
  return <span className="cell-time">{formatStepTime(now - since)}</span>;
}
