// "Export this view": the CSV's columns to write (the standard ones and the crawl's extraction rules, a default set
// ticked) and the header preset, for the explorer's filter and search as they stand.
import { useMemo, useState } from 'react';
import type { ExportFormat, FilterId, HeaderPreset } from '../../../shared/analysis.ts';
import { EXPORT_COLUMN_INFO, EXPORT_COLUMNS, RENDER_EXPORT_COLUMN_INFO, RENDER_EXPORT_COLUMNS } from '../../../shared/analysis.ts';
import { formatInt } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawlStore } from '../store/context.tsx';
import { useBusyCommand } from '../components/use-command.ts';
import { i18next, useTranslation } from '../i18n/i18n.ts';
import { hostText } from '../i18n/host-messages.ts';
import { filterTitle } from './analysis-model.ts';

/** Columns ticked when the export dialog first opens. */
export const DEFAULT_EXPORT_COLUMNS = [
  'url',
  'status_code',
  'indexability',
  'indexability_reason',
  'title',
  'meta_description',
  'h1',
  'canonical',
  'word_count',
  'inlinks',
];

const EXPORT_IDS: ReadonlySet<string> = new Set([...EXPORT_COLUMN_INFO, ...RENDER_EXPORT_COLUMN_INFO].map((c) => c.id));

/** A column as the chooser names it: a standard column by its id (exportColumns), an extraction rule by its name. */
export function exportColumnText(column: string): string {
  return EXPORT_IDS.has(column)
    ? i18next.t(`exportColumns.${column as (typeof EXPORT_COLUMNS)[number] | (typeof RENDER_EXPORT_COLUMNS)[number]}`, { ns: 'analysis' })
    : column;
}

/** The export's column chooser: the CSV's columns and the crawl's extraction rules, and the header preset. */
export function ExportDialog({
  filter,
  text,
  extractionRules,
  rendered = false,
  onClose,
}: {
  filter: FilterId;
  text: string;
  extractionRules: readonly string[];
  /** The crawl rendered pages: its export has the render columns (RENDER_EXPORT_COLUMNS) too. */
  rendered?: boolean;
  onClose: () => void;
}) {
  const api = useApi();
  const store = useCrawlStore();
  const [busy, run] = useBusyCommand();
  const { t } = useTranslation('analysis');
  const all = useMemo(
    () => [...EXPORT_COLUMNS, ...(rendered ? RENDER_EXPORT_COLUMNS : []), ...extractionRules],
    [extractionRules, rendered],
  );
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(DEFAULT_EXPORT_COLUMNS));
  const [preset, setPreset] = useState<HeaderPreset>('trawl');
  const [format, setFormat] = useState<ExportFormat>('csv');
  const columns = all.filter((c) => chosen.has(c));
  const toggle = (c: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(c)) next.delete(c);
      else next.add(c);
      return next;
    });
  const doExport = async () => {
    const result = await run(t('export.command'), () => api.exportView({ filter, text, columns, headerPreset: preset, format }));
    if (!result) return;
    if (!result.ok) notify(store, /cancel/i.test(result.error) ? 'info' : 'error', t('export.failed', { error: hostText(result.error) }));
    else {
      notify(
        store,
        'info',
        result.file
          ? result.rows === null
            ? t('export.exportedAll', { file: result.file })
            : t('export.exported', { n: formatInt(result.rows), file: result.file })
          : t('export.downloadStarted', { format: format.toUpperCase() }),
      );
      onClose();
    }
  };
  return (
    <div className="export-dialog" role="dialog" aria-label={t('export.label')} data-testid="export-dialog">
      <div className="export-head">
        <strong>
          {t('export.heading', { filter: filterTitle(filter) })}
          {text ? t('export.matching', { text }) : ''}
        </strong>
        <span className="panel-note">{t('export.columns', { count: columns.length })}</span>
        <button type="button" className="btn btn-small btn-quiet" onClick={() => setChosen(new Set(all))}>
          {t('export.all')}
        </button>
        <button type="button" className="btn btn-small btn-quiet" onClick={() => setChosen(new Set())}>
          {t('export.none')}
        </button>
      </div>
      <div className="export-columns">
        {all.map((c) => (
          <label key={c} className="check" title={t('export.csvColumn', { column: c })}>
            <input type="checkbox" data-export-column={c} checked={chosen.has(c)} onChange={() => toggle(c)} />
            <span>{exportColumnText(c)}</span>
          </label>
        ))}
      </div>
      <div className="export-actions">
        <label className="check">
          <input
            type="checkbox"
            data-testid="export-sf-headers"
            checked={preset === 'screaming-frog'}
            onChange={(e) => setPreset(e.currentTarget.checked ? 'screaming-frog' : 'trawl')}
          />
          <span>{t('export.sfHeaders')}</span>
        </label>
        <label className="check">
          <span>{t('export.format')}</span>
          <select data-testid="export-format" value={format} onChange={(e) => setFormat(e.currentTarget.value as ExportFormat)}>
            <option value="csv">{t('export.csv')}</option>
            <option value="xlsx">{t('export.xlsx')}</option>
          </select>
        </label>
        <button
          type="button"
          className="btn btn-primary"
          data-testid="export-view"
          disabled={busy || columns.length === 0}
          onClick={() => void doExport()}
        >
          {busy ? t('export.exporting') : t('export.run', { format: format.toUpperCase() })}
        </button>
        <button type="button" className="btn btn-quiet" onClick={onClose}>
          {t('export.cancel')}
        </button>
      </div>
    </div>
  );
}
