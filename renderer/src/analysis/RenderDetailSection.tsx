// A rendered page's part of the URL detail pane: raw HTML and rendered values side by side (those JavaScript changed
// marked), the render's time, error, rendered-only links and script redirect, and its console errors, uncaught
// exceptions, failed and blocked resources (bounded lists, from the engine). Crawled content is only ever text.
import type { BoundedList, RenderDetail, RenderResource } from '../../../shared/analysis.ts';
import { formatInt } from '../format.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { indexabilityText } from '../results/ResultRowView.tsx';

const text = (v: string | number | null): string => (v === null ? '' : typeof v === 'number' ? formatInt(v) : v);

/** An indexability as the engine writes it ("non-indexable: noindex"), in the language shown, as the tables show it. */
function indexabilityOf(v: string | number | null): string {
  if (typeof v !== 'string' || v === '') return text(v);
  const at = v.indexOf(': ');
  return indexabilityText(
    at < 0 ? { indexability: v, indexability_reason: null } : { indexability: v.slice(0, at), indexability_reason: v.slice(at + 2) },
  );
}

export function RenderDetailSection({ render }: { render: RenderDetail }) {
  const { t } = useTranslation('analysis');
  const changed = render.fields.filter((f) => f.changed).length;
  return (
    <section className="render-detail" data-testid="detail-render" data-failed={render.error !== null || undefined}>
      <h3 className="row-details-heading">{t('detail.render.heading')}</h3>
      <dl className="row-details-fields">
        <Line label={t('detail.render.renderTime')} value={render.render_ms === null ? '' : t('ms', { ms: formatInt(render.render_ms) })} />
        {render.error !== null && <Line label={t('detail.render.error')} value={render.error} testId="detail-render-error" />}
        <Line label={t('detail.render.renderedLinks')} value={formatInt(render.rendered_links)} />
        {render.js_redirect !== null && <Line label={t('detail.render.jsRedirect')} value={render.js_redirect} />}
      </dl>
      {render.error !== null && <p className="detail-none">{t('detail.render.failedNote')}</p>}
      <table className="render-compare" data-testid="detail-render-fields" aria-label={t('detail.render.tableLabel')}>
        <caption className="render-compare-caption">
          {changed === 0 ? t('detail.render.noneChanged') : t('detail.render.changedCount', { count: changed, n: formatInt(changed) })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('detail.render.field')}</th>
            <th scope="col">{t('detail.render.raw')}</th>
            <th scope="col">{t('detail.render.rendered')}</th>
          </tr>
        </thead>
        <tbody>
          {render.fields.map((f) => (
            <tr key={f.field} data-field={f.field} data-changed={f.changed || undefined}>
              <th scope="row">
                {t(`detail.render.fields.${f.field}`)}
                {f.changed && <span className="render-changed">{t('detail.render.changed')}</span>}
              </th>
              <td data-empty={f.raw === null || f.raw === '' || undefined}>{shown(f.field, f.raw) || '—'}</td>
              <td data-empty={f.rendered === null || f.rendered === '' || undefined}>{shown(f.field, f.rendered) || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Messages title={t('detail.render.consoleErrors')} list={render.console_errors} testId="detail-render-console" />
      <Messages title={t('detail.render.pageErrors')} list={render.page_errors} testId="detail-render-page-errors" />
      <Resources title={t('detail.render.failedResources')} list={render.failed_resources} testId="detail-render-failed" />
      <Resources title={t('detail.render.blockedResources')} list={render.blocked_resources} testId="detail-render-blocked" />
    </section>
  );
}

const shown = (field: string, v: string | number | null): string => (field === 'indexability' ? indexabilityOf(v) : text(v));

function Line({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="detail" data-empty={value === '' || undefined} data-testid={testId}>
      <dt>{label}</dt>
      <dd>{value || '—'}</dd>
    </div>
  );
}

/** A list's heading with its count, and a note when only its first items are listed. */
function ListHeading({ title, list }: { title: string; list: BoundedList<unknown> }) {
  const { t } = useTranslation('analysis');
  return (
    <>
      <h3 className="row-details-heading">{t('detail.count', { title, n: formatInt(list.total) })}</h3>
      {list.items.length < list.total && (
        <p className="detail-none">{t('detail.render.firstOnly', { shown: formatInt(list.items.length), n: formatInt(list.total) })}</p>
      )}
    </>
  );
}

function Messages({ title, list, testId }: { title: string; list: BoundedList<string>; testId: string }) {
  if (list.total === 0) return null;
  return (
    <>
      <ListHeading title={title} list={list} />
      <ul className="link-list render-messages" data-testid={testId}>
        {list.items.map((m, i) => (
          <li key={i}>
            <span className="render-message">{m}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

function Resources({ title, list, testId }: { title: string; list: BoundedList<RenderResource>; testId: string }) {
  if (list.total === 0) return null;
  return (
    <>
      <ListHeading title={title} list={list} />
      <ul className="link-list" data-testid={testId}>
        {list.items.map((r, i) => (
          <li key={i}>
            <span className="link-url">{r.url}</span>
            {r.reason && <span className="link-note">{r.reason}</span>}
          </li>
        ))}
      </ul>
    </>
  );
}
