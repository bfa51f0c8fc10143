// The issues overview (renderer/src/analysis/OverviewView.tsx) in English. The issues' own names and sentences are
// shared/issues.ts's (the CSV export and the CLI write them); the interface names them here by id.
import { type IssueId, ISSUES } from '../../../../shared/issues.ts';

type IssueTexts = Record<IssueId, { label: string; why: string; fix: string }>;

export const overview = {
  label: 'issues overview',
  title: 'Issues',
  summary_one: '{{n}} issue found',
  summary_other: '{{n}} issues found',
  live: 'updating while the crawl runs',
  export: 'Export CSV',
  exportXlsx: 'Export XLSX',
  exporting: 'Exporting…',
  noCrawl: 'Start a crawl or open an earlier one to see its issues.',
  none: 'No issues found.',
  tableLabel: 'issues found',
  columns: { issue: 'Issue', type: 'Type', priority: 'Priority', urls: 'URLs', why: 'Why it matters', fix: 'How to fix' },
  priority: { high: 'High', medium: 'Medium', low: 'Low' },
  type: { issue: 'Issue', warning: 'Warning', opportunity: 'Opportunity' },
  open: 'Open in the explorer: {{filter}}',
  issues: Object.fromEntries(ISSUES.map((i) => [i.id, { label: i.label, why: i.why, fix: i.fix }])) as IssueTexts,
};
