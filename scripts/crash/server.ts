/** The crash test's server process: the compiled server started on a free port, killed with SIGKILL, and HTTP calls to it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../cluster/processes.js';

export interface Server {
  url: string;
  child: ChildProcess;
  output: () => string;
}

export interface Reply<T> {
  status: number;
  /** The Idempotent-Replayed header, or null. */
  replayed: string | null;
  body: T;
}

/** Starts `main` (the compiled api/src/main.js) with `env` and waits for /healthz. */
export async function start(main: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', main], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ENV_FILE: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child, output: () => out };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not answer /healthz:\n${out}`);
}

export function kill9(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
}

export async function call<T>(
  server: Server,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
  key?: string,
): Promise<Reply<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['x-auth-token'] = token;
  if (key) headers['idempotency-key'] = key;
  const res = await fetch(server.url + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (text ? JSON.parse(text) : null) as T };
}
