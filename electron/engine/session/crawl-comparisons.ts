// The comparison the session was asked about last, kept open for its pages and its export while the same two crawls
// (and word threshold) are asked about. A side is a crawl file (an absolute path, checked by the host) or a crawl of
// the store the session is attached to (clusterCrawlRef), copied for the comparison (analysis/compare-sides.ts).
import path from 'node:path';
import type { CompareQuery } from '../../../shared/analysis.ts';
import { clusterCrawlOf } from '../../../shared/comparison.ts';
import { MessageError } from '../../../shared/messages.ts';
import type { CrawlComparison } from '../analysis/compare.ts';
import { openComparison, type CompareSide } from '../analysis/compare-sides.ts';

export class CrawlComparisons {
  private last: { key: string; comparison: Promise<CrawlComparison> } | null = null;

  /**
   * The comparison of the query's two crawls; `store`: the URL of the store the session is attached to, if any.
   * `fresh`: a cluster crawl is copied again (it may have gone on since), where pages and exports read the copy the
   * comparison's summary was made from.
   */
  async of(query: CompareQuery, store: string | null, fresh = false): Promise<CrawlComparison> {
    const side = (ref: string): CompareSide => {
      const crawlId = clusterCrawlOf(ref);
      if (crawlId === null) return { file: path.resolve(ref) };
      if (store === null) throw new MessageError('compareNoStore');
      return { store, crawlId };
    };
    const [older, newer] = [side(query.oldFile), side(query.newFile)];
    const key = JSON.stringify([older, newer, query.wordThresholdPercent]);
    if (JSON.stringify(older) === JSON.stringify(newer)) throw new MessageError('compareSame');
    const copies = 'store' in older || 'store' in newer;
    if (this.last?.key !== key || (fresh && copies)) {
      this.close();
      // Kept as a promise, so a page asked for while a cluster crawl is being copied waits for that copy.
      // Named as the query names them (a cluster crawl by its reference: the host maps the files' names back).
      const names = { old: 'file' in older ? older.file : query.oldFile, new: 'file' in newer ? newer.file : query.newFile };
      const comparison = openComparison(older, newer, { wordThreshold: { percent: query.wordThresholdPercent }, names });
      this.last = { key, comparison };
      comparison.catch(() => {
        if (this.last?.comparison === comparison) this.last = null;
      });
    }
    return this.last.comparison;
  }

  close(): void {
    void this.last?.comparison.then((c) => c.close()).catch(() => undefined);
    this.last = null;
  }
}
