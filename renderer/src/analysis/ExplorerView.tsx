// The Results explorer: Screaming Frog's tabs and filters (grouped, each with its count), a page of the filter's
// rows searched and sorted in SQL, the detail pane of the selected URL, and "Export this view" with a column chooser
// and the Screaming Frog header preset. Crawled content is only ever text.
import { useEffect, useMemo, useState } from 'react';
import type { ResultSortColumn } from '../../../shared/crawler-api.ts';
import type { ExplorerRow, FilterId, HeaderPreset, Inlink, LinkPage, Outlink, UrlDetail } from '../../../shared/analysis.ts';
import { EXPORT_COLUMNS } from '../../../shared/analysis.ts';
import { formatInt } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawlStore } from '../store/context.tsx';
import { useBusyCommand } from '../components/use-command.ts';
import { indexabilityText } from '../results/ResultRowView.tsx';
import { filterTitle, groupedFilters, headerLines, statusText } from './analysis-model.ts';
import { useHasCrawl, useLiveQuery } from './use-live.ts';
import { SortableHeader } from './SortableHeader.tsx';

/** Badges refresh at most this often while a crawl runs (each count reads an index). */
export const COUNT_REFRESH_MS = 3_000;
const ROWS_REFRESH_MS = 1_000;
export const EXPLORER_PAGE = 100;

/** Columns ticked when the export dialog first opens. */
export const DEFAULT_EXPORT_COLUMNS = ['url', 'status_code', 'indexability', 'indexability_reason', 'title', 'meta_description', 'h1', 'canonical', 'word_count', 'inlinks'];

interface Column {
  id: string;
  label: string;
  sort: ResultSortColumn | null;
  cell: (r: ExplorerRow) => string;
  className?: string;
}

export const EXPLORER_COLUMNS: Column[] = [
  { id: 'url', label: 'URL', sort: 'url', cell: (r) => r.url, className: 'x-url' },
  { id: 'status', label: 'Status', sort: 'status_code', cell: (r) => (r.seq === null ? 'not fetched' : statusText(r.status_code)), className: 'x-num' },
  { id: 'indexability', label: 'Indexability', sort: 'indexability', cell: (r) => indexabilityText(r as never), className: 'x-index x-opt' },
  { id: 'title', label: 'Title', sort: 'title', cell: (r) => r.title ?? '' },
  // x-opt: left out while the detail pane takes the room.
  { id: 'words', label: 'Words', sort: 'word_count', cell: (r) => (r.word_count === null ? '' : formatInt(r.word_count)), className: 'x-num x-opt' },
  { id: 'inlinks', label: 'Inlinks', sort: 'inlinks', cell: (r) => formatInt(r.inlinks), className: 'x-num x-opt' },
  { id: 'depth', label: 'Depth', sort: 'crawl_depth', cell: (r) => String(r.crawl_depth), className: 'x-num x-opt' },
  { id: 'time', label: 'Time', sort: 'response_time_ms', cell: (r) => (r.response_time_ms === null ? '' : `${formatInt(r.response_time_ms)} ms`), className: 'x-num x-opt' },
];

/** The columns of the view: the fixed ones, with a column per custom extraction rule after the title. */
export function explorerColumns(extractionRules: readonly string[]): Column[] {
  const title = EXPLORER_COLUMNS.findIndex((c) => c.id === 'title');
  const rules: Column[] = extractionRules.map((rule) => ({
    id: `extract:${rule}`,
    label: rule,
    sort: null,
    // Values are crawled text: shown as text, several joined.
    cell: (r) => (Object.hasOwn(r.extracted ?? {}, rule) ? r.extracted[rule]!.join(' | ') : ''),
    className: 'x-extract x-opt',
  }));
  return [...EXPLORER_COLUMNS.slice(0, title + 1), ...rules, ...EXPLORER_COLUMNS.slice(title + 1)];
}

