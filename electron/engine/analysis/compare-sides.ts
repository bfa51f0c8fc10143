// The two crawls of a comparison, each a crawl file or a crawl of a PostgreSQL store. A crawl of the store is copied
// (what a comparison reads of it: store-compare-copy.ts) into a private temporary folder, and the copy is compared as
// a crawl file is; the copies go when the comparison is closed.
import path from 'node:path';
import { serverLabel } from '../frontier/postgres/pg-store-url.ts';
import { temporaryCrawlFolder } from '../frontier/sqlite/crawl-file.ts';
import { CrawlComparison, type WordThreshold } from './compare.ts';
import { copyStoreCrawlForCompare } from './store-compare-copy.ts';

export type CompareSide = { file: string } | { store: string; crawlId: string };

/** How a comparison names a side: its file, or the crawl and its store's server (never the store URL's password). */
export function sideName(side: CompareSide): string {
  return 'file' in side ? side.file : `cluster crawl ${side.crawlId} (${serverLabel(side.store)})`;
}

/**
 * Opens the comparison of `oldSide` with `newSide`: crawl files as they are, crawls of a store through their copies.
 * `names`: what its summary calls them (sideName's by default).
 * Throws what opening a file throws (CrawlFileError) or reading the store does (StoreError), leaving no copy behind.
 */
export async function openComparison(
  oldSide: CompareSide,
  newSide: CompareSide,
  options: { wordThreshold?: WordThreshold; names?: { old: string; new: string } } = {},
): Promise<CrawlComparison> {
  const stores = [oldSide, newSide].filter((s) => !('file' in s));
  const folder = stores.length > 0 ? temporaryCrawlFolder('trawl-compare-') : null;
  try {
    const fileOf = async (side: CompareSide, which: string): Promise<string> => {
      if ('file' in side) return side.file;
      const file = path.join(folder!.dir, `${which}-${side.crawlId}.trawl`);
      await copyStoreCrawlForCompare(side.store, side.crawlId, file);
      return file;
    };
    const oldFile = await fileOf(oldSide, 'old');
    const newFile = await fileOf(newSide, 'new');
    return CrawlComparison.open(oldFile, newFile, {
      wordThreshold: options.wordThreshold,
      names: options.names ?? { old: sideName(oldSide), new: sideName(newSide) },
      onClose: () => folder?.remove(),
    });
  } catch (err) {
    folder?.remove();
    throw err;
  }
}
