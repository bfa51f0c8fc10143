// Who steers a crawl: the one place where a crawl run alone differs from a node of a cluster.
//  - Alone (a SQLite crawl file): pause, resume and thread changes act on this node at once, a thread change is
//    kept in the crawl file's settings, and the crawl is over when nothing is queued.
//  - A node of a cluster (a shared PostgreSQL store): a command goes to the store and comes back to every node
//    (this one included) as an event, the node runs its share of the cluster's threads, publishes its threads for
//    observers, and the store decides once for all nodes when the crawl is over. A node that leaves before then
//    gives its URLs back and closes the store without finishing the crawl.
import type { CrawlSettings } from '../../../shared/settings.ts';
import type { CrawlState, FinishReason } from '../../../shared/snapshot.ts';
import type { ClusterCoordination, FrontierStore } from '../frontier/frontier-store.ts';
import type { CrawlThread } from '../pool/crawl-thread.ts';
import type { StoreCalls } from './store-calls.ts';

/** What the controller does on this node, for steering to call. */
export interface NodeControl {
  state(): CrawlState;
  threadTarget(): number;
  /** Holds this node's threads after their URL in hand. */
  pauseHere(): void;
  resumeHere(): void;
  /** Resizes this node's pool. */
  resizeHere(threads: number): void;
  /** Keeps a thread count changed live in the crawl's settings, so a resumed crawl starts with it. */
  keepThreads(threads: number): void;
  /** Sets this node's URLs/s cap (null: none), for its next claims. */
  rateHere(perSecond: number | null): void;
  /** Keeps a URLs/s cap changed live in the crawl's settings. */
  keepRate(perSecond: number | null): void;
  finish(reason: FinishReason): void;
  /** Work may be claimable now. */
  pump(): void;
  /** The shared store cannot be reached (its error), or is back (null). */
  storeReachable(error: string | null): void;
}

export interface Steering {
  /** How the crawl is kept, for messages: "file" or "store". */
  readonly keptIn: 'file' | 'store';
  /** The threads this node starts with. */
  readonly startThreads: number;
  /** True when the node must hold its threads as soon as it starts (it joined a paused cluster). */
  startsPaused(): boolean;
  pause(): void;
  resume(): void;
  /** A checked thread count: this node's pool, or the whole cluster's threads. */
  setThreads(threads: number): void;
  /** A checked URLs/s cap (null: none): this node's, or the whole cluster's, which each node takes a share of. */
  setMaxRate(perSecond: number | null): void;
  /** Asked when this node has nothing in flight and nothing to write: is the whole crawl over? */
  isComplete(queued: number, idleThreads: number): Promise<boolean>;
  /** Ends this node's part in the crawl once it has finished for `reason`. */
  close(reason: FinishReason): Promise<void>;
  /** Shows this node's threads to whoever watches the crawl elsewhere. */
  publish(state: CrawlState, threads: readonly CrawlThread[]): void;
}

export function steeringFor(store: FrontierStore, settings: CrawlSettings, calls: StoreCalls, node: NodeControl): Steering {
  return store.cluster ? new ClusterSteering(store, store.cluster, calls, node) : new SoloSteering(store, settings, node);
}

class SoloSteering implements Steering {
  readonly keptIn = 'file';
  readonly startThreads: number;

  constructor(
    private readonly store: FrontierStore,
    settings: CrawlSettings,
    private readonly node: NodeControl,
  ) {
    this.startThreads = settings.threads;
  }

  startsPaused(): boolean {
    return false;
  }

  pause(): void {
    this.node.pauseHere();
  }

  resume(): void {
    this.node.resumeHere();
  }

  setMaxRate(perSecond: number | null): void {
    this.node.rateHere(perSecond);
    this.node.keepRate(perSecond);
  }

  setThreads(threads: number): void {
    this.node.keepThreads(threads);
    this.node.resizeHere(threads);
  }

  async isComplete(queued: number): Promise<boolean> {
    return queued === 0;
  }

  close(reason: FinishReason): Promise<void> {
    return this.store.finish(reason);
  }

  publish(): void {}
}

class ClusterSteering implements Steering {
  readonly keptIn = 'store';
  readonly startThreads: number;
  /** This node's share of the cluster's URLs/s cap, as last applied. */
  private rate: number | null;

  constructor(
    private readonly store: FrontierStore,
    private readonly cluster: ClusterCoordination,
    private readonly calls: StoreCalls,
    private readonly node: NodeControl,
  ) {
    this.startThreads = cluster.threadShare();
    // The settings read from the store hold the cluster's cap; this node runs its share of it.
    this.rate = cluster.rateShare();
    node.rateHere(this.rate);
    cluster.on('command', (c) => this.onCommand(c));
    cluster.on('work', () => node.pump());
    cluster.on('finished', ({ reason }) => node.finish(reason));
    cluster.on('unavailable', ({ error }) => node.storeReachable(error));
    cluster.on('available', () => node.storeReachable(null));
  }

  /** A command from the cluster (from any node, or the app attached to the store). */
  private onCommand(c: { state: 'running' | 'paused' | 'stopped'; threads: number; maxUrlsPerSecond: number | null }): void {
    if (this.node.state() === 'stopping' || this.node.state() === 'finished') return;
    if (c.maxUrlsPerSecond !== this.rate) {
      this.rate = c.maxUrlsPerSecond;
      this.node.rateHere(c.maxUrlsPerSecond);
    }
    if (c.threads !== this.node.threadTarget()) this.node.resizeHere(c.threads);
    if (c.state === 'stopped') this.node.finish('stopped');
    else if (c.state === 'paused') this.node.pauseHere();
    else if (this.node.state() === 'paused' || this.node.state() === 'pausing') this.node.resumeHere();
  }

  startsPaused(): boolean {
    return this.cluster.clusterState() === 'paused';
  }

  pause(): void {
    void this.calls.run(() => this.cluster.command({ state: 'paused' }));
  }

  resume(): void {
    void this.calls.run(() => this.cluster.command({ state: 'running' }));
  }

  /** `perSecond` is the whole cluster's cap; each node takes its share when the command comes back. */
  setMaxRate(perSecond: number | null): void {
    void this.calls.run(() => this.cluster.command({ maxUrlsPerSecond: perSecond }));
  }

  /** `threads` is the whole cluster's count; each node takes its share when the command comes back. */
  setThreads(threads: number): void {
    void this.calls.run(() => this.cluster.command({ threads }));
  }

  async isComplete(queued: number, idleThreads: number): Promise<boolean> {
    // Busy elsewhere in this node's view: URLs are queued, but no thread of this node is free to take them.
    if (queued > 0 && idleThreads === 0) return false;
    return this.cluster.completeIfDone();
  }

  async close(reason: FinishReason): Promise<void> {
    const done = reason === 'completed' || reason === 'page limit';
    // A node that leaves a cluster before the crawl is done gives its claimed URLs back at once.
    await this.cluster.leave(done ? 'finished' : 'left');
    if (done) await this.store.finish(reason);
    else await this.store.close();
  }

  publish(state: CrawlState, threads: readonly CrawlThread[]): void {
    // Every observer of the cluster sees this node's threads through the store (written with its heartbeat).
    this.cluster.publishStatus(
      state,
      threads.map((t) => t.status()),
      threads.reduce((n, t) => n + t.pagesDone, 0),
    );
  }
}
