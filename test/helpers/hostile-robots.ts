// A robots.txt built to be slow to match (issue 13, finding 1): 5,000 rules like `Disallow: /*a*a*a…*b1`, about
// 490 KB (under the 500 KiB read). robots-parser took 4-6 s to check one 2,048-character path against it.
export function pathologicalRobots(rules = 5_000): string {
  const lines = ['User-agent: *'];
  for (let i = 0; i < rules; i++) lines.push(`Disallow: /${'*a'.repeat(40)}*b${i}`);
  return `${lines.join('\n')}\n`;
}
