// A result row's fields in full (the table's columns and those it has no room for) and the crawl's extracted
// values, crawled text shown only as text: what the URL detail pane (analysis/UrlDetailPane.tsx) lists first.
import type { ResultRow } from '../../../shared/crawler-api.ts';
import { formatBytes, formatInt } from '../format.ts';
import { indexabilityText } from './ResultRowView.tsx';

export interface DetailField {
  label: string;
  value: (r: ResultRow) => string;
  /** Several values, one a line. */
  multiline?: boolean;
}

const count = (n: number | null) => (n === null ? '' : formatInt(n));
const withCount = (text: string | null, n: number | null) =>
  n !== null && n > 1 ? `${text ?? ''} (first of ${formatInt(n)})` : (text ?? '');

/** Everything about a row, in the side panel: the table's columns in full, and the fields it has no room for. */
export const DETAIL_FIELDS: DetailField[] = [
  { label: 'Status', value: (r) => (r.status_code === null ? 'no response' : String(r.status_code)) },
  { label: 'Kind', value: (r) => r.kind },
  { label: 'Indexability', value: indexabilityText },
  { label: 'Redirect to', value: (r) => r.redirect_url ?? '' },
  { label: 'Meta refresh', value: (r) => r.meta_refresh ?? '' },
  { label: 'Content type', value: (r) => r.content_type ?? '' },
  { label: 'Size', value: (r) => (r.size_bytes === null ? '' : `${formatBytes(r.size_bytes)} (${formatInt(r.size_bytes)} bytes)`) },
  { label: 'Response time', value: (r) => (r.response_time_ms === null ? '' : `${formatInt(r.response_time_ms)} ms`) },
  { label: 'Attempts', value: (r) => (r.attempts === 0 ? '0 (never fetched)' : formatInt(r.attempts)) },
  { label: 'Depth', value: (r) => String(r.crawl_depth) },
  { label: 'Title', value: (r) => r.title ?? '' },
  { label: 'Meta description', value: (r) => r.meta_description ?? '' },
  { label: 'H1', value: (r) => withCount(r.h1, r.h1_count) },
  { label: 'H1 count', value: (r) => count(r.h1_count) },
  { label: 'H2', value: (r) => withCount(r.h2, r.h2_count) },
  { label: 'H2 count', value: (r) => count(r.h2_count) },
  { label: 'Language', value: (r) => r.lang ?? '' },
  { label: 'Canonical', value: (r) => r.canonical ?? '' },
  { label: 'Hreflang', value: (r) => (r.hreflang ?? '').split(/;\s*/).filter(Boolean).join('\n'), multiline: true },
  { label: 'Meta robots', value: (r) => r.meta_robots ?? '' },
  { label: 'X-Robots-Tag', value: (r) => r.x_robots_tag ?? '' },
  { label: 'robots.txt', value: (r) => (r.robots_disallowed ? 'disallows this URL (fetched anyway: report mode)' : '') },
  { label: 'Words', value: (r) => formatInt(r.word_count) },
  { label: 'Inlinks', value: (r) => formatInt(r.inlinks) },
  { label: 'Outlinks', value: (r) => formatInt(r.outlinks) },
  { label: 'Error', value: (r) => r.error ?? '' },
];

/** A row's fields in full, its crawl's extraction rules first (every rule, a value a line): the URL detail pane's core. */
export function RowFields({ row, rules = [] }: { row: ResultRow; rules?: readonly string[] }) {
  return (
    <>
      {rules.length > 0 && (
        <>
          <h3 className="row-details-heading">Custom extraction</h3>
          <dl className="row-details-fields row-details-extracted" data-testid="row-extracted">
            {rules.map((rule) => {
              const values = Object.hasOwn(row.extracted ?? {}, rule) ? row.extracted[rule]! : [];
              return (
                <div key={rule} className="detail" data-empty={values.length === 0 || undefined}>
                  <dt>{rule}</dt>
                  <dd className="detail-lines">{values.length ? values.join('\n') : '—'}</dd>
                </div>
              );
            })}
          </dl>
        </>
      )}
      <dl className="row-details-fields">
        {DETAIL_FIELDS.map((f) => {
          const v = f.value(row);
          return (
            <div key={f.label} className="detail" data-empty={v === '' || undefined}>
              <dt>{f.label}</dt>
              <dd className={f.multiline ? 'detail-lines' : undefined}>{v || '—'}</dd>
            </div>
          );
        })}
      </dl>
    </>
  );
}
