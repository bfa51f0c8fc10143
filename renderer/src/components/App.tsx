// The workbench: the crawl's state and controls on top, a new crawl and earlier crawls on the left, the live
// worker grid and the results on the right.
import { useEffect, useState } from 'react';
import { errorMessage } from '../api/connection.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { ClusterAttach, ClusterBanner } from './ClusterAttach.tsx';
import { CrawlList } from './CrawlList.tsx';
import { ConnectionBanner, Notices } from './Notices.tsx';
import { StartPanel } from '../start/StartPanel.tsx';
import { ThreadsPanel } from './ThreadGrid.tsx';
import { TopBar } from './TopBar.tsx';
import { ResultsPanel } from '../results/ResultsPanel.tsx';
import { ExplorerView } from '../analysis/ExplorerView.tsx';
import { HostsView } from '../analysis/HostsView.tsx';
import { QueueView } from '../analysis/QueueView.tsx';
import { ReportsView } from '../analysis/ReportsView.tsx';
import { CompareView } from '../analysis/CompareView.tsx';
import { OverviewView } from '../analysis/OverviewView.tsx';
import { explorerRequest, requestExplorerFilter } from '../analysis/explorer-request.ts';
import { VIEWS, ViewTabs } from './ViewTabs.tsx';
import type { ViewId } from './ViewTabs.tsx';
import { SchedulesPanel } from '../schedules/SchedulesPanel.tsx';
import { useStore } from 'zustand';
import { compareRequest } from '../analysis/compare-request.ts';
import { Shortcuts } from '../shortcuts/ShortcutsHelp.tsx';
import { i18next } from '../i18n/i18n.ts';
import { StructureView } from '../analysis/StructureView.tsx';
import { CrawlMapView } from '../analysis/CrawlMapView.tsx';

const SIDEBAR_KEY = 'trawl.sidebar';
const VIEW_KEY = 'trawl.view';

export function App() {
  useDefaults();
  const [sidebar, setSidebar] = useState(() => readPref(SIDEBAR_KEY) !== 'hidden');
  const [view, setView] = useState<ViewId>(() => VIEWS.find((v) => v.id === readPref(VIEW_KEY))?.id ?? 'live');
  const chooseView = (id: ViewId) => {
    writePref(VIEW_KEY, id);
    setView(id);
  };
  // A comparison asked for elsewhere (a scheduled run's Compare) opens in the Compare view.
  const compareAsked = useStore(compareRequest, (s) => s.request);
  useEffect(() => {
    if (compareAsked) chooseView('compare');
  }, [compareAsked]);
  // A folder of the site structure opened in the explorer.
  const explorerAsked = useStore(explorerRequest, (s) => s.request);
  useEffect(() => {
    if (explorerAsked) chooseView('explorer');
  }, [explorerAsked]);
  const toggleSidebar = () =>
    setSidebar((shown) => {
      writePref(SIDEBAR_KEY, shown ? 'hidden' : 'shown');
      return !shown;
    });
  return (
    <div className="app">
      <TopBar sidebar={sidebar} onToggleSidebar={toggleSidebar} />
      <ConnectionBanner />
      <ClusterBanner />
      <div className="workspace" data-sidebar={sidebar ? 'shown' : 'hidden'}>
        <aside className="sidebar">
          <StartPanel />
          <ClusterAttach />
          <CrawlList />
          <SchedulesPanel />
        </aside>
        <main className="main" data-view={view}>
          <ViewTabs view={view} onView={chooseView} />
          {view === 'live' && (
            <>
              <ThreadsPanel />
              <ResultsPanel />
            </>
          )}
          {view === 'explorer' && <ExplorerView />}
          {view === 'queue' && <QueueView />}
          {view === 'hosts' && <HostsView />}
          {view === 'reports' && <ReportsView />}
          {view === 'compare' && <CompareView />}
          {view === 'overview' && (
            <OverviewView
              onOpenFilter={(filter) => {
                requestExplorerFilter(filter);
                chooseView('explorer');
              }}
            />
          )}
          {view === 'structure' && <StructureView />}
          {view === 'crawlMap' && <CrawlMapView />}
        </main>
      </div>
      <Notices />
      <Shortcuts />
    </div>
  );
}

/** Settings' defaults and limits from the host, asked for again whenever the connection comes back without them. */
function useDefaults(): void {
  const api = useApi();
  const store = useCrawlStore();
  const connected = useCrawl((s) => s.connection.state === 'connected');
  const have = useCrawl((s) => s.defaults !== null);
  useEffect(() => {
    if (!connected || have) return;
    let cancelled = false;
    api.defaults().then(
      (defaults) => {
        if (!cancelled) store.setState({ defaults });
      },
      (err: unknown) => {
        if (!cancelled) notify(store, 'error', i18next.t('notices.defaults', { ns: 'live', error: errorMessage(err) }));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [api, store, connected, have]);
}

function readPref(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writePref(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // storage refused (private mode): the choice lasts for this page only
  }
}
