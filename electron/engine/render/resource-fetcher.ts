// What a render loads besides its page (scripts, JSON, stylesheets, images), fetched by the crawl rather than by
// the browser: once per crawl (a script shared by every page is fetched once, from a byte-bounded cache), only
// where the host's robots.txt allows it (what it forbids is recorded as blocked), no faster than the crawl's
// politeness allows per host, with the crawl's credentials only for its own hosts, and within its size and time
// limits. The browser never reaches the network itself.
// Politeness and robots.txt are the crawl's own, kept by its frontier store (HostAccess): each fetch takes its
// host's next slot on the one clock the crawl's page fetches keep too, and each host's robots.txt is the one the
// crawl reads (fetched here only when the crawl has not, and then stored for the crawl, so it is fetched once).
import type { RobotsFetchResult } from '../../../shared/protocol.ts';
import type { ResourceAnswer, ResourceFetcher } from '../../../shared/render.ts';
import { makeScope } from '../../../shared/scope.ts';
import type { CrawlSettings } from '../../../shared/settings.ts';
import { requestHeadersFor } from '../../worker/chain/fetch-http.ts';
import type { FrontierStore, HostAccess } from '../frontier/frontier-store.ts';
import { robotsRulesFrom, type RobotsRules } from '../frontier/robots-rules.ts';
import { ROBOTS_MAX_BYTES } from '../frontier/robots-txt.ts';

/** The crawl's side of each host, as the fetcher reaches it: its store's HostAccess and where a robots.txt is recorded. */
export type CrawlHosts = HostAccess & Pick<FrontierStore, 'recordRobots'>;

/** Bytes of responses kept for the crawl's renders; the least recently used go first. */
export const RESOURCE_CACHE_BYTES = 64 * 1024 * 1024;
/** A response larger than this is fetched for the render but not kept. */
const LARGEST_CACHED = 8 * 1024 * 1024;
/** robots.txt rules kept (one per host a render reached); the crawl's store keeps every one. */
const ROBOTS_KEPT = 500;
/** How often a render asks again for a robots.txt the crawl is fetching. */
const ROBOTS_WAIT_MS = 50;

type Response = Extract<ResourceAnswer, { kind: 'response' }>;

/** Headers the browser must not see on a body fetch() has already decoded and measured. */
const DROPPED_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

export interface ResourceStats {
  fetched: number;
  fromCache: number;
  blocked: number;
  failed: number;
}

export class CrawlResourceFetcher {
  readonly stats: ResourceStats = { fetched: 0, fromCache: 0, blocked: 0, failed: 0 };
  private readonly cache = new Map<string, Response>();
  private cachedBytes = 0;
  private readonly inFlight = new Map<string, Promise<ResourceAnswer>>();
  private readonly robots = new Map<string, Promise<RobotsRules>>();
  private readonly headersFor: (url: string) => Record<string, string> | undefined;

  constructor(
    private readonly settings: CrawlSettings,
    private readonly hosts: CrawlHosts,
  ) {
    this.headersFor = requestHeadersFor(settings, makeScope(settings));
  }

  /** The fetcher a render uses. */
  readonly fetch: ResourceFetcher = (url, _type, signal) => {
    const hit = this.cache.get(url);
    if (hit) {
      // Most recently used last.
      this.cache.delete(url);
      this.cache.set(url, hit);
      this.stats.fromCache++;
      return Promise.resolve(hit);
    }
    const pending = this.inFlight.get(url);
    if (pending) return pending;
    const answer = this.load(url, signal).finally(() => this.inFlight.delete(url));
    this.inFlight.set(url, answer);
    return answer;
  };

  private async load(url: string, signal: AbortSignal): Promise<ResourceAnswer> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return this.failed('invalid URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return this.blocked(`${parsed.protocol} not fetched`);
    if (this.settings.robots === 'respect') {
      const refusal = (await this.rulesFor(parsed.origin)).refusal(url);
      if (refusal !== null) return this.blocked(refusal);
    }
    await waitUntil(await this.hosts.reserveFetch(parsed.origin), signal);
    if (signal.aborted) return this.failed('render ended');
    const answer = await this.get(url, signal);
    if (answer.kind === 'response') {
      this.stats.fetched++;
      this.keep(url, answer);
    }
    return answer;
  }

