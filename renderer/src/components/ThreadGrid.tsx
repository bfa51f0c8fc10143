// The live worker grid: one cell per crawl thread. A cell subscribes to its own thread only (the store keeps a
// thread's object while it is unchanged), and its "time in step" to the one shared clock. A cluster crawl (in a
// PostgreSQL store) is grouped by node: a section per node with what it is and does, its threads' cells, and the
// nodes that left dimmed at the end.
import { memo, useEffect, useRef, useState } from 'react';
import { CLUSTER_THREAD_LIMITS } from '../../../shared/crawler-api.ts';
import { PROCESSOR_CHAIN } from '../../../shared/processors.ts';
import type { NodeStatus, ThreadStatus } from '../../../shared/snapshot.ts';
import { THREAD_STEPS } from '../../../shared/steps.ts';
import { i18next, useTranslation } from '../i18n/i18n.ts';
import { formatBytes, formatInt, formatStepTime } from '../format.ts';
import { isOffline } from '../api/connection.ts';
import { isLiveState } from '../store/crawl-view.ts';
import type { ThreadKey } from '../store/crawl-view.ts';
import { useApi, useCrawl, useStuck, useThread } from '../store/context.tsx';
import { useCommand } from './use-command.ts';
import { LiveSettings } from './LiveSettings.tsx';
import { stateWord } from './TopBar.tsx';

export function ThreadsPanel() {
  const cluster = useCrawl((s) => s.cluster !== null);
  // A live crawl's panel keeps one height whatever the pool's size (its grid scrolls), so resizing the pool does
  // not move the results below.
  const live = useCrawl((s) => isLiveState(s.state) && s.opened === null);
  const offline = useCrawl((s) => isOffline(s.connection) && s.hasSnapshot);
  const { t } = useTranslation('live');
  return (
    <section
      className="panel threads-panel"
      aria-label={t('threads.panel')}
      data-cluster={cluster || undefined}
      data-live={live || undefined}
      data-offline={offline || undefined}
    >
      <div className="panel-bar">
        <h2 className="panel-title">{cluster ? t('threads.clusterTitle') : t('threads.title')}</h2>
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
  const { t } = useTranslation('live');

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
      void command(t('threads.changeThreads'), () => api.setThreads(n));
    }, SLIDER_DEBOUNCE_MS);
  };

  return (
    <label
      className="thread-slider"
      title={!live ? t('threads.sliderOff') : cluster ? t('threads.sliderCluster') : t('threads.sliderLocal')}
    >
      <span className="thread-slider-label">{cluster ? t('threads.cluster') : t('threads.pool')}</span>
      <input
        type="range"
        data-testid="thread-slider"
        min={limits.min}
        max={limits.max}
        step={1}
        value={Math.max(limits.min, Math.min(limits.max, value || limits.min))}
        disabled={!live}
        aria-valuetext={t('threads.valueText', { count: value })}
        onChange={(e) => change(Number(e.currentTarget.value))}
      />
      <output className="thread-target" data-testid="thread-target" data-value={value}>
        {value > 0 && !opened ? value : '–'}
      </output>
      <span className="thread-slider-unit">{t('threads.unit')}</span>
    </label>
  );
}

