// Picks the transport: the Electron preload's window.trawl in the desktop app, else the web console's WebSocket.
// Nothing past this file knows which one it got.
import type { CrawlerApi } from '../../../shared/crawler-api.ts';
import { EXPORT_PATH, WS_PATH } from '../../../shared/ws-protocol.ts';
import { createWsApi } from './ws-transport.ts';

export function createApi(): CrawlerApi {
  if (window.trawl) return window.trawl;
  return createWsApi({ ...webConsoleUrls(window.location, takeToken()), probe: () => probeHost(window.location.href) });
}

/**
 * Whether the host that served this page is up and still accepts its token (the cookie): a 403 means it runs but
 * refuses it, as a console restarted with a new token does; no answer at all, that it is down.
 */
export async function probeHost(pageUrl: string, fetcher: typeof fetch = fetch): Promise<'refused' | 'up' | 'down'> {
  try {
    const response = await fetcher(new URL('/', pageUrl).href, { method: 'HEAD', cache: 'no-store', credentials: 'same-origin' });
    return response.status === 403 ? 'refused' : 'up';
  } catch {
    return 'down';
  }
}

/**
 * The WebSocket's URL (with the link's token, if the page was opened with one: a socket's URL is kept in no history)
 * and the downloads' URL, which never carries the token: a browser keeps a download's URL in its downloads list and
 * history, and the cookie the server set with the page authenticates it.
 */
export function webConsoleUrls(
  location: Pick<Location, 'protocol' | 'host' | 'href'>,
  token: string | null,
): { url: string; exportUrl: string } {
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return { url: `${scheme}//${location.host}${WS_PATH}${query}`, exportUrl: new URL(EXPORT_PATH, location.href).href };
}

/** The ?token= of the console's link, taken out of the address bar (and so out of the history): the cookie the
 * server set with the page carries it from then on, across reloads too. */
function takeToken(): string | null {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token !== null) {
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.href);
  }
  return token;
}
