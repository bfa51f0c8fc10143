// A result row's fields in full (the table's columns and those it has no room for) and the crawl's extracted
// values, crawled text shown only as text: what the URL detail pane (analysis/UrlDetailPane.tsx) lists first.
import type { ResultRow } from '../../../shared/crawler-api.ts';
import type { Messages } from '../i18n/en/index.ts';
import { formatBytes, formatInt } from '../format.ts';
import { formatLinkScore, indexabilityText } from './ResultRowView.tsx';
import { i18next, useTranslation } from '../i18n/i18n.ts';

const tr = i18next.getFixedT(null, 'results');

export interface DetailField {
  /** Stable: the key of the field's label (fields.<id> in the 'results' strings). */
  id: string;
  /** In the language shown. */
  readonly label: string;
  value: (r: ResultRow) => string;
  /** Several values, one a line. */
  multiline?: boolean;
}

const count = (n: number | null) => (n === null ? '' : formatInt(n));
const withCount = (text: string | null, n: number | null) =>
  n !== null && n > 1 ? tr('fields.firstOf', { text: text ?? '', n: formatInt(n) }) : (text ?? '');

/** Everything about a row, in the side panel: the table's columns in full, and the fields it has no room for. */
const FIELDS: Omit<DetailField, 'label'>[] = [
  { id: 'status', value: (r) => (r.status_code === null ? tr('fields.noResponse') : String(r.status_code)) },
  { id: 'kind', value: (r) => r.kind },
  { id: 'indexability', value: indexabilityText },
  { id: 'redirectTo', value: (r) => r.redirect_url ?? '' },
  { id: 'metaRefresh', value: (r) => r.meta_refresh ?? '' },
  { id: 'contentType', value: (r) => r.content_type ?? '' },
  {
    id: 'size',
    value: (r) => (r.size_bytes === null ? '' : tr('fields.sizeValue', { size: formatBytes(r.size_bytes), n: formatInt(r.size_bytes) })),
  },
  {
    id: 'responseTime',
    value: (r) => (r.response_time_ms === null ? '' : i18next.t('ms', { ns: 'analysis', ms: formatInt(r.response_time_ms) })),
  },
  { id: 'attempts', value: (r) => (r.attempts === 0 ? tr('fields.neverFetched') : formatInt(r.attempts)) },
  { id: 'depth', value: (r) => String(r.crawl_depth) },
  { id: 'title', value: (r) => r.title ?? '' },
  { id: 'metaDescription', value: (r) => r.meta_description ?? '' },
  { id: 'h1', value: (r) => withCount(r.h1, r.h1_count) },
  { id: 'h1Count', value: (r) => count(r.h1_count) },
  { id: 'h2', value: (r) => withCount(r.h2, r.h2_count) },
  { id: 'h2Count', value: (r) => count(r.h2_count) },
  { id: 'language', value: (r) => r.lang ?? '' },
  { id: 'canonical', value: (r) => r.canonical ?? '' },
  { id: 'hreflang', value: (r) => (r.hreflang ?? '').split(/;\s*/).filter(Boolean).join('\n'), multiline: true },
  { id: 'metaRobots', value: (r) => r.meta_robots ?? '' },
  { id: 'xRobotsTag', value: (r) => r.x_robots_tag ?? '' },
  { id: 'robotsTxt', value: (r) => (r.robots_disallowed ? tr('fields.robotsDisallowed') : '') },
  { id: 'words', value: (r) => formatInt(r.word_count) },
  { id: 'inlinks', value: (r) => formatInt(r.inlinks) },
  { id: 'uniqueInlinks', value: (r) => (r.unique_inlinks == null ? '' : formatInt(r.unique_inlinks)) },
  { id: 'linkScore', value: (r) => formatLinkScore(r.link_score) },
  { id: 'outlinks', value: (r) => formatInt(r.outlinks) },
  { id: 'error', value: (r) => r.error ?? '' },
];

/** Everything about a row, each field named in the language shown when it is read. */
export const DETAIL_FIELDS: DetailField[] = FIELDS.map((f) => ({
  ...f,
  get label() {
    return tr(`fields.${f.id as keyof Messages['results']['fields']}`);
  },
}));

/** A row's fields in full, its crawl's extraction rules first (every rule, a value a line): the URL detail pane's core. */
export function RowFields({ row, rules = [] }: { row: ResultRow; rules?: readonly string[] }) {
  const { t } = useTranslation('results');
  return (
    <>
      {rules.length > 0 && (
        <>
          <h3 className="row-details-heading">{t('fields.customExtraction')}</h3>
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
            <div key={f.id} className="detail" data-empty={v === '' || undefined}>
              <dt>{f.label}</dt>
              <dd className={f.multiline ? 'detail-lines' : undefined}>{v || '—'}</dd>
            </div>
          );
        })}
      </dl>
    </>
  );
}
