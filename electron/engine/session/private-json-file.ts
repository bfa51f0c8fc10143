// The way the session writes its small JSON files beside the crawls (presets, schedules): readable by the user
// alone (0600, since they name sites and settings), and whole or not at all: written to a temporary file, flushed
// to disk, then renamed over the old one, so a crash or a full disk never leaves half a file.
import crypto from 'node:crypto';
import fs from 'node:fs';

export function writePrivateJsonFile(file: string, data: unknown): void {
  const tmp = `${file}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, `${JSON.stringify(data, null, 2)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
