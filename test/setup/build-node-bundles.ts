// Global setup of the test projects that start real processes (processes, postgres, browser): builds, once per
// test run and from the current sources, the CLI, web console and worker bundles in out/node/ (as `npm run crawl`
// and `npm run serve` do). Several projects list this file; they share one build (kept on globalThis, as each
// project may load this module afresh, and their setups may run at the same time).
import { buildNode } from '../../scripts/build-node.mjs';

const shared = globalThis as { trawlNodeBundles?: Promise<string> };

export default async function setup(): Promise<void> {
  shared.trawlNodeBundles ??= buildNode();
  await shared.trawlNodeBundles;
}
