import fs from 'node:fs';
import path from 'node:path';

/**
 * What the server keeps on disk (the SQLite database, uploads, the generated JWT secret) is
 * its owner's only: directories 0700, files 0600. Modes are set with chmod after creating,
 * so they do not depend on the process's umask.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `dir` (and any missing parents) owner-only. A directory that already existed keeps
 * its mode unless `always` is set: DATA_DIR may be one an operator prepared on purpose,
 * while the directories inside it are ours.
 */
export function makePrivateDir(dir: string, { always = false } = {}): void {
  const first = fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) {
    if (always) fs.chmodSync(dir, PRIVATE_DIR_MODE);
    return;
  }
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    fs.chmodSync(d, PRIVATE_DIR_MODE);
    if (d === path.resolve(first) || d === path.dirname(d)) break;
  }
}

/** Creates `file` if it is missing (empty) and makes it owner-only. */
export function makePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  fs.chmodSync(file, PRIVATE_FILE_MODE);
}

/** Makes each of `files` that exists owner-only. */
export function restrictFiles(files: readonly string[]): void {
  for (const file of files) {
    try {
      fs.chmodSync(file, PRIVATE_FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/** Writes a new owner-only file (failing if it exists). */
export async function writePrivateFile(file: string, data: Uint8Array | string): Promise<void> {
  await fs.promises.writeFile(file, data, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  await fs.promises.chmod(file, PRIVATE_FILE_MODE);
}
