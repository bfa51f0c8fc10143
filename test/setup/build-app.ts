// Global setup of the browser tests: builds the desktop app and its renderer (electron-vite) into out/main,
// out/preload and out/renderer, which the web console serves and the browser tests drive. Only this project
// pays for it: the unit, processes and postgres tests never load the renderer build.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../scripts/fresh.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default function setup(): void {
  buildApp(root);
}
