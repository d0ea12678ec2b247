import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies SQLite's WAL back into the database file on a thread of its own.
 *
 * A checkpoint writes the pages the WAL holds into the database file and waits for the disk twice;
 * left to SQLite (wal_autocheckpoint at 1,000 pages), it runs inside a COMMIT on the main thread,
 * stopping every request for as long. This worker, with its own connection, runs a PASSIVE
 * checkpoint (it never waits for, nor blocks, the writer or the readers) every `intervalMs` in
 * which something was committed, so it does nearly all of that copying. A passive checkpoint
 * cannot let the WAL start again from its beginning while writes keep coming, so the writer keeps
 * SQLite's own checkpoint with a higher bound (32,768 pages, db/index.ts): when the WAL reaches it,
 * the COMMIT that crossed it copies what little the worker has not, and the WAL starts over.
 */
export class Checkpointer {
  private readonly worker: Worker;
  private readonly timer: NodeJS.Timeout;
  private seen = 0;
  private busy = false;
  private exited = false;

  /**
   * @param file the SQLite database file
   * @param commits how many groups the writer has committed so far
   */
  constructor(file: string, commits: () => number, intervalMs = 250) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER, { eval: true, workerData: { driver, file } });
    this.worker.unref();
    this.worker.on('message', (answer: { error?: string }) => {
      this.busy = false;
      // A checkpoint that fails leaves the WAL longer, nothing worse: the next one tries again.
      if (answer.error) console.error(`checkpoint failed: ${answer.error}`);
    });
    this.worker.on('error', (err) => console.error('the checkpointer stopped', err));
    this.worker.on('exit', () => {
      this.exited = true;
    });
    this.timer = setInterval(() => {
      const now = commits();
      if (now === this.seen || this.busy) return;
      this.seen = now;
      this.busy = true;
      this.worker.postMessage('checkpoint');
    }, intervalMs);
    this.timer.unref();
  }

  /** Closes the worker's connection and ends the thread. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.ref();
    this.worker.postMessage('close');
    await exited;
  }
}

/** The worker: CommonJS run by `eval`, so it loads the same way from the TypeScript sources and the build. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage(checkpoint.get());
  } catch (err) {
    parentPort.postMessage({ error: String(err) });
  }
});
`;
