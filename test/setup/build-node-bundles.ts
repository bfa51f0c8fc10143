// Global setup of the test projects that start real processes (processes, postgres, browser): builds, once per
// test run and from the current sources, the CLI, web console and worker bundles in out/node/ (as `npm run crawl`
// and `npm run serve` do). Several projects list this file; the first one to run builds, the others reuse it.
import { buildNode } from '../../scripts/build-node.mjs';

const BUILT = 'TRAWL_TEST_NODE_BUNDLES_BUILT';

export default async function setup(): Promise<void> {
  if (process.env[BUILT]) return;
  await buildNode();
  process.env[BUILT] = '1';
}
