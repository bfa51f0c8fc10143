// The bulk reports (every link to a broken or non-indexable page, every redirect and canonical chain) and the tabs
// an export can name: declared once, for the engine (electron/engine/analysis/bulk-reports.ts), the explorer's menu,
// the web console's downloads and the CLI's --list-tabs / --export-tabs / --bulk-export. The tabs are derived from
// the explorer's filters (RESULT_FILTERS, FILTER_GROUPS), so a filter added there is a tab here too.
// No node:, no electron: the renderer imports this.
import { FILTER_GROUPS, RESULT_FILTERS, type FilterId } from './analysis.ts';

export const BULK_REPORTS = [
  {
    id: 'client-error-inlinks',
    label: 'Response codes:Client error (4xx) inlinks',
    description: 'Every link to a URL that answered 400 to 499: source, target, anchor text, link kind, status.',
  },
  {
    id: 'server-error-inlinks',
    label: 'Response codes:Server error (5xx) inlinks',
    description: 'Every link to a URL that answered 500 to 599: source, target, anchor text, link kind, status.',
  },
  {
    id: 'no-response-inlinks',
    label: 'Response codes:No response inlinks',
    description: 'Every link to a URL that gave no response (network error, timeout, blocked by robots.txt), with why.',
  },
  {
    id: 'redirect-chains',
    label: 'Redirects:Redirect chains',
    description: 'Every chain of HTTP redirects from a URL found as a link or seed: each hop, the final URL and status, loop or not.',
  },
  {
    id: 'canonical-chains',
    label: 'Canonicals:Canonical chains',
    description: 'Pages whose canonical names a page that is canonicalised elsewhere in turn: each hop, the final URL, loop or not.',
  },
  {
    id: 'non-indexable-inlinks',
    label: 'Links:Links to non-indexable pages',
    description: 'Every link to a page a search engine cannot index (noindex, canonicalised, redirected, errors), with why.',
  },
  // Issue 18.3.
  {
    id: 'images-missing-alt',
    label: 'Images:Images missing alt text',
    description:
      'Every use of an image without an alt attribute: the image, the page using it, the alt state, dimensions, and the image\u2019s status and size when the crawl checked images.',
  },
  // Issue 18.4.
  {
    id: 'structured-data-types',
    label: 'Structured data:Schema.org types',
    description: "Each type the pages' JSON-LD, microdata and RDFa name, by format: the pages that use it and the items naming it.",
  },
  // Issue 18.5.
  {
    id: 'hreflang-alternates',
    label: 'Hreflang:All hreflang alternates',
    description:
      'Every hreflang alternate each page names: the page, the language, the target, its status, and what is wrong with it (invalid code, not 200, non-indexable, no return link), with the set\u2019s missing x-default or self-reference.',
  },
] as const satisfies readonly { id: string; label: string; description: string }[];
export type BulkReportId = (typeof BULK_REPORTS)[number]['id'];
export const BULK_REPORT_IDS: readonly BulkReportId[] = BULK_REPORTS.map((r) => r.id);

export function isBulkReportId(id: unknown): id is BulkReportId {
  return typeof id === 'string' && (BULK_REPORT_IDS as readonly string[]).includes(id);
}

/**
 * The pictures' data (issue 18.6): what the site structure, the crawl map and its depth charts save as CSV in the
 * app, which --bulk-export writes too (as CSV whatever --export-format says: they are the pictures' data, not tables
 * of rows to open in a spreadsheet's other format).
 */
export const PICTURE_DATA = [
  {
    id: 'site-structure',
    label: 'Pictures:Site structure',
    description: 'Every folder of every host with its URLs, indexable and non-indexable shares, status classes and crawl depth.',
  },
  {
    id: 'crawl-map',
    label: 'Pictures:Crawl map',
    description: "The crawl map's nodes: each URL or folded group, its parent, depth, status, indexability and Link Score.",
  },
  {
    id: 'depth-charts',
    label: 'Pictures:Inlinks and Link Score by depth',
    description: 'Per crawl depth, the spread of inlinks and of Link Score (least, quartiles, median, most, mean).',
  },
] as const satisfies readonly { id: string; label: string; description: string }[];

export type PictureDataId = (typeof PICTURE_DATA)[number]['id'];

/** A tab an export can name: Trawl's id (the filter's) and its human name, "Group:Label" as Screaming Frog writes them. */
export interface ExportTab {
  id: FilterId;
  name: string;
}

/** Every tab of the explorer, in its order: one per filter, "Response codes:Client error (4xx)". */
export function exportTabs(): ExportTab[] {
  const groups = new Map<string, string>(FILTER_GROUPS.map((g) => [g.id, g.label]));
  return RESULT_FILTERS.map((f) => ({ id: f.id, name: `${groups.get(f.group) ?? f.group}:${f.label}` }));
}

/** A name given for a tab or report, compared as either its id or its human name, case and spacing aside. */
const fold = (name: string) => name.trim().toLowerCase().replace(/\s+/g, ' ');

/** The tab named (by id or human name), or null. */
export function findExportTab(name: string): ExportTab | null {
  const key = fold(name);
  return exportTabs().find((t) => t.id === key || fold(t.name) === key) ?? null;
}

/** The id of the entry of `list` named (by id or label, case and spacing aside), or null. */
function idNamed<Id extends string>(list: readonly { id: Id; label: string }[], name: string): Id | null {
  const key = fold(name);
  return list.find((r) => r.id === key || fold(r.label) === key)?.id ?? null;
}

/** The bulk report named (by id or human name), or null. */
export const findBulkReport = (name: string): BulkReportId | null => idNamed(BULK_REPORTS, name);

/** The pictures' data named (by id or human name), or null. */
export const findPictureData = (name: string): PictureDataId | null => idNamed(PICTURE_DATA, name);
