// The preload: exposes the CrawlerApi to the renderer as named methods (window.trawl), never ipcRenderer itself.
// Runs sandboxed, so it imports nothing but electron and the zod-free command table (names and flags, no schemas:
// the host checks every argument).
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { COMMAND_NAMES } from '../../shared/commands.ts';
import type { EventName } from '../../shared/events.ts';
import { ipcChannel } from '../../shared/ipc-channels.ts';
import type { CommandMethods, CrawlerApi } from '../../shared/crawler-api.ts';

const commands = Object.fromEntries(
  COMMAND_NAMES.map((name) => [name, (...args: unknown[]) => ipcRenderer.invoke(ipcChannel(name), ...args)]),
) as unknown as CommandMethods;

function subscribe<T>(name: EventName, listener: (payload: T) => void): () => void {
  const handler = (_event: IpcRendererEvent, payload: T) => listener(payload);
  ipcRenderer.on(ipcChannel(name), handler);
  // The current snapshot comes first, so a freshly loaded window is never blank.
  if (name === 'snapshot') void commands.currentSnapshot().then((s) => s && listener(s as T));
  return () => ipcRenderer.removeListener(ipcChannel(name), handler);
}

const api: CrawlerApi = {
  ...commands,
  onSnapshot: (listener) => subscribe('snapshot', listener),
  onState: (listener) => subscribe('state', listener),
  onCleared: (listener) => subscribe('cleared', () => listener()),
};

contextBridge.exposeInMainWorld('trawl', api);
