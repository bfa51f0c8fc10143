// Finds the system Chromium (or Chrome) that playwright-core drives in plain Node: Trawl downloads no browser.
// An explicit path (`--chromium PATH`) is taken as given or refused; otherwise the usual command names on PATH, then
// the usual install paths. With none found the error names every place tried and how to get one.
import fs from 'node:fs';
import path from 'node:path';

/** The command names looked up on PATH, in order. */
export const CHROMIUM_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'] as const;

/** Where Chromium and Chrome install themselves when not on PATH, per platform. */
export function chromiumInstallPaths(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    return ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];
  }
  if (platform === 'win32') {
    const roots = [env['PROGRAMFILES'], env['PROGRAMFILES(X86)'], env['LOCALAPPDATA']].filter((r): r is string => !!r);
    return roots.flatMap((root) => [
      path.win32.join(root, 'Chromium', 'Application', 'chrome.exe'),
      path.win32.join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
    ]);
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/lib/chromium/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
  ];
}

export class ChromiumNotFoundError extends Error {
  constructor(
    message: string,
    readonly tried: readonly string[],
  ) {
    super(message);
    this.name = 'ChromiumNotFoundError';
  }
}

export interface FindChromiumOptions {
  /** A path the user gave (`--chromium PATH`): used when it is an executable file, an error otherwise. */
  explicit?: string | null | undefined;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Whether a path is an executable file (tests replace it). */
  isExecutable?: (file: string) => boolean;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function howToGetOne(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'install Chromium or Google Chrome (e.g. `brew install --cask chromium`), or pass --chromium PATH';
  if (platform === 'win32') return 'install Google Chrome or Chromium, or pass --chromium PATH';
  return 'install one (e.g. `apt-get install chromium`, `dnf install chromium`), or pass --chromium PATH';
}

/** The path of the Chromium to drive; throws ChromiumNotFoundError saying what was tried and how to get one. */
export function findChromium(options: FindChromiumOptions = {}): string {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const isExecutable = options.isExecutable ?? isExecutableFile;
  const explicit = options.explicit;
  if (explicit != null && explicit !== '') {
    if (isExecutable(explicit)) return explicit;
    throw new ChromiumNotFoundError(`--chromium ${explicit}: no executable file there; ${howToGetOne(platform)}`, [explicit]);
  }
  const tried: string[] = [];
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  const dirs = (env['PATH'] ?? env['Path'] ?? '').split(platform === 'win32' ? ';' : ':').filter((d) => d !== '');
  const exts = platform === 'win32' ? ['.exe'] : [''];
  for (const command of CHROMIUM_COMMANDS) {
    for (const dir of dirs) {
      for (const ext of exts) {
        const file = pathApi.join(dir, command + ext);
        if (isExecutable(file)) return file;
      }
    }
    tried.push(`${command} on PATH`);
  }
  for (const file of chromiumInstallPaths(platform, env)) {
    if (isExecutable(file)) return file;
    tried.push(file);
  }
  throw new ChromiumNotFoundError(
    `JavaScript rendering needs Chromium or Chrome and none was found (tried ${tried.join(', ')}); ${howToGetOne(platform)}`,
    tried,
  );
}