export function ExplorerView() {
  const api = useApi();
  const hasCrawl = useHasCrawl();
  const [filter, setFilter] = useState<FilterId>('all');
  const [text, setText] = useState('');
  const [appliedText, setAppliedText] = useState('');
  const [sort, setSort] = useState<{ column: ResultSortColumn; descending: boolean }>({ column: 'seq', descending: false });
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);

  useEffect(() => {
    const t = setTimeout(() => setAppliedText(text.trim()), 250);
    return () => clearTimeout(t);
  }, [text]);
  // A new view starts at its first page.
  useEffect(() => setOffset(0), [filter, appliedText, sort]);

  const counts = useLiveQuery('counts', () => api.filterCounts(), COUNT_REFRESH_MS, { enabled: hasCrawl });
  const query = { filter, text: appliedText, sort: sort.column, descending: sort.descending, offset, limit: EXPLORER_PAGE };
  const page = useLiveQuery(JSON.stringify(query), () => api.queryFiltered(query), ROWS_REFRESH_MS, { enabled: hasCrawl });
  const groups = useMemo(() => groupedFilters(counts.data), [counts.data]);
  const total = page.data?.total ?? null;
  const columns = useMemo(() => explorerColumns(page.data?.extractionRules ?? []), [page.data?.extractionRules]);

  const toggleSort = (column: ResultSortColumn) =>
    setSort((s) => (s.column !== column ? { column, descending: false } : !s.descending ? { column, descending: true } : { column: 'seq', descending: false }));

  return (
    <section className="panel analysis-panel explorer" aria-label="results explorer">
      <div className="panel-bar">
        <h2 className="panel-title">Results explorer</h2>
        <span className="panel-note" data-testid="explorer-total" data-value={total ?? undefined}>
          {filterTitle(filter)}
          {total === null ? '' : ` · ${formatInt(total)} ${total === 1 ? 'URL' : 'URLs'}`}
        </span>
        <div className="results-tools">
          <input
            className="filter"
            type="search"
            placeholder="Search URL, title, error…"
            aria-label="search this view"
            data-testid="explorer-search"
            spellCheck={false}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <button type="button" className="btn" data-testid="explorer-export-open" disabled={!hasCrawl} aria-expanded={exporting} onClick={() => setExporting((x) => !x)}>
            <span className="icon icon-download" aria-hidden="true" />
            Export this view
          </button>
        </div>
      </div>
      {exporting && <ExportDialog filter={filter} text={appliedText} extractionRules={page.data?.extractionRules ?? []} onClose={() => setExporting(false)} />}
      <div className="explorer-body" data-detail={selected !== null || undefined}>
        <nav className="filter-list" aria-label="filters">
          {groups.map((g) => (
            <div key={g.id} className="filter-group">
              <div className="filter-group-label">{g.label}</div>
              {g.filters.map((f) => (
                <button
                  key={f.id}
                  type="button"
                  className="filter-tab"
                  data-filter={f.id}
                  aria-pressed={filter === f.id}
                  title={f.description}
                  onClick={() => {
                    setFilter(f.id);
                    setSelected(null);
                  }}
                >
                  <span className="filter-tab-label">{f.label}</span>
                  <span className="count-badge" data-count={f.count ?? undefined} data-zero={f.count === 0 || undefined}>
                    {f.count === null ? '…' : formatInt(f.count)}
                  </span>
                </button>
              ))}
            </div>
          ))}
          {counts.error && <div className="analysis-error">{counts.error}</div>}
        </nav>
        <div className="explorer-table">
          <div className="xtable-scroll">
            <table className="xtable" aria-label="URLs of this view">
              <thead>
                <tr>
                  {columns.map((c) => (
                    <SortableHeader key={c.id} label={c.label} sort={c.sort} current={sort} onSort={toggleSort} className={c.className} />
                  ))}
                </tr>
              </thead>
              <tbody>
                {(page.data?.rows ?? []).map((r) => (
                  <tr
                    key={r.url_id}
                    data-explorer-url={r.url}
                    aria-selected={selected === r.url_id}
                    tabIndex={0}
                    onClick={() => setSelected(r.url_id)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') setSelected(r.url_id);
                    }}
                  >
                    {columns.map((c) => (
                      <td key={c.id} className={c.className} title={c.id === 'url' || c.id === 'title' || c.id.startsWith('extract:') ? c.cell(r) : undefined}>
                        {c.cell(r)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {!hasCrawl && <div className="analysis-empty">Start a crawl or open an earlier one to explore its results.</div>}
            {hasCrawl && total === 0 && <div className="analysis-empty">No URLs in this view.</div>}
            {page.error && <div className="analysis-error" role="alert">Could not load this view: {page.error}</div>}
          </div>
          <Pager offset={offset} total={total} pageSize={EXPLORER_PAGE} onOffset={setOffset} />
        </div>
        {selected !== null && <UrlDetailPane urlId={selected} onClose={() => setSelected(null)} onOpen={setSelected} />}
      </div>
    </section>
  );
}

export function Pager({ offset, total, pageSize, onOffset }: { offset: number; total: number | null; pageSize: number; onOffset: (o: number) => void }) {
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

/** The export's column chooser: the CSV's columns and the crawl's extraction rules, and the header preset. */
export function ExportDialog({ filter, text, extractionRules, onClose }: { filter: FilterId; text: string; extractionRules: readonly string[]; onClose: () => void }) {
  const api = useApi();
  const store = useCrawlStore();
  const [busy, run] = useBusyCommand();
  const all = useMemo(() => [...EXPORT_COLUMNS, ...extractionRules], [extractionRules]);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(DEFAULT_EXPORT_COLUMNS));
  const [preset, setPreset] = useState<HeaderPreset>('trawl');
  const columns = all.filter((c) => chosen.has(c));
  const toggle = (c: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(c)) next.delete(c);
      else next.add(c);
      return next;
    });
  const doExport = async () => {
    const result = await run('Export this view', () => api.exportView({ filter, text, columns, headerPreset: preset }));
    if (!result) return;
    if (!result.ok) notify(store, /cancel/i.test(result.error) ? 'info' : 'error', `Export this view: ${result.error}`);
    else {
      notify(store, 'info', result.file ? `Exported ${result.rows === null ? 'the' : formatInt(result.rows)} rows to ${result.file}` : 'The CSV download has started.');
      onClose();
    }
  };
  return (
    <div className="export-dialog" role="dialog" aria-label="export this view" data-testid="export-dialog">
      <div className="export-head">
        <strong>Export “{filterTitle(filter)}”{text ? ` matching “${text}”` : ''}</strong>
        <span className="panel-note">{columns.length} columns</span>
        <button type="button" className="btn btn-small btn-quiet" onClick={() => setChosen(new Set(all))}>
          All
        </button>
        <button type="button" className="btn btn-small btn-quiet" onClick={() => setChosen(new Set())}>
          None
        </button>
      </div>
      <div className="export-columns">
        {all.map((c) => (
          <label key={c} className="check">
            <input type="checkbox" data-export-column={c} checked={chosen.has(c)} onChange={() => toggle(c)} />
            <span>{c}</span>
          </label>
        ))}
      </div>
      <div className="export-actions">
        <label className="check">
          <input type="checkbox" data-testid="export-sf-headers" checked={preset === 'screaming-frog'} onChange={(e) => setPreset(e.currentTarget.checked ? 'screaming-frog' : 'trawl')} />
          <span>Screaming Frog headers (Address, Status Code, Title 1…; response times in seconds)</span>
        </label>
        <button type="button" className="btn btn-primary" data-testid="export-view" disabled={busy || columns.length === 0} onClick={() => void doExport()}>
          {busy ? 'Exporting…' : 'Export CSV'}
        </button>
        <button type="button" className="btn btn-quiet" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}

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
          <h3 className="row-details-heading">Redirect chain{chain.loop ? ' (a loop)' : ''}{chain.truncated ? ' (cut)' : ''}</h3>
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
        row={(l) => ({ key: `${l.from_id}-${l.kind}`, url: l.from_url, id: l.from_id, anchor: l.anchor, note: `${l.kind}${l.nofollow ? ', nofollow' : ''}` })}
        onOpen={onOpen}
      />
      <LinkList<Outlink>
        title="Outlinks"
        testId="detail-outlinks"
        first={detail.outlinks}
        direction="out"
        urlId={detail.url_id}
        row={(l) => ({ key: `${l.to_id}-${l.kind}`, url: l.to_url, id: l.to_id, anchor: l.anchor, note: `${l.kind}${l.nofollow ? ', nofollow' : ''} · ${l.status_code === null ? 'not fetched' : l.status_code}` })}
        onOpen={onOpen}
      />
      {detail.unfetchable_links.length > 0 && (
        <>
          <h3 className="row-details-heading">Unfetchable links ({formatInt(detail.unfetchable_links.length)}{detail.unfetchable_truncated ? '+' : ''})</h3>
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
  const more = (after: number): Promise<LinkPage<unknown>> => (direction === 'in' ? api.urlInlinks(urlId, after) : api.urlOutlinks(urlId, after));
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
