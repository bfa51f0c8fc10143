// Entry of a crawl worker OS process (forked by the CLI engine, or an Electron utilityProcess in the app).
// It hosts several crawl threads at once: the engine sends jobs, the worker fetches and parses them concurrently
// (the engine decides how many are in flight) and streams back steps and results.
import type { Job, ParentToWorker } from '../../shared/protocol.ts';
import type { RenderRequest, RenderResult } from '../../shared/render.ts';
import type { CrawlSettings } from '../../shared/settings.ts';
import { makeScope, type ScopeTest } from '../../shared/scope.ts';
import { makeNormaliser, type Normaliser } from '../../shared/url/normalise.ts';
import { createFetcher, type Fetcher } from './fetch-url.ts';
import { connectToParent } from './parent-port.ts';
import { failedResult, runJob } from './run-job.ts';
import { StepBoard } from './step-board.ts';
import { buildFetchChain } from './chain/chain.ts';
import { requestHeadersFor } from './chain/fetch-http.ts';
import type { Processor } from './chain/processor.ts';

const link = connectToParent();
const steps = new StepBoard((batch) => link.send({ t: 'steps', steps: batch }));
let ctx: {
  fetcher: Fetcher;
  settings: CrawlSettings;
  scope: ScopeTest;
  normalise: Normaliser;
  chain: Processor[];
  headersFor: (url: string) => Record<string, string> | undefined;
} | null = null;
let shuttingDown = false;
/** Render requests sent to the engine and not answered yet, by request id. */
const renders = new Map<number, (result: RenderResult) => void>();
let nextRenderId = 1;

const SAVE_CODE_CACHE = Symbol.for('trawl.saveCodeCache');

// The engine is gone: nobody will read our results, so leave at once instead of lingering as an orphan.
link.onGone(() => process.exit(0));

// Per-job failures are caught in runJob; reaching here means the process itself is in an unknown state.
// Say so (the engine replaces a worker that reports fatal or dies) and exit.
process.on('uncaughtException', (err) => {
  try {
    link.send({ t: 'fatal', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    link.flush();
  } finally {
    setTimeout(() => process.exit(1), 100).unref();
  }
});

link.onMessage((msg: ParentToWorker) => {
  switch (msg.t) {
    case 'init':
      return init(msg.workerName, msg.settings);
    case 'job':
      return void handleJob(msg.job);
    case 'rendered': {
      const answer = renders.get(msg.requestId);
      renders.delete(msg.requestId);
      return answer?.(msg.result);
    }
    case 'shutdown':
      return void shutdown();
  }
});

function init(workerName: string, settings: CrawlSettings): void {
  try {
    // The pool sends the settings the crawl parsed (ParsedSettings), whole: a structured clone keeps every field and
    // default, so they are used as they arrive, not parsed again.
    const scope = makeScope(settings);
    ctx = {
      settings,
      fetcher: createFetcher(settings),
      scope,
      normalise: makeNormaliser(settings),
      chain: buildFetchChain(settings),
      headersFor: requestHeadersFor(settings, scope),
    };
    try {
      process.title = workerName; // shows as e.g. "crawl-worker-2" in ps / Task Manager
    } catch {
      // not allowed on some platforms; cosmetic only
    }
    link.send({ t: 'ready', pid: process.pid });
  } catch (err) {
    link.send({ t: 'fatal', message: `worker init failed: ${err instanceof Error ? err.message : String(err)}` });
    link.flush();
    setTimeout(() => process.exit(1), 100).unref();
  }
}

async function handleJob(job: Job): Promise<void> {
  if (!ctx || shuttingDown) {
    link.send({ t: 'result', result: failedResult(job, shuttingDown ? 'worker shutting down' : 'worker not initialised') });
    return;
  }
  const result = await runJob(job, {
    ...ctx,
    report: (step, processor, bytes) => steps.set({ threadId: job.threadId, jobId: job.jobId, step, processor, bytes }),
    ...(ctx.settings.render ? { render: (request: RenderRequest) => askRender(job, request) } : {}),
  });
  steps.clear(job.threadId);
  link.send({ t: 'result', result });
}

/** Asks the engine's render pool for a page's render; the engine answers every request (or ends this process). */
function askRender(job: Job, request: RenderRequest): Promise<RenderResult> {
  const requestId = nextRenderId++;
  return new Promise((resolve) => {
    renders.set(requestId, resolve);
    link.send({ t: 'render', requestId, threadId: job.threadId, jobId: job.jobId, request });
  });
}

async function shutdown(): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  await ctx?.fetcher.close().catch(() => undefined);
  // The engine asks only an idle worker to stop, so at most a last batch of steps is queued.
  link.flush();
  // Run from out/node, the first worker after a build saves the code cache of its bundle (scripts/load-bundle.mjs):
  // link.exit() ends the process without the 'exit' event that would.
  (globalThis as { [SAVE_CODE_CACHE]?: () => void })[SAVE_CODE_CACHE]?.();
  link.exit();
}
