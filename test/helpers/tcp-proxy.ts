// A loopback TCP proxy in front of a server the tests do not control (PostgreSQL): cut() makes the server "go
// away" for everything that connects through the proxy (open connections die, new ones are closed at once) until
// restore().
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /** Connections currently passing through (client side count). */
  readonly openConnections: number;
  /** The same URL with host 127.0.0.1 and the proxy's port (postgres://u:p@host:5432/db → …@127.0.0.1:<port>/db). */
  viaProxy(url: string): string;
  /** Destroys every open connection (both sides) and closes new ones on arrival until restore(). */
  cut(): void;
  /** Lets new connections through again. */
  restore(): void;
  /** Stops listening and destroys every open connection. */
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let cut = false;

  const server = net.createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = net.connect({ host: targetHost, port: targetPort });
    const pair = { client, upstream };
    pairs.add(pair);
    const teardown = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', teardown);
    upstream.on('error', teardown);
    client.on('close', teardown);
    upstream.on('close', teardown);
    client.pipe(upstream);
    upstream.pipe(client);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  const destroyAll = () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };

  return {
    port,
    get openConnections() {
      return pairs.size;
    },
    viaProxy(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut() {
      cut = true;
      destroyAll();
    },
    restore() {
      cut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