  private async get(url: string, signal: AbortSignal): Promise<ResourceAnswer> {
    const headers: Record<string, string> = { 'user-agent': this.settings.userAgent, ...this.headersFor(url) };
    try {
      const res = await fetch(url, {
        headers,
        redirect: 'manual',
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.settings.responseTimeoutMs)]),
      });
      const body = await readAtMost(res, this.settings.maxBodyBytes);
      if (body === null) return this.failed('too large');
      const kept: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        if (!DROPPED_HEADERS.has(name)) kept[name] = value;
      });
      return { kind: 'response', status: res.status, headers: kept, body };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      return this.failed(e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message));
    }
  }

  /** The host's robots.txt rules for our user agent: the crawl's, asked for once per host. */
  private rulesFor(origin: string): Promise<RobotsRules> {
    let rules = this.robots.get(origin);
    if (!rules) {
      if (this.robots.size >= ROBOTS_KEPT) this.robots.delete(this.robots.keys().next().value!);
      rules = this.crawlRules(origin);
      this.robots.set(origin, rules);
    }
    return rules;
  }

  /** The crawl's rules for the host; when the crawl has not read its robots.txt, it is fetched here and stored for the crawl. */
  private async crawlRules(origin: string): Promise<RobotsRules> {
    for (;;) {
      const answer = await this.hosts.robotsFor(origin);
      if ('rules' in answer) return answer.rules;
      if ('fetch' in answer) {
        const result = await this.fetchRobots(answer.fetch.url);
        await this.hosts.recordRobots(answer.fetch, result);
        return robotsRulesFrom(answer.fetch.url, result.statusCode, result.body, this.settings.userAgent, result.error);
      }
      // The crawl is fetching it: its answer is at most a fetch away.
      await new Promise((resolve) => setTimeout(resolve, ROBOTS_WAIT_MS));
    }
  }

  private async fetchRobots(url: string): Promise<RobotsFetchResult> {
    const result: RobotsFetchResult = {
      kind: 'robots',
      jobId: 0,
      threadId: 0,
      url,
      statusCode: null,
      body: null,
      responseTimeMs: 0,
      error: null,
    };
    const started = performance.now();
    try {
      const res = await fetch(url, {
        headers: { 'user-agent': this.settings.userAgent, ...this.headersFor(url) },
        signal: AbortSignal.timeout(this.settings.responseTimeoutMs),
      });
      const body = await readAtMost(res, ROBOTS_MAX_BYTES, true);
      result.statusCode = res.status;
      if (res.status >= 200 && res.status < 300 && body !== null) result.body = new TextDecoder().decode(body);
    } catch (err) {
      const e = err as Error;
      result.error = e.name === 'TimeoutError' ? 'timeout' : e.message;
    }
    result.responseTimeMs = Math.round(performance.now() - started);
    return result;
  }

  private keep(url: string, answer: Response): void {
    const size = answer.body.byteLength;
    if (size > LARGEST_CACHED) return;
    this.cache.set(url, answer);
    this.cachedBytes += size;
    for (const [old, entry] of this.cache) {
      if (this.cachedBytes <= RESOURCE_CACHE_BYTES) break;
      this.cache.delete(old);
      this.cachedBytes -= entry.body.byteLength;
    }
  }

  private blocked(reason: string): ResourceAnswer {
    this.stats.blocked++;
    return { kind: 'blocked', reason };
  }

  private failed(reason: string): ResourceAnswer {
    this.stats.failed++;
    return { kind: 'failed', reason };
  }
}

/** Resolves at `at` (epoch ms), or at once when the signal aborts first. */
function waitUntil(at: number, signal: AbortSignal): Promise<void> {
  const wait = at - Date.now();
  if (wait <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, wait);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The body, or null when it is longer than `max` bytes (`cut`: its first `max` bytes instead). */
async function readAtMost(res: globalThis.Response, max: number, cut = false): Promise<Uint8Array | null> {
  if (!res.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > max) {
      await res.body.cancel().catch(() => undefined);
      if (!cut) return null;
      chunks.push(chunk.subarray(0, chunk.byteLength - (total - max)));
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
