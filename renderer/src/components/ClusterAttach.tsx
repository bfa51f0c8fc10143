// Attach to a cluster crawl: a crawl in a PostgreSQL store run by headless nodes (`npm run crawl -- --store URL
// --join ID`). The store URL is typed in a password field (it carries the password) and shown back masked; the host
// lists the store's crawls, and attaching shows the cluster live in place of a local crawl.
import { useId, useState } from 'react';
import type { StoreCrawlInfo, StoreCrawlList } from '../../../shared/crawler-api.ts';
import { STORE_URL_MAX_LENGTH } from '../../../shared/crawler-api.ts';
import { errorMessage } from '../api/connection.ts';
import { formatInt, formatWhen, hostOf } from '../format.ts';
import { notify, showCluster } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { i18next, useTranslation } from '../i18n/i18n.ts';
import { reasonText, stateWord } from './TopBar.tsx';

/** The command that starts a node of a cluster crawl: a command, never translated. */
const JOIN_COMMAND = 'npm run crawl -- --store URL --join ID';

/** The URL with its password replaced by dots, to show what was typed without showing the secret. */
export function maskStoreUrl(value: string): string {
  const t = value.trim();
  // The last @ before the path ends the user info, as URL parsers read it (a password may hold an unescaped @).
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@(.*)$/i.exec(t);
  if (!m) return t;
  const [, scheme, userinfo, rest] = m;
  const colon = userinfo!.indexOf(':');
  if (colon < 0) return t;
  return `${scheme}${userinfo!.slice(0, colon)}:••••@${rest}`;
}

