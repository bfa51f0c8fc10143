// Builds, once per test run and from the current sources, what the tests run: the CLI, web console and worker
// bundles (as `npm run crawl` and `npm run serve` do), and the desktop app with its renderer (electron-vite), which
// the web console serves and the browser tests drive.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNode } from '../scripts/build-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default async function setup(): Promise<void> {
  await buildNode();
  execFileSync(path.join(root, 'node_modules/.bin/electron-vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}
