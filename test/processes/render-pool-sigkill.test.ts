// When the process hosting a render pool is killed with SIGKILL (no handler of ours runs), no Chromium process
// survives it: the browser, launched with its DevTools pipe on the host's file descriptors, reads end-of-file
// when the kernel closes them and shuts down with its zygotes and renderers (browser-process.ts). The host here
// is a child Node process mid-render; its browsers are found by their process group and by an environment
// variable only this test sets (inherited by every process the browser starts, including the crash handler that
// leaves the group), so processes of other Chromium users on the machine are never counted.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProcs, stillRunning } from '../../electron/engine/render/proc.ts';
import type { ProcInfo } from '../../electron/engine/render/proc.ts';
import { serveSite, testChromium } from '../helpers/render-fixtures.ts';
import type { FixtureSite } from '../helpers/render-fixtures.ts';

const chromium = testChromium();
const describeWithChromium = chromium.path
  ? describe
  : (name: string, fn: () => void) => describe.skip(`${name} (skipped: ${chromium.why})`, fn);

function tagged(tag: string): ProcInfo[] {
  return listProcs().filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0').includes(`TRAWL_RENDER_TEST=${tag}`);
    } catch {
      return false;
    }
  });
}

describeWithChromium('render pool host killed with SIGKILL', () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await serveSite({
      '/busy': {
        body: `<!DOCTYPE html><html><head><title>busy</title></head><body><script>
          setInterval(() => { document.body.append('.'); fetch('/tick').catch(() => {}); }, 50);
          setTimeout(() => { for (;;) {} }, 3000);</script></body></html>`,
      },
      '/tick': { type: 'text/plain', body: 'ok' },
    });
  });
  afterAll(() => site?.close());

  it('leaves no Chromium process behind', async () => {
    const tag = `${process.pid}-${Date.now()}`;
    const host = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/helpers/render-host.ts', chromium.path as string, `${site.origin}/busy`],
      {
        env: { ...process.env, TRAWL_RENDER_TEST: tag },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const pids = await new Promise<number[]>((resolve, reject) => {
      let out = '';
      host.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /RENDERING (\[.*\])\n/.exec(out);
        if (match?.[1]) resolve(JSON.parse(match[1]) as number[]);
      });
      host.once('exit', (code) => reject(new Error(`host exited (${code}) before rendering: ${out}`)));
    });
    const procs = listProcs();
    const groups = new Set(procs.filter((p) => pids.includes(p.pid)).map((p) => p.pgid));
    const seen = new Map<number, ProcInfo>();
    for (const p of [...procs.filter((p) => groups.has(p.pgid)), ...tagged(tag)]) if (p.pid !== host.pid) seen.set(p.pid, p);
    const before = [...seen.values()];
    // The browser, its zygotes, its renderers, GPU and network processes.
    expect(before.length).toBeGreaterThanOrEqual(4);
    const exited = new Promise((resolve) => host.once('exit', resolve));
    host.kill('SIGKILL');
    await exited;
    let left = before;
    for (let i = 0; i < 150 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = [...before, ...tagged(tag).filter((p) => p.pid !== host.pid)].filter((p) => stillRunning(p.pid, p.startTime));
    }
    expect(left.map((p) => `${p.pid} ${p.comm}`)).toEqual([]);
    console.log(`SIGKILL of the host mid-render: ${before.length} browser processes before, none after`);
  }, 90_000);
});
