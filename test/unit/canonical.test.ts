import { describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH, canonicalUrl, hostOf, originOf } from '../../shared/url/canonical.ts';

describe('canonicalUrl', () => {
  it('canonicalises the example from the spec', () => {
    expect(canonicalUrl('http://Example.COM:80/a/./b/../c#x')).toBe('http://example.com/a/c');
  });

  it('lower-cases the scheme and host but not the path or query', () => {
    expect(canonicalUrl('HTTP://WWW.Example.COM/Path/To?Q=Yes')).toBe('http://www.example.com/Path/To?Q=Yes');
    expect(canonicalUrl('HtTpS://EXAMPLE.com/')).toBe('https://example.com/');
  });

  it('drops the default port but keeps any other', () => {
    expect(canonicalUrl('http://example.com:80/x')).toBe('http://example.com/x');
    expect(canonicalUrl('https://example.com:443/x')).toBe('https://example.com/x');
    expect(canonicalUrl('http://example.com:8080/x')).toBe('http://example.com:8080/x');
    expect(canonicalUrl('https://example.com:80/x')).toBe('https://example.com:80/x');
    expect(canonicalUrl('http://example.com:443/x')).toBe('http://example.com:443/x');
  });

  it('drops the fragment, including an empty one', () => {
    expect(canonicalUrl('https://example.com/page#section')).toBe('https://example.com/page');
    expect(canonicalUrl('https://example.com/page?q=1#section')).toBe('https://example.com/page?q=1');
    expect(canonicalUrl('https://example.com/page#')).toBe('https://example.com/page');
  });

  it('gives a bare host the path "/"', () => {
    expect(canonicalUrl('https://example.com')).toBe('https://example.com/');
    expect(canonicalUrl('https://example.com')).toBe(canonicalUrl('https://example.com/'));
  });

  it('drops user info: "http://u:p@host/x" is "http://host/x" on the wire, one URL and one host', () => {
    expect(canonicalUrl('http://u@example.com/x')).toBe('http://example.com/x');
    expect(canonicalUrl('https://u:secret@Example.com:443/x?q=1')).toBe('https://example.com/x?q=1');
    expect(canonicalUrl('http://:@example.com:8080/')).toBe('http://example.com:8080/');
    expect(canonicalUrl('//u:p@cdn.example.org/lib.js', 'https://example.com/')).toBe('https://cdn.example.org/lib.js');
  });

  it('resolves dot segments', () => {
    expect(canonicalUrl('https://example.com/a/b/../c/./d')).toBe('https://example.com/a/c/d');
    expect(canonicalUrl('https://example.com/../../x')).toBe('https://example.com/x');
    expect(canonicalUrl('https://example.com/a/%2e%2e/b')).toBe('https://example.com/b');
  });

  it('resolves relative URLs against a base', () => {
    const base = 'https://example.com/dir/page.html?x=1#top';
    expect(canonicalUrl('other.html', base)).toBe('https://example.com/dir/other.html');
    expect(canonicalUrl('../up.html#frag', base)).toBe('https://example.com/up.html');
    expect(canonicalUrl('/root', base)).toBe('https://example.com/root');
    expect(canonicalUrl('?y=2', base)).toBe('https://example.com/dir/page.html?y=2');
    expect(canonicalUrl('#only-a-fragment', base)).toBe('https://example.com/dir/page.html?x=1');
    expect(canonicalUrl('//cdn.example.org/lib.js', base)).toBe('https://cdn.example.org/lib.js');
    expect(canonicalUrl('http://Other.example:80/', base)).toBe('http://other.example/');
    expect(canonicalUrl('  spaced.html  ', new URL(base))).toBe('https://example.com/dir/spaced.html');
  });

  it.each([
    'mailto:someone@example.com',
    'MAILTO:someone@example.com',
    'javascript:void(0)',
    'javascript:alert(1)',
    'tel:+15551234567',
    'data:text/html,<p>hi</p>',
    'ftp://example.com/file',
    'file:///etc/passwd',
    'about:blank',
  ])('refuses the non-http(s) URL %j', (href) => {
    expect(canonicalUrl(href)).toBeNull();
    expect(canonicalUrl(href, 'https://example.com/')).toBeNull();
  });

  it.each([
    '',
    '   ',
    'notaurl',
    'http://',
    'https://',
    'http://exa mple.com/',
    'http://[::1',
    '://example.com',
    'http://example.com:99999/',
  ])('refuses the garbage %j', (href) => {
    expect(canonicalUrl(href)).toBeNull();
  });

  it('refuses a relative URL with no base, and a garbage base', () => {
    expect(canonicalUrl('/path')).toBeNull();
    expect(canonicalUrl('page.html', 'not a base')).toBeNull();
  });

  it('refuses URLs longer than MAX_URL_LENGTH', () => {
    const prefix = 'https://example.com/';
    expect(canonicalUrl(prefix + 'a'.repeat(MAX_URL_LENGTH - prefix.length))).toHaveLength(MAX_URL_LENGTH);
    expect(canonicalUrl(prefix + 'a'.repeat(MAX_URL_LENGTH - prefix.length + 1))).toBeNull();
  });

  it('percent-encodes spaces and non-ASCII consistently', () => {
    const inputs = [
      'http://example.com/a b/c d?q=x y',
      'https://example.com/日本語/ページ?q=é&emoji=🎉',
      'https://example.com/caf\u00e9',
      'https://example.com/path with spaces#frag',
    ];
    for (const href of inputs) {
      const once = canonicalUrl(href);
      expect(once).not.toBeNull();
      expect(canonicalUrl(href)).toBe(once);
      // Canonical output is a fixed point: no raw spaces or non-ASCII remain, and re-canonicalising changes nothing.
      expect(once).toMatch(/^[\x21-\x7e]+$/);
      expect(canonicalUrl(once!)).toBe(once);
    }
    expect(canonicalUrl('http://example.com/a b/c d?q=x y')).toBe('http://example.com/a%20b/c%20d?q=x%20y');
    expect(canonicalUrl('https://example.com/日本語?q=é')).toBe('https://example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E?q=%C3%A9');
  });

  it('gives the raw and the already-encoded spelling the same canonical form', () => {
    expect(canonicalUrl('https://example.com/a b')).toBe(canonicalUrl('https://example.com/a%20b'));
    expect(canonicalUrl('https://example.com/日本語')).toBe(canonicalUrl('https://example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E'));
    expect(canonicalUrl('https://example.com/?q=é')).toBe(canonicalUrl('https://example.com/?q=%C3%A9'));
  });

  it('encodes an internationalised host name as punycode', () => {
    expect(canonicalUrl('https://Bücher.example/')).toBe('https://xn--bcher-kva.example/');
    expect(canonicalUrl('https://日本語.jp/')).toBe(canonicalUrl('https://xn--wgv71a119e.jp/'));
  });

  it('drops tabs and newlines inside the URL and trims surrounding whitespace (WHATWG)', () => {
    expect(canonicalUrl('  https://example.com/x  ')).toBe('https://example.com/x');
    expect(canonicalUrl('https://example.com/a\n\tb')).toBe('https://example.com/ab');
  });
});

