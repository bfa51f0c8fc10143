// The exports offered as CSV and as XLSX (the live table's, a chart's, the comparison's): which one is running, for
// its button's "Exporting…", and the format as the export command's last argument.
import { useCallback, useState } from 'react';
import type { ExportFormat } from '../../../shared/analysis.ts';
import { useCommand } from './use-command.ts';

/** The format argument of an export command: none for CSV (its default, so a CSV export is asked as it always was). */
export const formatArgs = (format: ExportFormat): [] | [ExportFormat] => (format === 'csv' ? [] : [format]);

/** useBusyCommand for an export in one of several formats: the format running (null when none) and how to run one. */
export function useExportCommand(): [
  ExportFormat | null,
  <T>(format: ExportFormat, what: string, run: () => Promise<T>) => Promise<T | undefined>,
] {
  const command = useCommand();
  const [running, setRunning] = useState<ExportFormat | null>(null);
  const run = useCallback(
    async <T>(format: ExportFormat, what: string, fn: () => Promise<T>): Promise<T | undefined> => {
      setRunning(format);
      try {
        return await command(what, fn);
      } finally {
        setRunning(null);
      }
    },
    [command],
  );
  return [running, run];
}
