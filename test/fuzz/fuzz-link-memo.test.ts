// Property-based test (fast-check) of the worker's link memo (electron/worker/html/link-memo.ts): it answers an
// href from what it resolved on other pages that share the part of the URL the href depends on. A wrong guess of
// that part is a link resolved against another page: a wrong URL in the crawl, silently. So for any sequence of
// (href, page) pairs, hrefs of every shape against pages of several hosts, directories and queries, the memo
// must give exactly what resolving each href on its own page gives. Seeded.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { LinkMemo } from '../../electron/worker/html/link-memo.ts';
import { makeNormaliser } from '../../shared/url/normalise.ts';

const RUNS = 300;
const SEED = 0x11e40;

const pick = <T>(...items: T[]) => fc.constantFrom(...items);
const piece = pick('a', 'b.html', '..', '.', '', 'x y', '%2e%2e', 'é', 'q?x=1', 'f#top', 'docs', 'index.html');
const path = fc.array(piece, { maxLength: 4 }).map((parts) => parts.join('/'));
const base = fc
  .tuple(pick('http://h.example', 'https://h.example', 'http://h.example:8080', 'http://other.example'), path, pick('', '?p=1', '?a/b'))
  .map(([origin, p, q]) => new URL(`${origin}/${p}${q}`).href.replace(/#.*$/, ''));
const href = fc.oneof(
  path,
  path.map((p) => `/${p}`),
  path.map((p) => `//h.example/${p}`),
  path.map((p) => `../${p}`),
  path.map((p) => `./${p}?q=${p}`),
  pick(
    '',
    '#',
    '#top',
    '?x=1',
    '?',
    ' #top',
    ' ?x=1',
    '\n#a',
    ' /a',
    'a\tb',
    '\\\\h.example\\x',
    '/\\x',
    'http:x',
    'https:x',
    'http:/x',
    'HTTP://H.example/X',
  ),
  pick('mailto:a@b', 'javascript:void(0)', 'tel:1', 'data:text/html,x', 'c:/x', 'a.html:x', 'http://[bad', '//', '///x'),
  fc.tuple(pick('http://h.example/', 'https://other.example/'), path).map(([o, p]) => o + p),
);

describe('link memo', () => {
  it('resolves every href as resolving it against its own page would', () => {
    const normalise = makeNormaliser({ stripQueryParams: ['utm_*'] });
    const inScope = (url: string) => url.startsWith('http://h.example/');
    fc.assert(
      // A few hrefs and pages per run, met in any order and again: the memo's answers get reused.
      fc.property(
        fc.array(href, { minLength: 1, maxLength: 6 }),
        fc.array(base, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 40 }),
        (hrefs, bases, picks) => {
          const memo = new LinkMemo();
          for (const [i, j] of picks) {
            const h = hrefs[i % hrefs.length]!;
            const b = bases[j % bases.length]!;
            const got = memo.resolve(h, b, normalise, inScope);
            const url = normalise(h, b);
            const want = url === null ? null : { url, inScope: inScope(url) };
            if (JSON.stringify(got) !== JSON.stringify(want)) {
              throw new Error(`${JSON.stringify(h)} on ${b}: ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
            }
          }
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
