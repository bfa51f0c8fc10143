import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { ServerResponse } from 'node:http';
import { startFixtureSite } from '../helpers/fixture-site.ts';
import type { FixtureSite } from '../helpers/fixture-site.ts';
import { newCrawl } from '../helpers/engine.ts';
import { extractHtml } from '../../electron/worker/html/extract-page.ts';
import { saysNofollow } from '../../shared/robots-directives.ts';

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const page =
  (body: string, headers: Record<string, string> = {}) =>
  (_q: unknown, res: ServerResponse) =>
    void res.writeHead(200, { 'content-type': 'text/html', ...headers }).end(body);

const routes = () => ({
  '/': page(
    '<a rel="nofollow" href="/nf">nf</a><a href="/ok">ok</a><a href="/meta">m</a><a href="/header">h</a><a rel="NoFollow ugc" href="/shared">s1</a>',
  ),
  '/ok': page('<a href="/shared">s2</a>'),
  '/meta': page('<meta name="robots" content="noindex, nofollow"><a href="/from-meta">x</a>'),
  '/header': page('<a href="/from-header">y</a>', { 'x-robots-tag': 'noindex, nofollow' }),
  '/nf': page('nf'),
  '/shared': page('shared'),
  '/from-meta': page('m'),
  '/from-header': page('h'),
});

describe('nofollow', () => {
  it('reads rel=nofollow, meta robots and X-Robots-Tag', () => {
    const p = extractHtml(
      '<meta name="ROBOTS" content=" noindex,  nofollow "><a rel="nofollow" href="/a">a</a><a href="/b">b</a><a rel="nofollow" href="/b">b2</a>',
      'http://h.test/',
      () => true,
    );
    expect(p.metaRobots).toBe('noindex, nofollow');
    expect(p.links).toEqual([
      { url: 'http://h.test/a', anchor: 'a', kind: 'a', inScope: true, nofollow: true },
      { url: 'http://h.test/b', anchor: 'b', kind: 'a', inScope: true },
    ]);
    expect(saysNofollow('noindex, nofollow')).toBe(true);
    expect(saysNofollow('none')).toBe(true);
    expect(saysNofollow('googlebot: nofollow')).toBe(true);
    expect(saysNofollow('noindex')).toBe(false);
    expect(saysNofollow('nofollowers')).toBe(false);
    expect(saysNofollow(null)).toBe(false);
    expect(saysNofollow('max-image-preview:none')).toBe(false); // a value, not the none directive
    expect(saysNofollow('max-video-preview: -1, googlebot: none')).toBe(true);
  });

  it('records nofollow links in the link graph without fetching them, unless followNofollow', async () => {
    site = await startFixtureSite({ routes: routes() });
    const { controller, dbPath } = newCrawl({ seeds: [site.url('/')], threads: 2 });
    controller.start();
    await controller.done;
    expect(site.fetchedPaths().sort()).toEqual(['/', '/header', '/meta', '/ok', '/shared']);
    const db = new Database(dbPath, { readonly: true });
    const state = (p: string) => (db.prepare('SELECT state FROM urls WHERE url = ?').get(site!.url(p)) as { state: number }).state;
    expect([state('/nf'), state('/from-meta'), state('/from-header')]).toEqual([6, 6, 6]);
    const robots = (p: string) =>
      db.prepare('SELECT r.meta_robots, r.x_robots_tag FROM results r JOIN urls u ON u.id = r.url_id WHERE u.url = ?').get(site!.url(p));
    expect(robots('/meta')).toEqual({ meta_robots: 'noindex, nofollow', x_robots_tag: null });
    expect(robots('/header')).toEqual({ meta_robots: null, x_robots_tag: 'noindex, nofollow' });
    db.close();
    await site.close();

    site = await startFixtureSite({ routes: routes() });
    const again = newCrawl({ seeds: [site.url('/')], threads: 2, followNofollow: true });
    again.controller.start();
    await again.controller.done;
    expect(site.fetchedPaths().sort()).toEqual(['/', '/from-header', '/from-meta', '/header', '/meta', '/nf', '/ok', '/shared']);
  });
});
