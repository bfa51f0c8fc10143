// The live worker grid: one cell per crawl thread. A cell subscribes to its own thread only (the store keeps a
// thread's object while it is unchanged), and its "time in step" to the one shared clock. A cluster crawl (in a
// PostgreSQL store) is grouped by node: a section per node with what it is and does, its threads' cells, and the
// nodes that left dimmed at the end.
import { memo, useEffect, useRef, useState } from 'react';
import { CLUSTER_THREAD_LIMITS } from '../../../shared/crawler-api.ts';
import { PROCESSOR_CHAIN } from '../../../shared/processors.ts';
import type { NodeStatus, ThreadStatus } from '../../../shared/snapshot.ts';
import { STEP_LABELS, THREAD_STEPS } from '../../../shared/steps.ts';
import { formatBytes, formatInt, formatStepTime } from '../format.ts';
import { isOffline } from '../api/connection.ts';
import { isLiveState } from '../store/crawl-view.ts';
import type { ThreadKey } from '../store/crawl-view.ts';
import { useApi, useCrawl, useStuck, useThread } from '../store/context.tsx';
import { useCommand } from './use-command.ts';
import { LiveSettings } from './LiveSettings.tsx';

export function ThreadsPanel() {
  const cluster = useCrawl((s) => s.cluster !== null);
  // A live crawl's panel keeps one height whatever the pool's size (its grid scrolls), so resizing the pool does
  // not move the results below.
  const live = useCrawl((s) => isLiveState(s.state) && s.opened === null);
  const offline = useCrawl((s) => isOffline(s.connection) && s.hasSnapshot);
  return (
    <section
      className="panel threads-panel"
      aria-label="crawl threads"
      data-cluster={cluster || undefined}
      data-live={live || undefined}
      data-offline={offline || undefined}
    >
      <div className="panel-bar">
        <h2 className="panel-title">{cluster ? 'Cluster threads' : 'Threads'}</h2>
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
  const cluster = useCrawl((s) => s.cluster !== null);
  const localLimits = useCrawl((s) => s.defaults?.limits.threads) ?? { min: 1, max: 200 };
  // A cluster's slider sets the total of every node's threads, which may go beyond one machine's.
  const limits = cluster ? CLUSTER_THREAD_LIMITS : localLimits;
  const offline = useCrawl((s) => isOffline(s.connection));
  const live = !opened && !offline && (state === 'preparing' || state === 'running' || state === 'pausing' || state === 'paused');
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
    <label
      className="thread-slider"
      title={
        !live
          ? 'Threads can be changed while a crawl runs'
          : cluster
            ? "The cluster's threads, all nodes together: shared out over the live nodes, each resizing its pool at once"
            : 'Resize the pool live: new threads start at once, removed ones finish their URL first'
      }
    >
      <span className="thread-slider-label">{cluster ? 'Cluster' : 'Pool'}</span>
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
    <span
      className="chain-legend"
      data-testid="processor-chain"
      tabIndex={0}
      title={`Every URL goes through this chain of processors; a thread shows the one it is in.\n\n${chain}`}
      aria-label={`processor chain: ${PROCESSOR_CHAIN.map((p) => p.name).join(', ')}`}
    >
      processor chain
    </span>
  );
}

