// Two loopback sites of our own for the security and hreflang tests (issue 18.5): an HTTPS one (a certificate made
// here with openssl, signed by a CA the crawl is told of with NODE_EXTRA_CA_CERTS) planted with missing headers, mixed
// content, target=_blank links with and without noopener and hreflang mistakes, and a plain HTTP one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface SecuritySite {
  /** The HTTPS site's origin. */
  S: string;
  /** The plain HTTP site's origin. */
  P: string;
  /** NODE_EXTRA_CA_CERTS for a crawl of S. */
  env: Record<string, string>;
  close(): Promise<void>;
}

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
function securePages(P: string): Record<string, { status?: number; headers?: Record<string, string>; body: string }> {
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

/** Starts both sites; certificates are made in `dir`. */
export async function startSecuritySite(dir: string): Promise<SecuritySite> {
  makeCertificates(dir);
  const plain = http.createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end(html('', 'plain')));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  const P = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  const pages = securePages(P);
  const secure = https.createServer(
    { key: fs.readFileSync(path.join(dir, 'site.key')), cert: fs.readFileSync(path.join(dir, 'site.pem')) },
    (req, res) => {
      const page = pages[req.url ?? ''];
      if (!page) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
      res.writeHead(page.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...(page.headers ?? SAFE_HEADERS) }).end(page.body);
    },
  );
  await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
  const S = `https://127.0.0.1:${(secure.address() as AddressInfo).port}`;
  return {
    S,
    P,
    env: { NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem') },
    async close() {
      secure.closeAllConnections();
      plain.closeAllConnections();
      await Promise.all([new Promise((r) => secure.close(r)), new Promise((r) => plain.close(r))]);
    },
  };
}
