// What the analyst says about a crawl (a name, a description, tags), kept in the crawl file itself, and the one-line
// summary of its settings the crawls list shows. Plain data and functions: the renderer imports this.
import type { Scope } from './scope.ts';
import { type Message, type MessageCode, type MessageParams, message } from './messages.ts';

export const LABEL_LIMITS = { name: 200, description: 2000, tags: 20, tag: 40 } as const;

export interface CrawlLabel {
  /** Empty: the list names the crawl by its seed's host. */
  name: string;
  description: string;
  /** Trimmed, each once (case-insensitively), in the order given. */
  tags: string[];
}

export const EMPTY_LABEL: CrawlLabel = { name: '', description: '', tags: [] };

// Control characters, which a name or tag shown on one line must not hold (a description may hold line ends).
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_BUT_LINES = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/;

/** A problem of a label's field: its message in English, and its code and parameters for the renderer (messages.ts). */
export interface LabelProblem {
  field: 'name' | 'description' | 'tags';
  message: string;
  code: MessageCode;
  params?: MessageParams;
}

/** What is wrong with a label, field by field (none: an empty list). */
export function labelProblems(label: CrawlLabel): LabelProblem[] {
  const problems: LabelProblem[] = [];
  const add = (field: LabelProblem['field'], code: MessageCode, params?: MessageParams) => {
    const m = message(code, params);
    problems.push({ field, message: m.text, code, ...(params ? { params } : {}) });
  };
  const name = label.name.trim();
  if (name.length > LABEL_LIMITS.name) add('name', 'labelAtMostChars', { max: LABEL_LIMITS.name });
  if (CONTROL.test(name)) add('name', 'labelOneLine');
  if (label.description.length > LABEL_LIMITS.description) add('description', 'labelAtMostChars', { max: LABEL_LIMITS.description });
  if (CONTROL_BUT_LINES.test(label.description)) add('description', 'mustBeText');
  const tags = normaliseTags(label.tags);
  if (tags.length > LABEL_LIMITS.tags) add('tags', 'labelAtMostTags', { max: LABEL_LIMITS.tags });
  for (const tag of tags) {
    if (tag.length > LABEL_LIMITS.tag) add('tags', 'labelTagTooLong', { tag: tag.slice(0, 20), max: LABEL_LIMITS.tag });
    else if (CONTROL.test(tag) || tag.includes(',')) add('tags', 'labelTagChars', { tag });
  }
  return problems;
}

/** Tags trimmed, empty ones dropped, each kept once (the first spelling of those equal case-insensitively). */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

/** A label as stored: name trimmed, tags normalised. */
export function normaliseLabel(label: CrawlLabel): CrawlLabel {
  return { name: label.name.trim(), description: label.description.trim(), tags: normaliseTags(label.tags) };
}

/** Tags typed as one line, separated by commas. */
export const parseTagList = (text: string): string[] => normaliseTags(text.split(','));

const SCOPE_PARTS: Readonly<Record<Scope, MessageCode>> & Readonly<Record<string, MessageCode | undefined>> = {
  'same-host': 'summaryScopeSameHost',
  subdomains: 'summaryScopeSubdomains',
  domain: 'summaryScopeDomain',
  hosts: 'summaryScopeHosts',
};

/**
 * What distinguishes one crawl's settings from another's, part by part (the crawls list joins them with " · ", each
 * in its language: "spider · same host · 5 threads · depth ≤ 3").
 */
export function settingsSummaryParts(settings: Record<string, unknown>): Message[] {
  const parts: Message[] = [];
  const add = (code: MessageCode, n?: unknown) => parts.push(message(code, n === undefined ? undefined : { n: Number(n) }));
  const mode = settings['mode'] === 'list' ? 'list' : 'spider';
  add(mode === 'list' ? 'summaryList' : 'summarySpider');
  const scope = settings['scope'];
  if (mode === 'spider' && typeof scope === 'string') {
    const code = SCOPE_PARTS[scope];
    // A scope this list does not name (a file written by a newer Trawl): named as it is written.
    parts.push(code ? message(code) : message('summaryScopeOther', { scope: scope.replace('-', ' ') }));
  }
  if (typeof settings['threads'] === 'number') add('summaryThreads', settings['threads']);
  if (typeof settings['maxDepth'] === 'number') add('summaryDepth', settings['maxDepth']);
  if (typeof settings['maxPages'] === 'number') add('summaryPages', settings['maxPages']);
  const include = Array.isArray(settings['include']) ? settings['include'].length : 0;
  const exclude = Array.isArray(settings['exclude']) ? settings['exclude'].length : 0;
  if (include > 0) add('summaryInclude', include);
  if (exclude > 0) add('summaryExclude', exclude);
  if (settings['robots'] === 'ignore') add('summaryRobotsIgnored');
  else if (settings['robots'] === 'report') add('summaryRobotsReported');
  if (settings['polite'] === true) add('summaryPolite');
  else if (typeof settings['delayMs'] === 'number' && settings['delayMs'] > 0) add('summaryDelay', settings['delayMs']);
  if (typeof settings['maxUrlsPerSecond'] === 'number') add('summaryRate', settings['maxUrlsPerSecond']);
  const checks = Array.isArray(settings['checkResources']) ? (settings['checkResources'] as unknown[]).length : 0;
  if (checks > 0 || settings['checkExternal'] === true) add('summaryChecks');
  if (settings['render'] === true) add('summaryRenders');
  const rules = Array.isArray(settings['extraction']) ? settings['extraction'].length : 0;
  if (rules > 0) add(rules === 1 ? 'summaryRule' : 'summaryRules', rules);
  return parts;
}

/** The summary on one line, in English. */
export const settingsSummary = (settings: Record<string, unknown>): string =>
  settingsSummaryParts(settings)
    .map((p) => p.text)
    .join(' · ');

/** True when a crawl's name, seeds, description or tags hold every word of `query` (case-insensitively). */
export function crawlMatches(
  crawl: { name: string; seeds: readonly string[]; tags: readonly string[]; description: string; file: string },
  query: string,
): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [crawl.name, crawl.description, crawl.file, ...crawl.seeds, ...crawl.tags.map((t) => `#${t}`)].join('\n').toLowerCase();
  return words.every((w) => text.includes(w));
}
