// Crawl comparison: two crawls from the list (the older first), the counts of URLs added, removed and changed (and
// per field), pages of each list with the changed fields' old and new values, and the whole comparison as CSV.
import { useEffect, useState } from 'react';
import type { CrawlFileInfo } from '../../../shared/crawler-api.ts';
import type { StoreCrawlInfo } from '../../../shared/cluster-store.ts';
import type { ChangeKind, CompareQuery, ComparisonRow, ComparisonSummary, ExportFormat } from '../../../shared/analysis.ts';
import { COMPARED_FIELDS } from '../../../shared/analysis.ts';
import { clusterCrawlOf, clusterCrawlRef } from '../../../shared/comparison.ts';
import type { StoreInfo } from '../../../shared/snapshot.ts';
import { fileName, formatInt, formatWhen } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawl, useCrawlStore } from '../store/context.tsx';
import { useBusyCommand, useCommand } from '../components/use-command.ts';
import { formatArgs, useExportCommand } from '../components/use-export.ts';
import { useStore } from 'zustand';
import { compareRequest, crawlNamed } from './compare-request.ts';
import { i18next, useTranslation } from '../i18n/i18n.ts';
import { hostText } from '../i18n/host-messages.ts';
import { changeLines, fieldLabel, statusText } from './analysis-model.ts';

const ta = i18next.getFixedT(null, 'analysis');

/** A crawl as the pickers name it: its file, when, its first seed and what it crawled. */
export function crawlLabel(c: CrawlFileInfo): string {
  return ta('compare.crawlLabel', {
    when: formatWhen(c.createdAt),
    seed: c.seeds[0] ?? '',
    more: c.seeds.length > 1 ? ` +${c.seeds.length - 1}` : '',
    crawled: formatInt(c.crawled),
    file: fileName(c.file),
  });
}

/** A compared crawl as the summary names it: its file's name, or the cluster crawl's ID. */
export function comparedName(ref: string): string {
  const crawlId = clusterCrawlOf(ref);
  return crawlId === null ? fileName(ref) : ta('compare.clusterName', { id: crawlId });
}

/** The lists of a comparison in the order shown: what changed on the URLs both crawls have first, then added, removed. */
export const SHOWN_KINDS: readonly ChangeKind[] = ['changed', 'added', 'removed'];

/** The list a comparison opens on: the first, in the order shown, with any URL in it; null when nothing changed. */
export function firstKindWithChanges(summary: Pick<ComparisonSummary, ChangeKind>): ChangeKind | null {
  return SHOWN_KINDS.find((k) => summary[k] > 0) ?? null;
}

/** What a comparison found, in a sentence: the view's summary line. */
export function comparisonSentence(s: ComparisonSummary): string {
  if (s.added + s.removed + s.changed === 0) return ta('compare.noDifferences', { count: s.new_urls, n: formatInt(s.new_urls) });
  return ta('compare.sentence', {
    added: formatInt(s.added),
    removed: formatInt(s.removed),
    changed: formatInt(s.changed),
    before: formatInt(s.old_urls),
    after: formatInt(s.new_urls),
  });
}

