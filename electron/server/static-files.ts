// The web console's pages: the built renderer (index.html and its assets) served from one folder, nothing outside
// it, with the security headers and (for the page opened with a valid ?token=) the token cookie.
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
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
  const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, { ...headers, ...cookie, 'Content-Type': type, 'Content-Length': stat.size, 'Cache-Control': 'no-cache' });
  if (req.method === 'HEAD') return void res.end();
  const stream = fs.createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
