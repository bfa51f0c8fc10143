// What differs between two pages' main texts (duplicate content, issue 18.1): a diff of their sentences by longest
// common subsequence. Texts are split into lines (the blocks the worker kept) and each line into sentences; at most
// DIFF_UNITS_MAX sentences of each are compared (an LCS table of at most 500 x 500). No node:: the renderer shows it.

export interface DiffOp {
  op: 'same' | 'removed' | 'added';
  text: string;
}

export interface TextDiff {
  ops: DiffOp[];
  /** A text had more sentences than were compared. */
  truncated: boolean;
}

export const DIFF_UNITS_MAX = 500;

/** Lines, then sentences (ending in . ! ? or their CJK forms, before a space or the line's end). */
export function sentencesOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    for (const s of line.split(/(?<=[.!?。！？])\s+/)) {
      const t = s.trim();
      if (t !== '') out.push(t);
    }
  }
  return out;
}

/** The sentence diff of `a` (the page) and `b` (the other page): same, removed (only in a), added (only in b). */
export function diffTexts(a: string, b: string): TextDiff {
  const sa = sentencesOf(a);
  const sb = sentencesOf(b);
  const truncated = sa.length > DIFF_UNITS_MAX || sb.length > DIFF_UNITS_MAX;
  const x = sa.slice(0, DIFF_UNITS_MAX);
  const y = sb.slice(0, DIFF_UNITS_MAX);
  const n = x.length;
  const m = y.length;
  // lcs[i][j]: the LCS length of x[i..] and y[j..], one flat array.
  const w = m + 1;
  const lcs = new Uint16Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      ops.push({ op: 'same', text: x[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) ops.push({ op: 'removed', text: x[i++]! });
    else ops.push({ op: 'added', text: y[j++]! });
  }
  while (i < n) ops.push({ op: 'removed', text: x[i++]! });
  while (j < m) ops.push({ op: 'added', text: y[j++]! });
  return { ops, truncated };
}
