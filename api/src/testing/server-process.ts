import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from './commands.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// tsx's loader in the server's own process (not the tsx command, whose child a signal would miss).
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
}

/**
 * api/src/main.ts as a process of its own, for a test that signals or kills it: configured by `env`
 * alone (no .env), in `cwd`, on 127.0.0.1 and a free port; answers once it serves /healthz.
 */
export async function spawnServer(env: Record<string, string>, cwd: string): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', TSX_LOADER, path.join(ROOT, 'api/src/main.ts')], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
      ENV_FILE: '',
      HOST: '127.0.0.1',
      PORT: port,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child, output: () => out };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${out}`);
}
