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

/** A run of a sentence's words, marked when the other sentence of its pair lacks it. */
export interface WordPart {
  text: string;
  changed: boolean;
}

/** Words compared in one sentence pair at most (an LCS table of at most 300 x 300); past it, each sentence as one change. */
export const WORD_DIFF_MAX = 300;

/**
 * The words that differ between a removed sentence and the added one that replaced it: each sentence as runs of words
 * (with the spaces between them), those the other lacks marked changed.
 */
export function wordDiff(a: string, b: string): { removed: WordPart[]; added: WordPart[] } {
  const x = a.split(/\s+/).filter((w) => w !== '');
  const y = b.split(/\s+/).filter((w) => w !== '');
  if (x.length > WORD_DIFF_MAX || y.length > WORD_DIFF_MAX)
    return { removed: [{ text: a, changed: true }], added: [{ text: b, changed: true }] };
  const n = x.length;
  const m = y.length;
  const w = m + 1;
  const lcs = new Uint16Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  const inX = new Uint8Array(n);
  const inY = new Uint8Array(m);
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (x[i] === y[j]) {
      inX[i++] = 1;
      inY[j++] = 1;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) i++;
    else j++;
  }
  const runs = (words: string[], kept: Uint8Array): WordPart[] => {
    const out: WordPart[] = [];
    words.forEach((word, i) => {
      const changed = kept[i] === 0;
      const last = out[out.length - 1];
      if (last && last.changed === changed) last.text += ` ${word}`;
      else if (!last) out.push({ text: word, changed });
      else if (last.changed) out.push({ text: ` ${word}`, changed });
      else {
        // The space between goes with the unchanged run: a marked run is its words alone.
        last.text += ' ';
        out.push({ text: word, changed });
      }
    });
    return out;
  };
  return { removed: runs(x, inX), added: runs(y, inY) };
}
