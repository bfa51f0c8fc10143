// Always on screen: which crawl, its state, its counters and throughput, and Pause / Resume / Stop.
import type { CrawlFileInfo } from '../../../shared/crawler-api.ts';
import type { CrawlCounters, CrawlState } from '../../../shared/snapshot.ts';
import { isOffline } from '../api/connection.ts';
import { fileName, formatClock, formatInt, formatRate } from '../format.ts';
import { useApi, useCrawl, useCrawlShallow } from '../store/context.tsx';
import { LanguageSwitch } from '../i18n/LanguageSwitch.tsx';
import { i18next, useTranslation } from '../i18n/i18n.ts';
import { Sparkline } from './Sparkline.tsx';
import { useBusyCommand } from './use-command.ts';

/** The product's name, the same in every language. */
const PRODUCT = 'Trawl';

export function TopBar({ sidebar, onToggleSidebar }: { sidebar: boolean; onToggleSidebar: () => void }) {
  const { t } = useTranslation('live');
  return (
    <header className="topbar">
      <button
        type="button"
        className="btn btn-quiet sidebar-toggle"
        data-testid="toggle-sidebar"
        aria-pressed={sidebar}
        title={sidebar ? t('topBar.hideSidebar') : t('topBar.showSidebar')}
        onClick={onToggleSidebar}
      >
        <span className="icon icon-sidebar" aria-hidden="true" />
      </button>
      <div className="brand" aria-label={PRODUCT}>
        <span className="brand-mark" aria-hidden="true" />
        {PRODUCT}
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
  const { t } = useTranslation('live');
  if (cluster && !opened) {
    return (
      <div
        className="crawl-title"
        data-testid="cluster-title"
        title={t('topBar.clusterTitle', { id: cluster.crawlId, server: cluster.server })}
      >
        <span className="crawl-title-label">{t('topBar.clusterCrawl')}</span>
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
      <span className="crawl-title-label">{opened ? t('topBar.earlierCrawl') : t('topBar.crawl')}</span>
      <span className="crawl-title-name" data-unknown={name ? undefined : true}>
        {name || (known ? t('topBar.currentCrawl') : t('topBar.noneYet'))}
      </span>
    </div>
  );
}

/** The states the badge names (live.state.<state>); another (a newer engine's) is shown as it is. */
const STATES: ReadonlySet<string> = new Set<CrawlState | 'idle' | 'interrupted'>([
  'preparing',
  'running',
  'pausing',
  'paused',
  'stopping',
  'finished',
  'idle',
  'interrupted',
]);

/** A crawl state in a word, as the badge says it. */
function stateText(state: string): string {
  return STATES.has(state) ? i18next.t(`state.${state as CrawlState | 'idle' | 'interrupted'}`, { ns: 'live' }) : state;
}

/** A crawl's or a node's state in lower case words, for a sentence, when the interface knows it (else as it is said). */
export function stateWord(state: string): string {
  return i18next.exists(`stateLower.${state}`, { ns: 'live' })
    ? i18next.t(`stateLower.${state}` as 'stateLower.left', { ns: 'live' })
    : state;
}

const REASON_KEYS: Record<string, 'completed' | 'pageLimit' | 'stopped' | 'failed'> = {
  completed: 'completed',
  'page limit': 'pageLimit',
  stopped: 'stopped',
  failed: 'failed',
};

/** Why a crawl ended, in words (the engine's reason as it is when the interface does not know it). */
export function reasonText(reason: string): string {
  const key = Object.hasOwn(REASON_KEYS, reason) ? REASON_KEYS[reason] : undefined;
  return key ? i18next.t(`reason.${key}`, { ns: 'live' }) : reason;
}

export function StateBadge() {
  const { state, reason, error, opened, connection, known } = useCrawlShallow((s) => ({
    state: s.state,
    reason: s.reason,
    error: s.error,
    opened: s.opened,
    connection: s.connection,
    known: s.hasSnapshot,
  }));
  const { t } = useTranslation('live');
  // Cut off from the host, the crawl's last known state is no longer true: the badge says so instead.
  if (!opened && known && isOffline(connection)) {
    const last = state ?? null;
    return (
      <div
        className="state-badge"
        data-state="disconnected"
        data-connection={connection.state}
        data-last-state={state ?? undefined}
        role="status"
        aria-live="polite"
        title={last ? t('topBar.lastKnown', { state: stateText(last) }) : undefined}
      >
        <span className="state-dot" aria-hidden="true" />
        <span className="state-word">{t('topBar.disconnected')}</span>
        <span className="state-reason">{connection.state === 'refused' ? t('topBar.tokenRefused') : t('topBar.noHost')}</span>
        {last && <span className="state-error">{t('topBar.was', { state: stateWord(last) })}</span>}
      </div>
    );
  }
  // An earlier crawl's file that does not say it finished was interrupted (its host stopped or died): it is not
  // running, whatever state the file last noted; it can be resumed.
  const interrupted = opened !== null && opened.state !== 'finished';
  const shown = interrupted ? 'interrupted' : opened ? opened.state : (state ?? 'idle');
  const why = interrupted ? opened.state : opened ? opened.finishReason : reason;
  const whyText = why === null || why === undefined ? null : interrupted ? t('topBar.was', { state: stateWord(why) }) : reasonText(why);
  const label = stateText(shown);
  return (
    <div
      className="state-badge"
      data-state={shown}
      data-reason={(interrupted ? `was ${why}` : why) ?? undefined}
      role="status"
      aria-live="polite"
      title={error ?? undefined}
    >
      <span className="state-dot" aria-hidden="true" />
      <span className="state-word">{label}</span>
      {whyText && <span className="state-reason">{whyText}</span>}
      {error && !opened && <span className="state-error">{error}</span>}
    </div>
  );
}

interface CounterSpec {
  /** Its label is the string counters.<key>. */
  key: keyof CrawlCounters;
  format: (n: number) => string;
}

const COUNTERS: CounterSpec[] = [
  { key: 'crawled', format: formatInt },
  { key: 'queued', format: formatInt },
  { key: 'inFlight', format: formatInt },
  { key: 'failed', format: formatInt },
  { key: 'pagesPerSecond', format: formatRate },
  { key: 'elapsedMs', format: formatClock },
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
  const { t } = useTranslation('live');
  return (
    <dl className="counters" data-offline={offline || undefined} title={offline ? t('topBar.offlineCounters') : undefined}>
      {COUNTERS.map((c) => {
        const value = values[c.key];
        return (
          <div key={c.key} className="counter" data-counter={c.key} data-value={value ?? undefined} data-dim={value === null || undefined}>
            <dt>{t(`counters.${c.key}`)}</dt>
            <dd>{value === null ? '–' : c.format(value)}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function Throughput() {
  const history = useCrawl((s) => s.history);
  const { t } = useTranslation('live');
  return (
    <div className="throughput" title={t('topBar.throughput')}>
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
  const { t } = useTranslation('live');
  // Cut off from the host, nothing can be paused or stopped: the buttons say so rather than fail.
  const live = !opened && !offline;
  const canPause = live && state === 'running';
  const canResume = live && (state === 'paused' || state === 'pausing');
  const canStop = live && (state === 'preparing' || state === 'running' || state === 'pausing' || state === 'paused');
  return (
    <div className="controls" role="group" aria-label={t('topBar.controls')}>
      <button
        type="button"
        className="btn"
        data-testid="pause"
        disabled={!canPause || busy}
        onClick={() => void run(t('topBar.pause'), () => api.pause())}
      >
        <span className="icon icon-pause" aria-hidden="true" />
        {t('topBar.pause')}
      </button>
      <button
        type="button"
        className="btn"
        data-testid="resume"
        disabled={!canResume || busy}
        onClick={() => void run(t('topBar.resume'), () => api.resume())}
      >
        <span className="icon icon-play" aria-hidden="true" />
        {t('topBar.resume')}
      </button>
      <button
        type="button"
        className="btn btn-danger"
        data-testid="stop"
        disabled={!canStop || busy}
        onClick={() => void run(t('topBar.stop'), () => api.stop())}
      >
        <span className="icon icon-stop" aria-hidden="true" />
        {t('topBar.stop')}
      </button>
    </div>
  );
}
