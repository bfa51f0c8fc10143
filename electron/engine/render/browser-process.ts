// No browser outlives the process that launched it.
//
// - SIGKILL of the host (nothing of ours runs): playwright launches Chromium with --remote-debugging-pipe, its
//   DevTools connection on file descriptors 3 and 4 inherited from the host. When the host dies, however it dies,
//   the kernel closes the host's ends; Chromium's pipe reader then reads end-of-file and shuts the browser down,
//   and its zygotes, renderers, GPU and network processes end with it (their IPC channels to the browser close).
//   Checked on Linux with a renderer spinning in `while (true) {}`: every process of the browser is gone within
//   about two seconds of `kill -9` of the host (test/processes/render-pool-sigkill.test.ts checks it).
// - exit of the host (process.exit, an uncaught exception, the end of its event loop): the 'exit' hook below
//   SIGKILLs every live browser's process group, synchronously, before the host is gone.
// - SIGINT / SIGTERM: a host that handles them (the CLI stops its crawl and closes its renderer) keeps doing so;
//   a host that does not would die of the signal's default action, so the hook kills the browsers and raises
//   the signal again with its default action restored.
import { readProc, stillRunning } from './proc.ts';

interface Tracked {
  pid: number;
  startTime: number;
}

const live = new Set<Tracked>();
let hooked = false;

function killAll(): void {
  for (const t of live) killGroup(t);
}

function onSignal(signal: NodeJS.Signals): void {
  // Others listen (the host's own handler): the host decides, and ends its renderer or exits.
  if (process.listenerCount(signal) > 1) return;
  killAll();
  unhook();
  process.kill(process.pid, signal);
}

function unhook(): void {
  if (!hooked) return;
  hooked = false;
  process.off('exit', killAll);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}

function hook(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAll);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** SIGKILLs the process group the browser leads (it was started detached: it leads a group of its own). */
export function killGroup(t: Tracked): void {
  if (!stillRunning(t.pid, t.startTime)) return;
  try {
    process.kill(-t.pid, 'SIGKILL');
  } catch {
    try {
      process.kill(t.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/** Keeps `pid` (a browser that leads its process group) to be killed if the host exits first. */
export function trackBrowser(pid: number): Tracked | null {
  const info = readProc(pid);
  if (!info) return null;
  const t = { pid, startTime: info.startTime };
  live.add(t);
  hook();
  return t;
}

export function untrackBrowser(t: Tracked): void {
  live.delete(t);
  if (live.size === 0) unhook();
}
