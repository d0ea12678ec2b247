import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RESET_DONE, RESET_LINK_INVALID, RESET_LINK_SENT } from '../../contract/texts.js';
import { outboxDir } from '../mail/mailer.js';
import { connectClient, settle, type TestClient } from '../realtime/testing.js';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { startSmtp, type TestSmtp } from '../testing/smtp.js';
import { PasswordResetEntity } from './entity.js';
import { RESET_EMAILS_PER_ADDRESS, hashResetToken } from './reset.js';

let smtp: TestSmtp;
let server: TestServer;
const open: TestClient[] = [];
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://giftlink.example', COOKIE_SECURE: 'false' });
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const forgot = (email: string, on = server, headers: Record<string, string> = {}) =>
  on.request<{ message: string }>('POST', '/api/auth/forgot-password', { body: { email }, headers });
const reset = (token: string, password: string, on = server) =>
  on.request<{ message: string; error?: string }>('POST', '/api/auth/reset-password', { body: { token, password } });
const login = (who: TestUser, password: string, on = server) =>
  on.request<{ token: string }>('POST', '/api/auth/login', { body: { email: who.user.email, password } });

interface Mail {
  subject: string;
  to: string;
  /** The whole message with quoted-printable undone: both parts' text. */
  body: string;
}

/** Just enough of RFC 5322 and quoted-printable for our own ASCII emails. */
function parseMail(raw: string): Mail {
  const [head] = raw.split(/\r?\n\r?\n/, 1);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1].trim() ?? '';
  const body = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return { subject: header('Subject'), to: header('To'), body };
}

/** Waits for the next message to `to`, as a parsed email. */
async function mailTo(to: string, timeoutMs = 5000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.inbox.find((m) => m.to.includes(to));
    if (found) {
      smtp.inbox.splice(smtp.inbox.indexOf(found), 1);
      return parseMail(found.raw);
    }
    if (Date.now() > deadline) throw new Error(`no email to ${to}`);
    await settle(25);
  }
}

const LINK = /https:\/\/giftlink\.example\/reset-password\/([A-Za-z0-9_-]{43})/;

/** Asks for a reset of `who`'s password and answers the token of the emailed link. */
async function resetToken(who: TestUser): Promise<string> {
  expect((await forgot(who.user.email)).body).toEqual({ message: RESET_LINK_SENT });
  const mail = await mailTo(who.user.email);
  expect(mail.subject).toBe('Reset your Giftlink password');
  const token = LINK.exec(mail.body)?.[1];
  expect(token).toBeDefined();
  expect(mail.body).toContain(`href="https://giftlink.example/reset-password/${token}"`);
  return token!;
}

describe('forgot password', () => {
  it('answers the same for an unknown address and sends nothing', async () => {
    const who = await buildUser(server);
    const unknown = await forgot('nobody-here@example.com');
    const known = await forgot(who.user.email);
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual({ message: RESET_LINK_SENT });
    expect(known.body).toEqual(unknown.body);
    expect(known.headers.get('set-cookie')).toBeNull();
    await mailTo(who.user.email);
    await settle(300);
    expect(smtp.inbox.filter((m) => m.to.includes('nobody-here@example.com'))).toEqual([]);
  });

  it('refuses a malformed body with a 400, and takes the address in any case', async () => {
    expect((await server.request('POST', '/api/auth/forgot-password', { body: {} })).status).toBe(400);
    const who = await buildUser(server);
    expect((await forgot(`  ${who.user.email.toUpperCase()} `)).status).toBe(200);
    expect((await mailTo(who.user.email)).subject).toBe('Reset your Giftlink password');
  });

  it('stores only the hash of the token, expiring in 30 minutes', async () => {
    const who = await buildUser(server);
    const token = await resetToken(who);
    const rows = await server.deps.db.manager.findBy(PasswordResetEntity, { userId: who.user._id });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(hashResetToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    const minutes = (rows[0].expiresAt.getTime() - rows[0].createdAt.getTime()) / 60_000;
    expect(minutes).toBe(30);
    const raw = await server.deps.db.source.query('SELECT * FROM password_resets');
    expect(JSON.stringify(raw)).not.toContain(token);
  });

  it('limits the emails one address gets, whether it has an account or not', async () => {
    const who = await buildUser(server);
    for (let i = 0; i < RESET_EMAILS_PER_ADDRESS; i++) expect((await forgot(who.user.email)).status).toBe(200);
    const limited = await forgot(who.user.email);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'rate_limited' });
    for (let i = 0; i < RESET_EMAILS_PER_ADDRESS; i++) expect((await forgot('ghost@example.com')).status).toBe(200);
    expect((await forgot('ghost@example.com')).status).toBe(429);
    // The emails go out after the answers: wait for them on a busy machine, then check no more came.
    const sent = () => smtp.inbox.filter((m) => m.to.includes(who.user.email)).length;
    await expect.poll(sent, { timeout: 15_000 }).toBe(RESET_EMAILS_PER_ADDRESS);
    await settle(300);
    expect(sent()).toBe(RESET_EMAILS_PER_ADDRESS);
    smtp.inbox.splice(0);
  });

  it('limits each client to AUTH_RATE_LIMIT requests a window', async () => {
    const strict = await startTestServer({ SMTP_URL: smtp.url, AUTH_RATE_LIMIT: '2' });
    try {
      expect((await forgot('a1@example.com', strict)).status).toBe(200);
      expect((await forgot('a2@example.com', strict)).status).toBe(200);
      const third = await forgot('a3@example.com', strict);
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await reset('x'.repeat(43), 'whatever-1', strict)).status).toBe(400);
    } finally {
      await strict.close();
    }
  });
});

