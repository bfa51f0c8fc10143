// Builds the CLI and worker bundles once per test run, from the current sources, as `npm run crawl` does.
import { buildNode } from '../scripts/build-node.mjs';

export default async function setup(): Promise<void> {
  await buildNode();
}
