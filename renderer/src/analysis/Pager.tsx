// Previous and next over a list read a page at a time (the explorer's rows, the hosts report), with where the
// page is in the whole; nothing when one page holds it all.
import { formatInt } from '../format.ts';
import { useTranslation } from '../i18n/i18n.ts';

export function Pager({
  offset,
  total,
  pageSize,
  onOffset,
}: {
  offset: number;
  total: number | null;
  pageSize: number;
  onOffset: (o: number) => void;
}) {
  const { t } = useTranslation('analysis');
  if (total === null || total <= pageSize) return null;
  const last = Math.min(total, offset + pageSize);
  return (
    <div className="pager">
      <button type="button" className="btn btn-small" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - pageSize))}>
        {t('pager.previous')}
      </button>
      <span className="panel-note">{t('pager.range', { from: formatInt(offset + 1), to: formatInt(last), total: formatInt(total) })}</span>
      <button type="button" className="btn btn-small" disabled={last >= total} onClick={() => onOffset(offset + pageSize)}>
        {t('pager.next')}
      </button>
    </div>
  );
}
