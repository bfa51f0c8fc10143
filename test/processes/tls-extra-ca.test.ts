// A crawl over https of a site whose certificate is signed by a private authority, named by NODE_EXTRA_CA_CERTS as
// a company's proxy or test CA would be. The engine hands that variable to its workers under another name, so a
// worker does not parse the certificates at start-up, and the worker adds them to Node's roots at its first https
// connection (electron/worker/tls-roots.ts): the crawl must trust exactly what Node would have trusted.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { workerEnv } from '../../electron/engine/pool/child-process-spawner.ts';
import { WORKER_EXTRA_CA_ENV } from '../../shared/protocol.ts';
import { workerConnector } from '../../electron/worker/tls-roots.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/engine.ts';

let dir: string;
let server: https.Server;
let origin: string;

/** A CA and a certificate for 127.0.0.1 signed by it, made with the openssl command. */
function makeCertificates(at: string): void {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: at, stdio: 'ignore' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Trawl test CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'site.key', '-out', 'site.csr', '-subj', '/CN=127.0.0.1');
  fs.writeFileSync(path.join(at, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  const sign = ['-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-extfile', 'san.ext'];
  run('x509', '-req', '-in', 'site.csr', ...sign, '-out', 'site.pem', '-days', '2');
}

beforeAll(async () => {
  dir = tempDir();
  makeCertificates(dir);
  server = https.createServer(
    { key: fs.readFileSync(path.join(dir, 'site.key')), cert: fs.readFileSync(path.join(dir, 'site.pem')) },
    (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(req.url === '/' ? '<title>Home</title><a href="/about">About</a>' : '<title>About</title>');
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('NODE_EXTRA_CA_CERTS', () => {
  it('is handed to the worker under its own name, and nothing else of the environment changes', () => {
    expect(workerEnv({ PATH: '/bin', NODE_EXTRA_CA_CERTS: '/etc/ca.pem' })).toEqual({ PATH: '/bin', [WORKER_EXTRA_CA_ENV]: '/etc/ca.pem' });
    expect(workerEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  it('lets a crawl trust a site signed by the authority it names', async () => {
    const out = path.join(tempDir(), 'tls.csv');
    const run = await runCli([`${origin}/`, '--out', out], { NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem') });
    expect(run.code).toBe(0);
    const csv = fs.readFileSync(out, 'utf8');
    expect(csv).toContain(`${origin}/,page,200,`);
    expect(csv).toContain(`${origin}/about,page,200,`);
  }, 60_000);

  it('reads the certificates into one secure context that every https connection shares', async () => {
    // Each connection given the certificates as `ca` parsed them into a context of its own: where every attempt is a
    // new connection (hosts that do not resolve), the worker spent all its CPU there and grew past 800 MB a minute.
    const tls = createRequire(import.meta.url)('node:tls') as typeof import('node:tls');
    const contexts = vi.spyOn(tls, 'createSecureContext');
    try {
      const connect = workerConnector(10_000, { [WORKER_EXTRA_CA_ENV]: path.join(dir, 'ca.pem') });
      if (typeof connect !== 'function') throw new Error('expected a connector for an extra CA file');
      const { port } = new URL(origin);
      for (let i = 0; i < 5; i++) {
        const socket = await new Promise<Socket>((resolve, reject) =>
          connect({ protocol: 'https:', hostname: '127.0.0.1', host: `127.0.0.1:${port}`, port }, (err, s) =>
            err ? reject(err) : resolve(s as Socket),
          ),
        );
        expect((socket as import('node:tls').TLSSocket).authorized).toBe(true);
        socket.destroy();
      }
      expect(contexts).toHaveBeenCalledTimes(1);
    } finally {
      contexts.mockRestore();
    }
  });

  it('without it, the same site fails on its certificate', async () => {
    const out = path.join(tempDir(), 'untrusted.csv');
    const { NODE_EXTRA_CA_CERTS: _unset, ...env } = process.env;
    const run = await runCli([`${origin}/`, '--out', out], { ...env, NODE_EXTRA_CA_CERTS: '' });
    expect(run.code).toBe(0);
    const csv = fs.readFileSync(out, 'utf8');
    expect(csv).not.toContain(`${origin}/,page,200,`);
    expect(csv).not.toContain('/about');
  }, 60_000);
});
