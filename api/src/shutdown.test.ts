import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgres } from './db/fresh-postgres.js';
import { startServerProcess, type ServerProcess } from './testing/process.js';
import { ADULT_BIRTH_DATE } from './testing/server.js';

/**
 * SIGTERM to a real server process (api/src/main.ts on its own data): it stops being ready at once,
 * finishes the request in flight, closes its port, closes its sockets' transports so that a
 * socket.io client reconnects by itself (not told 'io server disconnect'), and exits 0 within the grace.
 */
const DRAIN_DELAY_MS = 1_500;
const GRACE_MS = 3_000;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-shutdown-'));
const database = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : undefined;
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<ServerProcess> {
  const server = await startServerProcess(
    {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_COST: 'test',
      SHUTDOWN_DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `giftlink-shutdown-${process.pid}` } : {}),
    },
    dataDir,
  );
  child = server.child;
  // The first-account invite is printed a moment after the port opens.
  for (let i = 0; i < 100 && !/\/invite\/[A-Za-z0-9_-]+/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
  return server;
}

/** A POST whose body is sent in two parts: the answer can only come once `finish` sent the rest. */
function slowPost(url: string, body: string) {
  const req = http.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, connection: res.headers.connection }));
    });
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.slice(0, half));
  return { answer, finish: () => req.end(body.slice(half)) };
}

const connects = (url: string) =>
  fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
    () => true,
    () => false,
  );

describe('SIGTERM', () => {
  it('finishes the request in flight, refuses new connections, asks its sockets to reconnect, and exits 0 once the grace cut a request never finished', async () => {
    const server = await start();
    const inviteCode = /\/invite\/([A-Za-z0-9_-]+)/.exec(server.output())![1];
    const credentials = { email: 'drain@example.com', password: 'secret-pass' };
    const reg = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...credentials, username: 'drain', dateOfBirth: ADULT_BIRTH_DATE, inviteCode }),
    });
    expect(reg.status).toBe(201);
    const { token } = (await reg.json()) as { token: string };

    // A real socket.io client, reconnecting as the app's does.
    const socket = io(server.url, {
      transports: ['websocket'],
      auth: { token },
      forceNew: true,
      reconnectionDelay: 100,
      reconnectionDelayMax: 200,
    });
    const disconnects: string[] = [];
    let reconnectAttempts = 0;
    socket.on('disconnect', (reason) => disconnects.push(reason));
    socket.io.on('reconnect_attempt', () => (reconnectAttempts += 1));
    await new Promise<void>((resolve, reject) => {
      socket.once('init', () => resolve());
      socket.once('connect_error', reject);
    });

    try {
      const login = slowPost(`${server.url}/api/auth/login`, JSON.stringify(credentials));
      // And one whose client never sends the rest: the grace bounds the wait for it.
      const stuck = slowPost(`${server.url}/api/auth/login`, JSON.stringify(credentials));
      const cut = stuck.answer.then(
        () => 'answered',
        () => 'cut',
      );
      await new Promise((r) => setTimeout(r, 200));
      const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
        const signalled = Date.now();
        child!.once('exit', (code) => resolve({ code, ms: Date.now() - signalled }));
      });
      child!.kill('SIGTERM');

      // Not ready at once, while the port is still open for the load balancer to notice.
      const readyz = async () => {
        const res = await fetch(`${server.url}/readyz`);
        return { status: res.status, body: (await res.json()) as unknown };
      };
      await expect.poll(readyz, { timeout: 1_000, interval: 20 }).toEqual({ status: 503, body: { status: 'draining' } });
      expect(disconnects).toEqual([]);

      // After the drain delay the port closes and the socket's transport with it: the client tries again.
      await expect.poll(() => connects(server.url), { timeout: DRAIN_DELAY_MS + 3_000, interval: 100 }).toBe(false);
      await expect.poll(() => reconnectAttempts, { timeout: 3_000 }).toBeGreaterThan(0);
      expect(disconnects[0]).toBe('transport close');
      expect(disconnects).not.toContain('io server disconnect');

      // The request in flight still gets its answer, and its connection is not kept.
      login.finish();
      const answered = await login.answer;
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.body)).toMatchObject({ token: expect.any(String) });
      expect(answered.connection).toBe('close');

      // The one never finished is cut at the end of the grace, and the process then exits 0.
      const { code, ms } = await exited;
      expect(await cut).toBe('cut');
      expect(code).toBe(0);
      expect(ms).toBeGreaterThanOrEqual(DRAIN_DELAY_MS + GRACE_MS);
      expect(ms).toBeLessThan(DRAIN_DELAY_MS + GRACE_MS + 2_000);
      expect(server.output()).not.toMatch(/shutdown failed|did not finish/);
    } finally {
      socket.close();
    }
  });
});
