// Scope (shared/scope.ts) at the edges mutation testing found untested; the main cases are in
// test/processes/scope.test.ts.
import { describe, expect, it } from 'vitest';
import { hostKey, makeScope } from '../../shared/scope.ts';

const label = (c: string, n: number) => c.repeat(n);

describe('scope edges', () => {
  it('takes an allowedHosts name of up to 253 characters, not longer', () => {
    const name253 = [label('a', 63), label('b', 63), label('c', 63), label('d', 61)].join('.');
    expect(name253.length).toBe(253);
    expect(hostKey(name253)).toBe(name253);
    expect(hostKey(`${name253}e`)).toBeNull();
  });

  it('treats only a whole dotted quad as an IP address: a name beginning with one has subdomains', () => {
    const test = makeScope({ seeds: ['http://1.2.3.4.example/'], scope: 'subdomains' });
    expect(test('http://1.2.3.4.example/')).toBe(true);
    expect(test('http://www.1.2.3.4.example/')).toBe(true);
    expect(test('http://2.3.4.example/')).toBe(false);
  });

  it('refuses an invalid pattern, naming it a regular expression', () => {
    expect(() => makeScope({ seeds: ['http://a.test/'], exclude: ['('] })).toThrow(/^invalid regular expression "\("/);
    expect(() => makeScope({ seeds: ['http://a.test/'], include: ['a', '['] })).toThrow(/^invalid regular expression "\["/);
  });

  it('passes over a seed that is not a URL and keeps the others', () => {
    for (const scope of ['same-host', 'subdomains', 'domain'] as const) {
      const test = makeScope({ seeds: ['not a url', 'http://a.test/'], scope });
      expect(test('http://a.test/x'), scope).toBe(true);
      expect(test('http://b.test/x'), scope).toBe(false);
    }
  });
});
