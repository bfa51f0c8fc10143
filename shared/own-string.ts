// Strings that keep nothing else alive. V8 cuts a substring as a view of the string it came from (a "sliced string")
// and joins strings as a pair of pointers (a "cons string"), so a short piece of a page (an href, a main text built
// from slices) holds the whole page in memory for as long as the piece lives. Something kept beyond the page it
// came from takes its own copy.

/**
 * `s` as a string of its own: prefixed and cut again, which makes V8 copy its characters into one new string (it
 * flattens the pair to cut it), so what `s` was cut from can go.
 */
export function ownString(s: string): string {
  return s === '' ? '' : ` ${s}`.slice(1);
}
