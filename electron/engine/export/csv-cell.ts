// CSV formula injection ("CSV injection"): a spreadsheet runs a cell that starts with = + - @ as a formula, and
// treats a leading tab or CR the same way. Crawled text (titles, URLs, error messages) comes from untrusted
// sites, so OWASP's recommendation applies: prefix such a cell with a single quote, which spreadsheets show
// as text. https://owasp.org/www-community/attacks/CSV_Injection

const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/** Returns a text cell that a spreadsheet will not evaluate. Only for text: a negative number is not a formula. */
export function neutraliseCell(value: string): string {
  return value.length > 0 && FORMULA_START.has(value[0]!) ? `'${value}` : value;
}
