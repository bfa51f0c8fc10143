// Whether the renderer can reach its host. Only the WebSocket transport can lose it; the preload never does.
import type { CrawlerApi } from '../../../shared/crawler-api.ts';

/**
 * refused: the host answers but no longer accepts this page's access token (the console was restarted with a new
 * one): retrying alone will not help, the user must open the link the console printed.
 */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'refused';

export interface ConnectionStatus {
  state: ConnectionState;
  /** Why the last connection ended, while reconnecting. */
  detail: string | null;
  /** Epoch ms (our clock) when the connection was lost: what the page shows is as it was then. */
  since?: number;
}

/** What a look at the host over HTTP says while its WebSocket is down: refused (403: the token), up, or down. */
export type HostProbe = () => Promise<'refused' | 'up' | 'down'>;

/** The renderer has no live link to its host: what it shows is how things were when it was lost. */
export const isOffline = (connection: ConnectionStatus): boolean => connection.state !== 'connected';

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
