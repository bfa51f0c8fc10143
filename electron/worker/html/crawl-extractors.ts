// The HTML extractors a crawl runs, assembled from its settings. To read something new from pages, write an
// HtmlExtractor module and add it here.
import type { CrawlSettings } from '../../../shared/settings.ts';
import { anchorsExtractor } from './anchors.ts';
import { headingsExtractor } from './headings.ts';
import { imagesExtractor } from './images.ts';
import type { HtmlExtractor } from './extractor-contract.ts';
import { languageExtractor } from './language.ts';
import { linkRelationsExtractor } from './link-relations.ts';
import { DEFAULT_CONTENT_EXCLUDE } from '../../../shared/content.ts';
import { mainContentExtractor } from './main-content.ts';
import { metaTagsExtractor } from './meta-tags.ts';
import { resourcesExtractor } from './resources.ts';
import { structuredDataExtractor } from './structured-data.ts';
import { securityExtractor } from './security.ts';
import { titleExtractor } from './title.ts';
import { wordCountExtractor } from './word-count.ts';

/** What every crawl reads from a page. */
export const BASE_EXTRACTORS: readonly HtmlExtractor[] = [
  titleExtractor,
  metaTagsExtractor,
  headingsExtractor,
  languageExtractor,
  anchorsExtractor,
  linkRelationsExtractor,
  wordCountExtractor,
  // Issue 18.3: the images every page uses, with their alt text.
  imagesExtractor,
  // Issue 18.4: structured data and social tags.
  structuredDataExtractor,
  // Security (issue 18.5).
  securityExtractor,
];

export function htmlExtractorsFor(
  settings: Pick<CrawlSettings, 'checkResources'> & Partial<Pick<CrawlSettings, 'contentInclude' | 'contentExclude'>>,
): HtmlExtractor[] {
  // Duplicate content (issue 18.1): every crawl reads the main text; settings from before it leave out the default areas.
  // The main-content extractor counts the page's words too (one pass over its text for both), in the word count's place.
  const mainContent = mainContentExtractor({
    include: settings.contentInclude ?? [],
    exclude: settings.contentExclude ?? DEFAULT_CONTENT_EXCLUDE,
  });
  const list = BASE_EXTRACTORS.map((e) => (e === wordCountExtractor ? mainContent : e));
  if (settings.checkResources.length > 0) list.push(resourcesExtractor(settings.checkResources));
  return list;
}
