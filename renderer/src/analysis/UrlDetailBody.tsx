// One URL's details as text: every field of its row (the table's columns and the rest: meta, headings, canonical,
// directives), its extracted values, response headers, redirect chain and inlinks and outlinks (a page at a time,
// more on demand; each opens that URL's details). Crawled content is only ever text.
import { useEffect, useState } from 'react';
import type { ResultRow } from '../../../shared/crawler-api.ts';
import type { Inlink, LinkPage, Outlink, UrlDetail } from '../../../shared/analysis.ts';
import { formatBytes, formatInt } from '../format.ts';
import { useApi } from '../store/context.tsx';
import { useBusyCommand } from '../components/use-command.ts';
import { RowFields } from '../results/RowDetails.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { headerLines, statusText } from './analysis-model.ts';
import { RenderDetailSection } from './RenderDetailSection.tsx';
import { StructuredDetailSection } from './StructuredDetailSection.tsx';
import { HreflangDetailSection, SecurityDetailSection } from './SecurityDetailSection.tsx';
import { ContentDetailSection } from './ContentDetailSection.tsx';

/** The host's names of a URL's states (electron/engine/analysis/url-detail.ts), as keys of detail.states. */
const STATE_KEYS: Record<
  string,
  'queued' | 'inFlight' | 'fetched' | 'failed' | 'outOfScope' | 'tooDeep' | 'nofollowOnly' | 'redirectCut' | 'sitemapOnly'
> = {
  queued: 'queued',
  'in flight': 'inFlight',
  fetched: 'fetched',
  failed: 'failed',
  'out of scope': 'outOfScope',
  'too deep': 'tooDeep',
  'nofollow only': 'nofollowOnly',
  'redirect chain cut': 'redirectCut',
  'in a sitemap only': 'sitemapOnly',
};

/** The detail's row as a ResultRow with its extracted values (a rule may be named "__proto__": defineProperty). */
export function detailRow(detail: UrlDetail): ResultRow {
  const extracted: Record<string, string[]> = {};
  for (const e of detail.extracted)
    Object.defineProperty(extracted, e.rule, { value: e.values, enumerable: true, writable: true, configurable: true });
  return { ...(detail.row as unknown as ResultRow), extracted };
}