export function CompareView() {
  const api = useApi();
  const store = useCrawlStore();
  const command = useCommand();
  const connected = useCrawl((s) => s.connection.state === 'connected');
  // A cluster crawl in view is one of the crawls to compare (the host copies it from its store for the comparison).
  const cluster = useCrawl((s) => s.cluster);
  const finishedKey = useCrawl((s) => `${s.crawlKey}:${s.state}`);
  const [crawls, setCrawls] = useState<CrawlFileInfo[]>([]);
  const [oldFile, setOldFile] = useState('');
  const [newFile, setNewFile] = useState('');
  const [threshold, setThreshold] = useState('10');
  const [query, setQuery] = useState<CompareQuery | null>(null);
  const [summary, setSummary] = useState<ComparisonSummary | null>(null);
  const [kind, setKind] = useState<ChangeKind | null>(null);
  const [comparing, runCompare] = useBusyCommand();
  const [exporting, runExport] = useExportCommand();
  const { t } = useTranslation('analysis');

  // With a cluster crawl in view, the other crawls of its store can be compared with it (or with each other).
  const [storeCrawls, setStoreCrawls] = useState<StoreCrawlInfo[]>([]);
  const clusterId = cluster?.crawlId ?? null;
  useEffect(() => {
    setStoreCrawls([]);
    if (!connected || clusterId === null) return;
    void command(t('compare.listStoreCrawls'), () => api.attachedStoreCrawls()).then((list) => {
      if (list) setStoreCrawls(list.crawls.filter((c) => c.id !== clusterId && c.problem === null));
    });
  }, [api, command, connected, clusterId, finishedKey]);

  useEffect(() => {
    if (!connected) return;
    void command(t('compare.listCrawls'), () => api.listCrawls()).then((list) => {
      if (!list) return;
      setCrawls(list);
      // The newest two, older first, unless chosen already.
      setNewFile((f) => f || list[0]?.file || '');
      setOldFile((f) => f || list[1]?.file || '');
    });
  }, [api, command, connected, finishedKey]);

  // A comparison asked for elsewhere (a scheduled run's Compare): its two crawls picked and compared, the list
  // read again first when it does not have them yet (a run that has just finished).
  const asked = useStore(compareRequest, (s) => s.request);
  useEffect(() => {
    if (!asked || !connected) return;
    compareRequest.setState({ request: null });
    void (async () => {
      let list = crawls;
      if (!crawlNamed(list, asked.oldName) || !crawlNamed(list, asked.newName)) {
        const fresh = await command(t('compare.listCrawls'), () => api.listCrawls());
        if (!fresh) return;
        setCrawls(fresh);
        list = fresh;
      }
      const older = crawlNamed(list, asked.oldName);
      const newer = crawlNamed(list, asked.newName);
      if (!older || !newer) return notify(store, 'error', t('compare.askedGone', { file: older ? asked.newName : asked.oldName }));
      setOldFile(older);
      setNewFile(newer);
      await compareFiles(older, newer);
    })();
  }, [asked, connected]);

  const percent = Number(threshold);
  const thresholdOk = threshold.trim() !== '' && Number.isFinite(percent) && percent >= 0;
  const compare = () => compareFiles(oldFile, newFile);
  const compareFiles = async (older: string, newer: string) => {
    const q: CompareQuery = { oldFile: older, newFile: newer, wordThresholdPercent: percent };
    const s = await runCompare(t('compare.command'), () => api.compareCrawls(q));
    if (!s) return;
    setQuery(q);
    setSummary(s);
    setKind(firstKindWithChanges(s));
  };
  const exportAs = async (format: ExportFormat) => {
    if (!query) return;
    const result = await runExport(format, t('compare.exportCommand'), () => api.exportComparison(query, ...formatArgs(format)));
    if (!result) return;
    if (!result.ok)
      notify(store, /cancel/i.test(result.error) ? 'info' : 'error', t('compare.exportFailed', { error: hostText(result.error) }));
    else
      notify(
        store,
        'info',
        result.file
          ? t('compare.exported', { n: formatInt(result.rows ?? 0), file: result.file })
          : t(format === 'xlsx' ? 'compare.xlsxDownloadStarted' : 'compare.downloadStarted'),
      );
  };

  return (
    <section className="panel analysis-panel compare-view" aria-label={t('compare.label')}>
      <div className="panel-bar">
        <h2 className="panel-title">{t('compare.title')}</h2>
        <span className="panel-note">{t('compare.note')}</span>
      </div>
      <div className="compare-form">
        <CrawlPicker
          label={t('compare.older')}
          testId="compare-old"
          crawls={crawls}
          cluster={cluster}
          storeCrawls={storeCrawls}
          value={oldFile}
          onChange={setOldFile}
        />
        <CrawlPicker
          label={t('compare.newer')}
          testId="compare-new"
          crawls={crawls}
          cluster={cluster}
          storeCrawls={storeCrawls}
          value={newFile}
          onChange={setNewFile}
        />
        <label className="field compare-threshold">
          <span className="field-label">{t('compare.threshold')}</span>
          <span className="inline-row">
            <input
              type="number"
              min={0}
              step={1}
              value={threshold}
              aria-invalid={!thresholdOk || undefined}
              onChange={(e) => setThreshold(e.currentTarget.value)}
            />
            %
          </span>
        </label>
        <button
          type="button"
          className="btn btn-primary"
          data-testid="compare-run"
          disabled={comparing || !oldFile || !newFile || oldFile === newFile || !thresholdOk}
          onClick={() => void compare()}
        >
          {comparing ? t('compare.comparing') : t('compare.compare')}
        </button>
        {oldFile !== '' && oldFile === newFile && <span className="field-error">{t('compare.differentCrawls')}</span>}
      </div>
      {summary && query && (
        <>
          <div className="compare-summary" data-testid="compare-summary">
            <Stat label={t('compare.urlsBefore')} title={comparedName(summary.old_file)} value={summary.old_urls} />
            <Stat label={t('compare.urlsAfter')} title={comparedName(summary.new_file)} value={summary.new_urls} />
            {SHOWN_KINDS.map((k) => (
              <button
                key={k}
                type="button"
                className="stat stat-button"
                data-change={k}
                data-value={summary[k]}
                aria-pressed={kind === k}
                onClick={() => setKind(k)}
              >
                <span className="stat-value">{formatInt(summary[k])}</span>
                <span className="stat-label">{t(`compare.kinds.${k}`)}</span>
              </button>
            ))}
            <div className="compare-fields">
              {COMPARED_FIELDS.filter((f) => summary.by_field[f] > 0).map((f) => (
                <span key={f} className="field-chip" data-field={f}>
                  {fieldLabel(f)} {formatInt(summary.by_field[f])}
                </span>
              ))}
            </div>
            <button type="button" className="btn" data-testid="compare-export" disabled={!!exporting} onClick={() => void exportAs('csv')}>
              <span className="icon icon-download" aria-hidden="true" />
              {exporting === 'csv' ? t('compare.exporting') : t('compare.exportCsv')}
            </button>
            <button
              type="button"
              className="btn"
              data-testid="compare-export-xlsx"
              disabled={!!exporting}
              onClick={() => void exportAs('xlsx')}
            >
              <span className="icon icon-download" aria-hidden="true" />
              {exporting === 'xlsx' ? t('compare.exporting') : t('compare.exportXlsx')}
            </button>
          </div>
          {summary.old_seeds[0] && summary.new_seeds[0] && new URL(summary.old_seeds[0]).host !== new URL(summary.new_seeds[0]).host && (
            <div className="analysis-error">{t('compare.differentHosts')}</div>
          )}
          <p className="compare-sentence" data-testid="compare-sentence">
            {comparisonSentence(summary)}
          </p>
          {kind && <ChangeList key={`${JSON.stringify(query)}|${kind}`} query={query} kind={kind} />}
        </>
      )}
    </section>
  );
}