export function ThreadGrid() {
  const ids = useCrawl((s) => s.threadIds);
  const state = useCrawl((s) => s.state);
  const opened = useCrawl((s) => s.opened !== null);
  const nodes = useCrawl((s) => s.nodes);
  if (nodes !== null && !opened) return <ClusterGrid nodes={nodes} />;
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

/** A cluster's grid: a section per node, live ones first, the nodes that left dimmed at the end. */
export function ClusterGrid({ nodes }: { nodes: readonly NodeStatus[] }) {
  if (nodes.length === 0) {
    return <div className="grid-empty">No node has joined this crawl yet. Start one with npm run crawl -- --store URL --join ID.</div>;
  }
  const ordered = [...nodes.filter((n) => n.live), ...nodes.filter((n) => !n.live)];
  const live = ordered.filter((n) => n.live).length;
  return (
    <div className="cluster-grid" data-testid="cluster-grid" aria-label={`${nodes.length} nodes, ${live} live`}>
      {ordered.map((n) => (
        <NodeSection key={n.name} node={n} />
      ))}
    </div>
  );
}

const NO_KEYS: readonly ThreadKey[] = [];

/** One node: its name, machine, state, live or left, its share of threads and pages, then its threads' cells. */
export const NodeSection = memo(function NodeSection({ node }: { node: NodeStatus }) {
  const keys = useCrawl((s) => (Object.hasOwn(s.nodeThreads, node.name) ? s.nodeThreads[node.name]! : NO_KEYS));
  return (
    <section
      className="node-group"
      data-node={node.name}
      data-live={node.live ? 'true' : 'false'}
      data-node-state={node.state}
      aria-label={`node ${node.name}${node.live ? '' : ' (left)'}`}
    >
      <div className="node-head">
        <span className="node-name" title={`node ${node.name}`}>
          {node.name}
        </span>
        <span className="node-host" title={`${node.hostname}, pid ${node.pid}`}>
          {node.hostname}
        </span>
        {/* "left" says it once, beside whether it is live. */}
        {node.state !== 'left' && (
          <span className="node-state" data-state={node.state}>
            {node.state}
          </span>
        )}
        <span className="node-live" data-testid="node-live">
          {node.live ? 'live' : 'left'}
        </span>
        <span className="node-threads" data-testid="node-threads" data-value={node.threads} title="its share of the cluster's threads">
          {formatInt(node.threads)} {node.threads === 1 ? 'thread' : 'threads'}
        </span>
        <span className="node-pages" title="pages this node fetched">
          {formatInt(node.pagesDone)} pg
        </span>
        {!node.live && <LastSeen at={node.lastSeen} />}
      </div>
      {keys.length > 0 ? (
        <div className="thread-grid node-threads-grid" role="list" aria-label={`${keys.length} threads of ${node.name}`}>
          {keys.map((key) => (
            <ThreadCell key={key} id={key} />
          ))}
        </div>
      ) : (
        <div className="node-empty">{node.live ? 'No threads reported yet.' : 'No threads: this node has left the crawl.'}</div>
      )}
    </section>
  );
});

function LastSeen({ at }: { at: number }) {
  const now = useCrawl((s) => s.now);
  return (
    <span className="node-seen" title={new Date(at).toISOString()}>
      last seen {formatStepTime(Math.max(0, now - at))} ago
    </span>
  );
}

/** A cell that re-renders only when its own thread changes (or its "stuck" flag flips). */
export const ThreadCell = memo(function ThreadCell({ id }: { id: ThreadKey }) {
  const thread = useThread(id);
  const stuck = useStuck(id);
  if (!thread) return null;
  return <ThreadCellView thread={thread} stuck={stuck} />;
});

export function ThreadCellView({ thread: t, stuck }: { thread: ThreadStatus; stuck: boolean }) {
  return (
    <div
      className="cell"
      role="listitem"
      data-thread-id={t.id}
      data-node={t.node}
      data-step={t.step}
      data-processor={t.processor ?? undefined}
      data-stuck={stuck ? 'true' : undefined}
      data-overdue={t.overdue ? 'true' : undefined}
      title={t.overdue ? OVERDUE_TITLE : undefined}
    >
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

const OVERDUE_TITLE =
  'Past its fetch timeouts and spending its processing budget: if it is not done by the deadline, its worker process is replaced and the URL recorded as "processing timeout".';

/** "Time in step", from the store's shared clock: one timer for the whole grid. */
function StepTime({ since }: { since: number }) {
  const now = useCrawl((s) => s.now);
  return <span className="cell-time">{formatStepTime(now - since)}</span>;
}
