import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from './commands.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// tsx's loader in the server's own process (not the tsx command, whose child a signal or kill would miss).
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** Settles once it has exited. */
  exited: () => Promise<void>;
}

/**
 * The real server (api/src/main.ts) as its own process on 127.0.0.1, configured by `env` alone
 * (over test defaults), run in `cwd`; settles once it answers /healthz.
 */
export async function startServerProcess(env: Record<string, string>, cwd: string): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', TSX_LOADER, path.join(ROOT, 'api/src/main.ts')], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
      // The developer's .env is not the test's configuration.
      ENV_FILE: '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: port,
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_COST: 'test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = () =>
    new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve()),
    );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child, output: () => out, exited };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${out}`);
}