describe('reset password', () => {
  it('sets the new password with the emailed link, once', async () => {
    const who = await buildUser(server);
    const token = await resetToken(who);
    const done = await reset(token, 'brand-new-pass');
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: PASSWORD_RESET_DONE });
    expect((await login(who, who.password)).status).toBe(400);
    expect((await login(who, 'brand-new-pass')).status).toBe(200);

    const again = await reset(token, 'another-pass');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_reset_link', message: RESET_LINK_INVALID });
    expect((await login(who, 'brand-new-pass')).status).toBe(200);
  });

  it('refuses an unknown token, and a password outside the register rules', async () => {
    const unknown = await reset('A'.repeat(43), 'brand-new-pass');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ message: RESET_LINK_INVALID });
    const who = await buildUser(server);
    const token = await resetToken(who);
    const short = await reset(token, 'abc');
    expect(short.status).toBe(400);
    expect(short.body.message).toMatch(/Password must be 6-35 characters/);
    expect((await reset(token, 'x'.repeat(36))).status).toBe(400);
    // A refused password leaves the link usable.
    expect((await reset(token, 'brand-new-pass')).status).toBe(200);
  });

  it('refuses an expired link', async () => {
    const who = await buildUser(server);
    const token = await resetToken(who);
    const realClock = server.deps.clock;
    server.deps.clock = () => new Date(Date.now() + 31 * 60_000);
    try {
      const late = await reset(token, 'brand-new-pass');
      expect(late.status).toBe(400);
      expect(late.body).toMatchObject({ message: RESET_LINK_INVALID });
    } finally {
      server.deps.clock = realClock;
    }
    // Just inside the 30 minutes it works.
    server.deps.clock = () => new Date(Date.now() + 29 * 60_000);
    try {
      expect((await reset(token, 'brand-new-pass')).status).toBe(200);
    } finally {
      server.deps.clock = realClock;
    }
  });

  it('voids the older link when a new one is asked for', async () => {
    const who = await buildUser(server);
    const first = await resetToken(who);
    const second = await resetToken(who);
    expect(second).not.toBe(first);
    expect((await reset(first, 'brand-new-pass')).status).toBe(400);
    expect((await reset(second, 'brand-new-pass')).status).toBe(200);
  });

  it('ends every session and socket of the account', async () => {
    const who = await buildUser(server);
    const browser = await login(who, who.password);
    const phone = await login(who, who.password);
    const sockets = await Promise.all(
      [browser.body.token, phone.body.token].map(async (token) => {
        const client = await connectClient(server, { token });
        open.push(client);
        return client;
      }),
    );
    const closed = Promise.all(
      sockets.map((client) => new Promise<string>((resolve) => client.socket.once('disconnect', (reason) => resolve(reason)))),
    );
    const token = await resetToken(who);
    expect((await reset(token, 'brand-new-pass')).status).toBe(200);
    expect(await closed).toEqual(['io server disconnect', 'io server disconnect']);
    for (const t of [who.token, browser.body.token, phone.body.token])
      expect((await server.request('GET', '/api/auth/me', { token: t })).status).toBe(401);
    await expect(connectClient(server, { token: phone.body.token })).rejects.toThrow();
    const fresh = await login(who, 'brand-new-pass');
    expect((await server.request('GET', '/api/auth/me', { token: fresh.body.token })).status).toBe(200);
  });
});

describe('the outbox (no SMTP_URL)', () => {
  it('writes each email as an owner-only .eml file in DATA_DIR/outbox with the link', async () => {
    const local = await startTestServer({ PUBLIC_URL: 'https://giftlink.example', COOKIE_SECURE: 'false' });
    try {
      const who = await buildUser(local);
      expect((await forgot(who.user.email, local)).body).toEqual({ message: RESET_LINK_SENT });
      const dir = outboxDir(local.deps.config);
      const deadline = Date.now() + 5000;
      while (!(fs.existsSync(dir) && fs.readdirSync(dir).length > 0) && Date.now() < deadline) await settle(25);
      const files = fs.readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const file = path.join(dir, files[0]);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const mail = parseMail(fs.readFileSync(file, 'utf8'));
      expect(mail.to).toBe(who.user.email);
      const token = LINK.exec(mail.body)?.[1];
      expect(token).toBeDefined();
      expect((await reset(token!, 'brand-new-pass', local)).status).toBe(200);
      expect((await login(who, 'brand-new-pass', local)).status).toBe(200);
    } finally {
      await local.close();
    }
  });
});
