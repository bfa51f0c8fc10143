// Where a crawl's credentials (basic authentication and custom headers) may go: the exact origins of its seeds and
// allowed hosts, never from https down to http, never another port or subdomain the scope takes in.
import { describe, expect, it } from 'vitest';
import { requestHeadersFor } from '../../electron/worker/chain/fetch-http.ts';
import { credentialOrigins, makeCredentialTest, redactSecrets } from '../../shared/credentials.ts';
import { makeScope } from '../../shared/scope.ts';
import { parseSettings } from '../../shared/settings.ts';

const auth = { username: 'ana', password: 'pw' };

function headersFor(settings: Record<string, unknown>) {
  const parsed = parseSettings({ basicAuth: auth, headers: { Cookie: 'session=1' }, ...settings });
  return requestHeadersFor(parsed, makeScope(parsed));
}

describe('credential origins', () => {
  it('an https seed: its own origin only, not the plain-http twin, in every scope', () => {
    for (const scope of ['same-host', 'subdomains', 'domain'] as const) {
      const get = headersFor({ seeds: ['https://example.com/'], scope });
      expect(get('https://example.com/page'), scope).toMatchObject({ authorization: expect.any(String), Cookie: 'session=1' });
      expect(get('http://example.com/page'), scope).toBeUndefined();
    }
  });

  it('subdomain and domain scope: other ports and subdomains are crawled, without the credentials', () => {
    for (const scope of ['subdomains', 'domain'] as const) {
      const get = headersFor({ seeds: ['https://example.com/'], scope });
      expect(get('https://example.com:8443/'), scope).toBeUndefined();
      expect(get('https://www.example.com/'), scope).toBeUndefined();
      expect(get('https://example.com:443/x'), scope).toBeDefined(); // the default port is the same origin
    }
  });

  it('an http seed keeps its credentials over http (the user chose plain http), on its own port only', () => {
    const get = headersFor({ seeds: ['http://127.0.0.1:8080/'], scope: 'subdomains' });
    expect(get('http://127.0.0.1:8080/a')).toBeDefined();
    expect(get('http://127.0.0.1:9090/a')).toBeUndefined();
    expect(get('https://127.0.0.1:8080/a')).toBeUndefined();
  });

  it('allowed hosts get them over the seeds schemes: https only when every seed is https', () => {
    const https = makeCredentialTest(
      parseSettings({ seeds: ['https://example.com/'], allowedHosts: ['cdn.example.org', 'api.example.org:8443'] }),
    );
    expect(https('https://cdn.example.org/x')).toBe(true);
    expect(https('http://cdn.example.org/x')).toBe(false);
    expect(https('https://api.example.org:8443/x')).toBe(true);
    expect(https('https://api.example.org/x')).toBe(false);
    const mixed = credentialOrigins(
      parseSettings({ seeds: ['https://example.com/', 'http://example.net/'], allowedHosts: ['cdn.example.org'] }),
    );
    expect([...mixed].sort()).toEqual(['http://cdn.example.org', 'http://example.net', 'https://cdn.example.org', 'https://example.com']);
  });

  it('URLs out of scope and unparsable URLs get nothing', () => {
    const get = headersFor({ seeds: ['https://example.com/'], exclude: ['/private'] });
    expect(get('https://example.com/private/x')).toBeUndefined();
    expect(get('not a url')).toBeUndefined();
    expect(get('https://other.example/')).toBeUndefined();
  });

  it('redactSecrets keeps names and user, never a value or the password', () => {
    const redacted = redactSecrets({ headers: { Cookie: 'session=1' }, basicAuth: auth });
    expect(JSON.stringify(redacted)).not.toMatch(/session=1|"pw"/);
    expect(redacted).toEqual({ headers: { Cookie: '***' }, basicAuth: { username: 'ana', password: '***' } });
  });
});
