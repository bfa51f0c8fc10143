// The web console's transport: the CrawlerApi over one WebSocket (shared/ws-protocol.ts). Requests are paired
// with replies by id and time out with a clear message; the socket reconnects by itself with a backoff; pushed
// events go to every listener. Commands issued while the socket is down wait for it (until their timeout).
// A method per command of the table (shared/commands.ts), whose flags say how long to wait for it, whether to
// send it again after a reconnect, and whether the browser downloads a file once the host agrees.
import { COMMAND_NAMES, commandSpec } from '../../../shared/commands.ts';
import { i18next } from '../i18n/i18n.ts';
import type { CommandName, DownloadRoute } from '../../../shared/commands.ts';
import type { CommandMethods, CrawlerApi, ExportResult } from '../../../shared/crawler-api.ts';
import type { CrawlSnapshot, StateChange } from '../../../shared/snapshot.ts';
import type { CommandFrame } from '../../../shared/ws-protocol.ts';
import { EXPORT_PATH } from '../../../shared/ws-protocol.ts';
import type { ConnectionSource, ConnectionStatus, HostProbe } from './connection.ts';

/** The part of the browser's WebSocket this transport uses (the `ws` package's client has it too). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
}
export type SocketConstructor = new (url: string) => SocketLike;

export interface WsApiOptions {
  /** ws(s)://host/api?token=... */
  url: string;
  /** Where the browser downloads the open crawl's CSV. */
  exportUrl: string;
  /** Defaults to the browser's WebSocket. */
  WebSocket?: SocketConstructor;
  /** How long a command may wait for its reply (including time spent waiting for a connection). */
  timeoutMs?: number;
  /** The same for commands that may legitimately take a while (stop lets threads finish their URL). */
  slowTimeoutMs?: number;
  reconnect?: { initialMs?: number; maxMs?: number };
  /** Starts the CSV download; defaults to clicking a hidden <a download>. */
  download?: (url: string) => void;
  /**
   * Asked while the socket is down: whether the host is up but refuses the token (a console restarted with a new
   * one), so the page can say so instead of reconnecting silently. None: never asked.
   */
  probe?: HostProbe;
}

export type WsApi = CrawlerApi &
  ConnectionSource & {
    /** Closes the socket for good; pending commands fail. */
    close(): void;
  };

/** A command the host refused or that never got its reply. */
export class CommandError extends Error {
  readonly command: CommandName;
  constructor(command: CommandName, message: string) {
    super(message);
    this.name = 'CommandError';
    this.command = command;
  }
}

const OPEN = 1;

interface Pending {
  id: number;
  cmd: CommandName;
  frame: string;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export function createWsApi(options: WsApiOptions): WsApi {
  const Socket = options.WebSocket ?? (globalThis.WebSocket as unknown as SocketConstructor | undefined);
  if (!Socket) throw new Error(i18next.t('transport.noWebSocket', { ns: 'live' }));
  const timeoutMs = options.timeoutMs ?? 20_000;
  const slowTimeoutMs = options.slowTimeoutMs ?? 90_000;
  const initialMs = options.reconnect?.initialMs ?? 250;
  const maxMs = options.reconnect?.maxMs ?? 10_000;
  const download = options.download ?? downloadWithAnchor;

  let socket: SocketLike | null = null;
  let closedForGood = false;
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let nextId = 1;
  /** Sent, waiting for the reply. */
  const inFlight = new Map<number, Pending>();
  /** Not sent yet: waiting for the socket to open. */
  const outbox = new Map<number, Pending>();

  let status: ConnectionStatus = { state: 'connecting', detail: null };
  /** When the last open connection was lost (null while connected). */
  let lostAt: number | null = null;
  let probing = false;
  const connectionListeners = new Set<(status: ConnectionStatus) => void>();
  const snapshotListeners = new Set<(snapshot: CrawlSnapshot) => void>();
  const stateListeners = new Set<(change: StateChange) => void>();
  const clearedListeners = new Set<() => void>();
  let lastSnapshot: CrawlSnapshot | null = null;

  const setStatus = (next: ConnectionStatus) => {
    status = next;
    for (const listener of [...connectionListeners]) listener(next);
  };

  function connect(): void {
    reconnectTimer = null;
    if (closedForGood) return;
    let ws: SocketLike;
    try {
      ws = new Socket!(options.url);
    } catch (err) {
      scheduleReconnect(err instanceof Error ? err.message : String(err));
      return;
    }
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      attempt = 0;
      lostAt = null;
      setStatus({ state: 'connected', detail: null });
      flushOutbox();
    };
    ws.onmessage = (event) => {
      if (socket === ws) receive(event.data);
    };
    ws.onerror = () => {
      // A close event always follows; it carries what there is to say.
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      socket = null;
      const why = describeClose(event.code, event.reason);
      if (lostAt === null) lostAt = Date.now();
      for (const p of [...inFlight.values()]) {
        inFlight.delete(p.id);
        if (commandSpec(p.cmd).retryable) outbox.set(p.id, p);
        else settle(p, new CommandError(p.cmd, i18next.t('transport.lostBefore', { ns: 'live', cmd: p.cmd, why })));
      }
      scheduleReconnect(why);
    };
  }

