// Always on screen: which crawl, its state, its counters and throughput, and Pause / Resume / Stop.
import type { CrawlFileInfo } from '../../../shared/crawler-api.ts';
import type { CrawlCounters, CrawlState } from '../../../shared/snapshot.ts';
import { isOffline } from '../api/connection.ts';
import { fileName, formatClock, formatInt, formatRate } from '../format.ts';
import { useApi, useCrawl, useCrawlShallow } from '../store/context.tsx';
import { LanguageSwitch } from '../i18n/LanguageSwitch.tsx';
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
      <LanguageSwitch />
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
  const { state, reason, error, opened, connection, known } = useCrawlShallow((s) => ({
    state: s.state,
    reason: s.reason,
    error: s.error,
    opened: s.opened,
    connection: s.connection,
    known: s.hasSnapshot,
  }));
  // Cut off from the host, the crawl's last known state is no longer true: the badge says so instead.
  if (!opened && known && isOffline(connection)) {
    const last = state ? ((STATE_TEXT as Record<string, string>)[state] ?? state) : null;
    return (
      <div
        className="state-badge"
        data-state="disconnected"
        data-connection={connection.state}
        data-last-state={state ?? undefined}
        role="status"
        aria-live="polite"
        title={last ? `Last known state: ${last}, when the connection to the Trawl host was lost` : undefined}
      >
        <span className="state-dot" aria-hidden="true" />
        <span className="state-word">Disconnected</span>
        <span className="state-reason">{connection.state === 'refused' ? 'token refused' : 'no host'}</span>
        {last && <span className="state-error">was {last.toLowerCase()}</span>}
      </div>
    );
  }
  // An earlier crawl's file that does not say it finished was interrupted (its host stopped or died): it is not
  // running, whatever state the file last noted; it can be resumed.
  const interrupted = opened !== null && opened.state !== 'finished';
  const shown = interrupted ? 'interrupted' : opened ? opened.state : (state ?? 'idle');
  const why = interrupted ? `was ${opened.state}` : opened ? opened.finishReason : reason;
  const label =
    (STATE_TEXT as Record<string, string>)[shown] ?? (shown === 'idle' ? 'Idle' : shown === 'interrupted' ? 'Interrupted' : shown);
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

/**
 * An earlier crawl's final figures, from its file: nothing in flight, its failures, its elapsed time (paused time
 * left out) and its average pages/s over it. Null for a figure its file does not know (an older file's elapsed time).
 */
export function openedCounters(opened: CrawlFileInfo): Record<keyof CrawlCounters, number | null> {
  const elapsedMs = opened.elapsedMs ?? null;
  const failed = opened.failed ?? null;
  const done = opened.crawled + (failed ?? 0);
  return {
    crawled: opened.crawled,
    queued: opened.queued,
    inFlight: 0,
    failed,
    pagesPerSecond: elapsedMs ? Math.round((done / elapsedMs) * 10_000) / 10 : null,
    elapsedMs,
  };
}

export function Counters() {
  const counters = useCrawl((s) => s.counters);
  const opened = useCrawl((s) => s.opened);
  const offline = useCrawl((s) => isOffline(s.connection) && s.hasSnapshot && s.opened === null);
  const values: Record<keyof CrawlCounters, number | null> = opened ? openedCounters(opened) : counters;
  return (
    <dl className="counters" data-offline={offline || undefined} title={offline ? 'As they were when the connection was lost' : undefined}>
      {COUNTERS.map((c) => {
        const value = values[c.key];
        return (
          <div key={c.key} className="counter" data-counter={c.key} data-value={value ?? undefined} data-dim={value === null || undefined}>
            <dt>{c.label}</dt>
            <dd>{value === null ? '–' : c.format(value)}</dd>
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
  const offline = useCrawl((s) => isOffline(s.connection));
  const [busy, run] = useBusyCommand();
  // Cut off from the host, nothing can be paused or stopped: the buttons say so rather than fail.
  const live = !opened && !offline;
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