function Stat({ label, title, value }: { label: string; title: string; value: number }) {
  return (
    <div className="stat" title={title}>
      <span className="stat-value">{formatInt(value)}</span>
      <span className="stat-label">{label}</span>
    </div>
  );
}

function ChangeList({ query, kind }: { query: CompareQuery; kind: ChangeKind }) {
  const api = useApi();
  const [rows, setRows] = useState<ComparisonRow[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [busy, run] = useBusyCommand();
  const { t } = useTranslation('analysis');
  const load = async (after: number | null) => {
    const page = await run(t(`compare.listCommand.${kind}`), () => api.comparePage(query, kind, after));
    if (!page) return;
    setRows((r) => (after === null ? page.rows : [...r, ...page.rows]));
    setNext(page.next);
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => void load(null), []);
  return (
    <div className="xtable-scroll">
      <table className="xtable compare-table" data-testid="compare-rows" data-kind={kind}>
        <thead>
          <tr>
            <th className="x-url">{t('compare.url')}</th>
            <th className="x-num">{t('compare.status')}</th>
            <th>{kind === 'changed' ? t('compare.whatChanged') : t('compare.titleColumn')}</th>
            {kind === 'removed' && <th>{t('compare.whyGone')}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const v = r.new ?? r.old;
            return (
              <tr key={r.url} data-compare-url={r.url}>
                <td className="x-url" title={r.url}>
                  {r.url}
                </td>
                <td className="x-num">
                  {kind === 'changed' && r.fields.includes('status_code')
                    ? `${statusText(r.old!.status_code)} → ${statusText(r.new!.status_code)}`
                    : statusText(v?.status_code ?? null)}
                </td>
                <td className="compare-what">
                  {kind === 'changed'
                    ? changeLines(r).map((c) => (
                        <span key={c.field} className="change-line">
                          <b>{c.field}</b> {c.before} → {c.after}
                        </span>
                      ))
                    : (v?.title ?? '')}
                </td>
                {kind === 'removed' && (
                  <td className="compare-reason" data-reason={r.removed_reason ?? undefined}>
                    {r.removed_reason ? t(`compare.removedReasons.${r.removed_reason}`) : ''}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {!busy && rows.length === 0 && <div className="analysis-empty">{t(`compare.none.${kind}`)}</div>}
      {next !== null && (
        <div className="pager">
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void load(next)}>
            {t('compare.more')}
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * One of the two crawls to compare, chosen from the crawls list (and the cluster crawl in view, if any, with the
 * other crawls of its store).
 */
function CrawlPicker({
  label,
  testId,
  crawls,
  cluster,
  storeCrawls,
  value,
  onChange,
}: {
  label: string;
  testId: string;
  crawls: readonly CrawlFileInfo[];
  cluster: StoreInfo | null;
  storeCrawls: readonly StoreCrawlInfo[];
  value: string;
  onChange: (file: string) => void;
}) {
  const { t } = useTranslation('analysis');
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <select data-testid={testId} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{t('compare.chooseCrawl')}</option>
        {cluster && (
          <option value={clusterCrawlRef(cluster.crawlId)}>
            {t('compare.clusterLabel', { id: cluster.crawlId, server: cluster.server })}
          </option>
        )}
        {cluster &&
          storeCrawls.map((c) => (
            <option key={c.id} value={clusterCrawlRef(c.id)}>
              {t('compare.storeCrawlLabel', {
                id: c.id,
                when: formatWhen(c.createdAt),
                seed: c.seeds[0] ?? '',
                server: cluster.server,
              })}
            </option>
          ))}
        {crawls.map((c) => (
          <option key={c.file} value={c.file}>
            {crawlLabel(c)}
          </option>
        ))}
      </select>
    </label>
  );
}
