// Earlier crawls in the crawls folder: open one to look at its results, or resume one that still has URLs queued.
import { useCallback, useEffect, useState } from 'react';
import type { CrawlFileInfo } from '../../../shared/crawler-api.ts';
import { fileName, formatInt, formatWhen, hostOf } from '../format.ts';
import { notify, showCrawl } from '../store/crawl-store.ts';
import { isLiveState } from '../store/crawl-view.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useCommand } from './use-command.ts';

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

  const refresh = useCallback(async () => {
    setLoading(true);
    const list = await command('List crawls', () => api.listCrawls());
    setLoading(false);
    if (list) setCrawls(list);
  }, [api, command]);

  // Reload when a crawl starts or finishes, and when the connection comes back.
  useEffect(() => {
    if (connected) void refresh();
  }, [refresh, finishedKey, connected]);

  /** `file` null: the desktop app asks which file (a dialog); the web console only opens crawls from its list. */
  const open = async (file: string | null) => {
    setWorking(file ?? '');
    const info = await command('Open crawl', () => api.openCrawl(file));
    setWorking(null);
    if (info) showCrawl(store, info.file, info);
  };

  const resume = async (file: string) => {
    setWorking(file);
    const result = await command('Resume crawl', () => api.resumeCrawl(file));
    setWorking(null);
    if (!result) return;
    if (result.ok) showCrawl(store, result.file, null);
    else notify(store, 'error', `Resume crawl: ${result.problems.map((p) => p.message).join('; ')}`);
  };

  const remove = async (file: string) => {
    if (armed !== file) {
      setArmed(file);
      return;
    }
    setArmed(null);
    setWorking(file);
    const left = await command('Delete crawl', () => api.deleteCrawl(file));
    setWorking(null);
    if (left) {
      setCrawls(left);
      notify(store, 'info', `Deleted ${fileName(file)}`);
    }
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
    <section className="panel crawl-list" aria-label="earlier crawls">
      <div className="panel-bar">
        <h2 className="panel-title">Earlier crawls</h2>
        <div className="panel-actions">
          <button
            type="button"
            className="btn btn-quiet btn-small"
            data-testid="open-file"
            disabled={live || working !== null}
            title="Open a crawl file from disk"
            onClick={() => void open(null)}
          >
            Open file…
          </button>
          <button type="button" className="btn btn-quiet btn-small" onClick={() => void refresh()} disabled={loading}>
            {loading ? 'Loading…' : 'Refresh'}
          </button>
        </div>
      </div>
      {earlier === null ? (
        <p className="list-empty">{loading ? 'Loading…' : 'Not loaded yet.'}</p>
      ) : earlier.length === 0 ? (
        <p className="list-empty">
          {(crawls ?? []).length > 0 ? 'No earlier crawls: the crawl running is the live view.' : 'No crawls yet.'}
        </p>
      ) : (
        <ul className="crawls">
          {earlier.map((c) => {
            const first = c.seeds[0] ?? '';
            const current = shown !== null && (shown === c.file || fileName(shown) === fileName(c.file));
            return (
              <li key={c.file} className="crawl-item" data-crawl-file={c.file} data-current={current || undefined}>
                <div className="crawl-item-main">
                  <div className="crawl-item-host" title={c.seeds.join('\n')}>
                    {hostOf(first) || fileName(c.file)}
                    {c.seeds.length > 1 && <span className="crawl-item-more"> +{c.seeds.length - 1}</span>}
                  </div>
                  <div className="crawl-item-meta" title={c.file}>
                    <span>{formatWhen(c.createdAt)}</span>
                    <span className="crawl-item-state" data-state={c.state}>
                      {c.finishReason ?? (c.state === 'finished' ? c.state : 'interrupted')}
                    </span>
                  </div>
                  <div className="crawl-item-meta">
                    <span>{formatInt(c.crawled)} crawled</span>
                    {c.queued > 0 && <span>{formatInt(c.queued)} queued</span>}
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
                    {current ? 'Shown' : 'Open'}
                  </button>
                  {c.queued > 0 && (
                    <button
                      type="button"
                      className="btn btn-small"
                      data-testid="resume-crawl"
                      disabled={live || working !== null}
                      onClick={() => void resume(c.file)}
                    >
                      Resume
                    </button>
                  )}
                  <button
                    type="button"
                    className={armed === c.file ? 'btn btn-small btn-danger' : 'btn btn-small btn-quiet'}
                    data-testid="delete-crawl"
                    disabled={(live && current) || working !== null}
                    title={armed === c.file ? 'Press again to delete this crawl file' : 'Delete this crawl file'}
                    onClick={() => void remove(c.file)}
                  >
                    {armed === c.file ? 'Delete?' : 'Delete'}
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
