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
      await expect(setting(pages)).rejects.toThrow(/lost the connection to the PostgreSQL store/);
      expect(await backend(pages)).not.toBe(first);
      expect(await setting(pages)).toBe('16GB');
    } finally {
      await pages.close();
      await plain.close();
    }
  });
});
