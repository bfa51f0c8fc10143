// Earlier crawls in the crawls folder: open one to look at its results, or resume one that still has URLs queued;
// name, describe and tag one (kept in its file), schedule it to run again, delete it; search them by name, seed or tag.
import { useCallback, useEffect, useState } from 'react';
import type { CrawlFileInfo } from '../../../shared/crawler-api.ts';
import { crawlMatches, labelProblems, parseTagList } from '../../../shared/crawl-label.ts';
import { crawlSummaryText, problemText } from '../i18n/host-messages.ts';
import { scheduleCrawl } from '../schedules/schedule-draft.ts';
import { fileName, formatInt, formatWhen, hostOf } from '../format.ts';
import { notify, showCrawl } from '../store/crawl-store.ts';
import { isLiveState } from '../store/crawl-view.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useCommand } from './use-command.ts';
import { useTranslation } from '../i18n/i18n.ts';
import { reasonText } from './TopBar.tsx';

export function CrawlList() {
  const api = useApi();
  const store = useCrawlStore();
  const command = useCommand();
  // A cluster crawl in view is not in the way: opening or resuming a local crawl detaches from it.
  const live = useCrawl((s) => isLiveState(s.state) && s.opened === null && s.cluster === null);
  const finishedKey = useCrawl((s) => `${s.crawlKey}:${s.state === 'finished'}`);
  const connected = useCrawl((s) => s.connection.state === 'connected');
  const shown = useCrawl((s) => s.opened?.file ?? s.file);
  const [crawls, setCrawls] = useState<CrawlFileInfo[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [working, setWorking] = useState<string | null>(null);
  /** The crawl whose Delete was pressed once: a second press deletes it (no modal dialog, which a sandboxed page may not show). */
  const [armed, setArmed] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  /** The crawl whose name, description and tags are being edited. */
  const [editing, setEditing] = useState<string | null>(null);
  const { t } = useTranslation('live');

  const refresh = useCallback(async () => {
    setLoading(true);
    const list = await command(t('crawlList.listCrawls'), () => api.listCrawls());
    setLoading(false);
    if (list) setCrawls(list);
  }, [api, command, t]);

  // Reload when a crawl starts or finishes, and when the connection comes back.
  useEffect(() => {
    if (connected) void refresh();
  }, [refresh, finishedKey, connected]);

  /** `file` null: the desktop app asks which file (a dialog); the web console only opens crawls from its list. */
  const open = async (file: string | null) => {
    setWorking(file ?? '');
    const info = await command(t('crawlList.openCrawl'), () => api.openCrawl(file));
    setWorking(null);
    if (info) showCrawl(store, info.file, info);
  };

  const resume = async (file: string) => {
    setWorking(file);
    const result = await command(t('crawlList.resumeCrawl'), () => api.resumeCrawl(file));
    setWorking(null);
    if (!result) return;
    if (result.ok) showCrawl(store, result.file, null);
    else notify(store, 'error', t('crawlList.resumeProblems', { problems: result.problems.map(problemText).join('; ') }));
  };

  const remove = async (file: string) => {
    if (armed !== file) {
      setArmed(file);
      return;
    }
    setArmed(null);
    setWorking(file);
    const left = await command(t('crawlList.deleteCrawl'), () => api.deleteCrawl(file));
    setWorking(null);
    if (left) {
      setCrawls(left);
      notify(store, 'info', t('crawlList.deleted', { file: fileName(file) }));
    }
  };

  const saveLabel = async (file: string, label: { name: string; description: string; tags: string[] }): Promise<boolean> => {
    setWorking(file);
    const info = await command(t('crawlList.saveLabel'), () => api.labelCrawl(file, label));
    setWorking(null);
    if (!info) return false;
    setCrawls((list) => list?.map((c) => (c.file === file ? info : c)) ?? null);
    setEditing(null);
    return true;
  };

  // An armed Delete disarms by itself, so a later stray click does not delete.
  useEffect(() => {
    if (armed === null) return;
    const timer = setTimeout(() => setArmed(null), 4000);
    return () => clearTimeout(timer);
  }, [armed]);

  // The crawl running now is the live view's, not an earlier crawl: it is listed once it is over.
  const isShown = (c: CrawlFileInfo) => shown !== null && (shown === c.file || fileName(shown) === fileName(c.file));
  const earlier = crawls?.filter((c) => !c.running && !(live && isShown(c))) ?? null;

  return (
    <section className="panel crawl-list" aria-label={t('crawlList.panel')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('crawlList.title')}</h2>
        <div className="panel-actions">
          <button
            type="button"
            className="btn btn-quiet btn-small"
            data-testid="open-file"
            disabled={live || working !== null}
            title={t('crawlList.openFileTitle')}
            onClick={() => void open(null)}
          >
            {t('crawlList.openFile')}
          </button>
          <button type="button" className="btn btn-quiet btn-small" onClick={() => void refresh()} disabled={loading}>
            {loading ? t('crawlList.loading') : t('crawlList.refresh')}
          </button>
        </div>
      </div>
      {earlier !== null && earlier.length > 0 && (
        <div className="crawl-search">
          <input
            type="search"
            className="input"
            data-testid="crawl-search"
            aria-label={t('crawlList.searchLabel')}
            placeholder={t('crawlList.searchPlaceholder')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          {query.trim() !== '' && (
            <span className="crawl-search-count" data-testid="crawl-search-count">
              {t('crawlList.matching', { shown: earlier.filter((c) => crawlMatches(c, query)).length, total: earlier.length })}
            </span>
          )}
        </div>
      )}
      {earlier === null ? (
        <p className="list-empty">{loading ? t('crawlList.loading') : t('crawlList.notLoaded')}</p>
      ) : earlier.length === 0 ? (
        <p className="list-empty">{(crawls ?? []).length > 0 ? t('crawlList.runningIsLive') : t('crawlList.noCrawls')}</p>
      ) : (
        <ul className="crawls">
          {earlier.map((c) => {
            const first = c.seeds[0] ?? '';
            const current = shown !== null && (shown === c.file || fileName(shown) === fileName(c.file));
            if (!crawlMatches(c, query)) return null;
            const host = hostOf(first) || fileName(c.file);
            if (editing === c.file) {
              return (
                <li key={c.file} className="crawl-item" data-crawl-file={c.file} data-editing>
                  <LabelEditor
                    crawl={c}
                    busy={working !== null}
                    onSave={(label) => saveLabel(c.file, label)}
                    onCancel={() => setEditing(null)}
                  />
                </li>
              );
            }
            return (
              <li key={c.file} className="crawl-item" data-crawl-file={c.file} data-current={current || undefined}>
                <div className="crawl-item-main">
                  <div className="crawl-item-host" title={c.seeds.join('\n')} data-testid="crawl-name">
                    {c.name || host}
                    {!c.name && c.seeds.length > 1 && <span className="crawl-item-more"> +{c.seeds.length - 1}</span>}
                  </div>
                  {c.name && (
                    <div className="crawl-item-seed" title={c.seeds.join('\n')}>
                      {host}
                      {c.seeds.length > 1 && <span className="crawl-item-more"> +{c.seeds.length - 1}</span>}
                    </div>
                  )}
                  {c.description && (
                    <div className="crawl-item-description" title={c.description}>
                      {c.description}
                    </div>
                  )}
                  {c.summary && (
                    <div className="crawl-item-summary" data-testid="crawl-summary" title={crawlSummaryText(c)}>
                      {crawlSummaryText(c)}
                    </div>
                  )}
                  <div className="crawl-item-meta" title={c.file}>
                    <span>{formatWhen(c.createdAt)}</span>
                    <span className="crawl-item-state" data-state={c.state}>
                      {c.finishReason
                        ? reasonText(c.finishReason)
                        : c.state === 'finished'
                          ? t('stateLower.finished')
                          : t('stateLower.interrupted')}
                    </span>
                  </div>
                  <div className="crawl-item-meta">
                    <span>{t('crawlList.crawled', { n: formatInt(c.crawled) })}</span>
                    {c.failed > 0 && <span>{t('crawlList.failed', { n: formatInt(c.failed) })}</span>}
                    {c.queued > 0 && <span>{t('crawlList.queued', { n: formatInt(c.queued) })}</span>}
                  </div>
                  {c.tags.length > 0 && (
                    <div className="crawl-item-tags">
                      {c.tags.map((tag) => (
                        <button
                          key={tag}
                          type="button"
                          className="crawl-tag"
                          data-testid="crawl-tag"
                          title={t('crawlList.tagTitle', { tag })}
                          onClick={() => setQuery(`#${tag}`)}
                        >
                          {tag}
                        </button>
                      ))}
                    </div>
                  )}
                  <div className="crawl-item-more-actions">
                    <button
                      type="button"
                      className="btn-link"
                      data-testid="edit-crawl"
                      disabled={working !== null}
                      onClick={() => setEditing(c.file)}
                    >
                      {t('crawlList.edit')}
                    </button>
                    <button
                      type="button"
                      className="btn-link"
                      data-testid="schedule-crawl"
                      disabled={working !== null}
                      title={t('crawlList.scheduleTitle')}
                      onClick={() => scheduleCrawl({ file: c.file, title: c.name || host })}
                    >
                      {t('crawlList.schedule')}
                    </button>
                  </div>
                </div>
                <div className="crawl-item-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    data-testid="open-crawl"
                    disabled={live || working !== null || current}
                    onClick={() => void open(c.file)}
                  >
                    {current ? t('crawlList.shown') : t('crawlList.open')}
                  </button>
                  {c.queued > 0 && (
                    <button
                      type="button"
                      className="btn btn-small"
                      data-testid="resume-crawl"
                      disabled={live || working !== null}
                      onClick={() => void resume(c.file)}
                    >
                      {t('crawlList.resume')}
                    </button>
                  )}
                  <button
                    type="button"
                    className={armed === c.file ? 'btn btn-small btn-danger' : 'btn btn-small btn-quiet'}
                    data-testid="delete-crawl"
                    disabled={(live && current) || working !== null}
                    title={armed === c.file ? t('crawlList.deleteArmedTitle') : t('crawlList.deleteTitle')}
                    onClick={() => void remove(c.file)}
                  >
                    {armed === c.file ? t('crawlList.deleteArmed') : t('crawlList.delete')}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The crawl's name, description and tags, edited in place of its list item. */
function LabelEditor({
  crawl,
  busy,
  onSave,
  onCancel,
}: {
  crawl: CrawlFileInfo;
  busy: boolean;
  onSave: (label: { name: string; description: string; tags: string[] }) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(crawl.name);
  const [description, setDescription] = useState(crawl.description);
  const [tags, setTags] = useState(crawl.tags.join(', '));
  const label = { name, description, tags: parseTagList(tags) };
  const problems = labelProblems(label);
  const id = `label-${fileName(crawl.file).replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const { t } = useTranslation('live');
  return (
    <form
      className="label-editor"
      data-testid="label-editor"
      onSubmit={(e) => {
        e.preventDefault();
        if (problems.length === 0) void onSave(label);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <label htmlFor={`${id}-name`}>{t('crawlList.name')}</label>
      <input
        type="text"
        id={`${id}-name`}
        className="input"
        data-testid="label-name"
        placeholder={hostOf(crawl.seeds[0] ?? '')}
        value={name}
        autoFocus
        onChange={(e) => setName(e.target.value)}
      />
      <label htmlFor={`${id}-description`}>{t('crawlList.description')}</label>
      <textarea
        id={`${id}-description`}
        className="input"
        data-testid="label-description"
        rows={2}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      <label htmlFor={`${id}-tags`}>{t('crawlList.tags')}</label>
      <input
        type="text"
        id={`${id}-tags`}
        className="input"
        data-testid="label-tags"
        value={tags}
        onChange={(e) => setTags(e.target.value)}
      />
      {problems.length > 0 && (
        <ul className="form-problems" role="alert">
          {problems.map((p) => (
            <li key={`${p.field}${p.message}`}>
              {t(`crawlList.${p.field}`)}: {problemText(p)}
            </li>
          ))}
        </ul>
      )}
      <div className="label-editor-actions">
        <button type="submit" className="btn btn-small btn-primary" data-testid="label-save" disabled={busy || problems.length > 0}>
          {t('crawlList.save')}
        </button>
        <button type="button" className="btn btn-small btn-quiet" onClick={onCancel}>
          {t('crawlList.cancel')}
        </button>
      </div>
    </form>
  );
}
