// The browser's processes as Linux's /proc shows them: how the render pool finds the Chromium it launched (by a
// token on its command line), every process of that browser (its process group: playwright starts the browser
// detached, as the leader of a group of its own, and the zygotes, renderers, GPU and network processes stay in
// it), their memory, and whether any is left. Elsewhere (no /proc) these find nothing and the pool relies on
// playwright's close and on the pipe (see browser-process.ts).
import fs from 'node:fs';

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** The kernel's name of the executable (at most 15 characters). */
  comm: string;
  /** Resident memory, bytes. */
  rssBytes: number;
  /** Start time, in clock ticks after boot: with the pid, tells a process from a later one given the same pid. */
  startTime: number;
}

const PAGE_SIZE = 4096;

/** One process's entry, or null when it is gone (or there is no /proc). */
export function readProc(pid: number): ProcInfo | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
  // priority nice num_threads itrealvalue starttime vsize rss ...": comm may hold spaces and parentheses.
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < 0) return null;
  const fields = stat.slice(close + 2).split(' ');
  // fields[0] is the state (field 3 of the line).
  return {
    pid,
    comm: stat.slice(open + 1, close),
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    startTime: Number(fields[19]),
    rssBytes: Number(fields[21]) * PAGE_SIZE,
  };
}

/** Every process on the machine (none without /proc). */
export function listProcs(): ProcInfo[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcInfo[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProc(Number(name));
    if (info) out.push(info);
  }
  return out;
}

/** A process's command line arguments, or null when it is gone. */
export function readCmdline(pid: number): string[] | null {
  try {
    return fs
      .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '');
  } catch {
    return null;
  }
}

/** The process whose command line carries `arg` (the browser's token), or null. */
export function findProcessWithArg(arg: string, candidates: readonly ProcInfo[] = listProcs()): ProcInfo | null {
  for (const p of candidates) {
    if (readCmdline(p.pid)?.includes(arg)) return p;
  }
  return null;
}

/** The live members of process group `pgid`. */
export function groupMembers(pgid: number, procs: readonly ProcInfo[] = listProcs()): ProcInfo[] {
  return procs.filter((p) => p.pgid === pgid);
}

/** Whether the process `pid` that started at `startTime` still runs (and is not a zombie awaiting its parent). */
export function stillRunning(pid: number, startTime: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] !== 'Z' && Number(fields[19]) === startTime;
  } catch {
    return false;
  }
}
