// One URL's details as text: its row, response headers, redirect chain, inlinks and outlinks (a page at a time,
// more on demand) and extracted values. Crawled content is only ever text.
import { useEffect, useState } from 'react';
import type { Inlink, LinkPage, Outlink, UrlDetail } from '../../../shared/analysis.ts';
import { formatInt } from '../format.ts';
import { useApi } from '../store/context.tsx';
import { useBusyCommand } from '../components/use-command.ts';
import { indexabilityText } from '../results/ResultRowView.tsx';
import { headerLines, statusText } from './analysis-model.ts';

export function UrlDetailBody({ detail, onOpen }: { detail: UrlDetail; onOpen: (urlId: number) => void }) {
  const r = detail.row;
  const headers = headerLines(detail.response_headers);
  const chain = detail.redirect_chain;
  return (
    <div className="url-detail-body">
      <div className="row-details-url">{detail.url}</div>
      <dl className="row-details-fields">
        <Field label="Status" value={detail.fetched ? statusText(r.status_code) : detail.state_name} />
        <Field label="Indexability" value={indexabilityText(r as never)} />
        <Field label="Title" value={r.title ?? ''} />
        <Field label="Depth" value={String(detail.depth)} />
        <Field label="Found on" value={detail.via?.url ?? ''} />
        {r.error && <Field label="Error" value={r.error} />}
      </dl>
      <h3 className="row-details-heading">Response headers</h3>
      {headers.length ? (
        <dl className="row-details-fields header-lines" data-testid="detail-headers">
          {headers.map((h, i) => (
            <Field key={i} label={h.name} value={h.value} />
          ))}
        </dl>
      ) : (
        <p className="detail-none">No response.</p>
      )}
      {chain.hops.length > 1 && (
        <>
          <h3 className="row-details-heading">
            Redirect chain{chain.loop ? ' (a loop)' : ''}
            {chain.truncated ? ' (cut)' : ''}
          </h3>
          <ol className="chain" data-testid="detail-chain">
            {chain.hops.map((h, i) => (
              <li key={`${h.url_id}-${i}`} data-here={i === chain.position || undefined}>
                <span className="chain-status">{statusText(h.status_code)}</span> {h.url}
              </li>
            ))}
          </ol>
        </>
      )}
      <LinkList<Inlink>
        title="Inlinks"
        testId="detail-inlinks"
        first={detail.inlinks}
        direction="in"
        urlId={detail.url_id}
        row={(l) => ({
          key: `${l.from_id}-${l.kind}`,
          url: l.from_url,
          id: l.from_id,
          anchor: l.anchor,
          note: `${l.kind}${l.nofollow ? ', nofollow' : ''}`,
        })}
        onOpen={onOpen}
      />
      <LinkList<Outlink>
        title="Outlinks"
        testId="detail-outlinks"
        first={detail.outlinks}
        direction="out"
        urlId={detail.url_id}
        row={(l) => ({
          key: `${l.to_id}-${l.kind}`,
          url: l.to_url,
          id: l.to_id,
          anchor: l.anchor,
          note: `${l.kind}${l.nofollow ? ', nofollow' : ''} · ${l.status_code === null ? 'not fetched' : l.status_code}`,
        })}
        onOpen={onOpen}
      />
      {detail.unfetchable_links.length > 0 && (
        <>
          <h3 className="row-details-heading">
            Unfetchable links ({formatInt(detail.unfetchable_links.length)}
            {detail.unfetchable_truncated ? '+' : ''})
          </h3>
          <ul className="link-list">
            {detail.unfetchable_links.map((l, i) => (
              <li key={i}>
                <span className="link-url">{l.href}</span>
                {l.anchor && <span className="link-anchor">“{l.anchor}”</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {detail.extracted.length > 0 && (
        <>
          <h3 className="row-details-heading">Custom extraction</h3>
          <dl className="row-details-fields row-details-extracted" data-testid="detail-extracted">
            {detail.extracted.map((e) => (
              <Field key={e.rule} label={e.rule} value={e.values.join('\n')} multiline />
            ))}
          </dl>
        </>
      )}
    </div>
  );
}

function Field({ label, value, multiline }: { label: string; value: string; multiline?: boolean }) {
  return (
    <div className="detail" data-empty={value === '' || undefined}>
      <dt>{label}</dt>
      <dd className={multiline ? 'detail-lines' : undefined}>{value || '—'}</dd>
    </div>
  );
}

interface LinkRow {
  key: string;
  url: string;
  id: number;
  anchor: string | null;
  note: string;
}

function LinkList<T>({
  title,
  testId,
  first,
  direction,
  urlId,
  row,
  onOpen,
}: {
  title: string;
  testId: string;
  first: LinkPage<T>;
  direction: 'in' | 'out';
  urlId: number;
  row: (l: T) => LinkRow;
  onOpen: (urlId: number) => void;
}) {
  const api = useApi();
  const more = (after: number): Promise<LinkPage<unknown>> =>
    direction === 'in' ? api.urlInlinks(urlId, after) : api.urlOutlinks(urlId, after);
  const [extra, setExtra] = useState<{ rows: T[]; next: number | null }>({ rows: [], next: first.next });
  const [busy, run] = useBusyCommand();
  useEffect(() => setExtra({ rows: [], next: first.next }), [first]);
  const rows = [...first.rows, ...extra.rows].map(row);
  return (
    <>
      <h3 className="row-details-heading">
        {title} ({formatInt(first.total)})
      </h3>
      {rows.length === 0 ? (
        <p className="detail-none">None.</p>
      ) : (
        <ul className="link-list" data-testid={testId}>
          {rows.map((l) => (
            <li key={l.key}>
              <button type="button" className="link-url link-open" title={`Details of ${l.url}`} onClick={() => onOpen(l.id)}>
                {l.url}
              </button>
              <span className="link-anchor">{l.anchor ? `“${l.anchor}”` : '(no anchor text)'}</span>
              <span className="link-note">{l.note}</span>
            </li>
          ))}
        </ul>
      )}
      {extra.next !== null && (
        <button
          type="button"
          className="btn btn-small"
          disabled={busy}
          onClick={() =>
            void run(`More ${title.toLowerCase()}`, () => more(extra.next!)).then((page) => {
              if (page) setExtra((x) => ({ rows: [...x.rows, ...(page.rows as T[])], next: page.next }));
            })
          }
        >
          More {title.toLowerCase()}
        </button>
      )}
    </>
  );
}
