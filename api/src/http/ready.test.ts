import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { freshPostgres } from '../db/fresh-postgres.js';
import { freePort } from '../testing/commands.js';
import { checkViolations, startPrism } from '../testing/prism.js';
import { startTcpProxy } from '../testing/tcp-proxy.js';
import { BROWSER_USER_AGENT, buildUser, startTestServer, type TestServer } from '../testing/server.js';

/**
 * /readyz: 200 while the process should get traffic; 503 with the reason while it drains, or while
 * its database or Redis does not answer (cut by a proxy of the test's own, or a redis-server the
 * test starts and stops; never the machine's shared ones), and 200 again once they are back.
 */
const ready = async (server: Pick<TestServer, 'url'>) => {
  const started = Date.now();
  const res = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(5_000) });
  return { status: res.status, body: (await res.json()) as { status: string }, ms: Date.now() - started, headers: res.headers };
};

describe('/readyz', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ API_RATE_LIMIT: '3' });
  });
  afterAll(async () => server?.close());

  it('answers 200 ready once started, uncached, never the web page, and is counted by no rate limit', async () => {
    const res = await server.request('GET', '/readyz', { headers: { accept: 'text/html', 'user-agent': BROWSER_USER_AGENT } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    for (let i = 0; i < 10; i++) expect((await ready(server)).status).toBe(200);
  });
});

describe('while draining', () => {
  it('answers 503 draining from the start of close, through the drain delay, as the contract says, and the port closes after it', async () => {
    const server = await startTestServer({ SHUTDOWN_DRAIN_DELAY_MS: '1500' });
    // Prism checks the 503 against the published document (testing/prism.ts).
    const prism = await startPrism(server.url);
    expect((await ready(server)).status).toBe(200);
    const closed = server.close();
    try {
      // (With PRISM=1 the test server closes its own proxy first.)
      await expect.poll(async () => (await ready(server)).status, { timeout: 1_000, interval: 20 }).toBe(503);
      const draining = await ready(server);
      expect(draining.body).toEqual({ status: 'draining' });
      // Kept-alive clients are told to go: every answer while draining closes its connection.
      expect(draining.headers.get('connection')).toBe('close');
      const checked = await fetch(`${prism.url}/readyz`);
      const text = await checked.text();
      expect(checked.status).toBe(503);
      checkViolations('GET', '/readyz', checked.status, checked.headers, text);
    } finally {
      await prism.close();
    }
    await closed;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});

describe.runIf(loadConfig().databaseUrl)('when PostgreSQL does not answer', () => {
  it('answers 503 database within its bound while the connection is cut, and 200 once it is back', async () => {
    const database = await freshPostgres(loadConfig().databaseUrl!);
    const url = new URL(database.url);
    const proxy = await startTcpProxy(`${url.hostname}:${url.port || 5432}`);
    url.host = proxy.address;
    const server = await startTestServer({ DATABASE_URL: url.toString() });
    try {
      expect((await ready(server)).status).toBe(200);
      proxy.cut();
      // The answer a second ago may still be served: within the cache's second and the check's bound it says so.
      await expect.poll(async () => (await ready(server)).body.status, { timeout: 5_000 }).toBe('database');
      const down = await ready(server);
      expect(down.status).toBe(503);
      expect(down.ms).toBeLessThan(1_500);
      // A storm of probes while it hangs: each answered at once (one check at a time, cached).
      const storm = await Promise.all(Array.from({ length: 50 }, () => ready(server)));
      expect(storm.every((r) => r.status === 503 && r.ms < 1_500)).toBe(true);
      proxy.restore();
      await expect.poll(async () => (await ready(server)).status, { timeout: 10_000, interval: 200 }).toBe(200);
    } finally {
      await server.close();
      await proxy.close();
      await database.drop();
    }
  });
});

async function startRedis(port: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  // Without the binary the spawn fails: say what installs it rather than crash the worker.
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (err) =>
      reject(new Error(`redis-server could not start (${err.message}): bash scripts/ensure-redis.sh installs it`)),
    );
  });
  for (let i = 0; i < 100 && !out.includes('Ready to accept connections'); i++) await new Promise((r) => setTimeout(r, 50));
  if (!out.includes('Ready to accept connections')) throw new Error(`redis-server did not start:\n${out}`);
  return child;
}

describe('when Redis does not answer', () => {
  it('answers 503 redis while its own redis-server is down (requests 503 unavailable at once), 200 once it is back, and closes with it down', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const server = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      const me = await buildUser(server);
      const balance = () => server.request('GET', '/api/billing-settings-balance', { token: me.token });
      expect((await ready(server)).status).toBe(200);
      redis.kill('SIGKILL');
      await once(redis, 'exit');
      await expect.poll(async () => (await ready(server)).body.status, { timeout: 5_000 }).toBe('redis');
      const down = await ready(server);
      expect(down.status).toBe(503);
      expect(down.ms).toBeLessThan(1_500);
      // A request (its rate limit counts in Redis) is refused at once too, never left waiting for Redis.
      const asked = Date.now();
      const refused = await balance();
      expect(Date.now() - asked).toBeLessThan(1_000);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ error: 'unavailable' });
      expect(refused.headers.get('retry-after')).toBe('1');
      redis = await startRedis(port);
      await expect.poll(async () => (await ready(server)).status, { timeout: 15_000, interval: 200 }).toBe(200);
      expect((await balance()).status).toBe(200);
      // Down again at shutdown: closing does not wait for it for ever.
      redis.kill('SIGKILL');
      await once(redis, 'exit');
      const closing = Date.now();
      await server.close();
      expect(Date.now() - closing).toBeLessThan(5_000);
    } finally {
      await server.close();
      redis.kill('SIGKILL');
    }
  });
});
