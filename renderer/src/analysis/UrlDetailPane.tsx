// The explorer's detail pane: one URL's details, read from the host (and read again while the crawl runs).
import { useApi } from '../store/context.tsx';
import { useLiveQuery } from './use-live.ts';
import { UrlDetailBody } from './UrlDetailBody.tsx';

/** Everything about one URL: its row, response headers, redirect chain, links and extracted values. */
export function UrlDetailPane({ urlId, onClose, onOpen }: { urlId: number; onClose: () => void; onOpen: (urlId: number) => void }) {
  const api = useApi();
  const detail = useLiveQuery(`detail|${urlId}`, () => api.urlDetail({ id: urlId }), 5_000);
  return (
    <aside className="row-details url-detail" aria-label="URL details" data-testid="url-detail">
      <div className="row-details-bar">
        <span className="row-details-title">URL details</span>
        <button type="button" className="btn btn-quiet btn-small" aria-label="close URL details" onClick={onClose}>
          ✕
        </button>
      </div>
      {detail.error && <div className="analysis-error">{detail.error}</div>}
      {detail.data === null && !detail.error && <div className="analysis-empty">Loading…</div>}
      {detail.data && <UrlDetailBody detail={detail.data} onOpen={onOpen} />}
    </aside>
  );
}
