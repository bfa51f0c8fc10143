// The web console's downloads: a command of the table with a `download` route answers with a check (so a refusal
// reads as a message in the page, not as a broken download), then the browser fetches the route, which checks its
// query exactly as the command's arguments (the same schema, the same crawl-name rules) before the status line.
import type http from 'node:http';
import path from 'node:path';
import { COMMANDS } from '../../shared/commands.ts';
import type { DownloadCommandName } from '../../shared/commands.ts';
import { parseCommandArgs } from '../../shared/command-args.ts';
import type { CommandArgs } from '../../shared/command-args.ts';
import type { ExportFormat } from '../../shared/analysis.ts';
import { clusterCrawlOf } from '../../shared/comparison.ts';
import type { ExportResult } from '../../shared/crawler-api.ts';
import type { CrawlSession } from '../engine/session/crawl-session.ts';
import { CRAWL_FILE_EXT } from '../engine/session/crawl-session.ts';
import type { Handler } from '../host/command-handlers.ts';
import { text } from './access.ts';
import type { CrawlNames } from './crawl-names.ts';

type Args<K extends DownloadCommandName> = CommandArgs<K>;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** One download: its check, and (for the analyst workbench's) how its route reads the arguments and writes the file. */
interface Download<K extends DownloadCommandName> {
  /** Why it cannot be downloaded now (answered as { ok: false }), or null; throws for a crawl name refused. */
  check(...args: Args<K>): Promise<string | null>;
  /** How its route answers; none for the crawl's own CSV, whose route (sendCrawlCsv) takes no arguments. */
  route?: {
    /** Reads the route's query back into the command's raw arguments (the table's `download.query`, inverted). */
    argsOf(query: URLSearchParams): unknown[];
    /** The downloaded file's name, before it is made safe, from the arguments as the client sent them. */
    fileName(...args: Args<K>): string;
    /** The file's format, from the arguments: CSV unless they ask for XLSX. */
    format?(...args: Args<K>): ExportFormat;
    /** A file that is neither CSV nor XLSX: its extension and content type (the format is then not asked). */
    file?: { extension: string; contentType: string };
    write(out: NodeJS.WritableStream, ...args: Args<K>): Promise<{ ok: boolean }>;
  };
}

export interface Downloads {
  /** The web console's handlers of the download commands: the check only, the browser does the writing. */
  handlers: { [K in DownloadCommandName]: Handler<K> };
  /** Answers the request if `pathname` is a download route; false otherwise. */
  serve(
    pathname: string,
    query: URLSearchParams,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    headers: http.OutgoingHttpHeaders,
  ): Promise<boolean>;
}

/** `?key=` as JSON, or an Error naming what is wrong with it. */
function jsonParam(query: URLSearchParams, key: string): unknown {
  const raw = query.get(key);
  if (raw === null) throw new Error(`?${key}= is missing`);
  try {
    return JSON.parse(raw);
  } catch {
    throw new Error(`?${key}= is not JSON`);
  }
}

/** `?format=`, when given, as the command's last argument (the table's `download.query` leaves it out for CSV). */
function formatArg(query: URLSearchParams): string[] {
  const format = query.get('format');
  return format === null ? [] : [format];
}

export function createDownloads(session: CrawlSession, names: CrawlNames): Downloads {
  /** The crawl in view in a download's name: a crawl file's stem, or cluster-<id> for a crawl in the store. */
  const crawlName = () => {
    const attached = session.attachedStore();
    return attached ? `cluster-${attached.crawlId}` : path.basename(session.currentFile() ?? 'crawl', CRAWL_FILE_EXT);
  };

  const downloads: { [K in DownloadCommandName]: Download<K> } = {
    exportCsv: { check: async () => session.exportProblem() },
    exportChartCsv: {
      check: async () => session.chartExportProblem(),
      route: {
        argsOf: (query) => [query.get('kind'), ...formatArg(query)],
        fileName: (kind) => `${crawlName()}-${kind}`,
        format: (_kind, format) => format ?? 'csv',
        write: (out, kind, format) => session.exportChartCsv(kind, out, format),
      },
    },
    exportView: {
      check: async (view) => session.viewExportProblem(view),
      route: {
        argsOf: (query) => [jsonParam(query, 'view')],
        fileName: (view) => `${crawlName()}-${view.filter}`,
        format: (view) => view.format ?? 'csv',
        write: (out, view) => session.exportView(view, out),
      },
    },
    exportOverview: {
      check: async () => session.overviewExportProblem(),
      route: {
        argsOf: (query) => formatArg(query),
        fileName: () => `${crawlName()}-issues`,
        format: (format) => format ?? 'csv',
        write: (out, format) => session.exportOverview(out, format),
      },
    },
    exportComparison: {
      // Opens both files (their names resolved already): a name that is not a crawl is refused here, before the
      // download starts.
      check: async (query) => (await session.compareCrawls(query), null),
      route: {
        argsOf: (query) => [jsonParam(query, 'query'), ...formatArg(query)],
        fileName: (q) => `compare-${comparedName(q.oldFile)}-${comparedName(q.newFile)}`,
        format: (_q, format) => format ?? 'csv',
        write: (out, query, format) => session.exportComparison(query, out, format),
      },
    },
    exportBulkReport: {
      check: async () => session.bulkReportProblem(),
      route: {
        argsOf: (query) => [query.get('report'), ...formatArg(query)],
        fileName: (report) => `${crawlName()}-${report}`,
        format: (_report, format) => format ?? 'csv',
        write: (out, report, format) => session.exportBulkReport(report, out, format),
      },
    },
    exportSitemap: {
      // Refused before the download starts when the sitemap would not fit in one file.
      check: async () => session.sitemapDownloadProblem(),
      route: {
        argsOf: () => [],
        fileName: () => `${crawlName()}-sitemap`,
        file: { extension: 'xml', contentType: 'application/xml; charset=utf-8' },
        write: (out) => session.exportSitemap(out),
      },
    },
    exportStructureCsv: {
      check: async () => session.chartExportProblem(),
      route: {
        argsOf: () => [],
        fileName: () => `${crawlName()}-structure`,
        write: (out) => session.exportStructureCsv(out),
      },
    },
  };

  const commandNames = Object.keys(downloads) as DownloadCommandName[];
  const ok: ExportResult = { ok: true, rows: null, file: null };
  const handlers = {} as Record<DownloadCommandName, (...args: never[]) => Promise<ExportResult>>;
  for (const name of commandNames) {
    const check = downloads[name].check as (...args: unknown[]) => Promise<string | null>;
    handlers[name] = async (...args: unknown[]) => {
      const problem = await check(...args);
      return problem ? { ok: false, error: problem } : ok;
    };
  }

  /** The crawl in view as CSV (or, with ?format=xlsx, XLSX): refused with a 404 when nothing is in view. */
  async function sendCrawlCsv(
    query: URLSearchParams,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    headers: http.OutgoingHttpHeaders,
  ): Promise<void> {
    let format: ExportFormat;
    try {
      format = parseCommandArgs('exportCsv', formatArg(query))[0] ?? 'csv';
    } catch (err) {
      return text(res, 400, `${names.publicMessage(err)}\n`, headers);
    }
    const current = session.currentFile();
    const attached = session.attachedStore();
    if (current === null && attached === null) return text(res, 404, 'No crawl is open: start or open a crawl first.\n', headers);
    const name = crawlName().replace(/[^A-Za-z0-9._-]+/g, '_') || 'crawl';
    res.writeHead(200, {
      ...headers,
      'Content-Type': CONTENT_TYPES[format],
      'Content-Disposition': `attachment; filename="${name}.${format}"`,
      'Cache-Control': 'no-store',
    });
    if (req.method === 'HEAD') return void res.end();
    const result = await session.exportCsv(res, format);
    // The status line is gone already; a failed export can only cut the download short, which the browser shows.
    if (!result.ok) res.destroy();
  }

  /** One of the analyst workbench's downloads; a refusal is a plain 400. */
  async function sendRouted<K extends DownloadCommandName>(
    name: K,
    query: URLSearchParams,
    req: http.IncomingMessage,
    res: http.ServerResponse,
    headers: http.OutgoingHttpHeaders,
  ): Promise<void> {
    const download = downloads[name] as unknown as Download<K>;
    const route = download.route!;
    let args: Args<K>;
    let fileName: string;
    let format: ExportFormat = 'csv';
    try {
      const sent = parseCommandArgs(name, route.argsOf(query));
      args = names.resolveArgs(name, sent) as Args<K>;
      const problem = await download.check(...args);
      if (problem) throw new Error(problem);
      fileName = route.fileName(...sent);
      format = route.format?.(...sent) ?? 'csv';
    } catch (err) {
      return text(res, 400, `${names.publicMessage(err)}\n`, headers);
    }
    const extension = route.file?.extension ?? format;
    res.writeHead(200, {
      ...headers,
      'Content-Type': route.file?.contentType ?? CONTENT_TYPES[format],
      'Content-Disposition': `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 150) || 'trawl'}.${extension}"`,
      'Cache-Control': 'no-store',
    });
    if (req.method === 'HEAD') return void res.end();
    const result = await route.write(res, ...args);
    if (!result.ok) res.destroy();
  }

  return {
    handlers: handlers as Downloads['handlers'],
    async serve(pathname, query, req, res, headers) {
      if (pathname === COMMANDS.exportCsv.download.path) {
        await sendCrawlCsv(query, req, res, headers);
        return true;
      }
      const name = commandNames.find((n) => downloads[n].route && COMMANDS[n].download.path === pathname);
      if (name === undefined) return false;
      await sendRouted(name, query, req, res, headers);
      return true;
    },
  };
}

/** A compared crawl in a download's name: a crawl file's stem, or cluster-<id> for a crawl in the store. */
function comparedName(ref: string): string {
  const crawlId = clusterCrawlOf(ref);
  return crawlId === null ? path.basename(ref, CRAWL_FILE_EXT) : `cluster-${crawlId}`;
}
