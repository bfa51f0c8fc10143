// A page's structured data and social tags in the URL detail pane (issue 18.4): each JSON-LD block, its microdata and
// its RDFa with the types they name (or a JSON-LD block's parse error), and its og:* and twitter:* tags. Crawled
// content is only ever text.
import type { StructuredDetail } from '../../../shared/analysis.ts';
import { formatInt } from '../format.ts';
import { useTranslation } from '../i18n/i18n.ts';

export function StructuredDetailSection({ structured }: { structured: StructuredDetail }) {
  const { t } = useTranslation('analysis');
  const { items, social_tags: tags } = structured;
  return (
    <section className="structured-detail" data-testid="detail-structured">
      <h3 className="row-details-heading">{t('detail.structured.heading', { n: formatInt(items.length) })}</h3>
      {items.length === 0 ? (
        <p className="detail-none">{t('detail.structured.none')}</p>
      ) : (
        <table className="render-compare" data-testid="detail-structured-items" aria-label={t('detail.structured.tableLabel')}>
          <thead>
            <tr>
              <th scope="col">{t('detail.structured.format')}</th>
              <th scope="col">{t('detail.structured.types')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, i) => (
              <tr key={i} data-error={item.error !== null || undefined}>
                <th scope="row">{item.format}</th>
                <td>
                  {item.error !== null ? (
                    <span className="structured-error">{t('detail.structured.error', { error: item.error })}</span>
                  ) : item.types.length > 0 ? (
                    item.types.join(', ')
                  ) : (
                    t('detail.structured.noTypes')
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3 className="row-details-heading">{t('detail.structured.socialHeading', { n: formatInt(tags.length) })}</h3>
      {tags.length === 0 ? (
        <p className="detail-none">{t('detail.structured.noSocial')}</p>
      ) : (
        <dl className="row-details-fields header-lines" data-testid="detail-social-tags">
          {tags.map((tag, i) => (
            <div className="detail" key={i}>
              <dt>{tag.property}</dt>
              <dd>{tag.content || '—'}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
