// Crawl scope: the host rule of each mode, include/exclude, maxUrlLength, then whole crawls over two sites on
// 127.0.0.1 (two ports: two hosts) and ".invalid" links.
import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { parse as parseCsv } from 'csv-parse/sync';
import { makeScope, makeScopeReason, hostKey, type ScopeSettings } from '../../shared/scope.ts';
import { parseSettings } from '../../shared/settings.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { newCrawl, tempDir } from '../helpers/engine.ts';
import { runCli } from '../helpers/cli.ts';

function inScope(settings: ScopeSettings, urls: string[]): Record<string, boolean> {
  const test = makeScope(settings);
  return Object.fromEntries(urls.map((u) => [u, test(u)]));
}

function expectScope(settings: ScopeSettings, inside: string[], outside: string[]): void {
  const test = makeScope(settings);
  for (const u of inside) expect([u, test(u)]).toEqual([u, true]);
  for (const u of outside) expect([u, test(u)]).toEqual([u, false]);
}

describe('host rule', () => {
  it('same-host (the default): a seed host[:port], http and https alike', () => {
    expectScope(
      { seeds: ['https://www.example.com/start'] },
      ['https://www.example.com/', 'http://www.example.com/x?y=1', 'https://www.example.com:443/z'],
      ['https://example.com/', 'https://shop.www.example.com/', 'https://www.example.com:8443/', 'https://www.example.com.evil.test/'],
    );
    expectScope(
      { seeds: ['http://127.0.0.1:8080/', 'http://[::1]:3000/'], scope: 'same-host' },
      ['http://127.0.0.1:8080/a', 'http://[::1]:3000/b'],
      ['http://127.0.0.1:8081/', 'http://127.0.0.1/', 'http://[::1]/', 'http://localhost:8080/'],
    );
  });

  it('subdomains: a seed host name and every name below it, on any port', () => {
    expectScope(
      { seeds: ['https://www.example.com/'], scope: 'subdomains' },
      ['https://www.example.com/', 'http://shop.www.example.com/', 'https://a.b.www.example.com/', 'https://www.example.com:8443/'],
      ['https://example.com/', 'https://other.example.com/', 'https://xwww.example.com/', 'https://www.example.com.evil.test/'],
    );
  });

  it('subdomains of an IP address seed: only that address', () => {
    expectScope(
      { seeds: ['http://10.0.0.1:8080/'], scope: 'subdomains' },
      ['http://10.0.0.1:8080/', 'http://10.0.0.1/'],
      ['http://10.0.0.2/', 'http://x.10.0.0.1.example/'],
    );
  });

  it('domain: the registrable domain from the public suffix list', () => {
    expectScope(
      { seeds: ['https://www.example.co.uk/'], scope: 'domain' },
      ['https://example.co.uk/', 'https://shop.example.co.uk/', 'http://a.b.example.co.uk:8080/', 'https://www.example.co.uk/'],
      ['https://other.co.uk/', 'https://co.uk/', 'https://example.com/', 'https://notexample.co.uk/', 'https://example.co.uk.evil.test/'],
    );
    expectScope(
      { seeds: ['https://docs.example.com/'], scope: 'domain' },
      ['https://example.com/', 'https://www.example.com/', 'https://api.v2.example.com/'],
      ['https://example.org/', 'https://com/'],
    );
  });

  it('domain: private suffixes count, so one github.io site does not open all of them', () => {
    expectScope(
      { seeds: ['https://alice.github.io/blog/'], scope: 'domain' },
      ['https://alice.github.io/', 'https://www.alice.github.io/'],
      ['https://bob.github.io/', 'https://github.io/'],
    );
  });

  it('domain: an IP address, localhost or a name without a registrable domain is its own domain', () => {
    expectScope(
      { seeds: ['http://127.0.0.1:8080/'], scope: 'domain' },
      ['http://127.0.0.1:8080/', 'http://127.0.0.1:9090/', 'https://127.0.0.1/'],
      ['http://127.0.0.2:8080/', 'http://localhost:8080/'],
    );
    expectScope(
      { seeds: ['http://[::1]:3000/'], scope: 'domain' },
      ['http://[::1]:4000/'],
      ['http://[::2]:3000/', 'http://127.0.0.1:3000/'],
    );
    expectScope(
      { seeds: ['http://localhost:3000/'], scope: 'domain' },
      ['http://localhost:3000/', 'http://localhost:5000/', 'http://api.localhost:3000/'],
      ['http://localhost.example/', 'http://127.0.0.1:3000/'],
    );
    // A name under an unknown suffix: its last label is the suffix, as the public suffix list's default rule says.
    expectScope({ seeds: ['http://a.site.invalid/'], scope: 'domain' }, ['http://b.site.invalid/'], ['http://other.invalid/']);
  });

  it("hosts: exactly the seeds' and the listed hosts, ports included", () => {
    expectScope(
      {
        seeds: ['https://example.com/'],
        scope: 'hosts',
        allowedHosts: ['cdn.example.net', '127.0.0.1:8080', 'secure.example.org:443', 'plain.example.org:80'],
      },
      [
        'https://example.com/a',
        'http://cdn.example.net/x',
        'https://cdn.example.net/y',
        'http://127.0.0.1:8080/',
        'https://secure.example.org/',
        'http://plain.example.org/',
        'https://plain.example.org/',
      ],
      [
        'https://www.example.com/',
        'http://cdn.example.net:8080/',
        'http://127.0.0.1/',
        'http://127.0.0.1:8081/',
        'https://sub.cdn.example.net/',
      ],
    );
  });

  it('allowedHosts are in scope in every mode', () => {
    for (const scope of ['same-host', 'subdomains', 'domain'] as const) {
      expect(
        inScope({ seeds: ['https://example.com/'], scope, allowedHosts: ['other.test:8080'] }, [
          'http://other.test:8080/',
          'http://other.test/',
        ]),
      ).toEqual({ 'http://other.test:8080/': true, 'http://other.test/': false });
    }
  });

  it('hostKey reads an allowedHosts entry as a URL host', () => {
    expect(hostKey('example.com')).toBe('example.com');
    expect(hostKey('example.com:80')).toBe('example.com');
    expect(hostKey('example.com:443')).toBe('example.com');
    expect(hostKey('example.com:8080')).toBe('example.com:8080');
    expect(hostKey('bücher.example')).toBe('xn--bcher-kva.example');
    expect(hostKey('[::1]:3000')).toBe('[::1]:3000');
    for (const bad of [
      '',
      'http://example.com',
      'example.com/path',
      'user@example.com',
      'a b',
      '*.example.com',
      'a..b',
      'example.com:x',
      '-a.example',
    ]) {
      expect([bad, hostKey(bad)]).toEqual([bad, null]);
    }
  });
});

