// undici's Agent, without the rest of undici. The package's index loads fetch, WebSocket, EventSource, the cache
// and cookie stores and the mock agents (730 KB of the worker's bundle, about 50 ms of every worker's start-up) to
// export what the crawler uses one of. The crawler talks to the Agent through its dispatch() handler interface
// (fetch-url.ts): undici's request() wraps each response in a Readable stream and the body in an async iterator,
// a tenth of a worker's time on a site of small pages, for bytes the crawler only collects.
// undici has no "exports" map, so its files are reachable; their types are undici's own, declared below.
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
// @ts-expect-error: a file of undici without a declaration of its own (typed by AgentClass below)
import AgentModule from 'undici/lib/dispatcher/agent.js';
// @ts-expect-error: as above (typed by parseHeadersFn below)
import undiciUtil from 'undici/lib/core/util.js';

const AgentClass = AgentModule as typeof UndiciAgent;
const parseHeadersFn = (undiciUtil as { parseHeaders: (raw: Buffer[]) => Record<string, string | string[]> }).parseHeaders;

export type Agent = UndiciAgent;

export function createAgent(options: UndiciAgent.Options): Agent {
  return new AgentClass(options);
}

/** Response headers as undici's request() gives them: lower-case names, repeated ones as arrays. */
export function parseRawHeaders(raw: Buffer[]): Record<string, string | string[]> {
  return parseHeadersFn(raw);
}

/**
 * The handler interface of Dispatcher.dispatch (undici's own, used by its request()): the connection's abort
 * function, the response head (called for 1xx responses too), each chunk of the body, its end, or the failure.
 */
export interface ExchangeHandler {
  onConnect(abort: (reason?: Error) => void): void;
  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean;
  onData(chunk: Buffer): boolean;
  onComplete(trailers: Buffer[] | null): void;
  onError(err: Error): void;
}

/** Sends `options` (an absolute URL's origin and path) through `agent`, to `handler`. */
export function dispatch(agent: Agent, options: Dispatcher.DispatchOptions, handler: ExchangeHandler): void {
  agent.dispatch(options, handler as unknown as Dispatcher.DispatchHandler);
}
