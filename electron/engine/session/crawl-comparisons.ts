// The comparison of two crawl files the session was asked about last, kept open for its pages and its export while
// the same two files (and word threshold) are asked about.
import path from 'node:path';
import type { CompareQuery } from '../../../shared/analysis.ts';
import { MessageError } from '../../../shared/messages.ts';
import { CrawlComparison } from '../analysis/compare.ts';

export class CrawlComparisons {
  private last: { key: string; comparison: CrawlComparison } | null = null;

  /** The comparison of the query's two files (absolute paths, checked by the host). */
  of(query: CompareQuery): CrawlComparison {
    const oldFile = path.resolve(query.oldFile);
    const newFile = path.resolve(query.newFile);
    if (oldFile === newFile) throw new MessageError('compareSame');
    const key = JSON.stringify([oldFile, newFile, query.wordThresholdPercent]);
    if (this.last?.key !== key) {
      this.close();
      this.last = { key, comparison: CrawlComparison.open(oldFile, newFile, { wordThreshold: { percent: query.wordThresholdPercent } }) };
    }
    return this.last.comparison;
  }

  close(): void {
    this.last?.comparison.close();
    this.last = null;
  }
}
