// Security and hreflang (issue 18.5) as the worker reads them and the engine judges them: the security extractor's
// plain-HTTP resources (mixed content, whether or not resources are checked) and unsafe target=_blank links, bounded;
// the security headers; the flags each filter reads; hreflang code validation; the rows recorded per page.
import { describe, expect, it } from 'vitest';
import { extractHtml } from '../../electron/worker/html/extract-page.ts';
import { securityHeaders } from '../../electron/worker/chain/extract-http-headers.ts';
import { hreflangRowsOf, securityRowOf } from '../../electron/engine/frontier/page-outcome.ts';
import { isValidHreflang } from '../../shared/hreflang.ts';
import { SECURITY_HEADER_MAX, SECURITY_LIST_MAX, type PageSecurity } from '../../shared/protocol.ts';
import { SECURITY_FLAG, securityFlags, securityProblems } from '../../shared/security.ts';
import { fetchedPage } from '../helpers/page-result.ts';

const inScope = () => true;
const PAGE = 'https://example.com/dir/page';
const pageResult = (extra: Parameters<typeof fetchedPage>[2]['extra']) => fetchedPage('https://a.example/', [], { inScope, extra });

describe('the security extractor', () => {
  it('finds what an HTTPS page loads over plain HTTP: img, srcset, script, stylesheet, iframe, media; not links or https', () => {
    const { security } = extractHtml(
      `<html><head><link rel="stylesheet" href="http://cdn.example/a.css"><link rel="icon" href="http://x.example/i.ico">
       <script src="HTTP://cdn.example/a.js"></script><script src="/local.js"></script></head><body>
       <img src="http://img.example/1.png" srcset="https://img.example/2.png 1x, http://img.example/3.png 2x">
       <iframe src="http://frame.example/"></iframe><video src="http://v.example/v.mp4"></video>
       <img src="//img.example/relative-scheme.png"><img src="https://img.example/ok.png">
       <a href="http://plain.example/">a link is not a resource</a><img src="http://img.example/1.png"></body></html>`,
      PAGE,
      inScope,
    );
    expect(security.httpResources).toEqual([
      { url: 'http://cdn.example/a.css', kind: 'stylesheet' },
      { url: 'http://cdn.example/a.js', kind: 'script' },
      { url: 'http://img.example/1.png', kind: 'image' },
      { url: 'http://img.example/3.png', kind: 'image' },
      { url: 'http://frame.example/', kind: 'iframe' },
      { url: 'http://v.example/v.mp4', kind: 'media' },
    ]);
  });

  it('counts a relative resource under an http: <base> as plain HTTP', () => {
    const { security } = extractHtml('<base href="http://old.example/"><img src="pic.png">', PAGE, inScope);
    expect(security.httpResources).toEqual([{ url: 'http://old.example/pic.png', kind: 'image' }]);
  });

  it('lists target=_blank links to another origin without noopener or noreferrer, once each', () => {
    const { security } = extractHtml(
      `<a target="_blank" href="https://other.example/a">unsafe</a>
       <a target=" _BLANK " href="http://other.example/b">unsafe too</a>
       <a target="_blank" rel="noopener" href="https://other.example/c">safe</a>
       <a target="_blank" rel="nofollow noreferrer" href="https://other.example/d">safe</a>
       <a target="_blank" href="/same-origin">same origin</a>
       <a target="_blank" href="https://example.com/x">same origin, absolute</a>
       <a target="_self" href="https://other.example/e">not blank</a>
       <a target="_blank" href="mailto:a@b.example">not http</a>
       <area target="_blank" href="https://other.example/f">
       <a target="_blank" href="https://other.example/a">again</a>`,
      PAGE,
      inScope,
    );
    expect(security.unsafeBlankLinks).toEqual(['https://other.example/a', 'http://other.example/b', 'https://other.example/f']);
  });

  it('is bounded: a page of 10,000 unsafe links and images keeps SECURITY_LIST_MAX of each', () => {
    const html = Array.from(
      { length: 10_000 },
      (_, i) => `<a target="_blank" href="https://o${i}.example/">x</a><img src="http://i.example/${i}.png">`,
    ).join('');
    const { security } = extractHtml(html, PAGE, inScope);
    expect(security.unsafeBlankLinks).toHaveLength(SECURITY_LIST_MAX);
    expect(security.httpResources).toHaveLength(SECURITY_LIST_MAX);
  });

  it('reads the four headers from the whole head, each cut to SECURITY_HEADER_MAX', () => {
    expect(
      securityHeaders({
        'strict-transport-security': 'max-age=1',
        'content-security-policy': 'x'.repeat(SECURITY_HEADER_MAX + 10),
        'x-frame-options': 'DENY',
      }),
    ).toEqual({
      hsts: 'max-age=1',
      csp: 'x'.repeat(SECURITY_HEADER_MAX),
      xContentTypeOptions: null,
      xFrameOptions: 'DENY',
    });
  });
});

