// A cluster crawl (PostgreSQL store) in the renderer: the store keys threads by node and id (every node numbers its
// threads from 1), groups them by node keeping unchanged parts, stays coalesced; the grid renders a section per node
// (live first, the ones that left dimmed at the end) with crawled text as text; the attach panel masks the password.
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeStatus, StoreInfo } from '../../shared/snapshot.ts';
import { ThreadGrid, ThreadSlider } from '../../renderer/src/components/ThreadGrid.tsx';
import { LiveSettings } from '../../renderer/src/components/LiveSettings.tsx';
import { TopBar } from '../../renderer/src/components/TopBar.tsx';
import { ClusterAttach, ClusterBanner, maskStoreUrl, storeUrlProblem } from '../../renderer/src/components/ClusterAttach.tsx';
import { clearCrawl, connectCrawlStore, createCrawlStore, selectThread } from '../../renderer/src/store/crawl-store.ts';
import { initialView } from '../../renderer/src/store/crawl-view.ts';
import { reduceSnapshot } from '../../renderer/src/store/snapshot-reducer.ts';
import { fakeApi, manualFrames, render, snapshot, thread } from './helpers.ts';

const EVIL = '<img src=x onerror=alert(1)>';
const STORE: StoreInfo = { kind: 'postgres', server: 'db.example:5432/trawl', crawlId: 'shop', node: null };

function node(name: string, patch: Partial<NodeStatus> = {}): NodeStatus {
  return {
    name,
    hostname: `${name}.rack`,
    pid: 100,
    state: 'running',
    threads: 2,
    lastSeen: 1_000_000,
    live: true,
    pagesDone: 10,
    ...patch,
  };
}

