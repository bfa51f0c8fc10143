// A TCP proxy on 127.0.0.1 that holds each chunk for a delay before passing it on, each way: the store as if across a
// network (a round trip of twice the delay), for `npm run bench -- --nodes N --store-latency MS`. A node waits on
// its round trips to the store (one connection carries its claims and records in turn), which loopback hides; this
// machine's kernel has no netem to add the delay there. Chunks keep their order (timers of one delay fire in order).
import net from 'node:net';

export interface LatencyProxy {
  /** The store URL through the proxy. */
  url: string;
  close(): Promise<void>;
}

/** Starts a proxy to the host and port of `storeUrl` (postgres://...), adding `delayMs` each way. */
export async function startLatencyProxy(storeUrl: string, delayMs: number): Promise<LatencyProxy> {
  const target = new URL(storeUrl);
  const port = Number(target.port || 5432);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
    }
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (chunk) => setTimeout(() => upstream.write(chunk), delayMs));
    upstream.on('data', (chunk) => setTimeout(() => client.write(chunk), delayMs));
    for (const s of [client, upstream]) {
      s.on('close', end);
      s.on('error', end);
    }
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const proxied = new URL(storeUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as net.AddressInfo).port);
  return {
    url: proxied.toString(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
