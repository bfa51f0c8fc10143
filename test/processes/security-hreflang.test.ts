// Security and hreflang (issue 18.5) over a real crawl by the CLI of two loopback sites of our own: an HTTPS one
// (a certificate made here, signed by a CA named with NODE_EXTRA_CA_CERTS) planted with missing headers, mixed content,
// target=_blank links with and without noopener and hreflang mistakes, and a plain HTTP one. Each filter lists exactly
// the pages planted, and --export-tabs writes the same rows.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCrawlForAnalysis, queryFiltered } from '../../electron/engine/analysis/index.ts';
import type { FilterId } from '../../shared/analysis.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';

let dir: string;
let secure: https.Server;
let plain: http.Server;
let S: string;
let P: string;

/** A CA and a certificate for 127.0.0.1 signed by it, made with the openssl command. */
function makeCertificates(at: string): void {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: at, stdio: 'ignore' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Trawl test CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'site.key', '-out', 'site.csr', '-subj', '/CN=127.0.0.1');
  fs.writeFileSync(path.join(at, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  const sign = ['-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-extfile', 'san.ext'];
  run('x509', '-req', '-in', 'site.csr', ...sign, '-out', 'site.pem', '-days', '2');
}

const SAFE_HEADERS = {
  'strict-transport-security': 'max-age=31536000',
  'content-security-policy': "default-src 'self'; frame-ancestors 'self'",
  'x-content-type-options': 'nosniff',
};
const alternates = (list: [string, string][]) =>
  list.map(([lang, href]) => `<link rel="alternate" hreflang="${lang}" href="${href}">`).join('');
const html = (head: string, body = '') => `<!doctype html><html><head><title>t</title>${head}</head><body><h1>h</h1>${body}</body></html>`;

/** The HTTPS site: path -> headers and HTML (the plain site's URL is P, known once it listens). */
function securePages(): Record<string, { status?: number; headers?: Record<string, string>; body: string }> {
  return {
    '/': {
      body: html(
        alternates([
          ['en', '/'],
          ['de', '/de'],
          ['x-default', '/'],
        ]),
        ['/de', '/bare', '/mixed', '/blank', '/fr', '/it', '/noself', '/xfo', '/ni'].map((p) => `<a href="${p}">${p}</a>`).join(' '),
      ),
    },
    // A complete set with home.
    '/de': {
      body: html(
        alternates([
          ['en', '/'],
          ['de', '/de'],
          ['x-default', '/'],
        ]),
      ),
    },
    // No security header at all.
    '/bare': { headers: {}, body: html('') },
    // Plain-HTTP resources on an HTTPS page (the crawl does not check resources).
    '/mixed': {
      body: html('<link rel="stylesheet" href="/ok.css">', `<img src="${P}/pic.png"><script src="http://cdn.example/x.js"></script>`),
    },
    // One unsafe _blank link to another origin; one with noopener; one to this origin.
    '/blank': {
      body: html(
        '',
        '<a target="_blank" href="https://other.example/a">a</a> <a target="_blank" rel="noopener" href="https://other.example/b">b</a> <a target="_blank" href="/bare">c</a>',
      ),
    },
    // Names home (which does not name it back), an invalid code (en-UK), no x-default.
    '/fr': {
      body: html(
        alternates([
          ['fr', '/fr'],
          ['en', '/'],
          ['en-UK', '/de'],
        ]),
      ),
    },
    // Names the 404 /gone and the noindex /ni.
    '/it': {
      body: html(
        alternates([
          ['it', '/it'],
          ['x-default', '/it'],
          ['es', '/gone'],
          ['pt', '/ni'],
        ]),
      ),
    },
    // Does not name itself.
    '/noself': {
      body: html(
        alternates([
          ['en', '/'],
          ['de', '/de'],
          ['x-default', '/'],
        ]),
      ),
    },
    // X-Frame-Options instead of frame-ancestors, no CSP.
    '/xfo': {
      headers: { 'strict-transport-security': 'max-age=600', 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff' },
      body: html(''),
    },
    '/ni': { body: html('<meta name="robots" content="noindex">') },
    '/gone': { status: 404, body: 'gone' },
  };
}

beforeAll(async () => {
  dir = tempDir();
  makeCertificates(dir);
  plain = http.createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('', 'plain')));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  P = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  const pages = securePages();
  secure = https.createServer(
    { key: fs.readFileSync(path.join(dir, 'site.key')), cert: fs.readFileSync(path.join(dir, 'site.pem')) },
    (req, res) => {
      const page = pages[req.url ?? ''];
      if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
      res.writeHead(page.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...(page.headers ?? SAFE_HEADERS) }).end(page.body);
    },
  );
  await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
  S = `https://127.0.0.1:${(secure.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  secure?.closeAllConnections();
  plain?.closeAllConnections();
  await Promise.all([new Promise((r) => secure?.close(r)), new Promise((r) => plain?.close(r))]);
});

/** What each filter lists, by URL (sorted). */
const expected = (): Partial<Record<FilterId, string[]>> => ({
  'security-http': [`${P}/`],
  'mixed-content': [`${S}/mixed`],
  'security-no-hsts': [`${S}/bare`],
  'security-no-csp': [`${P}/`, `${S}/bare`, `${S}/xfo`],
  'security-no-nosniff': [`${P}/`, `${S}/bare`],
  'security-no-frame-options': [`${P}/`, `${S}/bare`],
  'security-unsafe-links': [`${S}/blank`],
  'hreflang-pages': [`${S}/`, `${S}/de`, `${S}/fr`, `${S}/it`, `${S}/noself`],
  // /fr and /noself name home, /it names the noindex /ni: none names them back.
  'hreflang-missing-return': [`${S}/fr`, `${S}/it`, `${S}/noself`],
  'hreflang-non-200': [`${S}/it`],
  'hreflang-invalid': [`${S}/fr`],
  'hreflang-no-x-default': [`${S}/fr`],
  'hreflang-no-self': [`${S}/noself`],
  'hreflang-non-indexable': [`${S}/it`],
});

describe('security and hreflang filters of a real crawl', () => {
  it('list exactly the pages planted, and --export-tabs writes them', async () => {
    const db = path.join(dir, 'site.trawl');
    const out = path.join(dir, 'tabs');
    const tabs = Object.keys(expected());
    const run = await runCli(
      [
        `${S}/`,
        `${P}/`,
        '--db',
        db,
        '--threads',
        '2',
        '--max-attempts',
        '1',
        '--quiet',
        '--export-tabs',
        tabs.join(','),
        '--output-folder',
        out,
      ],
      { NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem') },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const conn = openCrawlForAnalysis(db);
    try {
      for (const [filter, urls] of Object.entries(expected())) {
        const rows = queryFiltered(conn, {
          filter: filter as FilterId,
          text: '',
          sort: 'url',
          descending: false,
          offset: 0,
          limit: 100,
        }).rows;
        expect({ filter, urls: rows.map((r) => r.url) }).toEqual({ filter, urls });
        const [header, ...csv] = parse(fs.readFileSync(path.join(out, `${filter}.csv`), 'utf8'), { bom: true }) as string[][];
        expect({ filter, csv: csv.map((r) => r[header!.indexOf('url')]).sort() }).toEqual({ filter, csv: urls });
      }
      // What the worker recorded: the headers as sent, the plain-HTTP resources and the unsafe link (only the one).
      const sec = (p: string) => conn.prepare('SELECT * FROM security WHERE url_id = (SELECT id FROM urls WHERE url = ?)').get(`${S}${p}`);
      expect(sec('/xfo')).toMatchObject({ x_frame_options: 'DENY', csp: null, hsts: 'max-age=600' });
      expect(JSON.parse((sec('/mixed') as { http_resources: string }).http_resources)).toEqual([
        { url: `${P}/pic.png`, kind: 'image' },
        { url: 'http://cdn.example/x.js', kind: 'script' },
      ]);
      expect(JSON.parse((sec('/blank') as { unsafe_links: string }).unsafe_links)).toEqual(['https://other.example/a']);
    } finally {
      conn.close();
    }
  }, 120_000);
});
