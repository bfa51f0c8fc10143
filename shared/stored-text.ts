// What a results row keeps of a page's texts. A site decides how long they are (an unclosed <title> makes the rest
// of the page its title, megabytes of it), and they go from the worker to the engine, into both stores, into every
// page of the Results table and into exports; so each is kept to a bound, cut on a character, never mid-pair.
// The store's results_narrow index (pg-schema.ts) holds a row's title, error and Content-Type, and a btree entry
// must fit in 2,704 bytes: at most 3 bytes a UTF-16 unit, (512 + 200 + 100) x 3 = 2,436 bytes, and under 100 more
// for the entry's header, its numbers and the texts' lengths; results_descriptions holds the meta description.

/** A page's title, meta description, first <h1> and first <h2>, in UTF-16 units. */
export const PAGE_TEXT_MAX = 512;
/** Why a fetch failed (network errors quote what the network library said). */
export const ERROR_TEXT_MAX = 200;
/** The Content-Type header as the server sent it. */
export const CONTENT_TYPE_MAX = 100;

/** `text` cut to at most `max` UTF-16 units, without leaving half of a surrogate pair at its end. */
export function cutText(text: string, max: number): string;
export function cutText(text: string | null, max: number): string | null;
export function cutText(text: string | null, max: number): string | null {
  if (text === null || text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