describe('include, exclude and maxUrlLength', () => {
  const base = { seeds: ['https://example.com/'] };

  it('exclude: a URL matching any pattern is out', () => {
    const why = makeScopeReason({ ...base, exclude: ['/private/', '\\.pdf$'] });
    expect(why('https://example.com/')).toBeNull();
    expect(why('https://example.com/private/x')).toBe('excluded');
    expect(why('https://example.com/doc.pdf')).toBe('excluded');
    expect(why('https://example.com/doc.pdf?x')).toBeNull();
  });

  it('include: when given, a URL must match one of them; exclude still wins', () => {
    const why = makeScopeReason({ ...base, include: ['^https://example\\.com/$', '/blog/'], exclude: ['/blog/drafts/'] });
    expect(why('https://example.com/')).toBeNull();
    expect(why('https://example.com/blog/post')).toBeNull();
    expect(why('https://example.com/shop/')).toBe('not included');
    expect(why('https://example.com/blog/drafts/1')).toBe('excluded');
  });

  it('patterns are matched against the whole URL, case-sensitively', () => {
    const why = makeScopeReason({ ...base, exclude: ['^https://example\\.com/A'] });
    expect(why('https://example.com/A')).toBe('excluded');
    expect(why('https://example.com/a')).toBeNull();
  });

  it('maxUrlLength: longer URLs are out (2048 by default)', () => {
    const url = (n: number) => 'https://example.com/' + 'a'.repeat(n - 'https://example.com/'.length);
    const why = makeScopeReason({ ...base, maxUrlLength: 64 });
    expect(why(url(64))).toBeNull();
    expect(why(url(65))).toBe('too long');
    const byDefault = makeScopeReason(base);
    expect(byDefault(url(2048))).toBeNull();
    expect(byDefault(url(2049))).toBe('too long');
  });

  it('gives the host rule first, and "host" for what is not a URL', () => {
    const why = makeScopeReason({ ...base, exclude: ['.'], maxUrlLength: 64 });
    expect(why('https://other.example/' + 'a'.repeat(100))).toBe('host');
    expect(why('https://example.com/' + 'a'.repeat(100))).toBe('too long');
    expect(why('not a url')).toBe('host');
  });

  it('takes its settings from parseSettings as they are', () => {
    const settings = parseSettings({
      seeds: ['https://example.com/'],
      scope: 'domain',
      exclude: ['\\?sort='],
      stripQueryParams: ['utm_*'],
    });
    const test = makeScope(settings);
    expect(test('https://www.example.com/list')).toBe(true);
    expect(test('https://www.example.com/list?sort=asc')).toBe(false);
  });
});

