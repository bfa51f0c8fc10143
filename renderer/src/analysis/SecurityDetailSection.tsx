// A page's security and hreflang in the URL detail pane (issue 18.5): the security headers it was sent (missing ones
// marked), its problems, the resources it loads over plain HTTP and its unsafe target=_blank links; and the hreflang
// alternates it names, each with its target's status and what is wrong with it. Crawled content is only ever text.
import type { HreflangDetail, HreflangProblem, SecurityDetail } from '../../../shared/security.ts';
import { useTranslation } from '../i18n/i18n.ts';

const PROBLEM_KEY = {
  'invalid code': 'invalidCode',
  'no return link': 'noReturn',
  'not 200': 'not200',
  'non-indexable': 'nonIndexable',
} as const satisfies Record<HreflangProblem, string>;

export function SecurityDetailSection({ security }: { security: SecurityDetail }) {
  const { t } = useTranslation('analysis');
  return (
    <section className="security-detail" data-testid="detail-security">
      <h3 className="row-details-heading">{t('detail.security.heading')}</h3>
      {security.problems.length === 0 ? (
        <p className="detail-none">{t('detail.security.noProblems')}</p>
      ) : (
        <ul className="link-list" data-testid="detail-security-problems">
          {security.problems.map((p) => (
            <li key={p}>
              <span className="render-changed">{t(`detail.security.problems.${p}`)}</span>
            </li>
          ))}
        </ul>
      )}
      <dl className="row-details-fields header-lines" data-testid="detail-security-headers">
        {Object.entries(security.headers).map(([name, value]) => (
          <div key={name} className="detail" data-empty={value === null || undefined}>
            <dt>{name}</dt>
            <dd>{value ?? t('detail.security.missing')}</dd>
          </div>
        ))}
      </dl>
      {security.http_resources.length > 0 && (
        <>
          <h3 className="row-details-heading">{t('detail.security.httpResources', { n: security.http_resources.length })}</h3>
          <ul className="link-list" data-testid="detail-security-http">
            {security.http_resources.map((r) => (
              <li key={r.url}>
                <span className="link-url">{r.url}</span>
                <span className="link-note">{r.kind}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {security.unsafe_links.length > 0 && (
        <>
          <h3 className="row-details-heading">{t('detail.security.unsafeLinks', { n: security.unsafe_links.length })}</h3>
          <ul className="link-list" data-testid="detail-security-unsafe">
            {security.unsafe_links.map((url) => (
              <li key={url}>
                <span className="link-url">{url}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function HreflangDetailSection({ hreflang }: { hreflang: HreflangDetail }) {
  const { t } = useTranslation('analysis');
  return (
    <section className="hreflang-detail" data-testid="detail-hreflang">
      <h3 className="row-details-heading">{t('detail.hreflang.heading', { n: hreflang.alternates.length })}</h3>
      {hreflang.missing_x_default && <p className="detail-none">{t('detail.hreflang.missingXDefault')}</p>}
      {hreflang.missing_self && <p className="detail-none">{t('detail.hreflang.missingSelf')}</p>}
      <table className="render-compare" data-testid="detail-hreflang-table" aria-label={t('detail.hreflang.tableLabel')}>
        <thead>
          <tr>
            <th scope="col">{t('detail.hreflang.lang')}</th>
            <th scope="col">{t('detail.hreflang.target')}</th>
            <th scope="col">{t('detail.hreflang.status')}</th>
            <th scope="col">{t('detail.hreflang.problems')}</th>
          </tr>
        </thead>
        <tbody>
          {hreflang.alternates.map((a) => (
            <tr key={`${a.lang} ${a.target_id}`} data-problem={a.problems.length > 0 || undefined}>
              <th scope="row">{a.lang}</th>
              <td>{a.target_url}</td>
              <td>{a.crawled ? (a.status_code ?? t('detail.hreflang.noResponse')) : t('detail.hreflang.notCrawled')}</td>
              <td>
                {a.problems.length === 0
                  ? '—'
                  : a.problems.map((p) => (
                      <span key={p} className="render-changed">
                        {t(`detail.hreflang.problem.${PROBLEM_KEY[p]}`)}
                      </span>
                    ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
