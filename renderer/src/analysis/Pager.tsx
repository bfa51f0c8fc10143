// Previous and next over a list read a page at a time (the explorer's rows, the hosts report), with where the
// page is in the whole; nothing when one page holds it all.
import { formatInt } from '../format.ts';

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
  if (total === null || total <= pageSize) return null;
  const last = Math.min(total, offset + pageSize);
  return (
    <div className="pager">
      <button type="button" className="btn btn-small" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - pageSize))}>
        ‹ Previous
      </button>
      <span className="panel-note">
        {formatInt(offset + 1)}–{formatInt(last)} of {formatInt(total)}
      </span>
      <button type="button" className="btn btn-small" disabled={last >= total} onClick={() => onOffset(offset + pageSize)}>
        Next ›
      </button>
    </div>
  );
}
