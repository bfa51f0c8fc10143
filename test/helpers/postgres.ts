// PostgreSQL for the tests: the server named by TRAWL_TEST_PG (default: .ci/run's trawl/trawl on 127.0.0.1:5432,
// database trawl_test), a probe that says why it cannot be reached, a `describe` that skips without it (fails in
// CI, like the Chromium tests), and one fresh database per test file so files never see each other's crawls.
//
//   const withPg = await pgSuite();
//   withPg.describe('PostgreSQL store', () => {
//     let db: FreshDatabase;
//     beforeAll(async () => { db = await freshDatabase('store'); });
//     afterAll(() => db?.drop());
//     it('…', async () => { const client = new pg.Client({ connectionString: db.url }); … });
//   });
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import type { CrawlMap, CrawlMapQuery } from '../../shared/crawl-map.ts';
import { askUntil } from './ask-until.ts';

export const DEFAULT_PG_URL = 'postgres://trawl:trawl@127.0.0.1:5432/trawl_test';

/** The test server's URL: TRAWL_TEST_PG, else .ci/run's server. */
export function pgTestUrl(): string {
  return process.env['TRAWL_TEST_PG'] ?? DEFAULT_PG_URL;
}

/** The URL without its password, for messages. */
export function redactPgUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** Host and port of a postgres:// URL (what a TCP proxy in front of it connects to). */
export function pgHostPort(url: string = pgTestUrl()): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname || '127.0.0.1', port: u.port ? Number(u.port) : 5432 };
}

function describeError(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return err.errors.map(describeError).join('; ');
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const message = err.message || err.name;
    return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  }
  return String(err);
}

/** Connects once (3 s connect timeout): null when the server answers, else why not. */
export async function pgAvailable(url: string = pgTestUrl()): Promise<string | null> {
  let client: pg.Client;
  try {
    client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  } catch (err) {
    return describeError(err);
  }
  client.on('error', () => {}); // a drop after the probe is not the probe's business
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return describeError(err);
  } finally {
    await client.end().catch(() => {});
  }
}

export interface PgSuite {
  /** pgTestUrl() at the time of the probe. */
  readonly url: string;
  /** null when PostgreSQL answered, else the skip/failure message. */
  readonly unavailable: string | null;
  /**
   * vitest's describe when PostgreSQL answered. Without it: describe.skip with the reason in the suite's name; in CI
   * (CI=true) a suite whose one test fails with the reason, never a silent skip.
   */
  describe(name: string, fn: () => void): void;
}

let probe: Promise<PgSuite> | undefined;

/** Probes the test server once per test file; use at the top of the file: `const withPg = await pgSuite();`. */
export function pgSuite(): Promise<PgSuite> {
  probe ??= (async (): Promise<PgSuite> => {
    const url = pgTestUrl();
    const reason = await pgAvailable(url);
    const unavailable =
      reason === null
        ? null
        : `PostgreSQL not reachable at ${redactPgUrl(url)}: ${reason}; set TRAWL_TEST_PG or run .ci/run's PostgreSQL setup`;
    const inCi = process.env['CI'] === 'true';
    return {
      url,
      unavailable,
      describe(name, fn) {
        if (unavailable === null) describe(name, fn);
        else if (inCi)
          // In CI a missing PostgreSQL is a failure (.ci/run starts one), never a silent skip.
          describe(name, () => {
            it('needs PostgreSQL (CI=true: never skipped)', () => {
              throw new Error(unavailable);
            });
          });
        else describe.skip(`${name} (skipped: ${unavailable})`, fn);
      },
    };
  })();
  return probe;
}

export interface FreshDatabase {
  /** The new database's name (trawl_t_<prefix>_<random>). */
  readonly name: string;
  /** pgTestUrl() with the new database in place of trawl_test. */
  readonly url: string;
  /** Drops the database, closing whatever is still connected to it (WITH (FORCE)); safe to call twice. */
  drop(): Promise<void>;
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgTestUrl(), connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Creates an empty database on the test server through the trawl_test connection (so it is owned by that role:
 * trawl), for one test file. Drop it in afterAll.
 */
export async function freshDatabase(prefix: string): Promise<FreshDatabase> {
  const clean = prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .slice(0, 40);
  const name = `trawl_t_${clean}_${randomBytes(5).toString('hex')}`;
  const ident = pg.escapeIdentifier(name);
  // template0: nobody is ever connected to it, so files creating databases at the same time never collide.
  await withAdmin((c) => c.query(`CREATE DATABASE ${ident} TEMPLATE template0`));
  const u = new URL(pgTestUrl());
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: () => withAdmin((c) => dropForce(c, ident)),
  };
}

/**
 * DROP DATABASE ... WITH (FORCE), waiting out an autovacuum worker: it connects as the superuser to a database that
 * a test filled, and FORCE may not end a superuser's backend for the trawl role ("must be a member of the role
 * whose process is being terminated"). The worker is done within moments.
 */
async function dropForce(client: pg.Client, ident: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`DROP DATABASE IF EXISTS ${ident} WITH (FORCE)`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '42501' || attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * The crawl map of the session's crawl once its Link Scores are computed: the first maps come before them, marked
 * scoresPending, as the view draws them; asked again as the view does until the map comes sized by them.
 */
export async function scoredCrawlMap(session: { crawlMap(q: CrawlMapQuery): Promise<CrawlMap> }, q: CrawlMapQuery): Promise<CrawlMap> {
  const map = (
    await askUntil(
      () => session.crawlMap(q),
      (m) => !m.scoresPending,
    )
  ).at(-1)!;
  if (map.scoresPending) throw new Error('the crawl map still lacks its Link Scores after 10 s');
  return map;
}
