import fs from 'node:fs';

/**
 * SQLite's WAL, as the group committer flushes it: an fsync on libuv's thread pool, through a
 * handle opened at the first flush and kept, so that a flush is one trip to the thread pool, not
 * three (open, fsync, close), each waiting for a turn of the busy main thread. The
 * file stays the same while the writer's connection is open: SQLite removes the WAL only when its
 * last connection closes, and truncating or restarting it keeps the file.
 */
export class WalFile {
  private handle?: Promise<fs.promises.FileHandle>;
  private closed = false;

  constructor(private readonly file: string) {}

  async sync(): Promise<void> {
    if (this.closed) {
      // Shutting down: a last commit is still flushed, through a handle of its own. Closing the
      // last connection checkpoints the WAL into the synced database file and removes it.
      await syncFile(this.file).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      });
      return;
    }
    this.handle ??= fs.promises.open(this.file, 'r');
    const handle = this.handle;
    try {
      await (await handle).sync();
    } catch (err) {
      // The next flush opens it again.
      if (this.handle === handle) this.handle = undefined;
      await handle.then((h) => h.close()).catch(() => undefined);
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const handle = this.handle;
    this.handle = undefined;
    await handle?.then((h) => h.close()).catch(() => undefined);
  }
}

/** fsync of a file (or a directory), on libuv's thread pool. */
export async function syncFile(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