  function scheduleReconnect(why: string): void {
    if (closedForGood || reconnectTimer) return;
    const base = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 20));
    attempt++;
    // A little jitter so that many open consoles do not all come back at the same instant.
    const delay = Math.round(base * (0.85 + Math.random() * 0.15));
    // Refused stays refused (the probe says when it is not any more): each failed attempt must not hide it.
    if (status.state !== 'refused') setStatus({ state: 'reconnecting', detail: why, ...(lostAt !== null ? { since: lostAt } : {}) });
    reconnectTimer = setTimeout(connect, delay);
    void probeHost();
  }

  /** Asks the host over HTTP whether it refuses this page's token, while the socket cannot connect. */
  async function probeHost(): Promise<void> {
    if (!options.probe || probing) return;
    probing = true;
    try {
      const verdict = await options.probe().catch(() => 'down' as const);
      if (closedForGood || status.state === 'connected') return;
      const since = lostAt !== null ? { since: lostAt } : {};
      if (verdict === 'refused') setStatus({ state: 'refused', detail: i18next.t('transport.tokenRefused', { ns: 'live' }), ...since });
      else if (status.state === 'refused')
        setStatus({
          state: 'reconnecting',
          detail:
            verdict === 'down' ? i18next.t('transport.unreachable', { ns: 'live' }) : i18next.t('transport.reconnecting', { ns: 'live' }),
          ...since,
        });
    } finally {
      probing = false;
    }
  }

  function flushOutbox(): void {
    for (const p of [...outbox.values()]) {
      if (!socket || socket.readyState !== OPEN) return;
      try {
        socket.send(p.frame);
      } catch {
        return; // the close event will follow; the command stays queued
      }
      outbox.delete(p.id);
      inFlight.set(p.id, p);
    }
  }

  function settle(p: Pending, error: Error | null, value?: unknown): void {
    clearTimeout(p.timer);
    inFlight.delete(p.id);
    outbox.delete(p.id);
    if (error) p.reject(error);
    else p.resolve(value);
  }

  function receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      console.warn('Trawl: ignored a frame that is not JSON');
      return;
    }
    if (!frame || typeof frame !== 'object') return;
    const f = frame as Record<string, unknown>;
    if (typeof f['id'] === 'number' && typeof f['ok'] === 'boolean') {
      const p = inFlight.get(f['id']);
      if (!p) return; // timed out already
      if (f['ok']) settle(p, null, f['result']);
      else settle(p, new CommandError(p.cmd, typeof f['error'] === 'string' && f['error'] ? f['error'] : `"${p.cmd}" failed`));
      return;
    }
    if (f['event'] === 'snapshot') {
      const payload = f['payload'];
      if (!isSnapshot(payload)) return; // null before any crawl
      lastSnapshot = payload;
      for (const listener of [...snapshotListeners]) listener(payload);
    } else if (f['event'] === 'state') {
      const payload = f['payload'];
      if (!payload || typeof payload !== 'object') return;
      for (const listener of [...stateListeners]) listener(payload as StateChange);
    } else if (f['event'] === 'cleared') {
      // Nothing in view: a listener that comes later must not be given the crawl that was.
      lastSnapshot = null;
      for (const listener of [...clearedListeners]) listener();
    }
  }

  function request<T>(cmd: CommandName, args: unknown[]): Promise<T> {
    if (closedForGood) return Promise.reject(new CommandError(cmd, i18next.t('transport.closed', { ns: 'live' })));
    return new Promise<T>((resolve, reject) => {
      const id = nextId++;
      const frame: CommandFrame = { id, cmd, args };
      const limit = commandSpec(cmd).slow ? slowTimeoutMs : timeoutMs;
      const p: Pending = {
        id,
        cmd,
        frame: JSON.stringify(frame),
        resolve: resolve as (value: unknown) => void,
        reject,
        timer: setTimeout(() => {
          const sent = inFlight.has(id);
          settle(
            p,
            new CommandError(
              cmd,
              sent
                ? i18next.t('transport.noReply', { ns: 'live', cmd, seconds: seconds(limit) })
                : i18next.t('transport.notSent', {
                    ns: 'live',
                    cmd,
                    seconds: seconds(limit),
                    detail: status.detail ? i18next.t('connection.detail', { ns: 'live', detail: status.detail }) : '',
                  }),
            ),
          );
        }, limit),
      };
      outbox.set(id, p);
      flushOutbox();
    });
  }

  /**
   * Where the browser downloads a command's file: exportUrl itself for the crawl's CSV, a route beside it otherwise
   * (the crawl's export in another format too: exportUrl with its ?format=).
   */
  const downloadTarget = (route: DownloadRoute, args: unknown[]): string => {
    const params = route.query?.(args) ?? {};
    return route.path === EXPORT_PATH && Object.keys(params).length === 0
      ? options.exportUrl
      : downloadUrl(options.exportUrl, route.path, params);
  };

  function commandMethod(cmd: CommandName): (...args: unknown[]) => Promise<unknown> {
    const route = commandSpec(cmd).download;
    if (!route) return (...args) => request(cmd, args);
    // A download: the host says first whether there is anything to export, so a refusal reads as a message, not
    // a broken download; then the browser downloads it.
    return async (...args) => {
      const check = await request<ExportResult>(cmd, args);
      if (check.ok) download(downloadTarget(route, args));
      return check;
    };
  }
  const commands = Object.fromEntries(COMMAND_NAMES.map((cmd) => [cmd, commandMethod(cmd)])) as unknown as CommandMethods;

  connect();

  return {
    ...commands,
    onSnapshot(listener) {
      snapshotListeners.add(listener);
      if (lastSnapshot) listener(lastSnapshot);
      return () => void snapshotListeners.delete(listener);
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => void stateListeners.delete(listener);
    },
    onCleared(listener) {
      clearedListeners.add(listener);
      return () => void clearedListeners.delete(listener);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(status);
      return () => void connectionListeners.delete(listener);
    },
    close() {
      closedForGood = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      const ws = socket;
      socket = null;
      ws?.close(1000, 'closed by the page');
      for (const p of [...inFlight.values(), ...outbox.values()]) {
        settle(p, new CommandError(p.cmd, i18next.t('transport.closed', { ns: 'live' })));
      }
    },
  };
}