function StepLegend() {
  const counts = useCrawl((s) => s.stepCounts);
  const { t } = useTranslation('live');
  return (
    <ul className="step-legend" aria-label={t('threads.perStep')}>
      {THREAD_STEPS.map((step) => {
        const n = counts[step] ?? 0;
        return (
          <li key={step} className="legend-item" data-step={step} data-empty={n === 0 || undefined} title={t(`stepHelp.${step}`)}>
            <span className="legend-swatch" aria-hidden="true" />
            {t(`steps.${step}`)}
            <span className="legend-count">{n}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** The strings' key of each processor of shared/processors.ts (its name in camelCase). */
const PROCESSOR_KEYS = {
  preconditions: 'preconditions',
  'fetch-robots': 'fetchRobots',
  'fetch-sitemap': 'fetchSitemap',
  'fetch-http': 'fetchHttp',
  'extract-http-headers': 'extractHttpHeaders',
  'extract-location': 'extractLocation',
  'extract-html': 'extractHtml',
  render: 'render',
  'extract-rendered': 'extractRendered',
  disposition: 'disposition',
} as const;

/** What a processor does, for its tooltip; unknown names (a newer engine) get none. */
const PROCESSOR_INFO = new Map(PROCESSOR_CHAIN.map((p) => [p.name, p]));

function processorLine(name: string): string | undefined {
  const p = PROCESSOR_INFO.get(name);
  if (!p) return undefined;
  const key = (PROCESSOR_KEYS as Record<string, (typeof PROCESSOR_KEYS)[keyof typeof PROCESSOR_KEYS]>)[p.name];
  const does = key ? i18next.t(`chain.does.${key}`, { ns: 'live' }) : p.does;
  return `${p.name} (${i18next.t(`chain.stage.${p.stage}`, { ns: 'live' })}): ${does}`;
}

export function processorTitle(name: string): string | undefined {
  return processorLine(name);
}

/** The chain every URL goes through, in order: the names the cells show, what the chain is and each one does on hover. */
export function ProcessorLegend() {
  const { t } = useTranslation('live');
  const chain = PROCESSOR_CHAIN.map((p, i) => `${i + 1}. ${processorLine(p.name)}`).join('\n');
  return (
    <span
      className="chain-legend"
      data-testid="processor-chain"
      tabIndex={0}
      title={`${t('chain.intro')}\n\n${chain}`}
      aria-label={t('chain.label', { names: PROCESSOR_CHAIN.map((p) => p.name).join(', ') })}
    >
      {t('chain.legend')}
    </span>
  );
}

export function ThreadGrid() {
  const ids = useCrawl((s) => s.threadIds);
  const state = useCrawl((s) => s.state);
  const opened = useCrawl((s) => s.opened !== null);
  const nodes = useCrawl((s) => s.nodes);
  const { t } = useTranslation('live');
  if (nodes !== null && !opened) return <ClusterGrid nodes={nodes} />;
  if (opened || ids.length === 0) {
    return (
      <div className="grid-empty">{opened ? t('threads.earlier') : isLiveState(state) ? t('threads.starting') : t('threads.none')}</div>
    );
  }
  return (
    <div className="thread-grid" role="list" aria-label={t('threads.grid', { count: ids.length })}>
      {ids.map((id) => (
        <ThreadCell key={id} id={id} />
      ))}
    </div>
  );
}

/** A cluster's grid: a section per node, live ones first, the nodes that left dimmed at the end. */
export function ClusterGrid({ nodes }: { nodes: readonly NodeStatus[] }) {
  const { t } = useTranslation('live');
  if (nodes.length === 0) {
    return <div className="grid-empty">{t('threads.noNode')}</div>;
  }
  const ordered = [...nodes.filter((n) => n.live), ...nodes.filter((n) => !n.live)];
  const live = ordered.filter((n) => n.live).length;
  return (
    <div className="cluster-grid" data-testid="cluster-grid" aria-label={t('threads.nodes', { count: nodes.length, live })}>
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
  const { t } = useTranslation('live');
  return (
    <section
      className="node-group"
      data-node={node.name}
      data-live={node.live ? 'true' : 'false'}
      data-node-state={node.state}
      aria-label={node.live ? t('threads.node', { name: node.name }) : t('threads.nodeLeft', { name: node.name })}
    >
      <div className="node-head">
        <span className="node-name" title={t('threads.node', { name: node.name })}>
          {node.name}
        </span>
        <span className="node-host" title={t('threads.nodeHost', { hostname: node.hostname, pid: node.pid })}>
          {node.hostname}
        </span>
        {/* "left" says it once, beside whether it is live. */}
        {node.state !== 'left' && (
          <span className="node-state" data-state={node.state}>
            {stateWord(node.state)}
          </span>
        )}
        <span className="node-live" data-testid="node-live">
          {node.live ? t('threads.live') : t('threads.left')}
        </span>
        <span className="node-threads" data-testid="node-threads" data-value={node.threads} title={t('threads.nodeShare')}>
          {t('threads.nodeThreads', { count: node.threads, formatted: formatInt(node.threads) })}
        </span>
        <span className="node-pages" title={t('threads.nodePages')}>
          {t('threads.pages', { n: formatInt(node.pagesDone) })}
        </span>
        {!node.live && <LastSeen at={node.lastSeen} />}
      </div>
      {keys.length > 0 ? (
        <div
          className="thread-grid node-threads-grid"
          role="list"
          aria-label={t('threads.nodeGrid', { count: keys.length, name: node.name })}
        >
          {keys.map((key) => (
            <ThreadCell key={key} id={key} />
          ))}
        </div>
      ) : (
        <div className="node-empty">{node.live ? t('threads.noThreadsYet') : t('threads.nodeGone')}</div>
      )}
    </section>
  );
});

function LastSeen({ at }: { at: number }) {
  const now = useCrawl((s) => s.now);
  const { t } = useTranslation('live');
  return (
    <span className="node-seen" title={new Date(at).toISOString()}>
      {t('threads.lastSeen', { time: formatStepTime(Math.max(0, now - at)) })}
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

export function ThreadCellView({ thread: th, stuck }: { thread: ThreadStatus; stuck: boolean }) {
  const { t } = useTranslation('live');
  return (
    <div
      className="cell"
      role="listitem"
      data-thread-id={th.id}
      data-node={th.node}
      data-step={th.step}
      data-processor={th.processor ?? undefined}
      data-stuck={stuck ? 'true' : undefined}
      data-overdue={th.overdue ? 'true' : undefined}
      title={th.overdue ? t('threads.overdue') : undefined}
    >
      {/* The step in the interface's language, by its id (shared/steps.ts keeps the English words for the CLI). */}
      <div className="cell-head">
        <span className="cell-id">#{th.id}</span>
        <span className="cell-step" title={t(`stepHelp.${th.step}`)}>
          {t(`steps.${th.step}`)}
        </span>
        <StepTime since={th.stepSince} />
      </div>
      <div className="cell-url" title={th.url ?? undefined}>
        {th.url ?? '—'}
      </div>
      <div className="cell-foot">
        {/* The step's processor, first on the line below the step (the head has no room beside "about to get URI"). */}
        {th.processor && (
          <span className="cell-processor" title={processorTitle(th.processor) ?? th.processor}>
            {th.processor}
          </span>
        )}
        <span title={t('threads.pagesDone')}>{t('threads.pages', { n: formatInt(th.pagesDone) })}</span>
        <span className={th.errors ? 'cell-errors has-errors' : 'cell-errors'} title={t('threads.errors')}>
          {t('threads.errorCount', { n: formatInt(th.errors) })}
        </span>
        {th.step === 'fetching' && th.bytes > 0 && <span className="cell-bytes">{formatBytes(th.bytes)}</span>}
        <span className="cell-worker" title={th.pid ? t('threads.workerPid', { worker: th.worker, pid: th.pid }) : th.worker}>
          {th.worker}
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
