import { describe, expect, it } from 'vitest';
import { canonicalUrl } from '../../shared/url/canonical.ts';
import { makeNormaliser, paramMatcher, stripQueryParams } from '../../shared/url/normalise.ts';

describe('makeNormaliser', () => {
  it('is canonicalUrl itself when no parameters are stripped', () => {
    expect(makeNormaliser({})).toBe(canonicalUrl);
    expect(makeNormaliser({ stripQueryParams: [] })).toBe(canonicalUrl);
  });

  it('canonicalises first: case, default port, fragment, dot segments, relative links', () => {
    const n = makeNormaliser({ stripQueryParams: ['utm_*'] });
    expect(n('HTTP://Example.COM:80/a/./b/../c?utm_source=x#frag')).toBe('http://example.com/a/c');
    expect(n('../up.html?utm_medium=y&k=1#x', 'https://example.com/dir/page.html')).toBe('https://example.com/up.html?k=1');
    expect(n('mailto:me@example.com')).toBeNull();
    expect(n('/relative-without-base')).toBeNull();
  });

  it('strips named parameters so URLs that differ only in them are one URL', () => {
    const n = makeNormaliser({ stripQueryParams: ['utm_source', 'sid'] });
    expect(n('https://example.com/p?utm_source=x&id=1')).toBe('https://example.com/p?id=1');
    expect(n('https://example.com/p?id=1&sid=abc')).toBe(n('https://example.com/p?id=1'));
    expect(n('https://example.com/p?id=1&utm_source=a&utm_source=b')).toBe('https://example.com/p?id=1');
  });

  it('treats a trailing * as a name prefix', () => {
    const n = makeNormaliser({ stripQueryParams: ['utm_*'] });
    expect(n('https://example.com/?utm_source=a&utm_medium=b&id=2&utm_=c')).toBe('https://example.com/?id=2');
    expect(n('https://example.com/?xutm_source=a')).toBe('https://example.com/?xutm_source=a');
    expect(makeNormaliser({ stripQueryParams: ['*'] })('https://example.com/p?a=1&b=2')).toBe('https://example.com/p');
  });

  it('drops the "?" when nothing is left', () => {
    const n = makeNormaliser({ stripQueryParams: ['utm_*'] });
    expect(n('https://example.com/p?utm_source=x')).toBe('https://example.com/p');
    expect(n('https://example.com/p?utm_source=x&utm_medium=y')).toBe('https://example.com/p');
    expect(n('https://example.com/p?')).toBe('https://example.com/p?');
  });

  it('keeps the other parameters exactly as written and in order', () => {
    const n = makeNormaliser({ stripQueryParams: ['drop'] });
    expect(n('https://example.com/?b=2&drop=1&a=%2F+x&c&=v&a=1')).toBe('https://example.com/?b=2&a=%2F+x&c&=v&a=1');
  });

  it('compares decoded names exactly, case-sensitively, with or without a value', () => {
    const n = makeNormaliser({ stripQueryParams: ['utm_source', 'my param', 'flag'] });
    expect(n('https://example.com/?utm%5Fsource=1&k=1')).toBe('https://example.com/?k=1');
    expect(n('https://example.com/?my+param=1&my%20param=2&k=1')).toBe('https://example.com/?k=1');
    expect(n('https://example.com/?flag&k=1')).toBe('https://example.com/?k=1');
    expect(n('https://example.com/?UTM_SOURCE=1')).toBe('https://example.com/?UTM_SOURCE=1');
    expect(n('https://example.com/?%E0%A4%A=1&flag=')).toBe('https://example.com/?%E0%A4%A=1');
  });

  it('leaves a URL without a query alone', () => {
    expect(stripQueryParams('https://example.com/a', paramMatcher(['a'])!)).toBe('https://example.com/a');
    expect(paramMatcher([])).toBeNull();
  });
});
