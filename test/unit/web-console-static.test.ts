// The web console's static files: compressed when the browser accepts it (and the same bytes once decompressed),
// hashed build assets cached for good, the page itself always revalidated, the security headers kept throughout.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE, chooseEncoding, serveStatic } from '../../electron/server/static-files.ts';

const SECURITY = { 'Content-Security-Policy': "default-src 'self'", 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };
const COOKIE = { 'Set-Cookie': 'trawl_token=t; HttpOnly; SameSite=Strict; Path=/' };
const SCRIPT = `${Array.from({ length: 3000 }, (_, i) => `export const value${i} = ${i * 7};`).join('\n')}\n`;
const PAGE = `<!doctype html><title>Trawl</title>${'<!-- padding -->'.repeat(100)}<script type="module" src="./assets/index-CjP3FRch.js"></script>`;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('web console static files', () => {
  let dir: string;
  let server: http.Server;
  let port: number;

  const get = (p: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Reply>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: p, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  beforeAll(async () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-static-')));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), PAGE);
    fs.writeFileSync(path.join(dir, 'assets', 'index-CjP3FRch.js'), SCRIPT);
    fs.writeFileSync(path.join(dir, 'assets', 'plain.js'), SCRIPT);
    fs.writeFileSync(path.join(dir, 'assets', 'tiny-B3_4Awhj.css'), 'body{margin:0}');
    server = http.createServer((req, res) => {
      const pathname = new URL(req.url ?? '/', 'http://x').pathname;
      void serveStatic(req, res, pathname, dir, SECURITY, pathname === '/' || pathname === '/index.html' ? COOKIE : {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends gzip when accepted, identical once decompressed, and smaller', async () => {
    const res = await get('/assets/index-CjP3FRch.js', { 'accept-encoding': 'gzip, deflate' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(SCRIPT.length / 3);
    expect(zlib.gunzipSync(res.body).toString('utf8')).toBe(SCRIPT);
    // Served again from memory: the same bytes.
    const again = await get('/assets/index-CjP3FRch.js', { 'accept-encoding': 'gzip' });
    expect(again.body.equals(res.body)).toBe(true);
  });

  it('prefers brotli when accepted, identical once decompressed', async () => {
    const res = await get('/assets/index-CjP3FRch.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.body).toString('utf8')).toBe(SCRIPT);
  });

  it('sends the file as it is when no encoding is accepted, still varying by Accept-Encoding', async () => {
    for (const accept of [undefined, 'identity', 'gzip;q=0, br;q=0', '*;q=0']) {
      const res = await get('/assets/index-CjP3FRch.js', accept === undefined ? {} : { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBeUndefined();
      expect(res.headers.vary, accept).toBe('Accept-Encoding');
      expect(res.body.toString('utf8'), accept).toBe(SCRIPT);
      expect(Number(res.headers['content-length'])).toBe(SCRIPT.length);
    }
  });

  it('serves a file changed on disk afresh, not the compressed copy of the old one', async () => {
    const file = path.join(dir, 'assets', 'plain.js');
    const first = await get('/assets/plain.js', { 'accept-encoding': 'gzip' });
    expect(zlib.gunzipSync(first.body).toString('utf8')).toBe(SCRIPT);
    const changed = `${SCRIPT}// changed\n`;
    fs.writeFileSync(file, changed);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(file, later, later);
    const second = await get('/assets/plain.js', { 'accept-encoding': 'gzip' });
    expect(zlib.gunzipSync(second.body).toString('utf8')).toBe(changed);
  });

  it('caches hashed build assets for good and revalidates everything else, the page above all', async () => {
    expect((await get('/assets/index-CjP3FRch.js')).headers['cache-control']).toBe(IMMUTABLE);
    expect((await get('/assets/tiny-B3_4Awhj.css')).headers['cache-control']).toBe(IMMUTABLE);
    expect((await get('/assets/plain.js')).headers['cache-control']).toBe('no-cache');
    for (const p of ['/', '/index.html']) {
      const page = await get(p, { 'accept-encoding': 'gzip, br' });
      expect(page.status).toBe(200);
      expect(page.headers['cache-control'], p).toBe('no-cache');
      expect(page.headers['set-cookie'], p).toEqual([COOKIE['Set-Cookie']]);
    }
  });

  it('keeps the security headers on compressed, plain and HEAD responses', async () => {
    const replies = [
      await get('/', { 'accept-encoding': 'br' }),
      await get('/assets/index-CjP3FRch.js', { 'accept-encoding': 'gzip' }),
      await get('/assets/index-CjP3FRch.js'),
      await get('/assets/index-CjP3FRch.js', { 'accept-encoding': 'gzip' }, 'HEAD'),
    ];
    for (const r of replies) {
      expect(r.headers['content-security-policy']).toBe(SECURITY['Content-Security-Policy']);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBe('no-referrer');
    }
    const head = replies[3]!;
    expect(head.body.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(Number(head.headers['content-length'])).toBe(replies[1]!.body.length);
  });

  it('leaves small files uncompressed', async () => {
    const res = await get('/assets/tiny-B3_4Awhj.css', { 'accept-encoding': 'gzip, br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.toString('utf8')).toBe('body{margin:0}');
  });

  it('reads Accept-Encoding with its q-values', () => {
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('')).toBeNull();
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('GZIP, BR')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(chooseEncoding('deflate, identity')).toBeNull();
  });
});
