// What the store's views and a node's crawl paths ask PostgreSQL, captured as they run, and each statement's plan
// (issue 19.3): pg-views-bench.ts prints them at a million URLs, test/postgres/query-plans.test.ts fails when one of
// them reads a big table whole. Capturing the statements the code really sends (pg's Client.query wrapped while a
// `capture` runs) checks the queries themselves, not copies of them that could drift.
import { createRequire } from 'node:module';
import pg from 'pg';
import { PG_SYNTHETIC_ORIGIN } from '../engine/analysis/pg-synthetic-crawl.ts';
import { postgresHostsReport } from '../engine/analysis/hosts-report.ts';
import { postgresFilterCounts, postgresQueryFiltered, postgresUrlDetail } from '../engine/analysis/pg-explorer.ts';
import type { ChartKind, ExplorerQuery, FilterId } from '../../shared/analysis.ts';
import { postgresChartData } from '../engine/analysis/charts-data.ts';
import { postgresSiteStructure } from '../engine/analysis/site-structure.ts';
import { postgresQueueHosts, postgresQueuePrefixes, postgresQueueScreen, postgresQueueSearch } from '../engine/analysis/queue-inspector.ts';
import type { PageRecord } from '../engine/frontier/frontier-store.ts';
import type { Claim } from '../engine/frontier/model.ts';
import { clusterCounts, readClusterSnapshot } from '../engine/frontier/postgres/pg-control.ts';
import { joinPgCrawl, type PgNode } from '../engine/frontier/postgres/pg-crawl.ts';
import { fetchedPage } from '../../test/helpers/page-result.ts';

/** pg's own conversion of a JavaScript value to the text PostgreSQL reads (arrays as array literals). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (v: unknown) => string | null };
const literal = (v: unknown) => {
  const text = prepareValue(v);
  return text === null ? 'NULL' : pg.escapeLiteral(text);
};

/** One statement as sent: its text, values, and whether it was a named prepared statement (the frontier's). */
export interface Sent {
  text: string;
  values: unknown[];
  prepared: boolean;
}

/** The tables a plan must never read whole: they grow with the crawl. */
export const BIG_TABLES = ['urls', 'results', 'links'] as const;

/** The statements that read or write rows (not transaction control, DDL, notifications or locks). */
const DATA = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;
const CONTROL = /^\s*SELECT (pg_notify|pg_advisory|1\b)/i;

/** Runs `work` while every pg Client's queries are noted; returns the distinct data statements sent (last values kept). */
export async function capture(work: () => Promise<void>): Promise<Sent[]> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const seen = new Map<string, Sent>();
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const config =
      typeof first === 'string' ? { text: first, values: second } : (first as { text?: string; values?: unknown; name?: string });
    if (
      typeof config?.text === 'string' &&
      DATA.test(config.text) &&
      !CONTROL.test(config.text) &&
      // One statement: no semicolon but a last one, outside quoted text (the media type's SQL splits at ';').
      !/;\s*\S/.test(
        config.text
          .replace(/'(?:[^']|'')*'/g, "''")
          .trim()
          .replace(/;\s*$/, ''),
      )
    ) {
      const values = Array.isArray(config.values) ? (config.values as unknown[]) : [];
      // Prepared once (by a node's connection) is what matters, whichever client sent it last.
      const prepared = (typeof first === 'object' && !!(first as { name?: string }).name) || !!seen.get(config.text)?.prepared;
      seen.set(config.text, { text: config.text, values, prepared });
    }
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return [...seen.values()];
}

/** A plan node as EXPLAIN (FORMAT JSON) gives it, with what the checks read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  /** The rows the planner expects the node to give. */
  'Plan Rows': number;
  Filter?: string;
  'Actual Total Time'?: number;
  'Actual Rows'?: number;
  'Total Cost'?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan, depth first. */
function nodesOf(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(node);
  for (const child of node.Plans ?? []) nodesOf(child, out);
  return out;
}

