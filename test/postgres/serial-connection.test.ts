// A crawl's views read the store through SerialConnections (session/serial-connection.ts): the page reads' one runs
// with its session settings (cluster-results.ts's PAGE_READS_SETUP: no parallel index scans), and a connection the
// server dropped is replaced, the settings made again on the new one.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PAGE_READS_SETUP } from '../../electron/engine/session/cluster-results.ts';
import { SerialConnection } from '../../electron/engine/session/serial-connection.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();

withPg.describe('a serial connection to the store', () => {
  let db: FreshDatabase;
  let admin: pg.Client;

  beforeAll(async () => {
    db = await freshDatabase('serial_connection');
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end().catch(() => undefined);
    await db?.drop();
  });

  const setting = (c: SerialConnection) =>
    c.read(
      async (client) => (await client.query<{ v: string }>('SELECT current_setting($1) AS v', ['min_parallel_index_scan_size'])).rows[0]!.v,
    );
  const backend = (c: SerialConnection) =>
    c.read(async (client) => (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);

  it('runs its setup on the connection it opens, and again on the one that replaces a dropped connection', async () => {
    const pages = new SerialConnection(db.url, 'trawl-test-pages', PAGE_READS_SETUP);
    const plain = new SerialConnection(db.url, 'trawl-test-plain');
    try {
      expect(await setting(pages)).toBe('16GB');
      expect(await setting(plain)).toBe('512kB'); // PostgreSQL's default
      const first = await backend(pages);
      await admin.query('SELECT pg_terminate_backend($1)', [first]);
      // The read right after is answered on a new connection, or fails naming the lost one if it was sent before the
      // client heard of the end (which comes first is the socket's race); the read after it is answered either way.
      const next = await setting(pages).catch((err: Error) => err);
      if (next instanceof Error) expect(next.message).toMatch(/lost the connection to the PostgreSQL store/);
      else expect(next).toBe('16GB');
      expect(await backend(pages)).not.toBe(first);
      expect(await setting(pages)).toBe('16GB');
    } finally {
      await pages.close();
      await plain.close();
    }
  });

  it('closes a connection whose setup fails, and gives the reason', async () => {
    const bad = new SerialConnection(db.url, 'trawl-test-bad-setup', 'SET no_such_setting_here = 1');
    try {
      await expect(bad.read(async () => 1)).rejects.toThrow(/no_such_setting_here/);
      const open = async () =>
        Number(
          (await admin.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'trawl-test-bad-setup'`))
            .rows[0]!.n,
        );
      // The server sees the session end a moment after the client closed it.
      for (let i = 0; i < 50 && (await open()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await open()).toBe(0);
    } finally {
      await bad.close();
    }
  });
});
