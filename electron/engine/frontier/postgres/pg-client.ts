// One plain connection to the PostgreSQL store: opened after the store URL is checked (pg-store-url.ts), with errors
// that name the server (never the password), and what counts as "the server went away" (retried, see
// pg-reconnecting-connection.ts) rather than a bug (fatal).
import type pg from 'pg';
import { StoreError, parseStoreUrl, serverLabel } from './pg-store-url.ts';

// SQLSTATE classes and codes that mean the connection or the server is gone, not that a query was wrong:
// 08 connection exception, 57P01-57P03 admin shutdown / crash shutdown / cannot connect now.
const GONE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const GONE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

/** Whether an error means the server is unreachable for now (retry later) rather than a mistake (report it). */
export function isConnectionLost(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: string };
  if (e.code && (GONE_CODES.has(e.code) || e.code.startsWith('08') || GONE_ERRNOS.has(e.code))) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|ECONNRESET|ECONNREFUSED|server closed the connection/i.test(
    e.message,
  );
}

/** Deadlocks and serialization failures: the transaction is rolled back and simply run again. */
export function isRetryableTransaction(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * The pg module, loaded on first use: only a crawl with --store needs it, and loading it (it also wakes Node's
 * own fetch) cost a crawl of a single SQLite file 40 ms of start-up.
 */
export async function loadPg(): Promise<typeof pg> {
  return (await import('pg')).default;
}

/** Opens one connection, turning failures into StoreErrors that say what was tried and what the server said. */
export async function connect(storeUrl: string, options: { connectTimeoutMs?: number; applicationName?: string } = {}): Promise<pg.Client> {
  parseStoreUrl(storeUrl);
  const pg = await loadPg();
  const client = new pg.Client({
    connectionString: storeUrl,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: options.applicationName ?? 'trawl',
    // Epoch-ms columns are bigint; they fit a JS number exactly, so read them as numbers.
    types: {
      getTypeParser: (oid: number, format?: string) =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'),
    },
  });
  // An idle connection that breaks emits 'error'; without a listener that would crash the process. Queries on it
  // fail afterwards, and the caller reconnects.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw new StoreError(`cannot connect to PostgreSQL at ${serverLabel(storeUrl)}: ${describe(err)}`);
  }
  return client;
}

function describe(err: unknown): string {
  const e = err as Error & { code?: string };
  if (e.code === '28P01') return 'password authentication failed (check the user and password in --store)';
  if (e.code === '3D000') return `${e.message} (create it first, e.g. createdb)`;
  return e.message || e.code || String(err);
}

export type { Client as PgClient } from 'pg';

/** What reading and writing the store needs of a connection: queries (a Client, or PgConnection's preparing wrapper). */
export type PgQuerier = Pick<pg.Client, 'query'>;
