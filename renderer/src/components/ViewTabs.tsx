// Which view fills the main area: the live crawl (threads and results) or one of the analyst's views.
import { formatInt } from '../format.ts';
import { isLiveState } from '../store/crawl-view.ts';
import { useCrawl } from '../store/context.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { ThemeSwitch } from './ThemeSwitch.tsx';

// Each view's label and title are the strings views.<id> and views.<id>Title (i18n/en/common.ts).
export const VIEWS = [
  { id: 'live' },
  { id: 'explorer' },
  { id: 'queue' },
  { id: 'hosts' },
  { id: 'reports' },
  { id: 'compare' },
  { id: 'overview' },
  { id: 'structure' },
  // crawl map (issue 18.6)
  { id: 'crawlMap' },
] as const;
export type ViewId = (typeof VIEWS)[number]['id'];

export function ViewTabs({ view, onView }: { view: ViewId; onView: (id: ViewId) => void }) {
  // Cut off from the host, nothing says "running" (the tab's dot included).
  const live = useCrawl((s) => isLiveState(s.state) && s.opened === null && s.connection.state === 'connected');
  // The queue view, when open, says which read its badge shows (its own): the numbers on one screen agree.
  const queued = useCrawl((s) => s.queueShown ?? s.counters.queued);
  const { t } = useTranslation();
  return (
    <nav className="view-tabs" aria-label={t('views.label')}>
      {VIEWS.map((v) => (
        <button
          key={v.id}
          type="button"
          className="view-tab"
          data-testid={`view-${v.id}`}
          aria-pressed={view === v.id}
          title={t(`views.${v.id}Title`)}
          onClick={() => onView(v.id)}
        >
          {t(`views.${v.id}`)}
          {v.id === 'queue' && live && <span className="count-badge">{formatInt(queued)}</span>}
          {v.id === 'live' && live && <span className="live-dot" aria-label={t('views.running')} />}
        </button>
      ))}
      <ThemeSwitch />
    </nav>
  );
}