export interface Checked {
  sent: Sent;
  /** Sequential scans of BIG_TABLES in the plan (custom or, for a prepared statement, generic). */
  seqScans: string[];
  /** The scans the plan makes: "Index Scan urls_queue on urls", "Seq Scan on hosts"... */
  scans: string[];
  /** With ANALYZE: the statement's execution time (ms). */
  ms: number | null;
  /** The plan as text (with ANALYZE and BUFFERS when asked). */
  text: string;
  /** The plan's nodes, depth first (custom plan). */
  nodes: PlanNode[];
  /** For a prepared statement: the generic plan's scans (what PostgreSQL may switch to after five executions). */
  genericScans: string[] | null;
}

const scanOf = (n: PlanNode) =>
  `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}`;
const isScan = (n: PlanNode) => /Scan$/.test(n['Node Type']) && n['Relation Name'] !== undefined;
const bigSeqScans = (nodes: PlanNode[]) =>
  nodes.filter((n) => n['Node Type'] === 'Seq Scan' && (BIG_TABLES as readonly string[]).includes(n['Relation Name'] ?? '')).map(scanOf);

/**
 * Each statement's plan on `c` (with `searchPath`, as the frontier's connection has), each in a transaction rolled
 * back, so writes explained with ANALYZE change nothing. `analyze`: run them (EXPLAIN ANALYZE, BUFFERS) for times.
 */
export async function checkPlans(
  c: pg.Client,
  sent: readonly Sent[],
  options: { searchPath: string; analyze: boolean },
): Promise<Checked[]> {
  const out: Checked[] = [];
  for (const s of sent) {
    await c.query('BEGIN');
    try {
      await c.query(`SET LOCAL search_path TO ${options.searchPath}, public`);
      const opts = options.analyze ? 'ANALYZE, BUFFERS, ' : '';
      const { rows } = await c.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time'?: number }] }>(
        `EXPLAIN (${opts}FORMAT JSON) ${s.text}`,
        s.values,
      );
      const root = rows[0]!['QUERY PLAN'][0];
      const nodes = nodesOf(root.Plan);
      await c.query('ROLLBACK');
      await c.query('BEGIN');
      await c.query(`SET LOCAL search_path TO ${options.searchPath}, public`);
      const { rows: textRows } = await c.query<{ 'QUERY PLAN': string }>(`EXPLAIN (${opts}COSTS OFF) ${s.text}`, s.values);
      await c.query('ROLLBACK');
      let genericScans: string[] | null = null;
      let genericSeq: string[] = [];
      if (s.prepared && s.values.length) {
        // What a prepared statement may be run with after its fifth execution: the plan without its values.
        await c.query('BEGIN');
        await c.query(`SET LOCAL search_path TO ${options.searchPath}, public`);
        await c.query('SET LOCAL plan_cache_mode = force_generic_plan');
        await c.query(`PREPARE trawl_plan_check AS ${s.text}`);
        try {
          // EXECUTE's arguments are not parameters of the statement around it: the values go in as literals.
          const { rows: g } = await c.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
            `EXPLAIN (FORMAT JSON) EXECUTE trawl_plan_check(${s.values.map(literal).join(', ')})`,
          );
          const gNodes = nodesOf(g[0]!['QUERY PLAN'][0].Plan);
          genericScans = gNodes.filter(isScan).map(scanOf);
          genericSeq = bigSeqScans(gNodes).map((x) => `${x} (generic plan)`);
        } finally {
          await c.query('ROLLBACK');
          await c.query('DEALLOCATE trawl_plan_check'); // a prepared statement outlives its transaction
        }
      }
      out.push({
        sent: s,
        seqScans: [...bigSeqScans(nodes), ...genericSeq],
        scans: nodes.filter(isScan).map(scanOf),
        ms: root['Execution Time'] ?? null,
        text: textRows.map((r) => r['QUERY PLAN']).join('\n'),
        nodes,
        genericScans,
      });
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw new Error(`cannot explain ${s.text.slice(0, 200)}: ${(err as Error).message}`);
    }
  }
  return out;
}

