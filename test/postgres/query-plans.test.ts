// The PostgreSQL store's plans (issue 19.3): every statement the views (hosts report, queue inspector, the
// controller's counts) and a node's crawl paths (claim, discover, record, leases, live patterns) send, captured as
// they run on a generated crawl, is explained there; none may read urls, results or links whole. Without timing:
// a plan that scans is what took a view from milliseconds to seconds at a million URLs (BENCHMARKS.md, "PostgreSQL
// store at a million URLs"). The crawl is small (30,000 URLs) but analysed, and at that size PostgreSQL already
// prefers an index wherever it will at a million: a query it reads whole here it reads whole there. Prepared
// statements (the frontier's) are also checked with their generic plan, which PostgreSQL may switch to after five runs.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildPgSyntheticCrawl } from '../../electron/engine/analysis/pg-synthetic-crawl.ts';
import { createPgCrawl, joinPgCrawl } from '../../electron/engine/frontier/postgres/pg-crawl.ts';
import {
  CANONICAL_SELF_INDEX,
  CANONICAL_SELF_INDEX_DDL,
  CANONICAL_SELF_TRIGGER,
  crawlSchema,
  TEXT_COUNTS_TABLE,
} from '../../electron/engine/frontier/postgres/pg-schema.ts';
import { parseSettings } from '../../shared/settings.ts';
import type { FilterId } from '../../shared/analysis.ts';
import {
  capture,
  chartCalls,
  checkPlans,
  crawlPaths,
  liveChartCalls,
  oneLine,
  viewCalls,
  type Checked,
} from '../../electron/bench/pg-plans.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';
import { postgresFilterCounts, postgresQueryFiltered } from '../../electron/engine/analysis/pg-explorer.ts';
import { queryClusterResults } from '../../electron/engine/session/cluster-results.ts';
import {
  keepLinkScoreOrder,
  orderedLinkScores,
  readyKeptLinkScores,
  refreshStoreLinkScores,
} from '../../electron/engine/analysis/pg-link-score.ts';
import { CONTENT_TYPE_MAX, ERROR_TEXT_MAX, PAGE_TEXT_MAX } from '../../shared/stored-text.ts';
import { fetchedPage } from '../helpers/page-result.ts';

const withPg = await pgSuite();
const URLS = 30_000;

