// Reading pages: extractHtml on its own, then runJob end to end against a real HTTP server on 127.0.0.1.
import net, { type AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANCHOR_MAX, type PageFetchResult, type RobotsFetchResult } from '../../shared/protocol.ts';
import { parseSettings } from '../../shared/settings.ts';
import { makeScope } from '../../shared/scope.ts';
import { makeNormaliser } from '../../shared/url/normalise.ts';
import { PAGE_TEXT_MAX } from '../../shared/stored-text.ts';
import { extractHtml } from '../../electron/worker/html/extract-page.ts';
import { countWords } from '../../electron/worker/html/word-count.ts';
import { createFetcher, type Fetcher } from '../../electron/worker/fetch-url.ts';
import { buildFetchChain } from '../../electron/worker/chain/chain.ts';
import { runJob, ROBOTS_MAX_BYTES, type JobStep } from '../../electron/worker/run-job.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';

const PAGE_URL = 'https://example.com/dir/page.html';
const sameHost = (url: string) => new URL(url).host === 'example.com';

describe('extractHtml', () => {
  const doc = `<!doctype html>
<html><head>
  <title>
     The   Title
  </title>
  <meta name="Description" content="  A page   about things. ">
  <link rel="alternate stylesheet" href="/x.css">
  <link rel="canonical" href="/dir/page.html?utm=1#frag">
  <style>.hidden { words: in style }</style>
  <script>var words = "in script";</script>
</head>
<body>
  <svg><title>svg title</title></svg>
  <h1>  First
     heading </h1>
  <h1>Second heading</h1>
  <p>One two <b>thr</b>ee, four.</p>
  <noscript>no script words</noscript>
  <template><p>template words</p></template>
  <div>five|six — seven</div>
  <a href="other.html">Other   page</a>
  <a href="/dir/other.html#section">duplicate</a>
  <a href="HTTP://Example.COM:443/x">https port on http</a>
  <a href="https://elsewhere.org/a"> External </a>
  <a href="mailto:me@example.com">mail</a>
  <a href="javascript:void(0)">js</a>
  <a href="tel:+123">tel</a>
  <a href="data:text/html,hi">data</a>
  <a href="#top">top</a>
  <a href="">self</a>
  <a href="page.html">self by name</a>
  <a href="/img"><img src="i.png" alt="Picture  alt"></a>
  <map><area href="/area" alt="Area alt"></map>
  <a>no href</a>
  <a href="http://[bad">broken</a>
</body></html>`;

  it('reads title, description, first h1, canonical and visible word count', () => {
    const page = extractHtml(doc, PAGE_URL, sameHost);
    expect(page.title).toBe('The Title');
    expect(page.metaDescription).toBe('A page about things.');
    expect(page.h1).toBe('First heading');
    expect(page.canonical).toBe('https://example.com/dir/page.html?utm=1');
    // First heading, Second heading, One two three four, five|six seven, then the link texts. Script, style,
    // noscript, template, <head> and an SVG <title> (a tooltip) never count; "—" is not a word, "thr<b>ee" is one.
    const linkWords = 'Other page duplicate https port on http External mail js tel data top self self by name no href broken'.split(
      ' ',
    ).length;
    expect(page.wordCount).toBe(2 + 2 + 4 + 2 + linkWords);
  });

  it('keeps distinct http(s) links in document order with their first anchor, scoped', () => {
    const page = extractHtml(doc, PAGE_URL, sameHost);
    expect(page.links).toEqual([
      // <link rel=canonical> is a link too (crawled like any other), ahead of the body's links.
      { url: 'https://example.com/dir/page.html?utm=1', anchor: '', kind: 'canonical', inScope: true },
      { url: 'https://example.com/dir/other.html', anchor: 'Other page', kind: 'a', inScope: true },
      { url: 'http://example.com:443/x', anchor: 'https port on http', kind: 'a', inScope: false },
      { url: 'https://elsewhere.org/a', anchor: 'External', kind: 'a', inScope: false },
      { url: 'https://example.com/dir/page.html', anchor: 'self by name', kind: 'a', inScope: true },
      { url: 'https://example.com/img', anchor: 'Picture alt', kind: 'a', inScope: true },
      { url: 'https://example.com/area', anchor: 'Area alt', kind: 'area', inScope: true },
    ]);
  });

  it('resolves links and the canonical against <base href>, so "#x" there is another page', () => {
    const page = extractHtml(
      `<head><base href="/base/sub/"><link rel=canonical href="canon"></head>
       <a href="a">a</a><a href="../b">b</a><a href="//cdn.example.net/c">c</a><a href="#frag">frag</a>`,
      'http://example.com/page',
      sameHost,
    );
    expect(page.canonical).toBe('http://example.com/base/sub/canon');
    expect(page.links.map((l) => l.url)).toEqual([
      'http://example.com/base/sub/canon',
      'http://example.com/base/sub/a',
      'http://example.com/base/b',
      'http://cdn.example.net/c',
      'http://example.com/base/sub/',
    ]);
  });

  it('ignores an unusable <base href>', () => {
    const page = extractHtml('<base href="javascript:alert(1)"><a href="x">x</a>', 'http://example.com/d/p', sameHost);
    expect(page.links.map((l) => l.url)).toEqual(['http://example.com/d/x']);
  });

  it('cuts anchors to ANCHOR_MAX and gives null for missing or empty values', () => {
    const long = 'word '.repeat(100);
    const page = extractHtml(`<title> </title><h1></h1><meta name=description content=""><a href="/l">${long}</a>`, PAGE_URL, sameHost);
    expect(page.links[0]!.anchor.length).toBe(ANCHOR_MAX);
    expect(page.links[0]!.anchor.startsWith('word word')).toBe(true);
    expect([page.title, page.h1, page.metaDescription, page.canonical]).toEqual([null, null, null, null]);
    expect(extractHtml('', PAGE_URL, sameHost)).toEqual({
      title: null,
      metaDescription: null,
      h1: null,
      h1Count: 0,
      h2: null,
      h2Count: 0,
      canonical: null,
      lang: null,
      hreflang: [],
      metaRefresh: null,
      wordCount: 0,
      links: [],
      unfetchableLinks: [],
      metaRobots: null,
      images: [],
      imagesOver: 0,
      security: { httpResources: [], unsafeBlankLinks: [] },
    });
  });

  it('cuts the title, description and headings to PAGE_TEXT_MAX: an unclosed <title> makes the rest of the page its title', () => {
    const rest = `<h1>${'heading '.repeat(200)}</h1><h2>${'\u20ac'.repeat(1000)}</h2>${'<p>text</p>'.repeat(20_000)}`;
    const page = extractHtml(`<head><title>Start ${rest}`, PAGE_URL, sameHost);
    expect(page.title!.length).toBe(PAGE_TEXT_MAX);
    expect(page.title!.startsWith('Start <h1>heading heading')).toBe(true);
    const headed = extractHtml(`<title>T</title><meta name=description content="${'d'.repeat(3000)}">${rest}`, PAGE_URL, sameHost);
    expect(headed.title).toBe('T');
    expect(headed.metaDescription).toBe('d'.repeat(PAGE_TEXT_MAX));
    // Cut after a word's space: what is left ends with the word.
    expect(headed.h1).toBe('heading '.repeat(PAGE_TEXT_MAX / 8).trimEnd());
    expect(headed.h2).toBe('\u20ac'.repeat(PAGE_TEXT_MAX));
    expect(headed.wordCount).toBeGreaterThan(20_000);
  });

  it('tolerates malformed markup, deep nesting and binary garbage', () => {
    const malformed = '<html><title>Broken</title><body><p>unclosed <a href="/x">link<div></p></span><h1>Head</a><a href=/y>y';
    const page = extractHtml(malformed, PAGE_URL, sameHost);
    expect(page.title).toBe('Broken');
    expect(page.h1).toBe('Heady'); // the unclosed <h1> holds the link after it
    expect(page.links.map((l) => l.url)).toEqual(['https://example.com/x', 'https://example.com/y']);
    // An unclosed <title> is raw text to the end, as in a browser: nothing to extract, nothing thrown.
    expect(extractHtml('<title>Broken<body><a href="/x">x</a>', PAGE_URL, sameHost).links).toEqual([]);
    expect(() => extractHtml('<div>'.repeat(50_000) + 'deep', PAGE_URL, sameHost)).not.toThrow();
    expect(extractHtml('<div>'.repeat(50_000) + 'deep words', PAGE_URL, sameHost).wordCount).toBe(2);
    let seed = 42;
    const bytes = Buffer.alloc(200_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    expect(() => extractHtml(bytes.toString('latin1'), PAGE_URL, sameHost)).not.toThrow();
    expect(() => extractHtml(bytes.toString('utf8'), 'not a url', sameHost)).not.toThrow();
  });

  it('uses the normaliser it is given for links, the canonical and the "#top" self-link', () => {
    const normalise = makeNormaliser({ stripQueryParams: ['ref'] });
    const page = extractHtml(
      '<link rel=canonical href="?ref=c"><a href="#top">top</a><a href="?ref=x">self</a><a href="/o?ref=1&k=2">o</a>',
      'https://example.com/p?ref=home',
      sameHost,
      normalise,
    );
    expect(page.canonical).toBe('https://example.com/p');
    expect(page.links.map((l) => l.url)).toEqual(['https://example.com/p', 'https://example.com/o?k=2']);
  });

  it('counts words that have a letter or digit', () => {
    expect(countWords('  hello   world — 42 | ok ')).toBe(4);
    expect(countWords('')).toBe(0);
  });
});

describe('runJob', () => {
  let site: FixtureSite;
  let fetcher: Fetcher;
  let jobId = 0;
  const steps: Array<{ step: JobStep; processor: string; bytes: number }> = [];

  beforeAll(async () => {
    site = await startFixtureSite({
      pages: 10,
      routes: {
        '/redirect-in': (_req, res) => void res.writeHead(302, { location: '/p/1#frag' }).end(),
        '/redirect-out': (_req, res) => void res.writeHead(301, { location: 'https://elsewhere.invalid/x' }).end(),
        '/redirect-bad': (_req, res) => void res.writeHead(301, { location: 'mailto:x@y' }).end(),
        '/redirect-tracked': (_req, res) => void res.writeHead(302, { location: '/p/1?utm_source=mail&id=3' }).end(),
        '/tracked': (_req, res) =>
          void res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(
              '<link rel=canonical href="/tracked?utm_medium=x"><a href="/p/2?id=1&utm_term=y">a</a><a href="/p/2?id=1">b</a><a href="/private/z">c</a>',
            ),
        '/gone': (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Gone</title><a href="/p/3">x</a>'),
        '/data.json': (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":"<a href=/p/2>"}'),
        '/gz': (_req, res) =>
          void res
            .writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1', 'content-encoding': 'gzip' })
            .end(zlib.gzipSync(Buffer.from('<title>Ça marche</title><a href="/p/4">quatre</a>', 'latin1'))),
      },
    });
    fetcher = createFetcher(parseSettings({ seeds: [site.origin] }));
  });

  afterAll(async () => {
    await fetcher?.close();
    await site?.close();
  });

  async function run(job: { kind: 'page'; url: string; depth: number }, more: Record<string, unknown> = {}) {
    steps.length = 0;
    const settings = parseSettings({ seeds: [site.origin], ...more });
    return runJob(
      { ...job, jobId: ++jobId, threadId: 7 },
      {
        fetcher,
        settings,
        scope: makeScope(settings),
        normalise: makeNormaliser(settings),
        chain: buildFetchChain(settings),
        report: (step, processor, bytes) => steps.push({ step, processor, bytes }),
      },
    );
  }
  const page = async (path: string) => (await run({ kind: 'page', url: site.url(path), depth: 0 })) as PageFetchResult;

  it('fetches and reads a page, reporting fetching then processing', async () => {
    const r = await page('/p/0');
    expect(r).toMatchObject({ kind: 'page', threadId: 7, url: site.url('/p/0'), statusCode: 200, error: null, title: 'Page 0' });
    expect(r.metaDescription).toBe('About page 0');
    expect(r.h1).toBe('Heading 0');
    expect(r.wordCount).toBeGreaterThan(5);
    expect(r.redirectUrl).toBeNull();
    expect(r.links.filter((l) => l.inScope).map((l) => l.url)).toContain(site.url('/p/1'));
    expect(r.links.find((l) => l.url.includes('elsewhere.invalid'))?.inScope).toBe(false);
    expect(r.links.some((l) => l.url.includes('#'))).toBe(false);
    // The step names the processor: fetch first, the HTML extractor last.
    expect(steps[0]).toEqual({ step: 'fetching', processor: 'fetch-http', bytes: 0 });
    expect(steps.map((s) => s.processor)).toEqual(expect.arrayContaining(['extract-http-headers', 'extract-location']));
    expect(steps.at(-1)).toEqual({ step: 'processing', processor: 'extract-html', bytes: r.sizeBytes });
  });

  it('records a redirect with its canonical target and scope, without parsing', async () => {
    const inside = await page('/redirect-in');
    expect([inside.statusCode, inside.redirectUrl, inside.redirectInScope, inside.links]).toEqual([302, site.url('/p/1'), true, []]);
    const outside = await page('/redirect-out');
    expect([outside.redirectUrl, outside.redirectInScope]).toEqual(['https://elsewhere.invalid/x', false]);
    const bad = await page('/redirect-bad');
    expect([bad.statusCode, bad.redirectUrl]).toEqual([301, null]);
  });

  it('puts redirect targets, links and the canonical link through the crawl normaliser and scope', async () => {
    const more = { stripQueryParams: ['utm_*'], exclude: ['/private/'] };
    const redirect = (await run({ kind: 'page', url: site.url('/redirect-tracked'), depth: 0 }, more)) as PageFetchResult;
    expect([redirect.redirectUrl, redirect.redirectInScope]).toEqual([site.url('/p/1?id=3'), true]);
    const r = (await run({ kind: 'page', url: site.url('/tracked'), depth: 0 }, more)) as PageFetchResult;
    expect(r.canonical).toBe(site.url('/tracked'));
    expect(r.links).toEqual([
      { url: site.url('/p/2?id=1'), anchor: 'a', kind: 'a', inScope: true },
      { url: site.url('/private/z'), anchor: 'c', kind: 'a', inScope: false },
    ]);
    // Without the settings, the same page keeps its parameters.
    const plain = (await run({ kind: 'page', url: site.url('/tracked'), depth: 0 })) as PageFetchResult;
    expect(plain.links.map((l) => [l.url, l.inScope])).toEqual([
      [site.url('/tracked?utm_medium=x'), true], // the canonical, now another URL than the page
      [site.url('/p/2?id=1&utm_term=y'), true],
      [site.url('/p/2?id=1'), true],
      [site.url('/private/z'), true],
    ]);
  });

  it('does not parse error pages or non-HTML', async () => {
    const gone = await page('/gone');
    expect([gone.statusCode, gone.title, gone.wordCount, gone.links]).toEqual([404, null, null, []]);
    const json = await page('/data.json');
    expect([json.statusCode, json.contentType, json.wordCount, json.links]).toEqual([200, 'application/json', null, []]);
    expect(json.sizeBytes).toBeGreaterThan(0);
  });

  it('decompresses and decodes before parsing', async () => {
    const r = await page('/gz');
    expect(r.title).toBe('Ça marche');
    expect(r.links).toEqual([{ url: site.url('/p/4'), anchor: 'quatre', kind: 'a', inScope: true }]);
  });

  it('passes network errors through as the result error', async () => {
    // A port that was just free: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const r = (await run({ kind: 'page', url: `http://127.0.0.1:${closedPort}/`, depth: 0 })) as PageFetchResult;
    expect([r.statusCode, r.error, r.wordCount, r.links]).toEqual([null, 'connection refused', null, []]);
  });
});

describe('runJob robots.txt', () => {
  let site: FixtureSite;
  let fetcher: Fetcher;
  beforeAll(async () => {
    site = await startFixtureSite({
      routes: {
        '/robots.txt': (_req, res) => void res.writeHead(301, { location: '/r1' }).end(),
        '/r1': (_req, res) => void res.writeHead(302, { location: '/r2' }).end(),
        '/r2': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('\ufeffUser-agent: *\nDisallow: /private\n'),
        '/loop': (_req, res) => void res.writeHead(302, { location: '/loop' }).end(),
        '/huge': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('#'.repeat(ROBOTS_MAX_BYTES + 5000)),
        '/missing': (_req, res) => void res.writeHead(404).end('nope'),
      },
    });
    fetcher = createFetcher(parseSettings({ seeds: [site.origin] }));
  });
  afterAll(async () => {
    await fetcher?.close();
    await site?.close();
  });

  const robots = (path: string) => {
    const settings = parseSettings({ seeds: [site.origin] });
    return runJob(
      { kind: 'robots', jobId: 1, threadId: 2, url: site.url(path) },
      {
        fetcher,
        settings,
        scope: makeScope(settings),
        normalise: makeNormaliser(settings),
        chain: buildFetchChain(settings),
        report: () => undefined,
      },
    ) as Promise<RobotsFetchResult>;
  };

  it('follows redirects itself and returns the text without a BOM', async () => {
    const r = await robots('/robots.txt');
    expect(r).toMatchObject({ kind: 'robots', url: site.url('/robots.txt'), statusCode: 200, error: null });
    expect(r.body).toBe('User-agent: *\nDisallow: /private\n');
    expect(site.fetchedPaths().slice(-2)).toEqual(['/r1', '/r2']);
  });

  it('gives up after five redirects', async () => {
    const before = site.log.length;
    const r = await robots('/loop');
    expect([r.statusCode, r.body, r.error]).toEqual([302, null, 'too many redirects']);
    expect(site.log.length - before).toBe(6);
  });

  it('cuts the body at 500 KiB and reports 4xx without a body', async () => {
    const huge = await robots('/huge');
    expect([huge.statusCode, huge.error, huge.body?.length]).toEqual([200, null, ROBOTS_MAX_BYTES]);
    const missing = await robots('/missing');
    expect([missing.statusCode, missing.body, missing.error]).toEqual([404, null, null]);
  });
});

describe('deep nesting', () => {
  // Found by fuzzing (fuzz-html.test.ts, its nesting generator): each open link copied every text into its own
  // capture (and every end tag was looked for among all open links), so the time grew with the square of the
  // nesting. A 1.1 MB page (a tenth of the default maxBodyBytes) of unclosed links held a worker thread for
  // minutes; it is now linear.
  it('reads deeply nested unclosed links in time linear in the page (a loose hang bound)', () => {
    const started = performance.now();
    // 20,000 of them: 38 s before (on a loaded 2-core machine), about a second now.
    const out = extractHtml('<a href=x>t'.repeat(20_000) + '<div>'.repeat(20_000), 'https://site.example/', () => true);
    expect(out.links).toHaveLength(1);
    expect(out.links[0]!.anchor).toBe('t'.repeat(ANCHOR_MAX));
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 120_000);
});
