// Issue 18.4: a page's structured data items and social tags as the rows both stores write (crawl file version 6,
// the PostgreSQL crawl tables the same): structured_data (url_id, n, format, types as a JSON array, error) and
// social_tags (url_id, n, property, content), n the item's or tag's place on the page.
import type { PageFetchResult } from '../../../shared/protocol.ts';

export type StructuredDataRow = [urlId: number, n: number, format: string, types: string, error: string | null];
export type SocialTagRow = [urlId: number, n: number, property: string, content: string];

export function structuredDataRowsOf(urlId: number, result: PageFetchResult): StructuredDataRow[] {
  return (result.structuredData ?? []).map((item, n) => [urlId, n, item.format, JSON.stringify(item.types), item.error]);
}

export function socialTagRowsOf(urlId: number, result: PageFetchResult): SocialTagRow[] {
  return (result.socialTags ?? []).map((tag, n) => [urlId, n, tag.property, tag.content]);
}
