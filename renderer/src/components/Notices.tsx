// Command failures and confirmations, bottom right; errors stay until dismissed.
import { useEffect } from 'react';
import type { Notice } from '../store/crawl-view.ts';
import { dismissNotice } from '../store/crawl-store.ts';
import { useCrawl, useCrawlStore } from '../store/context.tsx';

const INFO_MS = 4_000;

export function Notices() {
  const notices = useCrawl((s) => s.notices);
  if (notices.length === 0) return null;
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <NoticeItem key={n.id} notice={n} />
      ))}
    </div>
  );
}

function NoticeItem({ notice }: { notice: Notice }) {
  const store = useCrawlStore();
  useEffect(() => {
    if (notice.kind !== 'info') return;
    const t = setTimeout(() => dismissNotice(store, notice.id), INFO_MS);
    return () => clearTimeout(t);
  }, [notice, store]);
  return (
    <div className="notice" data-kind={notice.kind} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <span className="notice-text">{notice.text}</span>
      <button type="button" className="notice-close" aria-label="dismiss" onClick={() => dismissNotice(store, notice.id)}>
        ✕
      </button>
    </div>
  );
}

export function ConnectionBanner() {
  const connection = useCrawl((s) => s.connection);
  const known = useCrawl((s) => s.hasSnapshot);
  if (connection.state === 'connected') return null;
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const since = connection.since ? ` at ${new Date(connection.since).toLocaleTimeString()}` : '';
  const frozen = known ? ` This page shows the crawl as it was when the connection was lost${since}: it may have gone on, or stopped.` : '';
  return (
    <div className="connection-banner" role="alert" data-connection={connection.state}>
      {connection.state === 'connecting'
        ? 'Connecting to the Trawl host…'
        : connection.state === 'refused'
          ? `The Trawl console at ${origin} runs again but no longer accepts this page's access token: it was restarted with a new one. Open the link it printed when it started (${origin}/?token=…); this page reconnects once that link was opened in this browser.${frozen}`
          : `Connection to the Trawl host lost${connection.detail ? ` (${connection.detail})` : ''}; reconnecting…${frozen} If you restarted the console, open the link it printed.`}
    </div>
  );
}
