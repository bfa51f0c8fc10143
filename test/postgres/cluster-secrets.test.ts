// A cluster crawl's credentials in the PostgreSQL store (issue 13, finding 5): the registry row holds them only
// sealed with the cluster key (TRAWL_CLUSTER_KEY), never in clear; a node with the key crawls a site behind basic
// auth and a cookie; a node without it, or with another key, is told so and fetches nothing; a crawl with credentials
// is not created without a key.
import http from 'node:http';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createPgCrawl, joinPgCrawl } from '../../electron/engine/frontier/postgres/pg-crawl.ts';
import { parseSettings } from '../../shared/settings.ts';
import { runCli } from '../helpers/cli.ts';
import { listenOnLoopback } from '../helpers/loopback-server.ts';
import { freshDatabase, pgSuite, type FreshDatabase } from '../helpers/postgres.ts';

const withPg = await pgSuite();

const PASSWORD = 'hunter2-pw-7Q';
const COOKIE = 'session=ck-5521-secret';
const KEY = 'cluster-key-7f3a9c0e5b1d2468';
const SECRETS = [PASSWORD, 'ck-5521', Buffer.from(`ana:${PASSWORD}`).toString('base64')];

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

/** A site on 127.0.0.1 that answers only with the basic auth and the cookie: three pages. */
async function authSite() {
  const expected = `Basic ${Buffer.from(`ana:${PASSWORD}`).toString('base64')}`;
  const seen: { path: string; ok: boolean }[] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const ok = req.headers.authorization === expected && req.headers.cookie === COOKIE;
    seen.push({ path: req.url ?? '', ok });
    if (!ok) return void res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>in</title><a href="/a">a</a><a href="/b">b</a>');
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, seen, close };
}

