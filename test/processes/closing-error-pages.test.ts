// The bundled CLI (what `npm run crawl` runs) against a site whose error pages close their connection after them, as
// Python's http.server and many Apache sites send. The crawl's probe of /sitemap.xml stops reading a 404 in the
// buffer that completes it, which tripped an assertion in undici; Node built that assertion's message from the
// bundle's source, hundreds of kilobytes a line, and the worker spent 30-65 s of CPU on it before the watchdog killed
// it and queued its page again (fetch-url.ts Exchange.abort, scripts/bundle-shims/assert-with-message.cjs).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';

const PAGE = '<html><head><title>Home</title></head><body><a href="/missing">gone</a><a href="/about">about</a></body></html>';

let server: http.Server;
let origin = '';
const requested: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requested.push(req.url ?? '');
    if (req.url === '/' || req.url === '/about') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html', connection: 'close' }).end('<html><title>Not found</title></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('a site whose error pages close their connection', () => {
  // A crawl of three pages takes well under a second here; the bound only catches the minute the worker lost.
  it('is crawled at once, with no worker killed and every page recorded', { timeout: 25_000 }, async () => {
    const out = path.join(tempDir('closing-errors'), 'results.csv');
    const run = await runCli([`${origin}/`, '--threads', '4', '--out', out]);
    expect(requested).toContain('/sitemap.xml');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Finished \(completed\): 3 crawled, 0 failed, 0 still queued in /);
  });
});