function isSnapshot(value: unknown): value is CrawlSnapshot {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<CrawlSnapshot>;
  return typeof v.state === 'string' && Array.isArray(v.threads) && !!v.counters && typeof v.counters === 'object';
}

function describeClose(code: number, reason: string): string {
  // The host's reason is its own text (English): quoted as it is.
  const text = reason ? `: ${reason}` : '';
  if (code === 1008 || code === 4401 || code === 4403)
    return i18next.t('transport.refusedByHost', { ns: 'live', reason: text || i18next.t('transport.tokenRight', { ns: 'live' }) });
  if (code === 1006) return i18next.t('transport.dropped', { ns: 'live' });
  if (code === 1001) return i18next.t('transport.goingAway', { ns: 'live', reason: text });
  return i18next.t('transport.closedCode', { ns: 'live', code, reason: text });
}

/** Milliseconds as seconds to a tenth, for a message ("0.2"). */
function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

/** The URL of another download beside the CSV export's, with `params` (and whatever query the export's URL has). */
export function downloadUrl(exportUrl: string, path: string, params: Record<string, string>): string {
  const q = exportUrl.indexOf('?');
  const head = q < 0 ? exportUrl : exportUrl.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : exportUrl.slice(q + 1));
  for (const [k, v] of Object.entries(params)) query.set(k, v);
  const base = head.endsWith(EXPORT_PATH) ? head.slice(0, -EXPORT_PATH.length) : head.replace(/\/[^/]*$/, '');
  const search = query.toString();
  return `${base}${path}${search ? `?${search}` : ''}`;
}

function downloadWithAnchor(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = ''; // the server's Content-Disposition names the file
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}