// --- Whole crawls ---------------------------------------------------------------------------------------------

let sites: FixtureSite[] = [];
afterEach(async () => {
  await Promise.all(sites.map((s) => s.close()));
  sites = [];
});

const html = (body: string) => (_req: unknown, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
const LONG_PATH = `/long/${'x'.repeat(120)}`;

/** Site A links to its own pages, to a private area, to tracked URLs, to site B and to a host that does not exist. */
async function twoSites(): Promise<{ a: FixtureSite; b: FixtureSite }> {
  const b = await startFixtureSite({
    routes: {
      '/': html('<title>B home</title><a href="/b">b</a>'),
      '/b': html('<title>B page</title>'),
    },
  });
  const a = await startFixtureSite({
    routes: {
      '/': html(`<title>A home</title>
        <a href="/a">a</a>
        <a href="/private/secret">secret</a>
        <a href="/list?utm_source=news&id=1">tracked</a>
        <a href="/list?id=1">plain</a>
        <a href="/list?id=1&utm_medium=mail&utm_campaign=x">tracked twice</a>
        <a href="/go">redirect</a>
        <a href="${LONG_PATH}">long</a>
        <a href="${b.url('/')}">site B</a>
        <a href="http://elsewhere.invalid/page">elsewhere</a>`),
      '/a': html('<title>A page</title><a href="/">home</a><a href="/private/other">other secret</a>'),
      '/list': html('<title>A list</title><a href="/list?id=1&utm_term=again">again</a>'),
      '/go': (_req, res) => void res.writeHead(302, { location: '/private/target?utm_source=r' }).end(),
      '/private/secret': html('<title>Secret</title>'),
      '/private/other': html('<title>Secret</title>'),
      '/private/target': html('<title>Secret</title>'),
      [LONG_PATH]: html('<title>Long</title>'),
    },
  });
  sites.push(a, b);
  return { a, b };
}

function urlStates(dbPath: string): Record<string, number> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db.prepare('SELECT url, state FROM urls ORDER BY id').all() as { url: string; state: number }[];
    return Object.fromEntries(rows.map((r) => [r.url, r.state]));
  } finally {
    db.close();
  }
}

function resultUrls(dbPath: string): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT url FROM crawl_results ORDER BY url').all() as { url: string }[]).map((r) => r.url);
  } finally {
    db.close();
  }
}