/** A statement in one line, shortened, for reports. */
export function oneLine(text: string, max = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/**
 * The views' reads as the workbench makes them (first pages, and a few other windows and filters) of a synthetic
 * crawl (pg-synthetic-crawl.ts): `smallHost` is a host with a short queue.
 */
export function viewCalls(client: pg.Client, crawlId: string, smallHost: number): [string, () => Promise<unknown>][] {
  return [
    ['hostsReport (by crawled, first 100)', () => postgresHostsReport(client, crawlId)],
    ['hostsReport by origin, text "host-1"', () => postgresHostsReport(client, crawlId, { sort: 'origin', text: 'host-1' })],
    ['hostsReport by queued, offset 1000', () => postgresHostsReport(client, crawlId, { sort: 'queued', offset: 1000 })],
    ['queueHosts (first 100)', () => postgresQueueHosts(client, crawlId)],
    ['queuePrefixes main site (1 segment)', () => postgresQueuePrefixes(client, crawlId, { hostId: 1 })],
    ['queuePrefixes main site (2 segments)', () => postgresQueuePrefixes(client, crawlId, { hostId: 1, segments: 2 })],
    ['queuePrefixes main site under /docs/', () => postgresQueuePrefixes(client, crawlId, { hostId: 1, segments: 2, under: '/docs/' })],
    [`queuePrefixes a small host (${smallHost})`, () => postgresQueuePrefixes(client, crawlId, { hostId: smallHost })],
    ['queueSearch (no text, first 100)', () => postgresQueueSearch(client, crawlId, { limit: 100 })],
    ['queueSearch "page-99996" (rare)', () => postgresQueueSearch(client, crawlId, { text: 'page-99996', limit: 100 })],
    ['queueSearch "/docs/" (common)', () => postgresQueueSearch(client, crawlId, { text: '/docs/', limit: 100 })],
    ['queueSearch main site under /docs/', () => postgresQueueSearch(client, crawlId, { hostId: 1, under: '/docs/', limit: 100 })],
    ['queueScreen (no host)', () => postgresQueueScreen(client, crawlId, { hostId: null, under: null, text: '', limit: 100 })],
    ['queueScreen main site', () => postgresQueueScreen(client, crawlId, { hostId: 1, under: null, text: '', limit: 100 })],
    [
      'queueScreen main site under /docs/',
      () => postgresQueueScreen(client, crawlId, { hostId: 1, under: '/docs/', text: '', limit: 100 }),
    ],
    [
      'queueScreen, text "page-99996"',
      () => postgresQueueScreen(client, crawlId, { hostId: null, under: null, text: 'page-99996', limit: 100 }),
    ],
    ["clusterCounts (the controller's counts, every snapshot)", () => clusterCounts(client, crawlId, Date.now())],
    ['readClusterSnapshot (counts, nodes, registry)', () => readClusterSnapshot(client, crawlId, 'bench')],
  ];
}

/**
 * The charts and the site structure on the store (h-charts), as a view first asks for them: each chart whole (every
 * results row counted, from results_charts alone), and the folder tree's first fold (every URL of the crawl, a page
 * of ids at a time, each page two index ranges merged) with the hosts and a folder expanded.
 */
export function chartCalls(client: pg.Client, crawlId: string): [string, () => Promise<unknown>][] {
  const chart = (kind: ChartKind) => () => postgresChartData(client, crawlId, { kind, afterSeq: null, fromMs: null, bucketMs: null });
  return [
    ['chart: status codes (whole)', chart('status')],
    ['chart: depths (whole)', chart('depth')],
    ['chart: response times (whole)', chart('response-time')],
    ['chart: pages over time (whole)', chart('over-time')],
    ['site structure: the hosts (the first fold)', () => postgresSiteStructure(client, crawlId, { paths: [], limit: 50 })],
    [
      'site structure: the main site and /docs/ expanded',
      () => postgresSiteStructure(client, crawlId, { paths: [`${PG_SYNTHETIC_ORIGIN}/`, `${PG_SYNTHETIC_ORIGIN}/docs/`], limit: 50 }),
    ],
  ];
}

/**
 * What a live view asks once a node has recorded pages (after chartCalls, on the same client): each chart's rows
 * after `afterSeq`, pages over time from `fromMs` (the last bucket shown), and the folder tree's rows since its fold.
 */
export function liveChartCalls(client: pg.Client, crawlId: string, afterSeq: number, fromMs: number): [string, () => Promise<unknown>][] {
  const since = (kind: ChartKind) => () => postgresChartData(client, crawlId, { kind, afterSeq, fromMs: null, bucketMs: null });
  return [
    ['chart: status codes since a seq', since('status')],
    ['chart: depths since a seq', since('depth')],
    ['chart: response times since a seq', since('response-time')],
    [
      'chart: pages over time from its last bucket',
      () => postgresChartData(client, crawlId, { kind: 'over-time', afterSeq: null, fromMs, bucketMs: 1000 }),
    ],
    ['site structure: the rows since its fold', () => postgresSiteStructure(client, crawlId, { paths: [], limit: 50 })],
  ];
}

/**
 * The explorer's reads on the store (issue 19.1), timed by the bench only: its counts are whole passes over the
 * results by design (the badges of every filter at once, as on a crawl file), so the plan test's rule against reading
 * a big table whole does not apply to them. First pages of a few filters, sorts and a search, and one URL's detail.
 */
export function explorerCalls(client: pg.Client, crawlId: string): [string, () => Promise<unknown>][] {
  const page =
    (filter: FilterId, more: Partial<ExplorerQuery> = {}) =>
    () =>
      postgresQueryFiltered(client, crawlId, { filter, text: '', sort: 'seq', descending: false, offset: 0, limit: 100, ...more });
  return [
    ['explorer: every filter\u2019s count (the badges)', () => postgresFilterCounts(client, crawlId)],
    ['explorer: all, first 100', page('all')],
    ['explorer: status-4xx, first 100', page('status-4xx')],
    ['explorer: non-indexable, first 100', page('non-indexable')],
    ['explorer: h1-missing, first 100', page('h1-missing')],
    ['explorer: title-duplicate, first 100', page('title-duplicate')],
    ['explorer: all by URL, first 100', page('all', { sort: 'url' })],
    ['explorer: all by crawl depth, descending', page('all', { sort: 'crawl_depth', descending: true })],
    ['explorer: all by response time, descending', page('all', { sort: 'response_time_ms', descending: true })],
    ['explorer: all, text "page-99996"', page('all', { text: 'page-99996' })],
    ['URL detail of the home page', () => postgresUrlDetail(client, crawlId, { url: `${PG_SYNTHETIC_ORIGIN}/` })],
  ];
}

let fresh = 0;
/** A fetched page of a synthetic crawl of `urls` URLs, leading to 4 new URLs and 4 known ones of the main site. */
export function recordOf(claim: Extract<Claim, { kind: 'page' }>, urls: number): PageRecord {
  const links: string[] = [];
  for (let k = 0; k < 4; k++) links.push(`${PG_SYNTHETIC_ORIGIN}/new/${process.pid}/n-${fresh++}`);
  for (let k = 0; k < 4; k++)
    links.push(`${PG_SYNTHETIC_ORIGIN}/docs/g${(claim.urlId * 3 + k) % 97}/page-${(claim.urlId * 7 + k * 2) % urls}`);
  const result = fetchedPage(claim.url, links, { inScope: () => true, extra: { title: `Recorded ${claim.urlId}` } });
  return { claim, result, now: Date.now() };
}

/**
 * A node's paths through the crawl: it joins (leases, heartbeat), claims 25 pages, records them with their links,
 * asks when a host is next ready, and deprioritises a pattern (the queue inspector's "Later"). Returns the node,
 * still joined: close its store.
 */
export async function crawlPaths(storeUrl: string, crawlId: string, urls: number): Promise<PgNode> {
  const node = await joinPgCrawl(storeUrl, crawlId, { name: `plans-${process.pid}` });
  const claims = (await node.store.claim(25)).filter((c): c is Extract<Claim, { kind: 'page' }> => c.kind === 'page');
  await node.store.recordPages(claims.map((c) => recordOf(c, urls)));
  await node.store.nextReadyAt();
  await node.store.deprioritise('/never-matches-anything-\\d+/');
  return node;
}
