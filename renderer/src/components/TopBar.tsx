// Always on screen: which crawl, its state, its counters and throughput, and Pause / Resume / Stop.
import type { CrawlCounters, CrawlState } from '../../../shared/snapshot.ts';
import { fileName, formatClock, formatInt, formatRate } from '../format.ts';
import { useApi, useCrawl, useCrawlShallow } from '../store/context.tsx';
import { Sparkline } from './Sparkline.tsx';
import { useBusyCommand } from './use-command.ts';

export function TopBar({ sidebar, onToggleSidebar }: { sidebar: boolean; onToggleSidebar: () => void }) {
  return (
    <header className="topbar">
      <button
        type="button"
        className="btn btn-quiet sidebar-toggle"
        data-testid="toggle-sidebar"
        aria-pressed={sidebar}
        title={sidebar ? 'Hide the new crawl and earlier crawls panel' : 'Show the new crawl and earlier crawls panel'}
        onClick={onToggleSidebar}
      >
        <span className="icon icon-sidebar" aria-hidden="true" />
      </button>
      <div className="brand" aria-label="Trawl">
        <span className="brand-mark" aria-hidden="true" />
        Trawl
      </div>
      <CrawlTitle />
      <StateBadge />
      <Counters />
      <Throughput />
      <CrawlControls />
    </header>
  );
}

function CrawlTitle() {
  const { file, opened, known, cluster } = useCrawlShallow((s) => ({
    file: s.file,
    opened: s.opened,
    known: s.hasSnapshot,
    cluster: s.cluster,
  }));
  if (cluster && !opened) {
    return (
      <div
        className="crawl-title"
        data-testid="cluster-title"
        title={`crawl ${cluster.crawlId} in the PostgreSQL store at ${cluster.server}`}
      >
        <span className="crawl-title-label">Cluster crawl</span>
        <span className="crawl-title-name">
          {cluster.crawlId}
          <span className="crawl-title-server"> @ {cluster.server}</span>
        </span>
      </div>
    );
  }
  const name = fileName(opened?.file ?? file);
  return (
    <div className="crawl-title" title={opened?.file ?? file ?? undefined}>
      <span className="crawl-title-label">{opened ? 'Earlier crawl' : 'Crawl'}</span>
      <span className="crawl-title-name" data-unknown={name ? undefined : true}>
        {name || (known ? 'current crawl' : 'none yet')}
      </span>
    </div>
  );
}

const STATE_TEXT: Record<CrawlState, string> = {
  preparing: 'Preparing',
  running: 'Running',
  pausing: 'Pausing',
  paused: 'Paused',
  stopping: 'Stopping',
  finished: 'Finished',
};

export function StateBadge() {
  const { state, reason, error, opened } = useCrawlShallow((s) => ({ state: s.state, reason: s.reason, error: s.error, opened: s.opened }));
  const shown = opened ? opened.state : (state ?? 'idle');
  const why = opened ? opened.finishReason : reason;
  const label = (STATE_TEXT as Record<string, string>)[shown] ?? (shown === 'idle' ? 'Idle' : shown);
  return (
    <div
      className="state-badge"
      data-state={shown}
      data-reason={why ?? undefined}
      role="status"
      aria-live="polite"
      title={error ?? undefined}
    >
      <span className="state-dot" aria-hidden="true" />
      <span className="state-word">{label}</span>
      {why && <span className="state-reason">{why}</span>}
      {error && !opened && <span className="state-error">{error}</span>}
    </div>
  );
}

interface CounterSpec {
  key: keyof CrawlCounters;
  label: string;
  format: (n: number) => string;
}

const COUNTERS: CounterSpec[] = [
  { key: 'crawled', label: 'crawled', format: formatInt },
  { key: 'queued', label: 'queued', format: formatInt },
  { key: 'inFlight', label: 'in flight', format: formatInt },
  { key: 'failed', label: 'failed', format: formatInt },
  { key: 'pagesPerSecond', label: 'pages/s', format: formatRate },
  { key: 'elapsedMs', label: 'elapsed', format: formatClock },
];

export function Counters() {
  const counters = useCrawl((s) => s.counters);
  const opened = useCrawl((s) => s.opened);
  const values: CrawlCounters = opened
    ? { crawled: opened.crawled, queued: opened.queued, inFlight: 0, failed: 0, pagesPerSecond: 0, elapsedMs: 0 }
    : counters;
  return (
    <dl className="counters">
      {COUNTERS.map((c) => {
        const hidden = opened !== null && c.key !== 'crawled' && c.key !== 'queued';
        return (
          <div key={c.key} className="counter" data-counter={c.key} data-value={values[c.key]} data-dim={hidden || undefined}>
            <dt>{c.label}</dt>
            <dd>{hidden ? '–' : c.format(values[c.key])}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function Throughput() {
  const history = useCrawl((s) => s.history);
  return (
    <div className="throughput" title="pages per second, one point per snapshot">
      <Sparkline points={history} />
    </div>
  );
}

export function CrawlControls() {
  const api = useApi();
  const state = useCrawl((s) => s.state);
  const opened = useCrawl((s) => s.opened !== null);
  const [busy, run] = useBusyCommand();
  const live = !opened;
  const canPause = live && state === 'running';
  const canResume = live && (state === 'paused' || state === 'pausing');
  const canStop = live && (state === 'preparing' || state === 'running' || state === 'pausing' || state === 'paused');
  return (
    <div className="controls" role="group" aria-label="crawl controls">
      <button
        type="button"
        className="btn"
        data-testid="pause"
        disabled={!canPause || busy}
        onClick={() => void run('Pause', () => api.pause())}
      >
        <span className="icon icon-pause" aria-hidden="true" />
        Pause
      </button>
      <button
        type="button"
        className="btn"
        data-testid="resume"
        disabled={!canResume || busy}
        onClick={() => void run('Resume', () => api.resume())}
      >
        <span className="icon icon-play" aria-hidden="true" />
        Resume
      </button>
      <button
        type="button"
        className="btn btn-danger"
        data-testid="stop"
        disabled={!canStop || busy}
        onClick={() => void run('Stop', () => api.stop())}
      >
        <span className="icon icon-stop" aria-hidden="true" />
        Stop
      </button>
    </div>
  );
}
