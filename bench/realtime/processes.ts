/** The orchestrator's children: spawning one in a role, waiting for its messages, stopping it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The entry point, which runs a child in the role its first argument names (server, echo, clients). */
const ENTRY = fileURLToPath(new URL('../realtime.ts', import.meta.url));

/**
 * A child of the entry point in the given role, with its soft open-files limit raised to the hard one.
 * With BENCH_CPU_PROF=<dir>, server children (Giftlink and echo) write a V8 CPU profile there on exit.
 */
export function child(role: string, env: Record<string, string> = {}): ChildProcess {
  const profile = process.env.BENCH_CPU_PROF && role !== 'clients' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const args = [process.execPath, ...profile, '--import', 'tsx', ENTRY, role];
  return spawn('bash', ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"', ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
}

export function nextMessage<T extends { type: string }>(proc: ChildProcess, type: T['type'], timeoutMs = 180_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${type}`)), timeoutMs);
    const onMessage = (m: unknown) => {
      if ((m as { type?: string }).type !== type) return;
      clearTimeout(timer);
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      resolve(m as T);
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`child exited with ${code} before ${type}`));
    };
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });
}

export async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.send({ type: 'stop' });
  const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