export function UrlDetailBody({
  detail,
  onOpen,
  rules,
}: {
  detail: UrlDetail;
  onOpen: (urlId: number) => void;
  /** The crawl's extraction rules (each listed, with or without values); by default those the URL has values for. */
  rules?: readonly string[];
}) {
  const headers = headerLines(detail.response_headers);
  const chain = detail.redirect_chain;
  const row = detailRow(detail);
  const { t } = useTranslation('analysis');
  return (
    <div className="url-detail-body">
      <div className="row-details-url" data-testid="detail-url">
        {detail.url}
      </div>
      <dl className="row-details-fields">
        <Field
          label={t('detail.state')}
          value={Object.hasOwn(STATE_KEYS, detail.state_name) ? t(`detail.states.${STATE_KEYS[detail.state_name]!}`) : detail.state_name}
        />
        <div className="detail" data-empty={detail.via === null || undefined}>
          <dt>{t('detail.foundOn')}</dt>
          <dd>
            {detail.via ? (
              <button
                type="button"
                className="link-url link-open"
                data-open-url={detail.via.url}
                title={t('detail.detailsOf', { url: detail.via.url })}
                onClick={() => onOpen(detail.via!.url_id)}
              >
                {detail.via.url}
              </button>
            ) : (
              '—'
            )}
          </dd>
        </div>
        {!detail.fetched && <Field label={t('detail.kind')} value={detail.kind} />}
        {!detail.fetched && <Field label={t('detail.depth')} value={String(detail.depth)} />}
      </dl>
      {detail.render && <RenderDetailSection render={detail.render} />}
      {detail.fetched && <RowFields row={row} rules={rules ?? detail.extracted.map((e) => e.rule)} />}
      {detail.fetched && detail.structured && <StructuredDetailSection structured={detail.structured} />}
      {detail.fetched && detail.content && <ContentDetailSection urlId={detail.url_id} content={detail.content} onOpen={onOpen} />}
      {detail.fetched && detail.contentPending && (
        <>
          <h3 className="row-details-heading">{t('detail.content.heading')}</h3>
          <p className="detail-none" data-testid="detail-content-pending">
            {t('detail.content.pending')}
          </p>
        </>
      )}
      <h3 className="row-details-heading">{t('detail.responseHeaders')}</h3>
      {headers.length ? (
        <dl className="row-details-fields header-lines" data-testid="detail-headers">
          {headers.map((h, i) => (
            <Field key={i} label={h.name} value={h.value} />
          ))}
        </dl>
      ) : (
        <p className="detail-none">{t('detail.noResponse')}</p>
      )}
      {detail.security && <SecurityDetailSection security={detail.security} />}
      {detail.hreflang && <HreflangDetailSection hreflang={detail.hreflang} />}
      {chain.hops.length > 1 && (
        <>
          <h3 className="row-details-heading">
            {t('detail.redirectChain')}
            {chain.loop ? t('detail.loop') : ''}
            {chain.truncated ? t('detail.cut') : ''}
          </h3>
          <ol className="chain" data-testid="detail-chain">
            {chain.hops.map((h, i) => (
              <li key={`${h.url_id}-${i}`} data-here={i === chain.position || undefined}>
                <span className="chain-status">{statusText(h.status_code)}</span>{' '}
                {i === chain.position ? (
                  h.url
                ) : (
                  <button
                    type="button"
                    className="link-url link-open"
                    title={t('detail.detailsOf', { url: h.url })}
                    onClick={() => onOpen(h.url_id)}
                  >
                    {h.url}
                  </button>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
      <LinkList<Inlink>
        title={t('detail.inlinks')}
        more={t('detail.moreInlinks')}
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
        title={t('detail.outlinks')}
        more={t('detail.moreOutlinks')}
        testId="detail-outlinks"
        first={detail.outlinks}
        direction="out"
        urlId={detail.url_id}
        row={(l) => ({
          key: `${l.to_id}-${l.kind}`,
          url: l.to_url,
          id: l.to_id,
          anchor: l.anchor,
          note: `${l.kind}${l.nofollow ? ', nofollow' : ''} · ${l.status_code === null ? t('notFetched') : l.status_code}`,
        })}
        onOpen={onOpen}
      />
      {detail.unfetchable_links.length > 0 && (
        <>
          <h3 className="row-details-heading">
            {t('detail.unfetchable', { n: formatInt(detail.unfetchable_links.length), more: detail.unfetchable_truncated ? '+' : '' })}
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
      <ImagesSection detail={detail} onOpen={onOpen} />
    </div>
  );
}

/**
 * Issue 18.3: a page's images (alt state, dimensions, status and size when the crawl checked them), and for an image
 * URL the pages using it. Crawled text only ever as text.
 */
function ImagesSection({ detail, onOpen }: { detail: UrlDetail; onOpen: (urlId: number) => void }) {
  const { t } = useTranslation('analysis');
  const images = detail.images;
  const pages = detail.image_pages;
  const altText = (alt: string | null, len: number | null) =>
    alt === null
      ? t('detail.images.altMissing')
      : alt === ''
        ? t('detail.images.altEmpty')
        : len !== null && len > alt.length
          ? `${alt}…`
          : alt;
  const dims = (w: string | null, h: string | null) =>
    w === null && h === null ? t('detail.images.noDimensions') : `${w ?? '?'} × ${h ?? '?'}`;
  return (
    <>
      {images && images.total > 0 && (
        <>
          <h3 className="row-details-heading">{t('detail.count', { title: t('detail.images.title'), n: formatInt(images.total) })}</h3>
          <ul className="link-list image-list" data-testid="detail-images">
            {images.items.map((i, n) => (
              <li key={n} data-alt={i.alt === null ? 'missing' : i.alt === '' ? 'empty' : 'present'}>
                <span className="link-url">{i.image_url}</span>
                <span className={i.alt === null ? 'link-anchor attention' : 'link-anchor'}>{altText(i.alt, i.alt_len)}</span>
                <span className="link-note">
                  {dims(i.width, i.height)} ·{' '}
                  {i.checked
                    ? `${statusText(i.status_code)}${i.size_bytes === null ? '' : ` · ${formatBytes(i.size_bytes)}`}`
                    : t('detail.images.notChecked')}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {pages && pages.total > 0 && (
        <>
          <h3 className="row-details-heading">{t('detail.count', { title: t('detail.images.usedOn'), n: formatInt(pages.total) })}</h3>
          <ul className="link-list" data-testid="detail-image-pages">
            {pages.items.map((p, n) => (
              <li key={n}>
                <button
                  type="button"
                  className="link-url link-open"
                  title={t('detail.detailsOf', { url: p.page_url })}
                  onClick={() => onOpen(p.page_id)}
                >
                  {p.page_url}
                </button>
                <span className={p.alt === null ? 'link-anchor attention' : 'link-anchor'}>{altText(p.alt, p.alt_len)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
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
  more: moreLabel,
  testId,
  first,
  direction,
  urlId,
  row,
  onOpen,
}: {
  title: string;
  /** The button that reads the next page. */
  more: string;
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
  const { t } = useTranslation('analysis');
  useEffect(() => setExtra({ rows: [], next: first.next }), [first]);
  const rows = [...first.rows, ...extra.rows].map(row);
  return (
    <>
      <h3 className="row-details-heading">{t('detail.count', { title, n: formatInt(first.total) })}</h3>
      {rows.length === 0 ? (
        <p className="detail-none">{t('detail.none')}</p>
      ) : (
        <ul className="link-list" data-testid={testId}>
          {rows.map((l) => (
            <li key={l.key}>
              <button
                type="button"
                className="link-url link-open"
                data-open-url={l.url}
                title={t('detail.detailsOf', { url: l.url })}
                onClick={() => onOpen(l.id)}
              >
                {l.url}
              </button>
              <span className="link-anchor">{l.anchor ? `“${l.anchor}”` : t('detail.noAnchor')}</span>
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
            void run(moreLabel, () => more(extra.next!)).then((page) => {
              if (page) setExtra((x) => ({ rows: [...x.rows, ...(page.rows as T[])], next: page.next }));
            })
          }
        >
          {moreLabel}
        </button>
      )}
    </>
  );
}
