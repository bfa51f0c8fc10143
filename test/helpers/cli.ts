// Runs the bundled CLI (what `npm run crawl` runs) as a real child process.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { CLI } from './engine.ts';

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; done: Promise<CliRun> } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return startCli(args, env).done;
}