withPg.describe('query plans on the PostgreSQL store', () => {
  let db: FreshDatabase;
  let client: pg.Client;
  let plans: Checked[];

  beforeAll(async () => {
    db = await freshDatabase('query_plans');
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await buildPgSyntheticCrawl(client, 'plans', { urls: URLS });
    const { rows } = await client.query<{ id: string }>(
      `SELECT id FROM ${crawlSchema('plans')}.hosts WHERE queued > 0 ORDER BY queued DESC LIMIT 1 OFFSET 5`,
    );
    const views = [...viewCalls(client, 'plans', Number(rows[0]!.id)), ...chartCalls(client, 'plans')];
    // The live charts and tree after the node's batch: the rows after the last seq before it, and its fetch times.
    const { rows: last } = await client.query<{ seq: string }>(`SELECT coalesce(max(seq), 0) AS seq FROM ${crawlSchema('plans')}.results`);
    const live = liveChartCalls(client, 'plans', Number(last[0]!.seq), Date.now() - 60_000);
    let node: Awaited<ReturnType<typeof crawlPaths>> | null = null;
    const sent = await capture(async () => {
      for (const [, view] of views) await view();
      node = await crawlPaths(db.url, 'plans', URLS);
    });
    // Captured apart: a live update sends some of the same statements as a whole chart (pages over time, from a
    // later time), and a capture keeps each statement's last values.
    sent.push(
      ...(await capture(async () => {
        for (const [, view] of live) await view();
      })),
    );
    await (node as Awaited<ReturnType<typeof crawlPaths>> | null)?.store.close();
    plans = await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false });
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  it('captures the statements of every view and crawl path', () => {
    const texts = plans.map((p) => p.sent.text);
    const has = (re: RegExp) => texts.some((t) => re.test(t));
    // The hosts report, the queue's hosts, prefixes and search, the controller's counts.
    expect(has(/FROM trawl_plans\.hosts WHERE \(queued > 0 OR in_flight > 0/)).toBe(true);
    expect(has(/WITH q AS (MATERIALIZED )?\(/)).toBe(true);
    expect(has(/ORDER BY u\.host_id, u\.id LIMIT/)).toBe(true);
    expect(has(/FROM trawl_plans\.results WHERE fetched_at > \$1/)).toBe(true);
    // A node's claim, discovery, recording and the pattern it applies to the queue.
    expect(has(/FROM urls WHERE host_id = \$1 AND state = 0\s+ORDER BY priority, id/)).toBe(true);
    expect(has(/INSERT INTO urls \(url, host_id/)).toBe(true);
    expect(has(/INSERT INTO results/)).toBe(true);
    expect(has(/INSERT INTO links/)).toBe(true);
    expect(has(/FROM trawl_plans\.urls WHERE state = 0/)).toBe(true);
  });

  it("reads a host's queue, the queue searched for text and the queue a pattern is matched against from the queue index alone", () => {
    // The queue inspector's statements: queued URLs scattered over the whole urls table, read through the heap,
    // took 0.3-0.8 s a statement at a million URLs; the queue index carries what they show (a count may read the
    // claim order's, as narrow and as complete).
    // A live pattern ("Later", an exclude) reads the whole queue too, 5,000 URLs at a time.
    const queueReads = plans.filter((p) => /FROM trawl_plans\.urls\b/.test(p.sent.text) && /state = 0\b/.test(p.sent.text));
    expect(queueReads.length).toBeGreaterThanOrEqual(9);
    expect(queueReads.some((p) => /^SELECT id, host_id, url FROM/.test(p.sent.text))).toBe(true);
    const notIndexOnly = queueReads
      .filter((p) => !p.scans.every((s) => !s.endsWith(' on urls') || /^Index Only Scan urls_(queue_rows|claim_order) on urls$/.test(s)))
      .map((p) => `${p.scans.join(', ')}: ${oneLine(p.sent.text)}`);
    expect(notIndexOnly).toEqual([]);
  });

  it("groups a host's queue by prefix computing each step's strings once per URL", () => {
    // PostgreSQL inlines a CTE used once: the path, then its first and second slash, were copied into each other and
    // into the grouping key, dozens of strpos/substr calls per URL (0.7 s for 50,000 URLs at a million).
    const grouping = plans.filter((p) => /^\s*WITH q AS/.test(p.sent.text));
    expect(grouping.length).toBeGreaterThanOrEqual(2);
    for (const p of grouping) expect(p.text.match(/strpos\(/g)?.length ?? 0).toBeLessThanOrEqual(6);
  });

  it('counts whole charts from results_charts alone, and reads live updates and the folder tree by key', () => {
    const of = (re: RegExp) => plans.filter((p) => re.test(oneLine(p.sent.text, 10_000)));
    // Each chart whole: every results row counted from the index that carries them (the table holds the response
    // headers: half a gigabyte at a million URLs); pages over time picks its buckets from results_fetched_at's ends.
    const byTime = (p: Checked) => /r\.fetched_at >= \$1/.test(p.sent.text);
    const counted = of(/^SELECT .* FROM results r WHERE (r\.fetched_at >= \$1 AND )?r\.seq <= \$\d( GROUP BY|$)/);
    const whole = counted.filter((p) => !byTime(p) || p.sent.values[0] === -1);
    expect(whole.length).toBe(5);
    // The status chart reads the narrower results_status_seq, which holds both its columns (0.28 s against 0.54 s
    // through results_charts at a million URLs).
    for (const p of whole.filter((x) => !/min\(r\.fetched_at\)/.test(x.sent.text)))
      expect({ sql: oneLine(p.sent.text), scans: p.scans }).toEqual({
        sql: oneLine(p.sent.text),
        scans: [`Index Only Scan ${/GROUP BY r\.status_code/.test(p.sent.text) ? 'results_status_seq' : 'results_charts'} on results`],
      });
    // Pages over time from the last bucket shown: that time on, by results_fetched_at.
    const fromLast = counted.filter((p) => byTime(p) && p.sent.values[0] !== -1);
    expect(fromLast.length).toBe(2);
    for (const p of fromLast) expect(new Set(p.scans)).toEqual(new Set(['Index Scan results_fetched_at on results']));
    // The other live updates: the rows after a seq, by key (the primary key, or a narrow index, keyed by seq too).
    const bySeq = /^Index Scan results_(pkey|narrow|descriptions) on results$/;
    const since = of(/FROM results r WHERE r\.seq > \$1 AND r\.seq <= \$2/);
    expect(since.length).toBe(3);
    for (const p of since) {
      expect(p.scans.length, oneLine(p.sent.text)).toBe(1);
      expect(p.scans[0], oneLine(p.sent.text)).toMatch(bySeq);
    }
    // The folder tree's rows since its fold: those rows, each URL by key.
    const [rowsSince] = of(/^SELECT r\.seq, u\.url, .* WHERE r\.seq > \$1 AND r\.seq <= \$2/);
    expect(rowsSince!.scans.length).toBe(2);
    expect(rowsSince!.scans[0]).toMatch(bySeq);
    expect(rowsSince!.scans[1]).toBe('Index Scan urls_pkey on urls');
    // The folder tree's first fold: urls and results_charts merged in URL id order, a page at a time.
    const [fold] = of(/^SELECT u\.id, u\.url, .* ORDER BY u\.id LIMIT \$3$/);
    expect(fold!.scans).toEqual(['Index Scan urls_pkey on urls', 'Index Only Scan results_charts on results']);
    expect(fold!.text).toMatch(/Merge Join/);
    expect(fold!.text).toMatch(/Index Cond: \(url_id > /);
    // Up to which seq every row is there: the sequence and the lock table, never the results.
    for (const p of of(/results_seq_seq|FROM pg_locks/)) expect(p.scans.filter((x) => x.endsWith(' on results'))).toEqual([]);
  });

  it('reads urls, results and links only through an index', () => {
    const scanning = plans.filter((p) => p.seqScans.length > 0).map((p) => `${p.seqScans.join(', ')}: ${oneLine(p.sent.text)}`);
    expect(scanning).toEqual([]);
  });

  it("finds a page's duplicate title or description from the hash index, never reading results whole", async () => {
    // Grouping 800,000 titles that no index orders took the title-duplicate filter's first page 5 s at a million URLs.
    const sent = await capture(async () => {
      // The second page of one row, so each total is counted (a page that tells its total, short of its limit, or an
      // empty first page, is not).
      for (const filter of ['title-duplicate', 'description-duplicate'] as const)
        await postgresQueryFiltered(client, 'plans', { filter, text: '', sort: 'seq', descending: false, offset: 1, limit: 1 });
    });
    const checked = await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false });
    const reads = checked.filter((p) => /_hash = ANY\(ARRAY\(/.test(p.sent.text));
    // Each filter's count and its page's keys.
    expect(reads.length).toBe(4);
    for (const p of reads) {
      expect(p.seqScans, oneLine(p.sent.text)).toEqual([]);
      expect(
        p.scans
          .filter((s) => s.endsWith(' on results'))
          .every((s) => /^Index Only Scan results_(title|description)_hash on results$/.test(s)),
        p.scans.join(', '),
      ).toBe(true);
      // The duplicated hashes come from their counts' partial index (grouping the hash index took 281-294 ms at a
      // million URLs, twice a page), or a bitmap of it while the counts' visibility map is not set yet (a Bitmap
      // Index Scan names no table).
      expect(
        p.scans.filter((s) => !s.endsWith(' on results')),
        oneLine(p.sent.text),
      ).toEqual([
        expect.stringMatching(/^(Index Only Scan (title|description)_counts_dup|Bitmap Heap Scan) on (title|description)_counts$/),
      ]);
    }
  });

  /** The statements of the canonical filters' first pages (each counted: the second page of one row). */
  const canonicalReads = async (filters: readonly FilterId[], pattern: RegExp) => {
    const sent = await capture(async () => {
      for (const filter of filters)
        await postgresQueryFiltered(client, 'plans', { filter, text: '', sort: 'seq', descending: false, offset: 1, limit: 1 });
    });
    const checked = await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false });
    const reads = checked.filter((p) =>
      new RegExp(`^SELECT (count\\(\\*\\) AS total|r\\.seq AS k) FROM results r\\b.*${pattern.source}`).test(p.sent.text),
    );
    // Each filter's count and its page's keys.
    expect(reads.map((p) => oneLine(p.sent.text, 80))).toHaveLength(2 * filters.length);
    return reads;
  };
  const CANONICAL_FILTERS = ['canonical-self', 'canonical-elsewhere', 'canonical-missing', 'canonical-non-indexable'] as const;

  it("answers the canonical filters from the canonical's kind each row's node recorded, and its index alone", async () => {
    // Compared with the page's own URL, the count of canonical-self and canonical-elsewhere took 0.5-0.9 s at a million
    // URLs, canonical-non-indexable's 0.26 s; from results_canonical_self 7-35 ms. canonical-missing read each row.
    const reads = await canonicalReads(CANONICAL_FILTERS, /\br\.canonical_self (= [01]\b|IS NULL)/);
    const fromLinks = reads.filter((p) => / IN \(SELECT cl\.from_id /.test(p.sent.text));
    expect(fromLinks).toHaveLength(2);
    for (const p of reads) {
      expect(p.sent.text, 'no URL is read').not.toMatch(/\burls\b/);
      expect(p.seqScans, oneLine(p.sent.text)).toEqual([]);
      // The pages' rows from the index alone (those canonicalised to non-indexable URLs come from the canonical links;
      // the first page of those without one, most parsed pages, may as well walk the rows in seq order).
      const missingKeys = p.sent.text.startsWith('SELECT r.seq AS k') && /canonical_self IS NULL/.test(p.sent.text);
      if (!fromLinks.includes(p) && !missingKeys)
        expect(
          p.scans.filter((scan) => / on results$/.test(scan)),
          oneLine(p.sent.text),
        ).toEqual(['Index Only Scan results_canonical_self on results']);
    }
    for (const p of fromLinks) expect(p.scans, oneLine(p.sent.text)).toContain('Index Only Scan links_canonical on links');
    // The badges' canonical pass (0.7-0.8 s at a million URLs when it joined every parsed page's URL): the index alone.
    const sent = await capture(async () => {
      await postgresFilterCounts(client, 'plans', ['canonical-self']);
    });
    const [pass] = (await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false })).filter((p) =>
      /"canonical-self"/.test(p.sent.text),
    );
    expect(pass, 'the pass is asked').toBeDefined();
    expect(pass!.sent.text, 'no URL is read').not.toMatch(/\burls\b/);
    expect(pass!.seqScans, oneLine(pass!.sent.text)).toEqual([]);
    expect(pass!.scans, oneLine(pass!.sent.text)).toContain('Index Only Scan results_canonical_self on results');
  });

  it("counts the canonical filters' pages with their URLs joined on a crawl made before canonical_self", async () => {
    // A look-up a page took the count of canonical-self and canonical-elsewhere 1.2-1.6 s at a million URLs, and the
    // first page of canonical-non-indexable, which checked every parsed page, 1.3-1.4 s.
    const schema = crawlSchema('plans');
    await client.query(`DROP INDEX ${schema}.${CANONICAL_SELF_INDEX}`);
    try {
      const reads = await canonicalReads(
        CANONICAL_FILTERS.filter((f) => f !== 'canonical-missing'),
        /\br\.canonical (<>|=) /,
      );
      const counts = reads.filter((p) => p.sent.text.startsWith('SELECT count(*)'));
      const [joined, fromLinks] = [
        counts.filter((p) => !/ IN \(SELECT cl\.from_id /.test(p.sent.text)),
        reads.filter((p) => / IN \(SELECT cl\.from_id /.test(p.sent.text)),
      ];
      expect([joined.length, fromLinks.length]).toEqual([2, 2]);
      for (const p of joined) {
        expect(p.sent.text, 'the count reads the joined URL').toMatch(/ JOIN urls u ON u\.id = r\.url_id .*r\.canonical (=|<>) u\.url\b/);
        expect(p.text, oneLine(p.sent.text)).not.toMatch(/Index (Only )?Scan using urls_pkey on urls cu/);
      }
      for (const p of fromLinks) {
        expect(p.seqScans, oneLine(p.sent.text)).toEqual([]);
        expect(p.scans, oneLine(p.sent.text)).toContain('Index Only Scan links_canonical on links');
      }
    } finally {
      await client.query(`SET search_path TO ${schema}; ${CANONICAL_SELF_INDEX_DDL} RESET search_path`);
    }
  });

  it('counts the HTML filter from the partial index of HTML rows alone', async () => {
    // Computing each row's media type from the narrow index took the count 308-329 ms at a million URLs; 48 ms now.
    const sent = await capture(async () => {
      await postgresQueryFiltered(client, 'plans', { filter: 'html', text: '', sort: 'seq', descending: false, offset: 1, limit: 1 });
    });
    const checked = await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false });
    const count = checked.find((p) => /^SELECT count\(\*\) AS total FROM results r\b/.test(p.sent.text));
    expect(count, 'the count is asked').toBeDefined();
    expect(count!.scans, oneLine(count!.sent.text)).toEqual(['Index Only Scan results_html on results']);
  });

  it('counts broken internal links from the partial indexes of broken rows and checked pages alone', async () => {
    // Read through the status index and each row, and every external URL's row, the count took 0.7-1.1 s at a
    // million URLs.
    let total = 0;
    const sent = await capture(async () => {
      const page = await postgresQueryFiltered(client, 'plans', {
        filter: 'broken-internal',
        text: '',
        sort: 'seq',
        descending: false,
        offset: 1,
        limit: 1,
      });
      total = page.total;
    });
    // The generated crawl has broken pages with inlinks.
    expect(total).toBeGreaterThan(1);
    const checked = await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false });
    const count = checked.find((p) => /^SELECT count\(\*\) AS total FROM results r\b/.test(p.sent.text));
    expect(count, 'the count is asked').toBeDefined();
    expect(count!.seqScans, oneLine(count!.sent.text)).toEqual([]);
    expect(count!.scans, oneLine(count!.sent.text)).toEqual(
      expect.arrayContaining(['Index Only Scan results_broken on results', 'Index Only Scan urls_checked_pages on urls']),
    );
    expect(count!.scans.filter((scan) => / on results$/.test(scan))).toEqual(['Index Only Scan results_broken on results']);
  });

  it('sorts by URL, both ways, walking the index of URLs in order', async () => {
    // Sorting 800,000 results by their URL took the explorer's first page 0.8 s at a million URLs.
    const sent = await capture(async () => {
      for (const descending of [false, true]) {
        await postgresQueryFiltered(client, 'plans', { filter: 'all', text: '', sort: 'url', descending, offset: 0, limit: 100 });
        await queryClusterResults(client, 'plans', { sort: 'url', descending, offset: 0, limit: 100, text: '', statusClass: null });
      }
    });
    const checked = await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false });
    const sorts = checked.filter((p) => /ORDER BY left\(lower\(u\.url\), \d+\) COLLATE "C" (ASC|DESC)/.test(p.sent.text));
    expect(sorts.length).toBe(4);
    for (const p of sorts) {
      expect(p.seqScans, oneLine(p.sent.text)).toEqual([]);
      expect(p.scans, oneLine(p.sent.text)).toContain('Index Scan urls_url_order on urls');
    }
  });

  it('sorts by status, ties by seq, walking results_status_seq', async () => {
    // Keyed by status alone, the first page by status read and sorted every row of the largest status: 0.5-0.7 s at a
    // million URLs.
    const sent = await capture(async () => {
      await postgresQueryFiltered(client, 'plans', {
        filter: 'all',
        text: '',
        sort: 'status_code',
        descending: false,
        offset: 0,
        limit: 100,
      });
      await queryClusterResults(client, 'plans', {
        sort: 'status_code',
        descending: false,
        offset: 0,
        limit: 100,
        text: '',
        statusClass: null,
      });
    });
    const checked = await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false });
    const sorts = checked.filter((p) => /ORDER BY r\.status_code ASC NULLS LAST, r\.seq ASC/.test(p.sent.text));
    expect(sorts.length).toBe(2);
    for (const p of sorts) {
      expect(p.seqScans, oneLine(p.sent.text)).toEqual([]);
      expect(
        p.scans.some((scan) => /^Index (Only )?Scan results_status_seq on results$/.test(scan)),
        `${oneLine(p.sent.text)}: ${p.scans.join(', ')}`,
      ).toBe(true);
      expect(p.text, oneLine(p.sent.text)).not.toMatch(/Sort Key/);
    }
  });

  /** The explorer's first page and the Results table's, sorted by Link Score and unique inlinks, in both directions. */
  const scoreSorts = (c: pg.Client) =>
    capture(async () => {
      for (const descending of [false, true]) {
        await postgresQueryFiltered(c, 'plans', { filter: 'all', text: '', sort: 'link_score', descending, offset: 0, limit: 100 });
        await queryClusterResults(
          c,
          'plans',
          { sort: 'unique_inlinks', descending, offset: 0, limit: 100, text: '', statusClass: null },
          true,
        );
      }
    });

  it('sorts by Link Score kept in the crawl by walking the results in their order, reading no more than the page', async () => {
    // Sorted at 800,000 results, the first 100 took 0.23 s from a copy of the scores (0.7 s to make per connection).
    await refreshStoreLinkScores(client, db.url, 'plans', 'plans-scores', { wait: true }, true);
    expect(await keepLinkScoreOrder(client, 'plans')).toBe(true);
    expect(await readyKeptLinkScores(client, 'plans', 'plans-scores')).toBe('walk');
    expect(orderedLinkScores(client)).not.toBeNull();
    const checked = await checkPlans(client, await scoreSorts(client), { searchPath: crawlSchema('plans'), analyze: false });
    const walks = checked.filter((p) => /WITH s AS MATERIALIZED/.test(p.sent.text));
    expect(walks.length).toBe(4);
    for (const p of walks) {
      expect(
        p.scans.some((scan) => /^Index (Only )?Scan link_scores_order_(score|inlinks)_(up|down) on link_scores_order$/.test(scan)),
        `${oneLine(p.sent.text)}: ${p.scans.join(', ')}`,
      ).toBe(true);
      expect(p.seqScans, oneLine(p.sent.text)).toEqual([]);
      // Only the page's few keys are put in order.
      expect(p.text, oneLine(p.sent.text)).not.toMatch(/Sort Key: lo\./);
    }
  });

  it("sorts by Link Score not kept in order through a join of the scores table, not a look-up of each row's score", async () => {
    // Looked up row by row, then sorted, 800,000 results took 0.8-1.2 s to give their first 100 by Link Score.
    // Kept by a build before they were ordered (or computed for a crawl nodes are adding to): a table of the
    // connection's own (a view of the kept scores is for look-ups), which PostgreSQL sorts.
    const schema = crawlSchema('plans');
    await client.query(`UPDATE ${schema}.link_scores_stamp SET ordered_through = NULL`);
    // A new connection's: the plans are explained where its table of the scores is.
    const copier = new pg.Client({ connectionString: db.url });
    await copier.connect();
    let checked: Checked[];
    try {
      await refreshStoreLinkScores(copier, db.url, 'plans', 'plans-scores', { wait: true }, true);
      expect(orderedLinkScores(copier)).toBeNull();
      checked = await checkPlans(copier, await scoreSorts(copier), { searchPath: schema, analyze: false });
    } finally {
      await copier.end();
    }
    const sorts = checked.filter((p) => /ORDER BY ls\.(link_score|unique_inlinks) (ASC|DESC) NULLS LAST/.test(p.sent.text));
    expect(sorts.length).toBe(4);
    for (const p of sorts) expect(p.text, oneLine(p.sent.text)).toMatch(/Sort Key: ls\.(link_score|unique_inlinks)/);
    // Both sort the keys alone (results from an index, merged or hashed with the scores), then read the page's rows.
    for (const p of sorts) {
      expect(p.sent.text).toMatch(/SELECT r\.seq AS k, ls\.\w+ AS o FROM|^SELECT r\.seq AS k FROM/);
      expect(p.seqScans, oneLine(p.sent.text)).toEqual([]);
    }
  });

  it('sorts the Results table by depth or response time on its keys alone, then reads only the page rows', async () => {
    // Sorted with their URLs and every column, the first 100 of 800,000 results by depth took about 1 s.
    const sent = await capture(async () => {
      for (const sort of ['crawl_depth', 'response_time_ms'] as const) {
        for (const descending of [false, true]) {
          await queryClusterResults(client, 'plans', { sort, descending, offset: 0, limit: 100, text: '', statusClass: null });
        }
      }
    });
    const checked = await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false });
    const sorts = checked.filter((p) => /ORDER BY r\.(crawl_depth|response_time_ms) (ASC|DESC) NULLS LAST/.test(p.sent.text));
    expect(sorts.length).toBe(4);
    for (const p of sorts) {
      expect(p.sent.text).toMatch(/^SELECT .* FROM \(SELECT r\.seq AS k, r\.(crawl_depth|response_time_ms) AS o FROM/s);
      expect(p.seqScans, oneLine(p.sent.text)).toEqual([]);
      // The sort's input is the keys and their column from results_charts, not rows joined with their URLs.
      expect(p.text, oneLine(p.sent.text)).toMatch(
        /Sort Key: r(_\d+)?\.(crawl_depth|response_time_ms)[^\n]*\n\s*->\s+(Parallel )?Index Only Scan using results_charts/,
      );
    }
  });

  /** The explorer's and the Results table's first page of a search for a text few URLs have. */
  const searchRareText = async () => {
    await postgresQueryFiltered(client, 'plans', {
      filter: 'all',
      text: 'Page-2999',
      sort: 'seq',
      descending: false,
      offset: 0,
      limit: 100,
    });
    await queryClusterResults(client, 'plans', {
      sort: 'seq',
      descending: false,
      offset: 0,
      limit: 100,
      text: 'Page-2999',
      statusClass: null,
    });
  };

  it("plans a rare text's search as matching few URLs, and hashes the URLs it matches", async () => {
    // `strpos(lower(url), $1) > 0` was as fast a pass as LIKE, but the planner takes such a condition to match a third
    // of the rows: at a million URLs it no longer hashed the URLs' subquery but scanned the URLs again row after row,
    // and the Results table's first page of a search took 86 s. A LIKE is estimated from its pattern.
    const sent = await capture(searchRareText);
    const checked = await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false });
    const searches = checked.filter((p) => /SELECT id FROM [\w."]*urls WHERE/.test(p.sent.text));
    expect(searches.length).toBeGreaterThanOrEqual(2);
    for (const p of searches) {
      // The URLs' scan in the subquery (the results rows' filter also holds the subquery, which PostgreSQL takes to
      // match half of them whatever the text).
      const urlScans = p.nodes.filter((n) => n['Relation Name'] === 'urls' && n.Filter !== undefined);
      expect(urlScans.length, oneLine(p.sent.text)).toBe(1);
      // A rare term: estimated at well under 1% of the crawl's URLs (a third was the trouble).
      for (const n of urlScans) expect(n['Plan Rows'], `urls: ${n.Filter}`).toBeLessThan(URLS / 100);
      expect(p.text, oneLine(p.sent.text)).toMatch(/hashed SubPlan/);
    }
  });

  it('sorts, searches and counts titles from results_narrow, and counts descriptions from results_descriptions', async () => {
    // The results rows are wide (their response headers): at 800,000 rows these sorts, a search and the badges' passes
    // over titles and descriptions read half a gigabyte of them, where the narrow indexes of what they read are 78 and
    // 61 MB.
    const sorts = ['size_bytes', 'word_count', 'outlinks', 'attempts', 'title', 'content_type'] as const;
    const sent = await capture(async () => {
      for (const sort of sorts) {
        for (const descending of [false, true]) {
          await queryClusterResults(client, 'plans', { sort, descending, offset: 0, limit: 100, text: '', statusClass: null });
        }
        await postgresQueryFiltered(client, 'plans', { filter: 'all', text: '', sort, descending: true, offset: 0, limit: 100 });
      }
      await searchRareText();
      // The badges' passes over the titles and the descriptions, and a first page of a filter of each.
      await postgresFilterCounts(client, 'plans');
      for (const filter of ['title-over-60', 'description-missing'] as const)
        await postgresQueryFiltered(client, 'plans', { filter, text: '', sort: 'seq', descending: false, offset: 0, limit: 100 });
    });
    const checked = await checkPlans(client, sent, { searchPath: crawlSchema('plans'), analyze: false });
    const texts = [
      { index: 'results_narrow', re: /"title-missing"|length\(r\.title\) > 60 ORDER BY/ },
      { index: 'results_descriptions', re: /"description-missing"|r\.meta_description = ''\) ORDER BY/ },
    ];
    for (const { index, re } of texts) {
      const reads = checked.filter((p) => re.test(p.sent.text));
      expect(reads.length, `the pass and the page read from ${index}`).toBe(2);
      for (const p of reads) {
        expect(p.scans, oneLine(p.sent.text)).toContain(`Index Only Scan ${index} on results`);
        expect(
          p.scans.filter((scan) => / on results$/.test(scan) && !/^Index Only Scan/.test(scan)),
          oneLine(p.sent.text),
        ).toEqual([]);
      }
    }
    // Each page's keys: sorted by one of the columns, or searched for the text.
    const keys = checked.filter((p) => /SELECT r\.seq AS k\b/.test(p.sent.text) && !/^SELECT count\(\*\)/.test(p.sent.text));
    const sorted = keys.filter((p) => new RegExp(`ORDER BY (lower\\()?r\\.(${sorts.join('|')})\\b`).test(p.sent.text));
    const searched = keys.filter((p) => /LIKE \$1/.test(p.sent.text));
    expect(sorted.length, 'sorted pages').toBeGreaterThanOrEqual(sorts.length * 2);
    expect(searched.length, 'searched pages').toBe(2);
    for (const p of [...sorted, ...searched]) {
      expect(p.scans, oneLine(p.sent.text)).toContain('Index Only Scan results_narrow on results');
      // No scan of the rows themselves (the search's URLs are read whole: a text can be anywhere in a URL).
      expect(
        p.seqScans.filter((scan) => / on results$/.test(scan)),
        oneLine(p.sent.text),
      ).toEqual([]);
    }
  });

  /** `n` CJK characters in a pseudo-random order: 3 bytes each in UTF-8, which PostgreSQL's compression cannot shrink. */
  const incompressible = (n: number) => {
    let text = '';
    for (let i = 0, x = 2463534242; i < n; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      text += String.fromCharCode(0x4e00 + ((x >>> 0) % 20_000));
    }
    return text;
  };

  it('records a page whose texts are past their bounds, each cut so the narrow indexes hold it', async () => {
    // Three bytes a character, the most a UTF-16 unit takes in UTF-8, and not compressible: uncut, the index entry
    // would pass a btree's 2,704 bytes and the node's whole batch would fail. (An error that is a verdict: a network
    // error is retried.)
    const node = await joinPgCrawl(db.url, 'plans', { name: 'long-texts' });
    try {
      const [claim] = (await node.store.claim(1)).filter((c): c is Extract<typeof c, { kind: 'page' }> => c.kind === 'page');
      const text = incompressible(5000);
      const result = fetchedPage(claim!.url, [], {
        inScope: () => true,
        extra: { title: text, metaDescription: text, error: `invalid response ${text}`, contentType: text },
      });
      await node.store.recordPages([{ claim: claim!, result, now: Date.now() }]);
      const { rows } = await client.query(
        `SELECT length(title) AS title, length(meta_description) AS description, length(error) AS error, length(content_type) AS type
           FROM ${crawlSchema('plans')}.results WHERE url_id = $1`,
        [claim!.urlId],
      );
      expect(rows).toEqual([{ title: PAGE_TEXT_MAX, description: PAGE_TEXT_MAX, error: ERROR_TEXT_MAX, type: CONTENT_TYPE_MAX }]);
    } finally {
      await node.store.close();
    }
  });

  /** The names of the crawl schema `s`'s indexes whose name starts with `prefix`. */
  const indexesLike = async (s: string, prefix: string) =>
    (
      await client.query<{ name: string }>(
        `SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE $2 ORDER BY 1`,
        [s, `${prefix}%`],
      )
    ).rows.map((r) => r.name);

  /**
   * A crawl made as an older Trawl made it (`older` changes its fresh schema `s`), stopped, then joined by a node: what
   * the join's upgrade gives it is left for the test to check. Returns the schema.
   */
  const joinedOlderCrawl = async (host: string, older: (s: string) => Promise<void>) => {
    const first = await createPgCrawl(db.url, parseSettings({ seeds: [`http://${host}/`] }), { name: `made-${host}` });
    await first.store.close();
    const s = crawlSchema(first.crawlId);
    await older(s);
    await client.query(`UPDATE trawl.crawls SET state = 'stopped' WHERE id = $1`, [first.crawlId]);
    const node = await joinPgCrawl(db.url, first.crawlId, { name: `joined-${host}` });
    await node.store.close();
    return s;
  };

  it('gives a crawl made before results_status_seq that index in place of results_status when a node joins it', async () => {
    const s = await joinedOlderCrawl('older-status.test', async (s) => {
      expect(await indexesLike(s, 'results_status')).toEqual(['results_status_seq']);
      await client.query(`DROP INDEX ${s}.results_status_seq; CREATE INDEX results_status ON ${s}.results(status_code)`);
    });
    expect(await indexesLike(s, 'results_status')).toEqual(['results_status_seq']);
  });

  it('gives a crawl made before the queue index carried its rows that index when a node joins it', async () => {
    const s = await joinedOlderCrawl('older.test', async (s) => {
      // The queue index as it was.
      await client.query(`DROP INDEX ${s}.urls_queue_rows; CREATE INDEX urls_queue ON ${s}.urls(host_id, id) WHERE state = 0`);
      expect(await indexesLike(s, 'urls_queue')).toEqual(['urls_queue']);
    });
    expect(await indexesLike(s, 'urls_queue')).toEqual(['urls_queue_rows']);
  });

  it('gives a crawl made before the narrow indexes them when a node joins it, unless a title too long for one keeps it out', async () => {
    const narrow = async (s: string) => [...(await indexesLike(s, 'results_narrow')), ...(await indexesLike(s, 'results_descriptions'))];
    const s = await joinedOlderCrawl('older-narrow.test', async (s) => {
      await client.query(`DROP INDEX ${s}.results_narrow; DROP INDEX ${s}.results_descriptions`);
      expect(await narrow(s)).toEqual([]);
    });
    expect(await narrow(s)).toEqual(['results_narrow', 'results_descriptions']);
    // A crawl recorded before titles were cut: a title of 4,000 characters that do not compress. The node joins, the
    // crawl keeps its title whole, and its sorts and searches read the rows as before.
    const title = incompressible(4000);
    const long = await joinedOlderCrawl('older-long.test', async (s) => {
      await client.query(`DROP INDEX ${s}.results_narrow; DROP INDEX ${s}.results_descriptions`);
      // A page recorded with that title.
      await client.query(
        `WITH h AS (INSERT INTO ${s}.hosts (origin) VALUES ('http://older-long.test') RETURNING id),
           u AS (INSERT INTO ${s}.urls (url, host_id, depth, state, discovered_at) SELECT 'http://older-long.test/', id, 0, 2, 0 FROM h RETURNING id)
         INSERT INTO ${s}.results (url_id, status_code, crawl_depth, title, fetched_at, attempts) SELECT id, 200, 0, $1, 0, 1 FROM u`,
        [title],
      );
    });
    // The index the title does not fit in is left out; the other is made.
    expect(await narrow(long)).toEqual(['results_descriptions']);
    const { rows } = await client.query<{ title: string }>(`SELECT title FROM ${long}.results`);
    expect(rows).toEqual([{ title }]);
  });

  it('gives a crawl made before the broken-link, canonical-link and HTML indexes them when a node joins it', async () => {
    const names = ['results_broken', 'urls_checked_pages', 'links_canonical', 'results_html'];
    const present = async (s: string) => (await Promise.all(names.map((name) => indexesLike(s, name)))).flat();
    const s = await joinedOlderCrawl('older-broken.test', async (s) => {
      await client.query(names.map((name) => `DROP INDEX ${s}.${name};`).join(' '));
      expect(await present(s)).toEqual([]);
    });
    expect(await present(s)).toEqual(names);
  });

  it('gives a crawl made with the hashes before their counts the counts of its rows when a node joins it', async () => {
    const tables = Object.values(TEXT_COUNTS_TABLE);
    const titleCounts = async (s: string) =>
      (
        await client.query<{ title: string; n: number }>(
          `SELECT r.title, c.n FROM ${s}.${TEXT_COUNTS_TABLE.title} c
           JOIN (SELECT DISTINCT title, title_hash FROM ${s}.results) r ON r.title_hash = c.hash ORDER BY 1`,
        )
      ).rows;
    const record = (s: string, titles: string[]) =>
      client.query(
        `WITH u AS (INSERT INTO ${s}.urls (url, host_id, depth, discovered_at, state)
           SELECT 'http://older-counts.test/' || gen_random_uuid(), (SELECT min(id) FROM ${s}.hosts), 1, 0, 2
           FROM unnest($1::text[]) RETURNING id)
         INSERT INTO ${s}.results (url_id, fetched_at, crawl_depth, title, h1_count)
         SELECT u.id, 0, 1, t.title, 1 FROM (SELECT id, row_number() OVER (ORDER BY id) AS i FROM u) u
         JOIN unnest($1::text[]) WITH ORDINALITY AS t(title, i) ON t.i = u.i`,
        [titles],
      );
    const s = await joinedOlderCrawl('older-counts.test', async (s) => {
      await client.query(
        `DROP TRIGGER results_text_counts ON ${s}.results; DROP FUNCTION ${s}.count_text_hashes();
         DROP TABLE ${tables.map((t) => `${s}.${t}`).join(', ')}`,
      );
      await client.query(`INSERT INTO ${s}.hosts (origin) VALUES ('http://older-counts.test') ON CONFLICT DO NOTHING`);
      await record(s, ['Same', 'Same', 'Other']);
      expect(await indexesLike(s, TEXT_COUNTS_TABLE.title)).toEqual([]);
    });
    expect(await indexesLike(s, TEXT_COUNTS_TABLE.title)).toEqual([`${TEXT_COUNTS_TABLE.title}_dup`, `${TEXT_COUNTS_TABLE.title}_pkey`]);
    expect(await titleCounts(s)).toEqual([
      { title: 'Other', n: 1 },
      { title: 'Same', n: 2 },
    ]);
    // And of the rows recorded after.
    await record(s, ['Other']);
    expect(await titleCounts(s)).toEqual([
      { title: 'Other', n: 2 },
      { title: 'Same', n: 2 },
    ]);
  });

  it('sets canonical_self on the rows of a node that leaves it out, and gives a crawl made before that trigger it', async () => {
    const s = await joinedOlderCrawl('older-canonical.test', async (s) => {
      await client.query(`DROP TRIGGER ${CANONICAL_SELF_TRIGGER} ON ${s}.results`);
      await client.query(`INSERT INTO ${s}.hosts (origin) VALUES ('http://older-canonical.test') ON CONFLICT DO NOTHING`);
    });
    // Rows as a node of an older Trawl inserts them (no canonical_self), and one a node marked itself.
    const { rows } = await client.query<{ path: string; self: number | null }>(
      `WITH u AS (INSERT INTO ${s}.urls (url, host_id, depth, discovered_at, state)
         SELECT 'http://older-canonical.test/' || p, (SELECT min(id) FROM ${s}.hosts), 1, 0, 2
         FROM unnest(ARRAY['self', 'elsewhere', 'none', 'marked']) AS p RETURNING id, url),
       r AS (INSERT INTO ${s}.results (url_id, fetched_at, crawl_depth, h1_count, canonical, canonical_self)
         SELECT u.id, 0, 1, 1,
                CASE WHEN u.url LIKE '%/elsewhere' THEN 'http://older-canonical.test/self'
                     WHEN u.url LIKE '%/none' THEN NULL ELSE u.url END,
                CASE WHEN u.url LIKE '%/marked' THEN 0 END
         FROM u RETURNING url_id, canonical_self)
       SELECT substr(u.url, length('http://older-canonical.test/') + 1) AS path, r.canonical_self AS self
       FROM r JOIN u ON u.id = r.url_id ORDER BY 1`,
    );
    expect(rows).toEqual([
      { path: 'elsewhere', self: 0 },
      // What the node said stands.
      { path: 'marked', self: 0 },
      { path: 'none', self: null },
      { path: 'self', self: 1 },
    ]);
  });

  it("gives a crawl made before the charts' index that index when a node joins it", async () => {
    const s = await joinedOlderCrawl('older-charts.test', async (s) => {
      await client.query(`DROP INDEX ${s}.results_charts`);
      expect(await indexesLike(s, 'results_charts')).toEqual([]);
    });
    expect(await indexesLike(s, 'results_charts')).toEqual(['results_charts']);
  });
});
