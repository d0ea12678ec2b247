import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALERT_GIFT_SUBJECT, alertMessagesSubject } from '../../contract/texts.js';
import { freshPostgres } from '../db/fresh-postgres.js';
import { startServerProcess, type ServerProcess } from '../testing/process.js';
import { ADULT_BIRTH_DATE } from '../testing/server.js';
import { mailHeader, startSmtp, type Received } from '../testing/smtp.js';

type Proc = ServerProcess;

/**
 * The outbox across `kill -9`s of a real server process (api/src/main.ts on its own data):
 * killed after the events committed but before any email went, and killed again while its first
 * email was being accepted (sent, not yet marked). The server started after them sends every
 * alert, and each email once by its Message-ID (the resend is the same email).
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'giftlink-alert-crash-'));
const database = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : undefined;
const JWT_SECRET = crypto.randomBytes(32).toString('hex');
let current: Proc | undefined;
let killOnFirstMail = false;
const smtp = await startSmtp({
  // The sender is dead before it hears the email was accepted.
  onMessage: async () => {
    if (!killOnFirstMail || !current) return;
    killOnFirstMail = false;
    current.child.kill('SIGKILL');
    await exited(current);
  },
});
afterAll(async () => {
  current?.child.kill('SIGKILL');
  await smtp.close();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string>): Promise<Proc> {
  return (current = await startServerProcess(
    {
      PUBLIC_URL: 'https://giftlink.example',
      COOKIE_SECURE: 'false',
      DATA_DIR: dataDir,
      JWT_SECRET,
      SMTP_URL: smtp.url,
      ALERT_EMAIL_LEASE_MS: '1000',
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...env,
    },
    dataDir,
  ));
}

const exited = (proc: Proc) => proc.exited();

async function call<T>(proc: Proc, method: string, url: string, token?: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['x-auth-token'] = token;
  const res = await fetch(proc.url + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

interface Account {
  token: string;
  user: { _id: string };
}

async function register(proc: Proc, name: string, inviteCode: string): Promise<Account> {
  return call<Account>(proc, 'POST', '/api/auth/register', undefined, {
    username: name,
    email: `${name}@example.com`,
    password: 'secret-pass',
    dateOfBirth: ADULT_BIRTH_DATE,
    inviteCode,
  });
}

const waitFor = async (done: () => boolean, ms: number, what: string) => {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const idsTo = (to: string, mails: Received[] = smtp.inbox) =>
  mails.filter((m) => m.to.includes(to)).map((m) => mailHeader(m.raw, 'Message-ID'));

describe('alert emails across kill -9', () => {
  it('loses nothing and sends each email once (by Message-ID)', { timeout: 120_000 }, async () => {
    // 1. Events commit, the emails wait (an hour's delay); the process dies before any is sent.
    const first = await start({ ALERT_EMAIL_DELAY_MS: '3600000' });
    await waitFor(() => /\/invite\/[A-Za-z0-9_-]+/.test(first.output()), 10_000, 'the first invite');
    const invite = /\/invite\/([A-Za-z0-9_-]+)/.exec(first.output())![1];
    const giver = await register(first, 'crashgiver', invite);
    const codes = await call<{ code: string; status: string }[]>(first, 'GET', `/invites/${giver.user._id}`, giver.token);
    const recipient = await register(first, 'crashrecipient', codes.find((c) => c.status === 'available')!.code);
    await call(first, 'POST', '/api/billing-settings-deposit', giver.token, { balance: 20 });
    const link = await call<{ id: string }>(first, 'POST', '/links/create', recipient.token, {
      details: { giveorreceive: 'receive', type: 'currency', amount: 5 },
    });
    const give = await call<{ conversationId: string }>(first, 'POST', '/statuses/api/gives', giver.token, { postId: link.id, amount: 5 });
    for (const text of ['one', 'two', 'three'])
      await call(first, 'POST', '/messages/send', giver.token, { conversationId: give.conversationId, text });
    first.child.kill('SIGKILL');
    await exited(first);
    expect(smtp.inbox).toHaveLength(0);

    // 2. The next process sends; it dies as its first email is being accepted, before it marks it sent.
    killOnFirstMail = true;
    const second = await start({ ALERT_EMAIL_DELAY_MS: '0' });
    await waitFor(() => !killOnFirstMail, 30_000, 'the first email').catch((err: unknown) => {
      throw new Error(`${String(err)}\n${second.output()}`);
    });
    await exited(second);
    const firstIds = idsTo('crashrecipient@example.com');
    expect(firstIds).toHaveLength(1);

    // 3. The one after sends the rest, and the first again as the same email; then nothing more.
    const third = await start({ ALERT_EMAIL_DELAY_MS: '0' });
    await waitFor(() => new Set(idsTo('crashrecipient@example.com')).size >= 2, 30_000, 'the second email');
    await new Promise((r) => setTimeout(r, 11_000)); // one more run of the 10-second job
    third.child.kill('SIGTERM');
    await exited(third);

    const mails = smtp.inbox.filter((m) => m.to.includes('crashrecipient@example.com'));
    const byId = new Map<string, string[]>();
    for (const m of mails) byId.set(mailHeader(m.raw, 'Message-ID'), [...(byId.get(mailHeader(m.raw, 'Message-ID')) ?? []), m.raw]);
    expect(byId.size).toBe(2);
    const subjects = [...byId.values()].map((copies) => mailHeader(copies[0], 'Subject')).sort();
    expect(subjects).toEqual([ALERT_GIFT_SUBJECT, alertMessagesSubject(3)].sort());
    // The email the crash interrupted came again, as the same email; every other came once.
    expect(byId.get(firstIds[0])).toHaveLength(2);
    expect(mails).toHaveLength(3);
    expect(idsTo('crashgiver@example.com')).toEqual([]);
  });
});