function clusterSnapshot(patch: Parameters<typeof snapshot>[0] = {}) {
  return snapshot({
    threadTarget: 5,
    threads: [
      thread(1, { node: 'n2', step: 'fetching', url: 'https://shop.test/a' }),
      thread(2, { node: 'n2', step: 'waiting' }),
      thread(1, { node: 'n1', step: 'processing', url: EVIL }),
      thread(2, { node: 'n1' }),
      thread(3, { node: 'n1' }),
    ],
    nodes: [
      node('n1', { threads: 3, hostname: EVIL }),
      node('n2'),
      node('gone', { live: false, state: 'left', threads: 1, lastSeen: 990_000 }),
    ],
    store: STORE,
    ...patch,
  });
}

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe('store: a cluster snapshot', () => {
  it('keys threads by node and id, groups them by node, and keeps the nodes and the store', () => {
    const s = reduceSnapshot(initialView(), clusterSnapshot(), [], 0);
    expect(s.threadIds).toEqual(['n1#1', 'n1#2', 'n1#3', 'n2#1', 'n2#2']);
    expect(selectThread('n1#1')(s)?.step).toBe('processing');
    expect(selectThread('n2#1')(s)?.step).toBe('fetching');
    expect(s.nodeThreads).toEqual({ n1: ['n1#1', 'n1#2', 'n1#3'], n2: ['n2#1', 'n2#2'] });
    expect(s.nodes!.map((n) => n.name)).toEqual(['n1', 'n2', 'gone']);
    expect(s.cluster).toEqual(STORE);
    expect(s.stepCounts).toEqual({ processing: 1, fetching: 1, waiting: 3 });
  });

  it('keeps what did not change: other nodes, their thread lists, unchanged threads', () => {
    const before = reduceSnapshot(initialView(), clusterSnapshot(), [], 0);
    const next = clusterSnapshot({ at: 1_000_600 });
    next.threads = next.threads.map((t) => (t.node === 'n2' && t.id === 2 ? { ...t, step: 'claimed' as const } : t));
    next.nodes = next.nodes!.map((n) => (n.name === 'n2' ? { ...n, pagesDone: 11 } : n));
    const after = reduceSnapshot(before, next, [], 0);
    expect(after.threadIds).toBe(before.threadIds);
    expect(after.nodeThreads).toBe(before.nodeThreads);
    expect(selectThread('n1#1')(after)).toBe(selectThread('n1#1')(before));
    expect(selectThread('n2#2')(after)).not.toBe(selectThread('n2#2')(before));
    expect(after.nodes![0]).toBe(before.nodes![0]);
    expect(after.nodes![1]).not.toBe(before.nodes![1]);
    expect(after.cluster).toBe(before.cluster);

    // A node gains a thread: its list changes, the other's does not.
    const grown = clusterSnapshot({ at: 1_000_700 });
    grown.threads = [...grown.threads, thread(3, { node: 'n2' })];
    const third = reduceSnapshot(after, grown, [], 0);
    expect(third.nodeThreads['n2']).toEqual(['n2#1', 'n2#2', 'n2#3']);
    expect(third.nodeThreads['n1']).toBe(after.nodeThreads['n1']);
  });

  it('treats another store crawl, or a local crawl after a cluster one, as another crawl', () => {
    const a = reduceSnapshot(initialView(), clusterSnapshot(), [], 0);
    const b = reduceSnapshot(a, clusterSnapshot({ store: { ...STORE, crawlId: 'other' } }), [], 0);
    expect(b.crawlKey).toBe(a.crawlKey + 1);
    const local = reduceSnapshot(b, snapshot(), [], 0);
    expect(local.crawlKey).toBe(b.crawlKey + 1);
    expect(local.nodes).toBeNull();
    expect(local.cluster).toBeNull();
    expect(local.nodeThreads).toEqual({});
    expect(local.threadIds).toEqual([1, 2, 3]);
  });

  it('applies a burst of cluster snapshots as one store update', () => {
    const api = fakeApi();
    const frames = manualFrames();
    const store = createCrawlStore();
    let updates = 0;
    store.subscribe(() => updates++);
    cleanup = connectCrawlStore(store, api, { frames, localNow: () => 1_000_500 });
    for (let i = 1; i <= 20; i++) api.emitSnapshot(clusterSnapshot({ at: 1_000_000 + i, threadTarget: i }));
    expect(updates).toBe(0);
    expect(frames.run()).toBe(1);
    expect(updates).toBe(1);
    expect(store.getState().threadTarget).toBe(20);
    expect(store.getState().threadIds).toHaveLength(5);
  });

  it('empties the view when the host says nothing is in view any more, dropping what was on its way', () => {
    const api = fakeApi();
    const frames = manualFrames();
    const store = createCrawlStore();
    cleanup = connectCrawlStore(store, api, { frames, localNow: () => 1_000_500 });
    api.emitSnapshot(clusterSnapshot());
    frames.run();
    expect(store.getState()).toMatchObject({ hasSnapshot: true, cluster: STORE, state: 'running' });
    store.setState({ defaults: null, notices: [{ id: 1, kind: 'info', text: 'kept' }] });
    const key = store.getState().crawlKey;
    // A snapshot of the old crawl still waits for its frame when the host says it is gone (another browser detached).
    api.emitSnapshot(clusterSnapshot({ at: 1_000_900 }));
    api.emitCleared();
    expect(frames.run()).toBe(0);
    const s = store.getState();
    expect(s).toMatchObject({ hasSnapshot: false, state: null, nodes: null, cluster: null, threadIds: [], crawlKey: key + 1 });
    expect(s.notices).toEqual([{ id: 1, kind: 'info', text: 'kept' }]);
    // What comes after is shown as usual.
    api.emitSnapshot(snapshot({ at: 1_001_000 }));
    frames.run();
    expect(store.getState()).toMatchObject({ hasSnapshot: true, cluster: null, threadIds: [1, 2, 3] });
  });

  it('clears the view when detached', () => {
    const store = createCrawlStore();
    store.setState(reduceSnapshot(initialView(), clusterSnapshot(), [], 0));
    const key = store.getState().crawlKey;
    clearCrawl(store);
    const s = store.getState();
    expect(s).toMatchObject({ hasSnapshot: false, state: null, nodes: null, cluster: null, threadIds: [], crawlKey: key + 1 });
  });
});

