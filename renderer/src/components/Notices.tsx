// Command failures and confirmations, bottom right; errors stay until dismissed.
import { useEffect } from 'react';
import type { Notice } from '../store/crawl-view.ts';
import { dismissNotice } from '../store/crawl-store.ts';
import { useCrawl, useCrawlStore } from '../store/context.tsx';
import { useTranslation } from '../i18n/i18n.ts';

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
  const { t } = useTranslation('live');
  useEffect(() => {
    if (notice.kind !== 'info') return;
    const timer = setTimeout(() => dismissNotice(store, notice.id), INFO_MS);
    return () => clearTimeout(timer);
  }, [notice, store]);
  return (
    <div className="notice" data-kind={notice.kind} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <span className="notice-text">{notice.text}</span>
      <button type="button" className="notice-close" aria-label={t('notices.dismiss')} onClick={() => dismissNotice(store, notice.id)}>
        ✕
      </button>
    </div>
  );
}

export function ConnectionBanner() {
  const connection = useCrawl((s) => s.connection);
  const known = useCrawl((s) => s.hasSnapshot);
  const { t, i18n } = useTranslation('live');
  if (connection.state === 'connected') return null;
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const since = connection.since ? t('connection.at', { time: new Date(connection.since).toLocaleTimeString(i18n.language) }) : '';
  const frozen = known ? t('connection.frozen', { since }) : '';
  return (
    <div className="connection-banner" role="alert" data-connection={connection.state}>
      {connection.state === 'connecting'
        ? t('connection.connecting')
        : connection.state === 'refused'
          ? t('connection.refused', { origin, frozen })
          : t('connection.lost', { detail: connection.detail ? t('connection.detail', { detail: connection.detail }) : '', frozen })}
    </div>
  );
}
