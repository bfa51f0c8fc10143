// A site with structured data and social tags (issue 18.4), served on 127.0.0.1: valid JSON-LD with @graph and a type
// array and complete social tags (/), a broken JSON-LD block beside a valid one (/broken), microdata (/microdata),
// RDFa (/rdfa) and a page with none of it (/plain). An og:title holds markup, which must show as text.
import http from 'node:http';
import { listenOnLoopback } from './loopback-server.ts';

export const MARKUP_TITLE = '<b>Bold</b><img src=x onerror="document.title=\'pwned\'">';

const page = (head: string, body = '') =>
  `<!doctype html><html><head><title>t</title>${head}</head><body><h1>h</h1>${body}
  <a href="/">home</a> <a href="/broken">broken</a> <a href="/microdata">microdata</a> <a href="/rdfa">rdfa</a> <a href="/plain">plain</a></body></html>`;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export const STRUCTURED_PAGES: Record<string, string> = {
  '/': page(
    `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
      {"@type":"Organization","name":"Acme","logo":{"@type":"ImageObject","url":"/logo.png"}},
      {"@type":["Product","IndividualProduct"],"name":"Anvil","offers":{"@type":"Offer","price":"9"}}]}</script>
    <meta property="og:title" content="${esc(MARKUP_TITLE)}"><meta property="og:image" content="/og.png">
    <meta property="og:type" content="website"><meta property="og:url" content="/">
    <meta property="og:description" content="The home page">
    <meta name="twitter:card" content="summary_large_image"><meta name="twitter:title" content="Acme">
    <meta name="twitter:description" content="Anvils"><meta name="twitter:image" content="/tw.png">`,
  ),
  '/broken': page(
    `<script type="application/ld+json">{"@type": "Article", "headline": "x",}</script>
     <script type="application/ld+json">{"@type":"BreadcrumbList"}</script><meta property="og:title" content="Broken">`,
  ),
  '/microdata': page(
    '<meta name="twitter:card" content="summary">',
    '<div itemscope itemtype="https://schema.org/Recipe"><span itemprop="author" itemscope itemtype="https://schema.org/Person">A</span></div>',
  ),
  '/rdfa': page('', '<div vocab="https://schema.org/" typeof="Event"><span property="name">Fair</span></div>'),
  '/plain': page('<script>if (typeof x === "undefined") {}</script>'),
};

export async function startStructuredSite(): Promise<{ origin: string; url(path: string): string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const body = STRUCTURED_PAGES[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, url: (path: string) => origin + path, close };
}
