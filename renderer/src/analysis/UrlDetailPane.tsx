// The one URL detail pane, opened from the live results and from the explorer: everything about a URL (every
// field, extracted values, response headers, redirect chain, inlinks and outlinks), read from the host and read
// again while the crawl runs. A link in the pane opens that URL in the pane; Back and Forward walk its history.
import { useEffect, useRef, useState } from 'react';
import type { ResultRow } from '../../../shared/crawler-api.ts';
import type { UrlRef } from '../../../shared/analysis.ts';
import { copyText } from '../clipboard.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawlStore } from '../store/context.tsx';
import { RowFields } from '../results/RowDetails.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { canGoBack, canGoForward, currentEntry, goBack, goForward, openInHistory, startHistory } from './analysis-model.ts';
import type { DetailHistory } from './analysis-model.ts';
import { useLiveQuery } from './use-live.ts';
import { UrlDetailBody } from './UrlDetailBody.tsx';
import { useStore } from 'zustand';
import { contentOptionsStore } from './content-options.ts';

/** What the pane opens on: a URL (by id or text), with the table's row when there is one. */
export interface DetailStart {
  ref: UrlRef;
  /** The table's row: shown as it is when the host cannot give more (a cluster crawl has no link graph here). */
  row?: ResultRow;
}

const refKey = (ref: UrlRef) => ('id' in ref ? `id:${ref.id}` : `url:${ref.url}`);

export function UrlDetailPane({ start, rules, onClose }: { start: DetailStart; rules?: readonly string[]; onClose: () => void }) {
  // The history starts over when the table opens another URL.
  const startKey = refKey(start.ref);
  const [history, setHistory] = useState<{ key: string; h: DetailHistory<UrlRef> }>(() => ({ key: startKey, h: startHistory(start.ref) }));
  const h = history.key === startKey ? history.h : startHistory(start.ref);
  useReturnFocus();
  const set = (next: DetailHistory<UrlRef>) => setHistory({ key: startKey, h: next });
  const ref = currentEntry(h);
  const atStart = h.index === 0;

  const api = useApi();
  const store = useCrawlStore();
  const { t } = useTranslation('analysis');
  // Its Link Score or its duplicates still being computed: asked for again in a moment, until they come.
  const detail = useLiveQuery(`detail|${refKey(ref)}`, () => api.urlDetail(ref), 5_000, {
    pending: (d) => d?.scoresPending === true || d?.contentPending === true,
  });
  // A new duplicate-content threshold (issue 18.1): read the detail again, keeping it shown meanwhile.
  const contentGeneration = useStore(contentOptionsStore, (s) => s.generation);
  useEffect(() => {
    if (contentGeneration > 0) detail.reload();
  }, [contentGeneration]);
  const url = detail.data?.url ?? ('url' in ref ? ref.url : atStart ? start.row?.url : undefined);
  // The table's own row, when the host has no details to give (or has not answered yet).
  const fallback = atStart && start.row && !detail.data ? start.row : null;

  return (
    <aside
      className="row-details url-detail"
      aria-label={t('detail.label')}
      data-testid="url-detail"
      data-history={`${h.index + 1}/${h.entries.length}`}
    >
      <div className="row-details-bar">
        <button
          type="button"
          className="btn btn-quiet btn-small"
          aria-label={t('detail.backLabel')}
          title={t('detail.back')}
          data-testid="detail-back"
          disabled={!canGoBack(h)}
          onClick={() => set(goBack(h))}
        >
          ◀
        </button>
        <button
          type="button"
          className="btn btn-quiet btn-small"
          aria-label={t('detail.forwardLabel')}
          title={t('detail.forward')}
          data-testid="detail-forward"
          disabled={!canGoForward(h)}
          onClick={() => set(goForward(h))}
        >
          ▶
        </button>
        <span className="row-details-title">{t('detail.title')}</span>
        <button
          type="button"
          className="btn btn-small"
          disabled={!url}
          onClick={() =>
            url && void copyText(url).then((ok) => notify(store, ok ? 'info' : 'error', ok ? t('detail.copied') : t('detail.copyFailed')))
          }
        >
          {t('detail.copyUrl')}
        </button>
        <button type="button" className="btn btn-quiet btn-small" aria-label={t('detail.close')} onClick={onClose}>
          ✕
        </button>
      </div>
      {detail.data && (
        <UrlDetailBody detail={detail.data} onOpen={(id) => set(openInHistory(h, { id }))} rules={atStart ? rules : undefined} />
      )}
      {fallback && (
        <div className="url-detail-body">
          <div className="row-details-url" data-testid="detail-url">
            {fallback.url}
          </div>
          {detail.error && <p className="detail-none">{t('detail.unavailable', { error: detail.error })}</p>}
          <RowFields row={fallback} rules={rules} />
        </div>
      )}
      {!fallback && detail.error && <div className="analysis-error">{detail.error}</div>}
      {!fallback && detail.data === null && !detail.error && <div className="analysis-empty">{t('detail.loading')}</div>}
    </aside>
  );
}

/**
 * When the pane closes with the focus in it (its close button, or Escape in the table), the focus goes back where it
 * was when the pane opened (the table), not to the start of the page: a keyboard user keeps their place.
 */
function useReturnFocus(): void {
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    opener.current = document.activeElement;
    return () => {
      const el = opener.current;
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && el instanceof HTMLElement && el.isConnected) el.focus({ preventScroll: true });
    };
  }, []);
}
