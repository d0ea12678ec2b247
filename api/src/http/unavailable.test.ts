import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildUser, startTestServer, type TestServer } from '../testing/server.js';

/** A Redis of this test's own (the machine's is shared): it is stopped and started again. */
class OwnRedis {
  private child?: ChildProcess;
  constructor(readonly port: number) {}
  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 100 && !(await accepts(this.port)); i++) await new Promise((r) => setTimeout(r, 50));
  }
  stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(!socket.destroy()));
    socket.once('error', () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe.runIf(process.env.REDIS_URL)('Redis out of reach', () => {
  it('answers 503 unavailable at once, and serves again by itself once Redis is back', async () => {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    cleanup.push(() => redis.stop());
    const server: TestServer = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${redis.port}` });
    cleanup.push(() => server.close());
    const me = await buildUser(server);
    const balance = () => server.request('GET', '/api/billing-settings-balance', { token: me.token });
    expect((await balance()).status).toBe(200);

    await redis.stop();
    const started = Date.now();
    const refused = await balance();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ error: 'unavailable' });
    expect(refused.headers.get('retry-after')).toBe('1');

    await redis.start();
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await balance()).status;
    }
    expect(status).toBe(200);
  });
});
