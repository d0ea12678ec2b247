import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LinkEntity } from '../links/entity.js';
import { balanceOf, escrowAccount } from '../money/ledger.js';
import { connectClient, giveGift, type TestClient } from '../realtime/testing.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { balanceOfUser, buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { ACCOUNT_SUSPENDED } from '../../contract/texts.js';
import { runModeration } from './cli.js';
import { REVOKED_SOCKETS_SWEEP_MS, suspendAccount } from './service.js';

let server: TestServer;
const open: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(() => server?.close());

const connect = async (token: string) => {
  const client = await connectClient(server, { token });
  open.push(client);
  return client;
};

/** The reason the server gave for closing the socket; fails when it stays open for `ms`. */
const disconnected = (client: TestClient, ms = 5000) =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket stayed open')), ms);
    client.socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });

const login = (who: TestUser) => server.request('POST', '/api/auth/login', { body: { email: who.user.email, password: who.password } });

/** `npm run moderation` against this server's database, its output as lines. */
async function moderation(...args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const { dataDir, databaseUrl, publicUrl } = server.deps.config;
  const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, PORT: new URL(server.url).port, PUBLIC_URL: publicUrl, LOG_LEVEL: 'silent' };
  const code = await runModeration(
    args,
    env,
    (l) => lines.push(l),
    (l) => lines.push(l),
  );
  return { code, out: lines.join('\n') };
}

async function openGiveLink(who: TestUser): Promise<string> {
  await depositFor(server, who, 50);
  const res = await server.request<{ id: string }>('POST', '/links/create', {
    token: who.token,
    body: { details: { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 3 } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe('suspending an account', () => {
  it('ends its sessions and sockets, refuses its login with 403 and refunds its give link escrow exactly once', async () => {
    const [bad, other] = await buildUsers(server, 2, 'sus');
    const linkId = await openGiveLink(bad);
    expect(await balanceOfUser(server, bad)).toBe(35);
    const second = await login(bad);
    expect(second.status).toBe(200);
    const socket = await connect(bad.token);
    const bystander = await connect(other.token);
    const closed = disconnected(socket);

    const result = await suspendAccount({ db: server.deps.db, realtime: server.deps.realtime }, bad.user.username, 'spam');
    expect(result).toMatchObject({ suspended: true, refundedCents: 1500, user: { id: bad.user._id } });
    expect(await closed).toBe('io server disconnect');
    expect(bystander.socket.connected).toBe(true);

    expect((await server.request('GET', '/api/auth/me', { token: bad.token })).status).toBe(401);
    expect((await server.request('GET', '/api/auth/me', { token: (second.body as { token: string }).token })).status).toBe(401);
    expect(await login(bad)).toMatchObject({ status: 403, body: { error: 'account_suspended', message: ACCOUNT_SUSPENDED } });
    // A wrong password still gets the ordinary answer: suspension is no oracle for who has an account.
    const wrong = await server.request('POST', '/api/auth/login', { body: { email: bad.user.email, password: 'not-the-password' } });
    expect(wrong.status).toBe(400);
    await expect(connectClient(server, { token: bad.token })).rejects.toThrow();

    const link = await server.deps.db.manager.findOneByOrFail(LinkEntity, { id: linkId });
    expect(link.status).toBe('expired');
    expect(await balanceOf(server.deps.db.manager, escrowAccount(linkId))).toBe(0);
    expect(await balanceOfUser(server, other)).toBe(0);
    await expectLedgerSound(server.deps.db);

    // Again: nothing changes, nothing is refunded twice.
    expect(await suspendAccount({ db: server.deps.db }, bad.user._id)).toMatchObject({ suspended: false, refundedCents: 0 });
    await expectLedgerSound(server.deps.db);
    expect(await moderation('unsuspend', bad.user.username)).toMatchObject({ code: 0 });
    const back = await login(bad);
    expect(back.status).toBe(200);
    expect(await balanceOfUser(server, { ...bad, token: (back.body as { token: string }).token })).toBe(50);
  });
});

describe('npm run moderation', () => {
  it('lists an open report with identities, resolves it, and suspends from another process (its sockets close)', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'cli');
    const { conversationId } = await giveGift(server, giver, recipient);
    const sent = await server.request<{ _id: string }>('POST', '/messages/send', {
      token: giver.token,
      body: { conversationId, text: 'send me money or else' },
    });
    const messageId = sent.body._id;
    const reported = await server.request('POST', '/api/reports', {
      token: recipient.token,
      body: { conversationId, messageId, reason: 'harassment', note: 'threats' },
    });
    expect(reported.status).toBe(201);

    const listed = await moderation();
    expect(listed.code).toBe(0);
    const block = listed.out.split('\n\n').find((b) => b.includes('send me money or else'));
    expect(block).toBeDefined();
    expect(block).toContain('harassment');
    expect(block).toContain('note: threats');
    expect(block).toContain(`reporter: ${recipient.user.username} (${recipient.user._id})`);
    expect(block).toContain(`reported: ${giver.user.username} (${giver.user._id})`);
    const reportId = /#(\S+)/.exec(block!)![1];

    const linkId = await openGiveLink(giver);
    const socket = await connect(giver.token);
    const closed = disconnected(socket, REVOKED_SOCKETS_SWEEP_MS * 3);
    const suspended = await moderation('suspend', giver.user.username, 'threats', 'in', 'chat');
    expect(suspended).toMatchObject({ code: 0 });
    expect(suspended.out).toContain(`Suspended ${giver.user.username}`);
    expect(suspended.out).toContain('$15.00');
    expect(await closed).toBe('io server disconnect');
    expect(await login(giver)).toMatchObject({ status: 403, body: { message: ACCOUNT_SUSPENDED } });
    expect((await server.deps.db.manager.findOneByOrFail(LinkEntity, { id: linkId })).status).toBe('expired');
    await expectLedgerSound(server.deps.db);
    expect((await moderation()).out).toContain(`reported: ${giver.user.username} (${giver.user._id})  [suspended]`);

    expect(await moderation('resolve', reportId)).toMatchObject({ code: 0 });
    expect((await moderation()).out).not.toContain(reportId);
    expect(await moderation('resolve', reportId)).toMatchObject({ code: 1 });
    expect(await moderation('suspend', 'nobody-here')).toMatchObject({ code: 1, out: 'User not found' });
    expect((await moderation('frobnicate', 'x')).code).toBe(1);
  }, 30_000);
});
