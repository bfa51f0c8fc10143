// The PostgreSQL test helpers against the real server: a fresh database per file, reached through the TCP proxy
// that makes the server "go away" mid-crawl, and dropped at the end.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, pgAvailable, pgHostPort, pgSuite, pgTestUrl, redactPgUrl } from '../helpers/postgres.ts';
import type { FreshDatabase } from '../helpers/postgres.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';
import type { TcpProxy } from '../helpers/tcp-proxy.ts';

async function client(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  c.on('error', () => {}); // a cut connection also reports here; the tests look at the query's rejection
  await c.connect();
  return c;
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('PostgreSQL helpers without a server', () => {
  it('redacts the password in messages', () => {
    expect(redactPgUrl('postgres://trawl:secret@127.0.0.1:5432/trawl_test')).toBe('postgres://trawl@127.0.0.1:5432/trawl_test');
  });

  it('pgAvailable says why it cannot connect', async () => {
    const port = await closedPort();
    expect(await pgAvailable(`postgres://trawl:trawl@127.0.0.1:${port}/trawl_test`)).toMatch(/ECONNREFUSED/);
  });
});

const withPg = await pgSuite();

withPg.describe('PostgreSQL helpers', () => {
  let db: FreshDatabase;
  let proxy: TcpProxy;
  const open: pg.Client[] = [];
  const via = async () => {
    const c = await client(proxy.viaProxy(db.url));
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    db = await freshDatabase('helpers');
    const { host, port } = pgHostPort(db.url);
    proxy = await startTcpProxy(host, port);
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.end().catch(() => {})));
    await proxy?.close();
    await db?.drop();
  });

  it('pgAvailable answers null for the test server', async () => {
    expect(await pgAvailable()).toBeNull();
  });

  it('freshDatabase makes an empty database owned by the test role, reachable through the proxy', async () => {
    expect(db.name).toMatch(/^trawl_t_helpers_[0-9a-f]{10}$/);
    expect(new URL(db.url).pathname).toBe(`/${db.name}`);
    const c = await via();
    const { rows } = await c.query<{ db: string; owner: string; user: string }>(
      'SELECT current_database() AS db, pg_get_userbyid(datdba) AS owner, current_user AS user FROM pg_database WHERE datname = current_database()',
    );
    expect(rows).toEqual([{ db: db.name, owner: new URL(pgTestUrl()).username, user: new URL(pgTestUrl()).username }]);
    expect((await c.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).rows[0]).toEqual({ n: 0 });
    await c.query('CREATE TABLE pages (url text PRIMARY KEY)');
    await c.query("INSERT INTO pages VALUES ('https://example.com/')");
  });

  it('a cut fails the query in flight and new connections; after restore a new client works', async () => {
    const c = await via();
    const inFlight = c.query('SELECT pg_sleep(30)');
    await new Promise((r) => setTimeout(r, 200));
    proxy.cut();
    await expect(inFlight).rejects.toThrow(/Connection terminated|ECONNRESET|connection/i);
    // The dead client stays dead.
    await expect(c.query('SELECT 1')).rejects.toThrow();
    // New connections through the proxy fail while it is cut, and the probe says so.
    await expect(client(proxy.viaProxy(db.url))).rejects.toThrow();
    expect(await pgAvailable(proxy.viaProxy(db.url))).toMatch(/\S/);

    proxy.restore();
    const d = await via();
    expect((await d.query<{ url: string }>('SELECT url FROM pages')).rows).toEqual([{ url: 'https://example.com/' }]);
  });

  it('drop() removes the database, whoever is still connected, and can be called again', async () => {
    const other = await freshDatabase('helpers drop');
    expect(other.name).toMatch(/^trawl_t_helpers_drop_[0-9a-f]{10}$/);
    const c = await client(other.url); // still connected when it is dropped
    c.on('error', () => {});
    await c.query('SELECT 1');
    await other.drop();
    await other.drop();
    const admin = await client(pgTestUrl());
    try {
      expect((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [other.name])).rowCount).toBe(0);
    } finally {
      await admin.end();
    }
    await expect(client(other.url)).rejects.toMatchObject({ code: '3D000' }); // invalid_catalog_name
    await c.end().catch(() => {});
  });
});
