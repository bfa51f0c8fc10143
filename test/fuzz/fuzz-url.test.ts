// Property-based tests (fast-check) of the crawl's URL normaliser: every URL the crawl meets goes through it, and
// the frontier's dedup is exact on its output, so a second spelling of one URL, or a normal form that is not its
// own normal form, is a page crawled twice (or a resumed crawl that disagrees with itself). Seeded: a failure
// prints its seed and the shrunk counterexample, and reruns the same way.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { MAX_URL_LENGTH, canonicalUrl, originOf } from '../../shared/url/canonical.ts';
import { makeNormaliser } from '../../shared/url/normalise.ts';
import { originOfCanonical, urlKey } from '../../shared/url/url-key.ts';

const RUNS = 10_000;
// Plain checks, not expect(): ten thousand runs of expect() cost seconds, and fast-check reports the input anyway.
function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}
const same = (actual: unknown, expected: unknown) =>
  check(Object.is(actual, expected), `${JSON.stringify(actual)} is not ${JSON.stringify(expected)}`);
const SEED = 0x7e13;

const pick = <T>(...items: T[]) => fc.constantFrom(...items);

// Characters URLs are made of, weighted towards the ones the normaliser treats specially: "%" and hex digits (escapes,
// broken escapes), dots and slashes (dot segments), unreserved and reserved characters, and some non-ASCII.
const urlChar = fc.oneof(
  { weight: 4, arbitrary: pick('%', '%', 'a', 'A', 'f', 'F', 'g', '0', '2', '3', '4', '6', '7', 'e', 'E') },
  { weight: 2, arbitrary: pick('.', '/', '-', '_', '~', 'z', 'Z', '9') },
  { weight: 2, arbitrary: pick('?', '#', '&', '=', '+', ':', '@', '!', '$', "'", '(', ')', '*', ',', ';', '[', ']') },
  { weight: 1, arbitrary: pick(' ', '"', '<', '>', '\\', '^', '`', '{', '|', '}', '\t', '\n', '\u0000', '\u007f') },
  { weight: 1, arbitrary: pick('é', 'ß', '中', '\u{1F600}', '\u00a0', '\ud800') },
);
const urlText = (max: number) => fc.string({ unit: urlChar, maxLength: max });
/** An escape of any byte, in either case of hex. */
const percentEscape = fc.integer({ min: 0, max: 255 }).chain((b) => {
  const hex = b.toString(16).padStart(2, '0');
  return pick(`%${hex}`, `%${hex.toUpperCase()}`);
});
const segment = fc
  .array(fc.oneof({ weight: 3, arbitrary: urlChar }, { weight: 1, arbitrary: percentEscape }), { maxLength: 8 })
  .map((a) => a.join(''));

const scheme = pick('http', 'https', 'HTTP', 'HtTpS', 'ftp', 'mailto', 'javascript', 'data', 'file', 'ws', '');
const hostName = fc.oneof(
  fc.stringMatching(/^[a-zA-Z0-9-]{1,10}(\.[a-zA-Z0-9-]{1,10}){0,3}$/),
  pick('127.0.0.1', '0x7f.1', '[::1]', '[2001:DB8::1]', 'xn--bcher-kva.example', 'bücher.example', 'EXAMPLE.com', 'a..b', '', '%41b.c'),
);
const port = fc.oneof(
  pick('', ':', ':80', ':443', ':8080', ':0', ':65535', ':65536', ':x'),
  fc.integer({ min: 0, max: 70000 }).map((p) => `:${p}`),
);
const userinfo = fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: pick('u@', 'u:p@', 'a%40b:c@', ':@', '@') });

/** Absolute URLs made of parts, mostly valid http(s), with every kind of path, query and fragment. */
const urlLike = fc
  .record({
    scheme,
    slashes: pick('//', '//', '//', '/', '', '\\\\', '///'),
    userinfo,
    host: hostName,
    port,
    path: fc.array(segment, { maxLength: 6 }).map((s) => (s.length ? `/${s.join('/')}` : '')),
    query: fc.option(
      segment.map((s) => `?${s}`),
      { nil: '' },
    ),
    fragment: fc.option(
      segment.map((s) => `#${s}`),
      { nil: '' },
    ),
  })
  .map((p) => `${p.scheme}:${p.slashes}${p.userinfo}${p.host}${p.port}${p.path}${p.query}${p.fragment}`);

/** Absolute http(s) URLs, mostly ones that parse, to build equivalent spellings from. */
const httpUrlLike = fc
  .record({
    scheme: pick('http', 'https'),
    userinfo,
    host: hostName,
    port: pick('', ':80', ':443', ':8080'),
    path: fc.array(segment, { maxLength: 5 }).map((s) => (s.length ? `/${s.join('/')}` : '')),
    query: fc.option(
      segment.map((s) => `?${s}`),
      { nil: '' },
    ),
  })
  .map((p) => `${p.scheme}://${p.userinfo}${p.host}${p.port}${p.path}${p.query}`);

/** Hrefs as pages write them: absolute, relative, scheme-relative, with stray whitespace. */
const hrefLike = fc.oneof(
  urlLike,
  urlText(40),
  segment,
  fc.tuple(pick('', ' ', '\t\n', '//', '../', './', '?', '#'), segment, pick('', ' ', '\n')).map((t) => t.join('')),
);
const baseLike = fc.oneof(urlLike, pick('http://example.com/a/b/c', 'https://Example.COM:443/x/'));

