// Inside the running crawl: the URLs still queued, by host (with counts), then by path prefix within a host, and
// searchable; "Exclude this pattern" from a prefix or the search adds a live exclude and says how many it dropped.
// Hosts, prefixes and URLs come from one read (queueScreen), so the numbers on screen agree with each other and
// with the Queue tab's badge while this view is open; "Later" marks the prefixes it pushed back.
import { useEffect, useMemo, useState } from 'react';
import type { QueueCursor, QueueHost, QueuedUrl } from '../../../shared/analysis.ts';
import { errorMessage } from '../api/connection.ts';
import { formatInt } from '../format.ts';
import { useApi, useCrawlStore } from '../store/context.tsx';
import { useTranslation } from '../i18n/i18n.ts';
import { useLive, useHasCrawl, useLiveQuery } from './use-live.ts';
import { prefixPattern, searchPattern } from './analysis-model.ts';

const REFRESH_MS = 2_000;
const SEARCH_PAGE = 100;

type ExcludeOutcome = { pattern: string; dropped: number } | { pattern: string; moved: number } | { pattern: string; error: string } | null;

export function QueueView() {
  const api = useApi();
  const hasCrawl = useHasCrawl();
  const live = useLive();
  const [host, setHost] = useState<QueueHost | null>(null);
  const [under, setUnder] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [appliedText, setAppliedText] = useState('');
  const [outcome, setOutcome] = useState<ExcludeOutcome>(null);
  const [more, setMore] = useState<{ rows: QueuedUrl[]; next: QueueCursor | null }>({ rows: [], next: null });

  useEffect(() => {
    const timer = setTimeout(() => setAppliedText(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const { t } = useTranslation('analysis');

  const store = useCrawlStore();
  const screen = useLiveQuery(
    `screen|${host?.host_id}|${under}|${appliedText}`,
    () => api.queueScreen({ hostId: host?.host_id ?? null, under: host ? under : null, text: appliedText, limit: SEARCH_PAGE }),
    REFRESH_MS,
    { enabled: hasCrawl },
  );
  const hosts = { data: screen.data?.hosts ?? null, error: screen.error };
  const prefixes = { data: screen.data?.prefixes ?? null };
  const search = { data: screen.data?.urls ?? null };
  useEffect(() => setMore({ rows: [], next: null }), [screen.data]);
  // While this view is open, the Queue tab's badge shows the same read's total as its header.
  const shownQueued = screen.data?.hosts.queued ?? null;
  // When the figures on screen were read: the top bar's counters are live, these are of this moment.
  const readAt = useMemo(() => new Date().toLocaleTimeString(), [screen.data]);
  useEffect(() => store.setState({ queueShown: shownQueued }), [store, shownQueued]);
  useEffect(() => () => store.setState({ queueShown: null }), [store]);

  const exclude = async (pattern: string) => {
    try {
      const { dropped } = await api.addExclude(pattern);
      setOutcome({ pattern, dropped });
      screen.reload();
    } catch (err) {
      setOutcome({ pattern, error: errorMessage(err) });
    }
  };

  const pushBack = async (pattern: string) => {
    try {
      const { moved } = await api.deprioritise(pattern);
      setOutcome({ pattern, moved });
      screen.reload();
    } catch (err) {
      setOutcome({ pattern, error: errorMessage(err) });
    }
  };

  const loadMore = async () => {
    const next = more.next ?? search.data?.next;
    if (!next) return;
    const page = await api.queueSearch({
      text: appliedText,
      hostId: host?.host_id ?? null,
      under: host ? under : null,
      after: next,
      limit: SEARCH_PAGE,
    });
    setMore((m) => ({ rows: [...m.rows, ...page.rows], next: page.next }));
  };
  const urls = [...(search.data?.rows ?? []), ...more.rows];
  const hasMore = (more.rows.length ? more.next : search.data?.next) != null;
  // What the URL list is: which host and prefix (or every host), which text, how many of how many, in which order.
  const scope = host ? t('queue.scopeHost', { scope: `${host.origin}${under ?? ''}` }) : t('queue.scopeAll');
  const caption = screen.data
    ? t('queue.caption', {
        count: screen.data.matching,
        first: urls.length < screen.data.matching ? t('queue.first', { n: formatInt(urls.length) }) : '',
        n: formatInt(screen.data.matching),
        scope,
        containing: appliedText ? t('queue.containing', { text: appliedText }) : '',
        choose: host ? '' : t('queue.chooseForPrefixes'),
      })
    : '';

  return (
    <section className="panel analysis-panel queue-view" aria-label={t('queue.label')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('queue.title')}</h2>
        <span className="panel-note" data-testid="queue-total" data-value={hosts.data?.queued}>
          {hosts.data
            ? t('queue.total', { count: hosts.data.total, n: formatInt(hosts.data.queued), hosts: formatInt(hosts.data.total) })
            : ''}
          {hosts.data && live && <span className="queue-read">{t('queue.readAt', { time: readAt })}</span>}
          {!live && hasCrawl ? t('queue.notRunning') : ''}
        </span>
        {outcome && (
          <span
            className="queue-outcome"
            data-testid="queue-exclude-result"
            data-dropped={'dropped' in outcome ? outcome.dropped : undefined}
            data-moved={'moved' in outcome ? outcome.moved : undefined}
            data-error={'error' in outcome || undefined}
          >
            {'dropped' in outcome
              ? t('queue.excluded', { count: outcome.dropped, pattern: outcome.pattern, n: formatInt(outcome.dropped) })
              : 'moved' in outcome
                ? t('queue.deprioritised', { count: outcome.moved, pattern: outcome.pattern, n: formatInt(outcome.moved) })
                : outcome.error}
          </span>
        )}
      </div>
      {!hasCrawl && <div className="analysis-empty">{t('queue.noCrawl')}</div>}
      {hasCrawl && (
        <div className="queue-body">
          <div className="queue-col">
            <h3 className="col-title">{t('queue.hosts')}</h3>
            <ul className="pick-list" data-testid="queue-hosts">
              {(hosts.data?.rows ?? []).map((h) => (
                <li key={h.host_id}>
                  <button
                    type="button"
                    className="pick"
                    data-host={h.origin}
                    aria-pressed={host?.host_id === h.host_id}
                    onClick={() => {
                      setHost(host?.host_id === h.host_id ? null : h);
                      setUnder(null);
                    }}
                  >
                    <span className="pick-label">{h.origin}</span>
                    <span className="count-badge">{formatInt(h.queued)}</span>
                  </button>
                </li>
              ))}
            </ul>
            {hosts.data?.rows.length === 0 && <div className="analysis-empty">{t('queue.nothingQueued')}</div>}
            {hosts.error && <div className="analysis-error">{hosts.error}</div>}
          </div>
          <div className="queue-col">
            <h3 className="col-title">
              {t('queue.prefixes')}
              {under !== null && (
                <button type="button" className="btn btn-small btn-quiet" onClick={() => setUnder(null)}>
                  {t('queue.allOf', { origin: host?.origin })}
                </button>
              )}
            </h3>
            {host === null && <div className="analysis-empty">{t('queue.chooseHost')}</div>}
            <ul className="pick-list" data-testid="queue-prefixes">
              {host !== null &&
                (prefixes.data?.groups ?? []).map((g) => (
                  <li
                    key={g.prefix}
                    className="prefix-row"
                    data-deprioritised={g.deprioritised ? (g.deprioritised >= g.count ? 'all' : 'some') : undefined}
                  >
                    <button
                      type="button"
                      className="pick"
                      data-prefix={g.prefix}
                      aria-pressed={under === g.prefix}
                      onClick={() => setUnder(g.prefix)}
                      title={t('queue.showPrefix')}
                    >
                      <span className="pick-label">{g.prefix}</span>
                      {g.deprioritised ? (
                        <span
                          className="later-tag"
                          data-testid="prefix-later"
                          title={t('queue.laterTitle', { n: formatInt(g.deprioritised), total: formatInt(g.count) })}
                        >
                          {g.deprioritised >= g.count ? t('queue.laterAll') : t('queue.laterSome', { n: formatInt(g.deprioritised) })}
                        </span>
                      ) : null}
                      <span className="count-badge">{formatInt(g.count)}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-small"
                      data-exclude-prefix={g.prefix}
                      disabled={!live}
                      title={t('queue.excludeTitle', { pattern: prefixPattern(host.origin, g.prefix) })}
                      onClick={() => void exclude(prefixPattern(host.origin, g.prefix))}
                    >
                      {t('queue.exclude')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-quiet"
                      data-deprioritise-prefix={g.prefix}
                      disabled={!live}
                      title={t('queue.laterButtonTitle', { pattern: prefixPattern(host.origin, g.prefix) })}
                      onClick={() => void pushBack(prefixPattern(host.origin, g.prefix))}
                    >
                      {t('queue.later')}
                    </button>
                  </li>
                ))}
            </ul>
            {prefixes.data?.truncated && <div className="panel-note">{t('queue.truncated')}</div>}
          </div>
          <div className="queue-col queue-urls">
            <div className="queue-search">
              <input
                className="filter"
                type="search"
                placeholder={host ? t('queue.searchHost', { scope: `${host.origin}${under ?? ''}` }) : t('queue.searchAll')}
                aria-label={t('queue.searchLabel')}
                data-testid="queue-search"
                spellCheck={false}
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
              />
              <button
                type="button"
                className="btn"
                data-testid="queue-exclude-search"
                disabled={!live || text.trim() === ''}
                title={t('queue.excludeSearchTitle')}
                onClick={() => void exclude(searchPattern(text.trim()))}
              >
                {t('queue.excludeSearch')}
              </button>
            </div>
            {caption && (
              <div className="queue-caption" data-testid="queue-urls-caption" data-matching={screen.data?.matching}>
                {caption}
              </div>
            )}
            <ul className="url-list" data-testid="queue-urls">
              {urls.map((u) => (
                <li key={u.url_id} data-queued-url={u.url} data-later={u.later || undefined}>
                  <span className="link-url">{u.url}</span>
                  <span className="link-note">
                    {u.later ? t('queue.urlLater') : ''}
                    {t('queue.depth', { depth: u.depth })}
                    {u.kind !== 'page' ? ` · ${u.kind}` : ''}
                    {u.attempts > 0 ? t('queue.attempts', { count: u.attempts }) : ''}
                  </span>
                </li>
              ))}
            </ul>
            {search.data && urls.length === 0 && <div className="analysis-empty">{t('queue.noMatch')}</div>}
            {hasMore && (
              <button type="button" className="btn btn-small" onClick={() => void loadMore()}>
                {t('queue.more')}
              </button>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