/** What is wrong with a store URL before asking the host (which checks the rest), or null. */
export function storeUrlProblem(value: string): string | null {
  const t = value.trim();
  if (t === '') return i18next.t('cluster.typeUrl', { ns: 'live' });
  if (t.length > STORE_URL_MAX_LENGTH) return i18next.t('cluster.tooLong', { ns: 'live', max: formatInt(STORE_URL_MAX_LENGTH) });
  if (!/^postgres(?:ql)?:\/\//i.test(t)) return i18next.t('cluster.scheme', { ns: 'live' });
  return null;
}

export function ClusterAttach() {
  const api = useApi();
  const store = useCrawlStore();
  const ids = useId();
  const cluster = useCrawl((s) => s.cluster);
  const [url, setUrl] = useState('');
  const [list, setList] = useState<StoreCrawlList | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  /** What runs: 'list', 'detach' or `attach:<id>`. */
  const [busy, setBusy] = useState<string | null>(null);
  const [open, setOpen] = useState(() => cluster !== null);
  const { t } = useTranslation('live');

  const listCrawls = async () => {
    const bad = storeUrlProblem(url);
    if (bad) return setProblem(bad);
    setProblem(null);
    setBusy('list');
    try {
      setList(await api.listStoreCrawls(url.trim()));
    } catch (err) {
      setList(null);
      setProblem(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const attach = async (id: string) => {
    setProblem(null);
    setBusy(`attach:${id}`);
    try {
      const attached = await api.attachStore(url.trim(), id);
      showCluster(store);
      notify(store, 'info', t('cluster.watchingNotice', { id: attached.crawlId, server: attached.server }));
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const detach = async () => {
    setBusy('detach');
    try {
      // The host's "cleared" event empties the view, here and in every other window or browser (crawl-store.ts).
      await api.detachStore();
    } catch (err) {
      setProblem(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const masked = maskStoreUrl(url);
  return (
    <section className="panel cluster-attach" aria-label={t('cluster.panel')}>
      <details className="cluster-details" data-testid="cluster-attach" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="panel-bar">
          <h2 className="panel-title">{t('cluster.title')}</h2>
          {cluster && (
            <span className="cluster-summary" title={t('cluster.crawlAt', { id: cluster.crawlId, server: cluster.server })}>
              {t('cluster.watchingId', { id: cluster.crawlId })}
            </span>
          )}
        </summary>
        <div className="cluster-body">
          <p className="cluster-hint">
            {t('cluster.hintBefore')} <code>{JOIN_COMMAND}</code>. {t('cluster.hintAfter')}
          </p>
          <label className="field-label" htmlFor={`${ids}-url`} title={t('cluster.urlTitle')}>
            {t('cluster.storeUrl')}
          </label>
          <div className="cluster-url-row">
            <input
              id={`${ids}-url`}
              data-testid="store-url"
              className="mono-input"
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder={t('cluster.urlPlaceholder')}
              value={url}
              maxLength={STORE_URL_MAX_LENGTH}
              aria-invalid={problem !== null || undefined}
              aria-describedby={problem ? `${ids}-problem` : `${ids}-masked`}
              onChange={(e) => {
                setUrl(e.currentTarget.value);
                setProblem(null);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') void listCrawls();
              }}
            />
            <button
              type="button"
              className="btn btn-small"
              data-testid="list-store-crawls"
              disabled={busy !== null || url.trim() === ''}
              onClick={() => void listCrawls()}
            >
              {busy === 'list' ? t('cluster.listing') : t('cluster.listCrawls')}
            </button>
          </div>
          {url.trim() !== '' && (
            <div className="cluster-masked" id={`${ids}-masked`} data-testid="store-url-masked">
              {masked}
            </div>
          )}
          {problem && (
            <div className="field-error cluster-problem" id={`${ids}-problem`} data-testid="store-problem" role="alert">
              {problem}
            </div>
          )}
          {list && (
            <StoreCrawls
              list={list}
              attachedId={cluster?.server === list.server ? cluster.crawlId : null}
              busy={busy}
              onAttach={(id) => void attach(id)}
            />
          )}
          {cluster && (
            <div className="cluster-attached" data-testid="cluster-attached">
              <span>
                {t('cluster.watching')} <b>{cluster.crawlId}</b> {t('cluster.at', { server: cluster.server })}
              </span>
              <button
                type="button"
                className="btn btn-small btn-quiet"
                data-testid="detach-store"
                disabled={busy !== null}
                onClick={() => void detach()}
              >
                {t('cluster.detach')}
              </button>
            </div>
          )}
        </div>
      </details>
    </section>
  );
}

function StoreCrawls({
  list,
  attachedId,
  busy,
  onAttach,
}: {
  list: StoreCrawlList;
  attachedId: string | null;
  busy: string | null;
  onAttach: (id: string) => void;
}) {
  const { t } = useTranslation('live');
  if (list.crawls.length === 0) return <p className="list-empty">{t('cluster.noCrawls', { server: list.server })}</p>;
  return (
    <ul className="crawls store-crawls" data-testid="store-crawls" aria-label={t('cluster.crawlsIn', { server: list.server })}>
      {list.crawls.map((c) => (
        <StoreCrawlItem key={c.id} crawl={c} attached={c.id === attachedId} busy={busy} onAttach={onAttach} />
      ))}
    </ul>
  );
}

function StoreCrawlItem({
  crawl: c,
  attached,
  busy,
  onAttach,
}: {
  crawl: StoreCrawlInfo;
  attached: boolean;
  busy: string | null;
  onAttach: (id: string) => void;
}) {
  const first = c.seeds[0] ?? '';
  const { t } = useTranslation('live');
  return (
    <li className="crawl-item" data-store-crawl={c.id} data-current={attached || undefined}>
      <div className="crawl-item-main">
        <div className="crawl-item-host" title={c.seeds.join('\n')}>
          <span className="store-crawl-id">{c.id}</span> {hostOf(first)}
          {c.seeds.length > 1 && <span className="crawl-item-more"> +{c.seeds.length - 1}</span>}
        </div>
        <div className="crawl-item-meta">
          <span>{formatWhen(c.createdAt)}</span>
          <span className="crawl-item-state" data-state={c.state}>
            {c.finishReason ? reasonText(c.finishReason) : stateWord(c.state)}
          </span>
          <span>{t('cluster.threads', { n: formatInt(c.threads) })}</span>
        </div>
        {c.problem ? (
          <div className="crawl-item-meta store-crawl-problem">{c.problem}</div>
        ) : (
          <div className="crawl-item-meta">
            {c.crawled !== null && <span>{t('cluster.crawled', { n: formatInt(c.crawled) })}</span>}
            {c.queued !== null && c.queued > 0 && <span>{t('cluster.queued', { n: formatInt(c.queued) })}</span>}
            {c.liveNodes !== null && <span>{t('cluster.nodesLive', { count: c.liveNodes, formatted: formatInt(c.liveNodes) })}</span>}
          </div>
        )}
      </div>
      <div className="crawl-item-actions">
        <button
          type="button"
          className="btn btn-small"
          data-testid="attach-store-crawl"
          disabled={busy !== null || attached || c.problem !== null}
          onClick={() => onAttach(c.id)}
        >
          {attached ? t('cluster.shown') : busy === `attach:${c.id}` ? t('cluster.attaching') : t('cluster.attach')}
        </button>
      </div>
    </li>
  );
}

/** While attached to a cluster crawl, what keeps it from being shown as it is now (the store lost, unreadable). */
export function ClusterBanner() {
  const cluster = useCrawl((s) => s.cluster);
  const error = useCrawl((s) => s.error);
  const { t } = useTranslation('live');
  if (!cluster || !error) return null;
  return (
    <div className="connection-banner cluster-banner" role="status" data-testid="cluster-banner">
      {t('cluster.banner', { id: cluster.crawlId, error })}
    </div>
  );
}
