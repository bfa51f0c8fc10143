// A robots.txt built to be slow to match (issue 13, finding 1): 5,000 rules like `Disallow: /*a*a*a…*b1`, about
// 490 KB (under the 500 KiB read). robots-parser took 4-6 s to check one 2,048-character path against it.
export function pathologicalRobots(rules = 5_000): string {
  const lines = ['User-agent: *'];
  for (let i = 0; i < rules; i++) lines.push(`Disallow: /${'*a'.repeat(40)}*b${i}`);
  return `${lines.join('\n')}\n`;
}

/**
 * A robots.txt of 25,000 distinct short rules (about 0.5 MB; the prefix one is cut at 500 KiB, about 24,000 rules): `/a*a<n>b` (a literal prefix every long `/aaa…`
 * path starts with) or, with `star`, `*a<n>b`. Matching tried each rule against the whole path: 0.2-2.5 s per
 * 2,048-8,192-character URL.
 */
export function manyShortRules(star: boolean, rules = 25_000): string {
  const lines = ['User-agent: *'];
  for (let i = 0; i < rules; i++) lines.push(`Disallow: ${star ? '' : '/a'}*a${i}b`);
  return `${lines.join('\n')}\n`;
}