const sec = (o: Partial<PageSecurity> = {}): PageSecurity => ({
  hsts: 'max-age=31536000; includeSubDomains',
  csp: "default-src 'self'",
  xContentTypeOptions: 'nosniff',
  xFrameOptions: 'SAMEORIGIN',
  httpResources: [],
  unsafeBlankLinks: [],
  ...o,
});

describe('security flags', () => {
  it('flags nothing on a well-protected HTTPS page', () => {
    expect(securityFlags('https://a.example/', sec())).toBe(0);
  });

  it('flags each problem by its own bit', () => {
    const F = SECURITY_FLAG;
    expect(securityFlags('http://a.example/', sec({ hsts: null }))).toBe(F.http);
    expect(securityFlags('http://a.example/', sec({ httpResources: [{ url: 'http://x/', kind: 'image' }] }))).toBe(F.http);
    expect(securityFlags('https://a.example/', sec({ httpResources: [{ url: 'http://x/', kind: 'image' }] }))).toBe(F.mixedContent);
    expect(securityFlags('https://a.example/', sec({ hsts: null }))).toBe(F.noHsts);
    expect(securityFlags('https://a.example/', sec({ hsts: 'max-age=0' }))).toBe(F.noHsts);
    expect(securityFlags('https://a.example/', sec({ csp: null }))).toBe(F.noCsp);
    expect(securityFlags('https://a.example/', sec({ xContentTypeOptions: 'sniff' }))).toBe(F.noNosniff);
    expect(securityFlags('https://a.example/', sec({ xFrameOptions: null }))).toBe(F.noFrameOptions);
    expect(securityFlags('https://a.example/', sec({ xFrameOptions: 'ALLOW-FROM x' }))).toBe(F.noFrameOptions);
    // frame-ancestors in the CSP stands in for X-Frame-Options.
    expect(securityFlags('https://a.example/', sec({ xFrameOptions: null, csp: "default-src 'self'; frame-ancestors 'none'" }))).toBe(0);
    expect(securityFlags('https://a.example/', sec({ unsafeBlankLinks: ['https://o.example/'] }))).toBe(F.unsafeBlankLinks);
    expect(securityProblems(F.noCsp | F.http)).toEqual(['http', 'noCsp']);
  });

  it('is recorded only for a page the worker read', () => {
    const claim = { urlId: 7, url: 'https://a.example/' };
    expect(securityRowOf(claim, pageResult({}))).toBeNull();
    expect(securityRowOf(claim, pageResult({ security: sec({ unsafeBlankLinks: ['https://o.example/'] }) }))).toEqual([
      7,
      SECURITY_FLAG.unsafeBlankLinks,
      'max-age=31536000; includeSubDomains',
      "default-src 'self'",
      'nosniff',
      'SAMEORIGIN',
      null,
      '["https://o.example/"]',
    ]);
  });
});

describe('hreflang', () => {
  it('accepts ISO 639-1 languages with an optional script and ISO 3166-1 region, and x-default', () => {
    for (const ok of ['en', 'EN-gb', 'de-AT', 'zh-Hant', 'zh-Hant-TW', 'x-default', 'X-Default', ' fr '])
      expect({ ok, valid: isValidHreflang(ok) }).toEqual({ ok, valid: true });
    for (const bad of ['en-UK', 'en_US', 'eng', 'xx', 'en-', '', 'en-GB-x', 'es-419', 'default', 'us'])
      expect({ bad, valid: isValidHreflang(bad) }).toEqual({ bad, valid: false });
  });

  it('records a row per alternate by target id, the page itself by its own id, an unknown URL left out', () => {
    const claim = { urlId: 1, url: 'https://a.example/en' };
    const ids = new Map([['https://a.example/de', 2]]);
    const result = pageResult({
      hreflang: [
        { lang: 'en', url: 'https://a.example/en' },
        { lang: 'de', url: 'https://a.example/de' },
        { lang: 'en-UK', url: 'https://a.example/de' },
        { lang: 'de', url: 'https://a.example/de' },
        { lang: 'fr', url: 'https://a.example/unknown' },
      ],
    });
    expect(hreflangRowsOf(claim, result, (u) => ids.get(u))).toEqual([
      [1, 1, 'en', 1],
      [1, 2, 'de', 1],
      [1, 2, 'en-UK', 0],
    ]);
  });
});
