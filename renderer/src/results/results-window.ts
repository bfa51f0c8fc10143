// The rows of a virtual table (the live results, the explorer), fetched from the host a page at a time as they
// scroll into view, with a small cache. Filtering and sorting happen in SQL on the host; this only asks for
// offset/limit windows of one query.
import type { ResultRow, ResultsQuery } from '../../../shared/crawler-api.ts';

export const PAGE_SIZE = 100;
/** Pages kept (least recently used go first): 40 x 100 rows. */
export const MAX_CACHED_PAGES = 40;
/** Requests out at once; pages scrolled past meanwhile are simply asked for again when they come back into view. */
export const MAX_IN_FLIGHT = 4;

/** A page whose request failed is asked for again after this long at the soonest. */
export const RETRY_AFTER_MS = 2_000;

/** Rows answered while their Link Scores were still being computed are asked for again after this long. */
export const SCORES_PENDING_RETRY_MS = 1_000;

export type QueryFilter = Omit<ResultsQuery, 'offset' | 'limit'>;

const NO_RULES: readonly string[] = [];

/** What the host answers for a window of rows. */
export interface WindowPage<R> {
  total: number;
  rows: R[];
  /** The crawl's extraction rules (a column each), when the query says. */
  extractionRules?: readonly string[];
  /** The rows came without their Link Scores, still being computed: they are asked for again shortly. */
  scoresPending?: boolean;
}

interface Page<R> {
  rows: R[];
  /** The refresh generation the rows are from; older ones are shown until fresher ones arrive. */
  gen: number;
}

export class ResultsWindow<F extends object = QueryFilter, R = ResultRow> {
  /** Rows matching the filter; null until the first page arrives. */
  total: number | null = null;
  error: string | null = null;
  /** The crawl's extraction rules (a column each); the same array until they change. */
  rules: readonly string[] = NO_RULES;
  /** The last rows came without their Link Scores, still being computed (they are asked for again shortly). */
  scoresPending = false;
  private pages = new Map<number, Page<R>>();
  private inFlight = new Map<number, number>();
  /** Pages whose last request failed, and when: not asked for again for a moment. */
  private failedAt = new Map<number, number>();
  private gen = 0;
  private disposed = false;
  /** The refresh due because rows came without their Link Scores (one at a time). */
  private scoresTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly filter: F,
    private readonly fetchPage: (query: F & { offset: number; limit: number }) => Promise<WindowPage<R>>,
    private readonly onChange: () => void,
  ) {}

  /** The row at `index`, if its page is here (possibly from before the last refresh). */
  row(index: number): R | undefined {
    const page = this.pages.get(Math.floor(index / PAGE_SIZE));
    return page?.rows[index % PAGE_SIZE];
  }

  /** Makes sure rows first..last (inclusive) are here or on their way. */
  ensure(first: number, last: number): void {
    if (this.disposed) return;
    const from = Math.max(0, Math.floor(first / PAGE_SIZE));
    let to = Math.max(from, Math.floor(Math.max(first, last) / PAGE_SIZE));
    if (this.total !== null) to = Math.min(to, Math.max(0, Math.ceil(this.total / PAGE_SIZE) - 1));
    for (let p = from; p <= to; p++) {
      const page = this.pages.get(p);
      if (page) {
        // Touch: most recently used last.
        this.pages.delete(p);
        this.pages.set(p, page);
        if (page.gen === this.gen) continue;
      }
      if (this.inFlight.get(p) === this.gen) continue;
      const failed = this.failedAt.get(p);
      if (failed !== undefined && Date.now() - failed < RETRY_AFTER_MS) continue;
      if (this.inFlight.size >= MAX_IN_FLIGHT) return;
      this.load(p);
    }
  }

  /** The data changed (the crawl moved on): rows stay visible, and are fetched again as they are needed. */
  refresh(): void {
    this.gen++;
  }

  dispose(): void {
    this.disposed = true;
    if (this.scoresTimer !== null) clearTimeout(this.scoresTimer);
  }

  /** Pages held, for tests. */
  cachedPages(): number[] {
    return [...this.pages.keys()];
  }

  /** Rows shown without their Link Scores: every page is asked for again in a moment, until they come with them. */
  private refreshForScores(): void {
    if (this.scoresTimer !== null) return;
    this.scoresTimer = setTimeout(() => {
      this.scoresTimer = null;
      if (this.disposed) return;
      this.refresh();
      this.onChange();
    }, SCORES_PENDING_RETRY_MS);
  }

  private load(p: number): void {
    const gen = this.gen;
    this.inFlight.set(p, gen);
    const query = { ...this.filter, offset: p * PAGE_SIZE, limit: PAGE_SIZE };
    this.fetchPage(query).then(
      (res) => {
        if (this.inFlight.get(p) === gen) this.inFlight.delete(p);
        if (this.disposed) return;
        this.failedAt.delete(p);
        const current = this.pages.get(p);
        if (!current || current.gen <= gen) {
          this.pages.delete(p);
          this.pages.set(p, { rows: res.rows, gen });
        }
        if (gen === this.gen || this.total === null) this.total = res.total;
        const rules = res.extractionRules ?? NO_RULES;
        if (rules.length !== this.rules.length || rules.some((r, i) => r !== this.rules[i])) this.rules = rules.length ? rules : NO_RULES;
        this.error = null;
        if (gen === this.gen) this.scoresPending = res.scoresPending === true;
        if (this.scoresPending) this.refreshForScores();
        while (this.pages.size > MAX_CACHED_PAGES) {
          const oldest = this.pages.keys().next().value as number;
          this.pages.delete(oldest);
        }
        this.onChange();
      },
      (err: unknown) => {
        if (this.inFlight.get(p) === gen) this.inFlight.delete(p);
        if (this.disposed) return;
        this.failedAt.set(p, Date.now());
        this.error = err instanceof Error ? err.message : String(err);
        this.onChange();
      },
    );
  }
}