const normalisers = [canonicalUrl, makeNormaliser({ stripQueryParams: ['utm_*', 'sid', 'a'] })] as const;

describe('the URL normaliser, fuzzed', () => {
  it('never throws, and gives null or a short http(s) URL without a fragment, on any href and base', () => {
    fc.assert(
      fc.property(
        fc.oneof(hrefLike, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 })),
        fc.option(baseLike, { nil: undefined }),
        (href, base) => {
          for (const normalise of normalisers) {
            const out = normalise(href, base);
            if (out === null) continue;
            check(out.length <= MAX_URL_LENGTH, `${out.length} characters`);
            check(/^https?:\/\/[^/]+\//.test(out) && !out.includes('#'), `not a normal form: ${out}`);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('is idempotent: a normal form is its own normal form (and so has the same key)', () => {
    fc.assert(
      fc.property(hrefLike, fc.option(baseLike, { nil: undefined }), (href, base) => {
        for (const normalise of normalisers) {
          const once = normalise(href, base);
          if (once === null) continue;
          const twice = normalise(once);
          same(twice, once);
          // Relative to any base, an absolute normal form is still itself.
          same(normalise(once, 'http://other.example/x/y'), once);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  // Equivalent spellings of one URL (RFC 3986 6.2.2 and 6.2.3): built from a URL's normal form by changes that
  // must not change it. Each variant must normalise to the same text, and so the same dedup key.
  const variantOf = (canonical: string) => {
    const u = new URL(canonical);
    const schemeEnd = canonical.indexOf('://');
    const authorityEnd = canonical.indexOf('/', schemeEnd + 3);
    const scheme = canonical.slice(0, schemeEnd);
    const authority = canonical.slice(schemeEnd + 3, authorityEnd);
    const rest = canonical.slice(authorityEnd); // path and query
    const defaultPort = u.protocol === 'http:' ? '80' : '443';
    return fc
      .record({
        upperScheme: fc.boolean(),
        upperHost: fc.boolean(),
        explicitPort: fc.boolean(),
        encode: fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 6 }),
        dots: fc.array(fc.tuple(fc.nat(), pick('./', 'x/../', './/../', '%2e/', 'y/%2E%2e/')), { maxLength: 3 }),
        emptyPath: fc.boolean(),
        fragment: fc.option(segment, { nil: undefined }),
        spaces: pick('', ' ', '\t', '\n '),
      })
      .map((v) => {
        let s = v.upperScheme ? scheme.toUpperCase() : scheme;
        let host = v.upperHost && !u.username && !u.password ? authority.toUpperCase() : authority;
        if (v.explicitPort && u.port === '' && !host.endsWith(']')) host += `:${defaultPort}`;
        let tail = rest;
        // Percent-encode some unreserved characters of the path and query (either case of hex). The two characters
        // after a "%" are left alone: they are an escape's digits, or text after a lone "%" that must stay as written.
        for (const [at, upper] of v.encode) {
          const unreserved = [...tail.matchAll(/[A-Za-z0-9\-._~]/g)]
            .map((m) => m.index)
            .filter((i) => i > 0 && tail[i - 1] !== '%' && tail[i - 2] !== '%');
          if (unreserved.length === 0) break;
          const i = unreserved[at % unreserved.length]!;
          const hex = tail.charCodeAt(i).toString(16).padStart(2, '0');
          tail = `${tail.slice(0, i)}%${upper ? hex.toUpperCase() : hex}${tail.slice(i + 1)}`;
        }
        // Dot segments, put after a "/" of the path.
        const q = tail.indexOf('?');
        let path = q === -1 ? tail : tail.slice(0, q);
        const query = q === -1 ? '' : tail.slice(q);
        for (const [at, dots] of v.dots) {
          const slashes = [...path.matchAll(/\//g)].map((m) => m.index);
          const i = slashes[at % slashes.length]! + 1;
          path = `${path.slice(0, i)}${dots}${path.slice(i)}`;
        }
        if (v.emptyPath && path === '/') path = '';
        s = `${s}://${host}${path}${query}${v.fragment === undefined ? '' : `#${v.fragment}`}`;
        return `${v.spaces}${s}${v.spaces}`;
      });
  };

  it('gives every equivalent spelling of a URL the same normal form and key', () => {
    const canonicals = httpUrlLike.map((u) => canonicalUrl(u) ?? 'http://example.com/');
    fc.assert(
      fc.property(
        canonicals.chain((c) => fc.tuple(fc.constant(c), variantOf(c))),
        ([canonical, variant]) => {
          const normal = canonicalUrl(variant);
          same(normal, canonical);
          same(urlKey(normal!), urlKey(canonical));
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('keys any text, as a whole number below 2^53', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const key = urlKey(text);
        check(Number.isSafeInteger(key) && key >= 0, `key ${key}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  // User info is dropped from the normal form, so a URL's origin read without parsing is URL's origin for every
  // URL (it once gave "http://u@host" where URL gives "http://host": a host row, politeness and robots.txt of its
  // own for the same site), and the host's origin is a prefix of each of its URLs (the queue inspector cuts by it).
  it("reads a normal form's origin (scheme://host[:port]) without parsing, as URL does", () => {
    fc.assert(
      fc.property(urlLike, (href) => {
        const url = canonicalUrl(href);
        if (url === null) return;
        same(originOfCanonical(url), originOf(url));
        check(url.startsWith(`${originOfCanonical(url)}/`), `origin is not a prefix of ${url}`);
        check(!new URL(url).username && !new URL(url).password, `user info kept in ${url}`);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
