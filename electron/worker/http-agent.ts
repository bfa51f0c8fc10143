// undici's Agent and its request API, without the rest of undici. The package's index loads fetch, WebSocket,
// EventSource, the cache and cookie stores and the mock agents (730 KB of the worker's bundle, about 50 ms of
// every worker's start-up) to export what the crawler uses two of. These are the same modules the index
// re-exports: `request(url, { dispatcher: agent })` there is `request.call(agent, { origin, path, ... })` here.
// undici has no "exports" map, so its files are reachable; their types are undici's own, declared below.
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
// @ts-expect-error: a file of undici without a declaration of its own (typed by AgentClass below)
import AgentModule from 'undici/lib/dispatcher/agent.js';
// @ts-expect-error: as above (typed by requestFn below)
import requestModule from 'undici/lib/api/api-request.js';

const AgentClass = AgentModule as typeof UndiciAgent;
const requestFn = requestModule as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

export type Agent = UndiciAgent;

export function createAgent(options: UndiciAgent.Options): Agent {
  return new AgentClass(options);
}

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** GET (or another method) of an absolute URL through `agent`, as undici's request() does with a dispatcher. */
export function request(agent: Agent, url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  return requestFn.call(agent, { ...options, origin: u.origin, path: u.pathname + u.search });
}
