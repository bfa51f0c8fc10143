// "Export this view": the CSV's columns to write (the standard ones and the crawl's extraction rules, a default set
// ticked) and the header preset, for the explorer's filter and search as they stand.
import { useMemo, useState } from 'react';
import type { ExportFormat, FilterId, HeaderPreset } from '../../../shared/analysis.ts';
import { EXPORT_COLUMNS, exportColumnLabel } from '../../../shared/analysis.ts';
import { formatInt } from '../format.ts';
import { notify } from '../store/crawl-store.ts';
import { useApi, useCrawlStore } from '../store/context.tsx';
import { useBusyCommand } from '../components/use-command.ts';
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

/** The export's column chooser: the CSV's columns and the crawl's extraction rules, and the header preset. */
export function ExportDialog({
  filter,
  text,
  extractionRules,
  onClose,
}: {
  filter: FilterId;
  text: string;
  extractionRules: readonly string[];
  onClose: () => void;
}) {
  const api = useApi();
  const store = useCrawlStore();
  const [busy, run] = useBusyCommand();
  const all = useMemo(() => [...EXPORT_COLUMNS, ...extractionRules], [extractionRules]);
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
    const result = await run('Export this view', () => api.exportView({ filter, text, columns, headerPreset: preset, format }));
    if (!result) return;
    if (!result.ok) notify(store, /cancel/i.test(result.error) ? 'info' : 'error', `Export this view: ${result.error}`);
    else {
      notify(
        store,
        'info',
        result.file
          ? `Exported ${result.rows === null ? 'the' : formatInt(result.rows)} rows to ${result.file}`
          : `The ${format.toUpperCase()} download has started.`,
      );
      onClose();
    }
  };
  return (
    <div className="export-dialog" role="dialog" aria-label="export this view" data-testid="export-dialog">
      <div className="export-head">
        <strong>
          Export “{filterTitle(filter)}”{text ? ` matching “${text}”` : ''}
        </strong>
        <span className="panel-note">{columns.length} columns</span>
        <button type="button" className="btn btn-small btn-quiet" onClick={() => setChosen(new Set(all))}>
          All
        </button>
        <button type="button" className="btn btn-small btn-quiet" onClick={() => setChosen(new Set())}>
          None
        </button>
      </div>
      <div className="export-columns">
        {all.map((c) => (
          <label key={c} className="check" title={`CSV column: ${c}`}>
            <input type="checkbox" data-export-column={c} checked={chosen.has(c)} onChange={() => toggle(c)} />
            <span>{exportColumnLabel(c)}</span>
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
          <span>
            Screaming Frog headers and values (Address, Status Code, Title 1…; response times in seconds; Indexable / Non-Indexable)
          </span>
        </label>
        <label className="check">
          <span>Format</span>
          <select data-testid="export-format" value={format} onChange={(e) => setFormat(e.currentTarget.value as ExportFormat)}>
            <option value="csv">CSV</option>
            <option value="xlsx">XLSX (Excel workbook)</option>
          </select>
        </label>
        <button
          type="button"
          className="btn btn-primary"
          data-testid="export-view"
          disabled={busy || columns.length === 0}
          onClick={() => void doExport()}
        >
          {busy ? 'Exporting…' : `Export ${format.toUpperCase()}`}
        </button>
        <button type="button" className="btn btn-quiet" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  );
}
