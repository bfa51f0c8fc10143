// The web console's pages: the built renderer (index.html and its assets) served from one folder, nothing outside
// it, with the security headers and (for the page opened with a valid ?token=) the token cookie.
// Text files go out compressed when the browser accepts it (brotli or gzip, each compressed once per file version
// and kept in memory); the build's hashed assets (assets/NAME-HASH.js) are cached for good, everything else
// (index.html above all: it carries the CSP and starts the token cookie flow) is revalidated every time.
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { text } from './access.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

/** Types worth compressing (images and fonts are compressed already). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.txt', '.svg', '.wasm', '.webmanifest']);
/** Smaller bodies gain less than the header costs; larger ones are streamed as they are. */
const MIN_COMPRESS_BYTES = 1024;
const MAX_COMPRESS_BYTES = 32 * 1024 * 1024;

/** A build's output with a content hash in its name (Vite/rolldown: assets/index-CjP3FRch.js): never changes. */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[A-Za-z0-9]+$/;
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to send for an Accept-Encoding header: brotli, else gzip, when accepted with a q above 0 (by name or by
 * `*`), else none.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const accepted = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (accepted('br')) return 'br';
  if (accepted('gzip')) return 'gzip';
  return null;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Compressed bodies by file, for the version (mtime and size) they were made from. */
const compressed = new Map<string, { version: string; bodies: Map<Encoding, Promise<Buffer>> }>();

function compressedBody(file: string, stat: fs.Stats, encoding: Encoding): Promise<Buffer> {
  const version = `${stat.mtimeMs}:${stat.size}`;
  let entry = compressed.get(file);
  if (entry?.version !== version) {
    entry = { version, bodies: new Map() };
    compressed.set(file, entry);
  }
  let body = entry.bodies.get(encoding);
  if (!body) {
    const bodies = entry.bodies;
    body = fs.promises.readFile(file).then((raw) =>
      encoding === 'br'
        ? brotli(raw, {
            params: {
              // Quality 5: the main script (850 kB) in about 0.15 s to 217 kB; 11 would take 3 s for 196 kB.
              [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          })
        : gzip(raw, { level: 9 }),
    );
    // A failure (the file replaced mid-read) is not kept.
    body.catch(() => bodies.delete(encoding));
    bodies.set(encoding, body);
  }
  return body;
}

/**
 * Serves `pathname` from `staticDir` (an absolute, resolved path). `tokenCookie` is the Set-Cookie header to send
 * with the page itself (empty when the request did not present the token in its query).
 */
export async function serveStatic(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  pathname: string,
  staticDir: string,
  headers: http.OutgoingHttpHeaders,
  tokenCookie: http.OutgoingHttpHeaders,
): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return text(res, 400, 'Bad request path\n', headers);
  }
  if (!decoded.startsWith('/') || decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').includes('..')) {
    return text(res, 403, 'Forbidden path\n', headers);
  }
  const isIndex = decoded === '/' || decoded === '/index.html';
  const file = path.resolve(staticDir, `.${isIndex ? '/index.html' : decoded}`);
  if (!file.startsWith(staticDir + path.sep)) return text(res, 403, 'Forbidden path\n', headers);

  const cookie: http.OutgoingHttpHeaders = isIndex ? tokenCookie : {};

  let stat: fs.Stats | null = null;
  try {
    stat = await fs.promises.stat(file);
  } catch {
    stat = null;
  }
  if (!stat || !stat.isFile()) {
    if (isIndex) {
      return text(
        res,
        503,
        `The web console's pages are not built yet: run \`npm run build\`, then reload.\nstatic folder: ${staticDir}\n`,
        {
          ...headers,
          ...cookie,
        },
      );
    }
    return text(res, 404, 'Not found\n', headers);
  }
  const ext = path.extname(file).toLowerCase();
  const type = CONTENT_TYPES[ext] ?? 'application/octet-stream';
  const caching = { 'Cache-Control': !isIndex && HASHED_ASSET.test(decoded) ? IMMUTABLE : 'no-cache' };
  const compressible = COMPRESSIBLE.has(ext) && stat.size >= MIN_COMPRESS_BYTES && stat.size <= MAX_COMPRESS_BYTES;
  const encoding = compressible ? chooseEncoding(req.headers['accept-encoding']) : null;
  const vary = compressible ? { Vary: 'Accept-Encoding' } : {};
  if (encoding) {
    let body: Buffer | null;
    try {
      body = await compressedBody(file, stat, encoding);
    } catch {
      body = null;
    }
    if (body) {
      res.writeHead(200, {
        ...headers,
        ...cookie,
        'Content-Type': type,
        'Content-Encoding': encoding,
        'Content-Length': body.length,
        ...vary,
        ...caching,
      });
      return void res.end(req.method === 'HEAD' ? undefined : body);
    }
  }
  res.writeHead(200, { ...headers, ...cookie, 'Content-Type': type, 'Content-Length': stat.size, ...vary, ...caching });
  if (req.method === 'HEAD') return void res.end();
  const stream = fs.createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
