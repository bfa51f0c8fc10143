// Samples a process tree from /proc while it runs: the peak resident memory of the root and of each child
// process (crawl workers), kept as the maximum VmHWM seen. Linux only; elsewhere it reports nothing.
import fs from 'node:fs';

export interface MemoryPeaks {
  /** Peak RSS of the root process, bytes. */
  main: number;
  /** Peak RSS of each child process by pid, bytes. */
  children: Record<number, number>;
}

function readKb(pid: number, field: string): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Pids whose parent is `pid`, from /proc (empty elsewhere). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (e.charCodeAt(0) < 48 || e.charCodeAt(0) > 57) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(e));
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * `launcherPid` is a wrapper (a shell timing the run) whose one child is the crawl's main process; the main
 * process's children are its workers.
 */
export function sampleTree(launcherPid: number, everyMs = 100): { stop(): MemoryPeaks } {
  const peaks: MemoryPeaks = { main: 0, children: {} };
  let mainPid: number | undefined;
  const sample = () => {
    mainPid ??= childrenOf(launcherPid)[0];
    if (mainPid === undefined) return;
    peaks.main = Math.max(peaks.main, readKb(mainPid, 'VmHWM') ?? 0);
    for (const c of childrenOf(mainPid)) peaks.children[c] = Math.max(peaks.children[c] ?? 0, readKb(c, 'VmHWM') ?? 0);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peaks;
    },
  };
}
