// Whether the renderer can reach its host. Only the WebSocket transport can lose it; the preload never does.
import type { CrawlerApi } from '../../../shared/crawler-api.ts';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

export interface ConnectionStatus {
  state: ConnectionState;
  /** Why the last connection ended, while reconnecting. */
  detail: string | null;
}

/** A transport that can report its connection; the store listens if the api it is given has this. */
export interface ConnectionSource {
  onConnection(listener: (status: ConnectionStatus) => void): () => void;
}

export function hasConnection(api: CrawlerApi): api is CrawlerApi & ConnectionSource {
  return typeof (api as Partial<ConnectionSource>).onConnection === 'function';
}

/** A readable message from whatever a command rejected with (Electron wraps IPC errors in its own prefix). */
export function errorMessage(err: unknown): string {
  const raw = err instanceof Error ? err.message : typeof err === 'string' ? err : String(err);
  return raw.replace(/^Error invoking remote method '[^']*': /, '').replace(/^(?:[A-Z]\w*)?Error: /, '');
}
