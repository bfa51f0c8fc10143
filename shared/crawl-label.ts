// What the analyst says about a crawl (a name, a description, tags), kept in the crawl file itself, and the one-line
// summary of its settings the crawls list shows. Plain data and functions: the renderer imports this.

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

/** What is wrong with a label, field by field (none: an empty list). */
export function labelProblems(label: CrawlLabel): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const name = label.name.trim();
  if (name.length > LABEL_LIMITS.name) problems.push({ field: 'name', message: `at most ${LABEL_LIMITS.name} characters` });
  if (CONTROL.test(name)) problems.push({ field: 'name', message: 'must be one line of text' });
  if (label.description.length > LABEL_LIMITS.description)
    problems.push({ field: 'description', message: `at most ${LABEL_LIMITS.description} characters` });
  if (CONTROL_BUT_LINES.test(label.description)) problems.push({ field: 'description', message: 'must be text' });
  const tags = normaliseTags(label.tags);
  if (tags.length > LABEL_LIMITS.tags) problems.push({ field: 'tags', message: `at most ${LABEL_LIMITS.tags} tags` });
  for (const tag of tags) {
    if (tag.length > LABEL_LIMITS.tag)
      problems.push({ field: 'tags', message: `"${tag.slice(0, 20)}…" is longer than ${LABEL_LIMITS.tag} characters` });
    else if (CONTROL.test(tag) || tag.includes(','))
      problems.push({ field: 'tags', message: `"${tag}" may not hold a comma or control characters` });
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

/** What distinguishes one crawl's settings from another's, on one line ("spider · same host · 5 threads · depth ≤ 3"). */
export function settingsSummary(settings: Record<string, unknown>): string {
  const parts: string[] = [];
  const mode = settings['mode'] === 'list' ? 'list' : 'spider';
  parts.push(mode);
  if (mode === 'spider' && typeof settings['scope'] === 'string') parts.push(String(settings['scope']).replace('-', ' '));
  if (typeof settings['threads'] === 'number') parts.push(`${settings['threads']} threads`);
  if (typeof settings['maxDepth'] === 'number') parts.push(`depth ≤ ${settings['maxDepth']}`);
  if (typeof settings['maxPages'] === 'number') parts.push(`≤ ${settings['maxPages']} pages`);
  const include = Array.isArray(settings['include']) ? settings['include'].length : 0;
  const exclude = Array.isArray(settings['exclude']) ? settings['exclude'].length : 0;
  if (include > 0) parts.push(`${include} include`);
  if (exclude > 0) parts.push(`${exclude} exclude`);
  if (settings['robots'] === 'ignore' || settings['robots'] === 'report')
    parts.push(settings['robots'] === 'ignore' ? 'robots.txt ignored' : 'robots.txt reported only');
  if (settings['polite'] === true) parts.push('polite');
  else if (typeof settings['delayMs'] === 'number' && settings['delayMs'] > 0) parts.push(`${settings['delayMs']} ms delay`);
  if (typeof settings['maxUrlsPerSecond'] === 'number') parts.push(`≤ ${settings['maxUrlsPerSecond']} URLs/s`);
  const checks = Array.isArray(settings['checkResources']) ? (settings['checkResources'] as unknown[]).length : 0;
  if (checks > 0 || settings['checkExternal'] === true) parts.push('checks resources');
  const rules = Array.isArray(settings['extraction']) ? settings['extraction'].length : 0;
  if (rules > 0) parts.push(`${rules} extraction rule${rules === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

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