describe('originOf and hostOf', () => {
  it('originOf is scheme://host[:port] without a default port', () => {
    expect(originOf('https://example.com/a?b#c')).toBe('https://example.com');
    expect(originOf('http://example.com:8080/a')).toBe('http://example.com:8080');
  });

  it('hostOf is host[:port], the same for http and https', () => {
    expect(hostOf('https://example.com/a')).toBe('example.com');
    expect(hostOf('http://example.com/a')).toBe('example.com');
    expect(hostOf('http://example.com:8080/a')).toBe('example.com:8080');
  });
});

describe('percent-escape case', () => {
  it('treats %e6 and %E6 (and the raw character) as one URL', () => {
    const a = canonicalUrl('http://h.test/%e6%97%a5?q=%c3%a9');
    expect(a).toBe('http://h.test/%E6%97%A5?q=%C3%A9');
    expect(canonicalUrl('http://h.test/日?q=é')).toBe(a);
  });
});

describe('escaped unreserved characters', () => {
  it('decodes them, so /%61 and /a are one URL, but keeps reserved escapes', () => {
    expect(canonicalUrl('http://h.test/%61%7E?x=%2D')).toBe('http://h.test/a~?x=-');
    expect(canonicalUrl('http://h.test/a%2Fb?x=%26')).toBe('http://h.test/a%2Fb?x=%26');
  });
});

describe('a "%" that starts no escape', () => {
  // Found by fuzzing (fuzz-url.test.ts): decoding "%36" after a lone "%" made "%641", which the next pass read as
  // "d1", so a stored URL was not its own normal form (and "http://a/%%32D" came out as "http://a/%2D", not "-").
  it('is kept, and no escape is decoded into a hex digit after it, so the normal form is its own normal form', () => {
    for (const [href, normal] of [
      ['http://h.test/%%3641', 'http://h.test/%%3641'],
      ['http://h.test/%4%31', 'http://h.test/%4%31'],
      ['http://h.test/?q=%%30a', 'http://h.test/?q=%%30a'],
      ['http://h.test/%%32D', 'http://h.test/%%32D'],
      ['http://h.test/%zz%61', 'http://h.test/%zza'],
      ['http://h.test/%%2F%61', 'http://h.test/%%2Fa'],
    ]) {
      expect(canonicalUrl(href!)).toBe(normal);
      expect(canonicalUrl(normal!)).toBe(normal);
    }
  });
});
