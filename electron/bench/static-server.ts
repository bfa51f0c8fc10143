// A minimal static file server, run as its own process by the benchmark when nginx is not installed, so the
// server's CPU does not count against the crawler's process. Usage: static-server.ts DIR (prints the port).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const root = path.resolve(process.argv[2] ?? '.');
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.txt': 'text/plain' };

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const file = path.resolve(root, `.${decodeURIComponent(url.pathname)}`);
  if (!file.startsWith(root + path.sep)) return void res.writeHead(403).end();
  fs.stat(file, (err, st) => {
    if (err || !st.isFile()) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': st.size });
    fs.createReadStream(file).pipe(res);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
