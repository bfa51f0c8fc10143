// The user's regular expressions: include/exclude scope patterns, live excludes, deprioritised patterns and
// extraction rules. They run on URLs and pages that a site controls, so they run in a linear-time engine: a
// pattern such as (a+)+$ costs time in proportion to the text, never exponential time as in JavaScript's
// backtracking RegExp (which froze the host for seconds on 40 queued URLs of 30 characters).
//
// The engine is re2js, a pure JavaScript port of Google's RE2 (linear-time matching, no backtracking). Chosen
// over the `re2` native binding (a node-gyp build for Node and another for Electron's ABI, with headers this
// project cannot always download) and over `re2-wasm` (unmaintained since 2021, patterns need the u flag): pure
// JavaScript runs the same in Node, the workers, Electron's main process and the renderer's pattern tester.
//
// Syntax is RE2's, which is JavaScript's for what URL and page patterns use (classes, \d \w \s \b, groups,
// (?<name>...), alternation, repeats, ^ $) plus inline flags such as (?i). RE2 has no backtracking features, so
// backreferences (\1, \k<name>) and lookaround ((?=, (?!, (?<=, (?<!) are refused with a message naming them.
import { RE2JS } from 're2js';

/** A compiled user pattern. */
export interface UserPattern {
  readonly source: string;
  /** Whether the pattern matches anywhere in `text` (as RegExp.prototype.test without flags). */
  test(text: string): boolean;
  /** Successive non-overlapping matches (as String.prototype.matchAll with the g flag): [whole, group 1, ...]. */
  matchAll(text: string): Iterable<readonly (string | undefined)[]>;
  /** The number of capturing groups. */
  readonly groups: number;
}

export type CompiledPattern = { ok: true; pattern: UserPattern } | { ok: false; error: string };

/** Features of JavaScript's regular expressions that need backtracking, which the engine refuses. */
const UNSUPPORTED: readonly { test: RegExp; name: string }[] = [
  { test: /\(\?=/, name: 'lookahead (?=...)' },
  { test: /\(\?!/, name: 'negative lookahead (?!...)' },
  { test: /\(\?<=/, name: 'lookbehind (?<=...)' },
  { test: /\(\?<!/, name: 'negative lookbehind (?<!...)' },
  { test: /\\[1-9]/, name: 'backreference \\1' },
  { test: /\\k</, name: 'named backreference \\k<name>' },
];

/** Compiles a user pattern, or returns why the engine cannot take it (a message for the field it was typed in). */
export function compilePattern(source: string): CompiledPattern {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (err) {
    return { ok: false, error: whyNot(source, err) };
  }
  const groups = re.groupCount();
  return {
    ok: true,
    pattern: {
      source,
      groups,
      test: (text) => re.test(text),
      matchAll: (text) => re.matchAll(text),
    },
  };
}

function whyNot(source: string, err: unknown): string {
  // A pattern JavaScript refuses too: JavaScript's reason, as before ("Unterminated group"). Compiling a RegExp
  // is safe; only running one on a hostile text is not.
  try {
    new RegExp(source);
  } catch (jsErr) {
    const message = jsErr instanceof Error ? jsErr.message : String(jsErr);
    // V8: "Invalid regular expression: /(/: Unterminated group"; keep the reason only.
    return /^Invalid regular expression: \/.*\/[a-z]*: (.*)$/s.exec(message)?.[1] ?? message;
  }
  const feature = UNSUPPORTED.find((f) => f.test.test(source));
  const engine = 'patterns run in a linear-time engine (RE2 syntax), which has no backreferences or lookaround';
  if (feature) return `${feature.name} is not supported: ${engine}`;
  // RE2JS: "error parsing regexp: invalid escape sequence: `\u`"; keep the reason only.
  const message = err instanceof Error ? err.message : String(err);
  const reason = /^error parsing regexp: (.*)$/s.exec(message)?.[1] ?? message;
  const hint = reason.includes('`\\u') ? '; write \\x{41} for \\u0041' : '';
  return `${reason} (${engine}${hint})`;
}

/** Whether `text` matches one of `patterns`. */
export function matchesAny(patterns: readonly UserPattern[], text: string): boolean {
  for (const p of patterns) if (p.test(text)) return true;
  return false;
}

/**
 * Compiles patterns saved earlier (a crawl file's or cluster's deprioritised patterns and live excludes). Ones
 * saved before patterns ran in this engine may use what it refuses (lookaround): those are left out rather than
 * run with a backtracking engine on URLs a site chose.
 */
export function compileSaved(sources: readonly string[]): UserPattern[] {
  const patterns: UserPattern[] = [];
  for (const source of sources) {
    const compiled = compilePattern(source);
    if (compiled.ok) patterns.push(compiled.pattern);
  }
  return patterns;
}

/** Compiles a pattern that was checked when it was typed; throws with the reason when it does not compile. */
export function mustCompile(source: string, what = 'pattern'): UserPattern {
  const compiled = compilePattern(source);
  if (!compiled.ok) throw new Error(`invalid ${what} "${source}": ${compiled.error}`);
  return compiled.pattern;
}