describe('grid grouped by node', () => {
  const state = () => ({ ...reduceSnapshot(initialView(), clusterSnapshot(), [], 0), now: 1_000_500 });

  it('has a section per node, live ones first, the one that left dimmed at the end, each with its own cells', () => {
    const html = render(createElement(ThreadGrid), state());
    const sections = [
      ...html.matchAll(/<section class="node-group" data-node="([^"]+)" data-live="(true|false)" data-node-state="([^"]+)"/g),
    ].map((m) => [m[1], m[2], m[3]]);
    expect(sections).toEqual([
      ['n1', 'true', 'running'],
      ['n2', 'true', 'running'],
      ['gone', 'false', 'left'],
    ]);
    // Each node's cells sit in its own section, in id order.
    const n1 = html.slice(html.indexOf('data-node="n1"'), html.indexOf('data-node="n2" data-live'));
    expect([...n1.matchAll(/data-thread-id="(\d+)" data-node="n1"/g)].map((m) => m[1])).toEqual(['1', '2', '3']);
    const n2 = html.slice(html.indexOf('data-node="n2" data-live'), html.indexOf('data-node="gone"'));
    expect([...n2.matchAll(/data-thread-id="(\d+)" data-node="n2"/g)].map((m) => m[1])).toEqual(['1', '2']);
    expect(html).toContain('data-testid="node-threads" data-value="3"');
    expect(html).toContain('>3 threads<');
    expect(html).toContain('>1 thread<');
    expect(html).toContain('>n2.rack<');
    expect(html).toContain('>live<');
    expect(html).toContain('>left<');
    expect(html.match(/>left</g)).toHaveLength(1); // said once
    expect(html).toContain('No threads: this node has left the crawl.');
    expect(html).toContain('last seen 10 s ago');
    // Crawled text and node-reported text stay text.
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('says so when no node has joined yet', () => {
    const html = render(createElement(ThreadGrid), {
      ...reduceSnapshot(initialView(), clusterSnapshot({ threads: [], nodes: [] }), [], 0),
    });
    expect(html).toContain('No node has joined this crawl yet');
  });

  it('labels the panel controls for the cluster: the slider sets the total (beyond one machine)', () => {
    const slider = render(createElement(ThreadSlider), state());
    expect(slider).toContain('max="1000"');
    expect(slider).toContain('>Cluster<');
    expect(slider).toContain('data-value="5"');
    const bar = render(createElement(TopBar, { sidebar: true, onToggleSidebar: () => {} }), state());
    expect(bar).toContain('data-testid="cluster-title"');
    expect(bar).toContain('>Cluster crawl<');
    expect(bar).toContain('shop');
    expect(bar).toContain('> @ db.example:5432/trawl<');
    expect(bar).toMatch(/data-testid="pause"(?![^>]*disabled)/);
  });
});

describe('live settings of a cluster crawl', () => {
  const running = (patch: Parameters<typeof snapshot>[0] = {}) => ({
    ...reduceSnapshot(initialView(), clusterSnapshot(patch), [], 0),
    now: 1_000_500,
  });

  it("offers the cap and exclude inputs, saying they are the whole cluster's, and keeps the thread slider", () => {
    const settings = render(createElement(LiveSettings), running({ maxUrlsPerSecond: 12 }));
    expect(settings).toMatch(/<input[^>]*data-testid="live-max-rate"(?![^>]*disabled)/);
    expect(settings).toMatch(/<input[^>]*data-testid="live-exclude"(?![^>]*disabled)/);
    expect(settings).toContain('data-cluster="true"');
    expect(settings).toMatch(/title="At most this many fetches started per second by the whole cluster: each live node takes its share/);
    expect(settings).toMatch(/title="A regular expression, for every node of the cluster/);
    expect(settings).toContain('data-testid="live-max-rate-now" data-value="12">now: ≤ 12/s<');
    // The cluster's thread slider stays, live.
    const slider = render(createElement(ThreadSlider), running());
    expect(slider).toMatch(/<input[^>]*data-testid="thread-slider"(?![^>]*disabled)[^>]*>/);
  });

  it('still offers them for a local crawl', () => {
    const local = { ...reduceSnapshot(initialView(), snapshot({ state: 'running' }), [], 0) };
    const settings = render(createElement(LiveSettings), local);
    expect(settings).toMatch(/<input[^>]*data-testid="live-max-rate"(?![^>]*disabled)/);
    expect(settings).toMatch(/<input[^>]*data-testid="live-exclude"(?![^>]*disabled)/);
    expect(settings).not.toContain('data-cluster');
  });
});

describe('store problems', () => {
  it("shows a banner while the store is lost, and none for a local crawl's error", () => {
    const lost = reduceSnapshot(
      initialView(),
      clusterSnapshot({ error: 'lost the connection to the PostgreSQL store at db:5432/trawl (ECONNRESET); retrying every 3 s' }),
      [],
      0,
    );
    const html = render(createElement(ClusterBanner), lost);
    expect(html).toContain('data-testid="cluster-banner"');
    expect(html).toContain(
      'Cluster crawl shop: lost the connection to the PostgreSQL store at db:5432/trawl (ECONNRESET); retrying every 3 s.',
    );
    expect(render(createElement(ClusterBanner), reduceSnapshot(initialView(), clusterSnapshot(), [], 0))).toBe('');
    expect(render(createElement(ClusterBanner), reduceSnapshot(initialView(), snapshot({ error: 'worker died' }), [], 0))).toBe('');
  });
});

describe('attach panel', () => {
  it('takes the store URL in a password field', () => {
    const html = render(createElement(ClusterAttach));
    expect(html).toMatch(/<input[^>]*data-testid="store-url"[^>]*type="password"/);
    expect(html).toContain('data-testid="list-store-crawls"');
  });

  it('masks the password of a store URL and checks its scheme', () => {
    expect(maskStoreUrl('postgres://trawl:s3cret@db:5432/trawl')).toBe('postgres://trawl:••••@db:5432/trawl');
    expect(maskStoreUrl('postgresql://only-user@db/trawl')).toBe('postgresql://only-user@db/trawl');
    expect(maskStoreUrl('postgres://u:p:a@ss@db/x')).toBe('postgres://u:••••@db/x');
    expect(storeUrlProblem('')).toMatch(/type the store URL/);
    expect(storeUrlProblem('mysql://x')).toMatch(/postgres:\/\//);
    expect(storeUrlProblem('postgres://u:p@h/db')).toBeNull();
  });
});
