/** Runs the load generator (bench/load.ts) in a child process of its own and answers its result. */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadPhase, LoadResult, LoadSpec } from './load.js';

const loadScript = fileURLToPath(new URL('./load.ts', import.meta.url));
let specCounter = 0;

export interface LoadHooks<T> {
  /** When the measured run begins (after the warm-up), with the load generator's pid. */
  measuring(pid: number): void;
  /** When its result arrives: what the caller adds to it (its own CPU readings). */
  measured(result: LoadResult): T;
}

export function forkLoad<T>(spec: LoadSpec, hooks: LoadHooks<T>): Promise<LoadResult & Partial<T>> {
  const file = path.join(os.tmpdir(), `giftlink-bench-${process.pid}-${++specCounter}.json`);
  fs.writeFileSync(file, JSON.stringify(spec));
  return new Promise((resolve, reject) => {
    let result: (LoadResult & Partial<T>) | undefined;
    let measuring = false;
    const child = fork(loadScript, [file], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (m: LoadResult | LoadPhase) => {
      if ('phase' in m) {
        measuring = true;
        hooks.measuring(child.pid!);
      } else result = measuring && m.requestsTotal ? { ...m, ...hooks.measured(m) } : (m as LoadResult & Partial<T>);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      fs.rmSync(file, { force: true });
      if (result) resolve(result);
      else reject(new Error(`load generator exited with ${code} and no result`));
    });
  });
}
