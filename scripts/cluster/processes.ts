/** The cluster's processes: free ports, waiting, and the compiled API server run as a node. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { freePort as freeTestPort } from '../../api/src/testing/commands.js';
import path from 'node:path';

export const MAIN = path.resolve('dist/server/api/src/main.js');

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A free port on 127.0.0.1 (the tests' own probe), as a number. */
export const freePort = async (): Promise<number> => Number(await freeTestPort());

/** Polls `check` every 100 ms until it is true, for up to `ms`; throws naming `what` after that. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, ms = 60_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Whether `url` answers 200 within a second. */
export function answers(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
    (r) => r.ok,
    () => false,
  );
}

/** One API process (dist/server/api/src/main.js) on its own port; its output goes to `logFile`. */
export class ApiNode {
  child?: ChildProcess;
  private out = '';

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What it printed since it last started (the first invite, errors). */
  output(): string {
    return this.out;
  }

  /** Starts it and waits until it is ready (GET /readyz). */
  async start(): Promise<number> {
    this.out = '';
    const log = fs.createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(process.execPath, ['--enable-source-maps', MAIN], {
      env: { ...process.env, ENV_FILE: '', ...this.env, HOST: '127.0.0.1', PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (d: Buffer) => {
      log.write(d);
      if (this.out.length < 100_000) this.out += d.toString();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('exit', () => log.end());
    return waitFor(`${this.name} to be ready`, () => {
      if (child.exitCode !== null) throw new Error(`${this.name} exited with ${child.exitCode}:\n${this.out.slice(-3000)}`);
      return answers(`${this.url}/readyz`);
    });
  }

  /** Sends `signal` and waits for the process to end (SIGKILL after `ms`). */
  stop(signal: NodeJS.Signals = 'SIGTERM', ms = 30_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
      setTimeout(() => child.kill('SIGKILL'), ms).unref();
    });
  }
}
