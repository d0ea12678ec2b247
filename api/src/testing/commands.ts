import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// The test's own Node, not the first `node` on PATH that tsx's launcher would find.
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * One of the server's entry points (api/src/`script`) as its own process, configured by `env`
 * alone (and a .env in `cwd`, where it runs), killed if it runs past 25 s. Asynchronous: the test
 * server it talks to runs in the test's own process.
 */
export function runCommand(script: string, env: Record<string, string>, cwd: string, args: string[] = []): Promise<CommandRun> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, path.join(ROOT, 'api/src', script), ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** A port nothing listens on (just now). */
export async function freePort(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return String(port);
}