describe('scope in a crawl', () => {
  it('same-host with --exclude, --strip-param and --max-url-length: stays on one server, records what it skips', async () => {
    const { a, b } = await twoSites();
    const dir = tempDir();
    const db = path.join(dir, 'scope.trawl');
    const out = path.join(dir, 'scope.csv');
    const run = await runCli([
      a.url('/'),
      '--threads',
      '3',
      '--exclude',
      '/private/',
      '--strip-param',
      'utm_*',
      '--max-url-length',
      '100',
      '--db',
      db,
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    // The tracked spellings of /list?id=1 are one URL, fetched once; nothing private, long or on B is fetched.
    expect(a.fetchedPaths().sort()).toEqual(['/', '/a', '/go', '/list?id=1']);
    expect(b.log).toEqual([]);

    const states = urlStates(db);
    expect(states).toEqual({
      [a.url('/')]: 2,
      [a.url('/a')]: 2,
      [a.url('/private/secret')]: 4,
      [a.url('/list?id=1')]: 2,
      [a.url('/go')]: 2,
      [a.url(LONG_PATH)]: 4,
      [b.url('/')]: 4,
      'http://elsewhere.invalid/page': 4,
      [a.url('/private/other')]: 4,
      [a.url('/private/target')]: 4, // the redirect's target, its utm_source stripped
    });
    expect(Object.keys(states).some((u) => u.includes('utm_'))).toBe(false);

    // Results and CSV hold the fetched URLs only: nothing excluded, out of scope or tracked.
    const fetched = [a.url('/'), a.url('/a'), a.url('/go'), a.url('/list?id=1')].sort();
    expect(resultUrls(db)).toEqual(fetched);
    const rows = parseCsv(fs.readFileSync(out, 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.url).sort()).toEqual(fetched);
    const csv = fs.readFileSync(out, 'utf8');
    expect(csv).not.toContain('/private/secret');
    expect(csv).not.toContain('utm_');
    expect(csv).not.toContain(b.origin);
    expect(rows.find((r) => r.url === a.url('/go'))?.redirect_url).toBe(a.url('/private/target'));
  });

  it('"hosts" with the second server\'s host:port crosses to it, and include keeps to the listed pages', async () => {
    const { a, b } = await twoSites();
    const host = new URL(b.origin).host;
    const { controller, dbPath } = newCrawl({
      seeds: [a.url('/')],
      threads: 3,
      scope: 'hosts',
      allowedHosts: [host],
      include: ['^http://127\\.0\\.0\\.1:\\d+/(a|b)?$'],
    });
    controller.start();
    expect((await controller.done).reason).toBe('completed');
    expect(a.fetchedPaths().sort()).toEqual(['/', '/a']);
    expect(b.fetchedPaths().sort()).toEqual(['/', '/b']);
    const states = urlStates(dbPath);
    expect(states[b.url('/')]).toBe(2);
    expect(states[b.url('/b')]).toBe(2);
    expect(states[a.url('/private/secret')]).toBe(4);
    expect(states[a.url('/list?utm_source=news&id=1')]).toBe(4); // nothing stripped in this crawl
    expect(states['http://elsewhere.invalid/page']).toBe(4);
    expect(resultUrls(dbPath)).toEqual([a.url('/'), a.url('/a'), b.url('/'), b.url('/b')].sort());
  });

  it('"domain" on an IP address takes every port of that address', async () => {
    const { a, b } = await twoSites();
    const { controller, dbPath } = newCrawl({ seeds: [a.url('/')], threads: 3, scope: 'domain', exclude: ['/private/', '/long/', '\\?'] });
    controller.start();
    expect((await controller.done).reason).toBe('completed');
    expect(a.fetchedPaths().sort()).toEqual(['/', '/a', '/go']);
    expect(b.fetchedPaths().sort()).toEqual(['/', '/b']);
    expect(urlStates(dbPath)['http://elsewhere.invalid/page']).toBe(4);
  });
});
