// Serves a folder on 127.0.0.1 for the benchmark: nginx when installed (what a real site runs), otherwise the
// small static server in a separate process.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServedSite {
  origin: string;
  server: 'nginx' | 'node';
  stop(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function hasNginx(): boolean {
  return spawnSync('nginx', ['-v'], { stdio: 'ignore' }).status === 0;
}

/**
 * Serves `root`; with `addresses` (loopback addresses, e.g. a site spread over hosts) on each of them at `port`,
 * which needs nginx.
 */
export async function serveFolder(root: string, workDir: string, at: { port?: number; addresses?: string[] } = {}): Promise<ServedSite> {
  const addresses = at.addresses ?? ['127.0.0.1'];
  if (addresses.length > 1 && !hasNginx()) throw new Error('a site on several hosts (--hosts) is served by nginx, which is not installed');
  if (hasNginx()) {
    const port = at.port ?? (await freePort());
    const conf = path.join(workDir, 'nginx.conf');
    const pid = path.join(workDir, 'nginx.pid');
    fs.writeFileSync(
      conf,
      `worker_processes 1; pid ${pid}; error_log ${workDir}/error.log; daemon on;
events { worker_connections 1024; }
http { types { text/html html; text/plain txt; } default_type application/octet-stream; access_log off; sendfile on;
  keepalive_requests 1000000; client_body_temp_path ${workDir}/b; proxy_temp_path ${workDir}/p; fastcgi_temp_path ${workDir}/f;
  uwsgi_temp_path ${workDir}/u; scgi_temp_path ${workDir}/s;
  server { ${addresses.map((a) => `listen ${a}:${port};`).join(' ')} root ${root}; } }\n`,
    );
    const started = spawnSync('nginx', ['-c', conf], { encoding: 'utf8' });
    if (started.status !== 0) throw new Error(`nginx did not start: ${started.stderr}`);
    return {
      origin: `http://127.0.0.1:${port}`,
      server: 'nginx',
      stop: async () => {
        const p = Number(fs.readFileSync(pid, 'utf8'));
        try {
          process.kill(p, 'SIGTERM');
        } catch {
          // already gone
        }
      },
    };
  }
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'static-server.ts'), root], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`static server exited with ${code}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    server: 'node',
    stop: () => new Promise((resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM'))),
  };
}
