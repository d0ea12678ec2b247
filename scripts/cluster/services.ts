/**
 * A private PostgreSQL and a private Redis for `npm run cluster-chaos`, which restarts them: never
 * the machine's own, which other tests share. Both on free loopback ports, their files in a temp dir.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort, waitFor } from './processes.js';

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** PostgreSQL's programs (Debian's layout), the newest version installed. */
function pgBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const file = path.join(root, v, 'bin', name);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`PostgreSQL's ${name} is missing (apt-get install -y postgresql)`);
}

/** PostgreSQL refuses to run as root: as root, its programs run as the postgres user. */
function asPostgres(file: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

export class PrivatePostgres {
  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/giftlink_chaos`;
  }

  static async create(dir: string): Promise<PrivatePostgres> {
    fs.mkdirSync(dir, { recursive: true });
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
    const pg = new PrivatePostgres(dir, await freePort());
    const [cmd, args] = asPostgres(pgBin('initdb'), ['-D', pg.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    execFileSync(cmd, args, { stdio: 'ignore' });
    await pg.start();
    const [psql, psqlArgs] = asPostgres('psql', [
      '-h',
      '127.0.0.1',
      '-p',
      String(pg.port),
      '-U',
      'postgres',
      '-qc',
      'CREATE DATABASE giftlink_chaos',
    ]);
    execFileSync(psql, psqlArgs, { stdio: 'inherit' });
    return pg;
  }

  private get data(): string {
    return path.join(this.dir, 'data');
  }

  private ctl(args: string[]): void {
    const [cmd, all] = asPostgres(pgBin('pg_ctl'), ['-D', this.data, ...args]);
    execFileSync(cmd, all, { stdio: 'ignore' });
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
    this.ctl(['-l', path.join(this.dir, 'postgres.log'), '-o', options, '-w', 'start']);
    await waitFor('PostgreSQL', () => listening(this.port));
  }

  /** `fast`: every session is cut, as when the server is restarted for an upgrade. */
  stop(): void {
    this.ctl(['-m', 'fast', '-w', 'stop']);
  }

  destroy(): void {
    try {
      this.stop();
    } catch {
      // already stopped
    }
  }
}

export class PrivateRedis {
  private child?: ChildProcess;

  private constructor(
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async create(dir: string): Promise<PrivateRedis> {
    fs.mkdirSync(dir, { recursive: true });
    const redis = new PrivateRedis(dir, await freePort());
    await redis.start();
    return redis;
  }

  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir];
    this.child = spawn('redis-server', args, { stdio: 'ignore' });
    await waitFor('Redis', () => listening(this.port));
  }

  /** Stops it at once, as a crash would (SIGKILL): nothing is saved (it saves nothing anyway). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