withPg.describe('credentials of a crawl in the PostgreSQL store', () => {
  let db: FreshDatabase;
  let site: Awaited<ReturnType<typeof authSite>> | null = null;

  beforeAll(async () => {
    db = await freshDatabase('secrets');
  });
  afterAll(async () => {
    await db?.drop();
  });
  afterEach(async () => {
    await site?.close();
    site = null;
  });

  /** Every registry row as text: what anyone reading the database sees. */
  const registryText = async () =>
    (await query<{ row: string }>(db.url, 'SELECT row_to_json(c)::text AS row FROM trawl.crawls c')).map((r) => r.row).join('\n');

  it('a crawl with credentials is not created without a cluster key, and nothing is written', async () => {
    site = await authSite();
    const args = ['--store', db.url, `${site.origin}/`, '--auth', `ana:${PASSWORD}`, '--header', `Cookie: ${COOKIE}`, '--quiet'];
    for (const key of ['', 'short']) {
      const refused = await runCli(args, { TRAWL_CLUSTER_KEY: key });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(key ? /TRAWL_CLUSTER_KEY must be at least 16 characters/ : /has credentials .* set TRAWL_CLUSTER_KEY/);
      for (const s of SECRETS) expect(refused.stderr).not.toContain(s);
    }
    expect(site.seen).toEqual([]);
    const [registry] = await query<{ ok: boolean }>(db.url, `SELECT to_regclass('trawl.crawls') IS NOT NULL AS ok`);
    if (registry!.ok) expect(await registryText()).not.toContain(site.origin);
  });

  it('the store holds them only sealed; a node with the key crawls with them, without it or with another key it is told so', async () => {
    site = await authSite();
    // The crawl is created and its seed queued; its first node leaves before fetching anything, so the joiners crawl.
    const first = await createPgCrawl(
      db.url,
      parseSettings({
        seeds: [`${site.origin}/`],
        threads: 2,
        basicAuth: { username: 'ana', password: PASSWORD },
        headers: { Cookie: COOKIE },
      }),
      { name: 'creator', clusterKey: KEY },
    );
    await first.store.addSeeds(first.settings.seeds);
    await first.store.close();
    const { crawlId } = first;

    const rows = await registryText();
    expect(rows).toContain(crawlId);
    for (const s of SECRETS) expect(rows).not.toContain(s);
    const [row] = await query<{ settings: string; secrets: string | null }>(
      db.url,
      'SELECT settings, secrets FROM trawl.crawls WHERE id = $1',
      [crawlId],
    );
    expect(JSON.parse(row!.settings)).toMatchObject({ headers: {}, basicAuth: null });
    expect(JSON.parse(row!.secrets!)).toMatchObject({ v: 1, kdf: 'scrypt' });

    // No key, then another key: a clear error each, and not one request to the site.
    const join = (key: string) => runCli(['--store', db.url, '--join', crawlId, '--node-name', 'b', '--quiet'], { TRAWL_CLUSTER_KEY: key });
    const noKey = await join('');
    expect(noKey.code, noKey.stderr).toBe(2);
    expect(noKey.stderr).toContain(
      `crawl "${crawlId}" has credentials sealed with its cluster key: set TRAWL_CLUSTER_KEY to the key the crawl was created with`,
    );
    const wrongKey = await join('another-key-of-the-right-length');
    expect(wrongKey.code, wrongKey.stderr).toBe(2);
    expect(wrongKey.stderr).toContain(`TRAWL_CLUSTER_KEY does not open the credentials of crawl "${crawlId}"`);
    expect(site.seen).toEqual([]);

    // The right key: every page (and the host's /sitemap.xml) fetched with the basic auth and the cookie.
    const ok = await join(KEY);
    expect(ok.code, ok.stderr).toBe(0);
    expect(site.seen.map((s) => s.path).sort()).toEqual(['/', '/a', '/b', '/sitemap.xml']);
    expect(site.seen.every((s) => s.ok)).toBe(true);
    const statuses = await query<{ status_code: number }>(db.url, `SELECT status_code FROM trawl_${crawlId}.results`);
    expect(statuses.map((r) => r.status_code)).toEqual([200, 200, 200]);

    // Still sealed once the crawl ran (its settings were saved again as it finished or changed).
    const after = await registryText();
    for (const s of SECRETS) expect(after).not.toContain(s);
  });

  it('a crawl of an older Trawl, its credentials in clear in its settings, is sealed by the first node joining with a key', async () => {
    const first = await createPgCrawl(db.url, parseSettings({ seeds: ['http://older.test/'] }), { name: 'old-a' });
    await first.store.close();
    const { crawlId } = first;
    // As an older Trawl wrote it: the credentials in the settings, no sealed value.
    const clear = { ...first.settings, basicAuth: { username: 'ana', password: PASSWORD }, headers: { Cookie: COOKIE } };
    await query(db.url, 'UPDATE trawl.crawls SET settings = $1, secrets = NULL WHERE id = $2', [JSON.stringify(clear), crawlId]);

    await expect(joinPgCrawl(db.url, crawlId, { name: 'old-b' })).rejects.toThrow(
      /keeps its credentials in clear \(it was created by an older Trawl\): set TRAWL_CLUSTER_KEY/,
    );
    const node = await joinPgCrawl(db.url, crawlId, { name: 'old-b', clusterKey: KEY });
    await node.store.close();
    expect(node.settings).toMatchObject({ basicAuth: { username: 'ana', password: PASSWORD }, headers: { Cookie: COOKIE } });
    const rows = await registryText();
    for (const s of SECRETS) expect(rows).not.toContain(s);
    // The next node opens them with the key.
    const again = await joinPgCrawl(db.url, crawlId, { name: 'old-c', clusterKey: KEY });
    await again.store.close();
    expect(again.settings.basicAuth).toEqual({ username: 'ana', password: PASSWORD });
    await expect(joinPgCrawl(db.url, crawlId, { name: 'old-d' })).rejects.toThrow(/sealed with its cluster key/);
  });
});
