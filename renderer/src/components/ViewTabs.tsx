// Which view fills the main area: the live crawl (threads and results) or one of the analyst's views.
import { formatInt } from '../format.ts';
import { isLiveState } from '../store/crawl-view.ts';
import { useCrawl } from '../store/context.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';

export const VIEWS = [
  { id: 'live', label: 'Live crawl', title: 'The threads at work and every row as it is fetched' },
  { id: 'explorer', label: 'Results explorer', title: 'Screaming Frog-style filters with counts, and every detail of a URL' },
  { id: 'queue', label: 'Queue', title: 'The URLs still queued, by host, path prefix and text; exclude a pattern' },
  { id: 'hosts', label: 'Hosts', title: 'Per host: crawled, queued, bytes, errors, politeness and robots.txt' },
  { id: 'reports', label: 'Reports', title: 'Status codes, depths, response times and throughput as charts' },
  { id: 'compare', label: 'Compare', title: 'Two crawls of a site: URLs added, removed and changed' },
] as const;
export type ViewId = (typeof VIEWS)[number]['id'];

export function ViewTabs({ view, onView }: { view: ViewId; onView: (id: ViewId) => void }) {
  const live = useCrawl((s) => isLiveState(s.state) && s.opened === null);
  const queued = useCrawl((s) => s.counters.queued);
  return (
    <nav className="view-tabs" aria-label="views">
      {VIEWS.map((v) => (
        <button
          key={v.id}
          type="button"
          className="view-tab"
          data-testid={`view-${v.id}`}
          aria-pressed={view === v.id}
          title={v.title}
          onClick={() => onView(v.id)}
        >
          {v.label}
          {v.id === 'queue' && live && <span className="count-badge">{formatInt(queued)}</span>}
          {v.id === 'live' && live && <span className="live-dot" aria-label="running" />}
        </button>
      ))}
      <ThemeSwitch />
    </nav>
  );
}
