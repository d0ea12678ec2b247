import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AccountExport } from '../../contract/account.js';
import {
  DELETED_MESSAGE,
  DUPLICATE_ACCOUNT,
  KEPT_AFTER_CLOSING,
  giveLinkHoldsEscrow,
  INCORRECT_LOGIN,
  withdrawBalanceFirst,
} from '../../contract/texts.js';
import { SessionEntity } from '../auth/entity.js';
import { CatalogProductEntity } from '../catalog/entity.js';
import { LedgerEntryEntity } from '../money/entity.js';
import { connectClient } from '../realtime/testing.js';
import { userAccount } from '../money/ledger.js';
import { expectLedgerSound } from '../testing/ledger.js';
import {
  ADULT_BIRTH_DATE,
  buildUser,
  depositFor,
  newInviteCode,
  readyPayoutsFor,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../testing/server.js';
import { uploadsDir } from '../uploads/service.js';
import { UserEntity } from '../users/entity.js';
import { releaseClosedUsernames, TOMBSTONE_PREFIX } from '../users/release.js';
import { CANCEL_SUBSCRIPTION_FIRST } from './policy.js';
import { SUBSCRIPTION_PRODUCT_ID } from '../../contract/subscriptions.js';

let server: TestServer;
let productId: string;
beforeAll(async () => {
  server = await startTestServer();
  const product = await server.deps.db.manager.findOneOrFail(CatalogProductEntity, {
    where: { shippingType: 'FIXED' },
    order: { position: 'ASC' },
  });
  productId = product.itemId;
});
afterAll(() => server?.close());
afterEach(() => {
  server.deps.clock = () => new Date();
});

const as = (who: TestUser, body?: unknown) => ({ token: who.token, body });
const post = (p: string, who: TestUser, body?: unknown) => server.request('POST', p, as(who, body));
const deleteAccount = (who: TestUser, password = who.password) => post('/api/account/delete', who, { password });

/**
 * Alice with everything an account has: a profile picture, a wishlist item, a receive link an
 * anonymous giver (Carol) gave to, a named thread with Bob (she accepted his give link), a
 * message she sent in each thread, a notification and ledger rows.
 */
async function aliceWithEverything() {
  const alice = await buildUser(server);
  const bob = await buildUser(server);
  const carol = await buildUser(server);
  const picture = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.set('pfpOrCover', 'profilePicture');
  form.set('file', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'me.png');
  const upload = await server.request('POST', '/api/upload', as(alice, form));
  expect(upload.status).toBe(200);
  const pictureFile = path.join(uploadsDir(server.deps.config), path.basename(upload.body.urls[0].location as string));
  expect(fs.existsSync(pictureFile)).toBe(true);

  expect(
    (await server.request('PUT', '/wishlists/update', as(alice, { username: alice.user.username, items: [{ itemId: productId }] }))).status,
  ).toBe(200);

  await depositFor(server, carol, 20);
  const receive = await post('/links/create', alice, { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } });
  const gift = await post('/statuses/api/gives', carol, { postId: receive.body.id, amount: 5 });
  expect(gift.status).toBe(201);
  const anonThread: string = gift.body.conversationId;

  await depositFor(server, bob, 10);
  expect((await post('/links/create', bob, { details: { giveorreceive: 'give', type: 'currency', amount: 3, quantity: 1 } })).status).toBe(
    201,
  );
  const accepted = await server.request('PUT', '/api/accept-link', as(alice, { linkCreatorUsername: bob.user.username }));
  expect(accepted.status).toBe(200);
  const named = (
    await server.request<{ _id: string; otherUser: { anonymous: boolean } }[]>('GET', `/conversations/${alice.user._id}`, as(alice))
  ).body.find((c) => !c.otherUser.anonymous)!;
  expect((await post('/messages/send', alice, { conversationId: named._id, text: 'Thanks Bob, from Alice!' })).status).toBe(201);
  expect((await post('/messages/send', alice, { conversationId: anonThread, text: 'Thank you, whoever you are' })).status).toBe(201);
  return { alice, bob, carol, pictureFile, namedThread: named._id, anonThread };
}

describe('GET /api/account/export', () => {
  it('needs a session', async () => {
    expect((await server.request('GET', '/api/account/export')).status).toBe(401);
  });

  it("is a JSON attachment of the user's own data, with no one else's private data and no anonymous giver", async () => {
    const { alice, bob, carol } = await aliceWithEverything();
    const res = await server.request<AccountExport>('GET', '/api/account/export', as(alice));
    expect(res.status).toBe(200);
    const date = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename=giftlink-data-${alice.user.username}-${date}.json`);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const data = res.body;

    expect(data.profile).toMatchObject({ _id: alice.user._id, username: alice.user.username, email: alice.user.email, balance: 8 });
    expect(data.links).toHaveLength(1);
    expect(data.links[0]).toMatchObject({ details: { giveorreceive: 'receive' }, metrics: { views: expect.any(Number) } });
    expect(data.wishlist.items.map((i) => i.itemId)).toEqual([productId]);
    expect(data.notifications.length).toBeGreaterThanOrEqual(1);
    expect(data.invites.length).toBeGreaterThanOrEqual(1);
    expect(data.moneyHistory.map((e) => e.kind).sort()).toEqual(['gift_received', 'gift_received']);
    expect(data.payouts).toEqual({ status: 'not_started' });
    // What closing would keep, and why: the ledger's records and what the law asks for.
    expect(data.keptAfterClosing).toEqual(KEPT_AFTER_CLOSING);
    expect(data.keptAfterClosing.map((k) => k.what).join(' ')).toMatch(/money history/);
    const sent = data.conversations.flatMap((c) => c.messagesYouSent.map((m) => m.text));
    expect(sent.sort()).toEqual(['Thank you, whoever you are', 'Thanks Bob, from Alice!']);
    expect(data.conversations.every((c) => c.messagesYouSent.every((m) => m.mine))).toBe(true);
    const anonymous = data.conversations.find((c) => c.conversation.otherUser.anonymous)!;
    expect(anonymous.conversation.otherUser).toMatchObject({ username: 'Anonymous', _id: null });
    const named = data.conversations.find((c) => !c.conversation.otherUser.anonymous)!;
    expect(named.conversation.otherUser).toMatchObject({ username: bob.user.username });

    // The everythingVisibleTo-style scan: the whole file, as text.
    const text = JSON.stringify(data).toLowerCase();
    for (const secret of [carol.user._id, carol.user.username, carol.user.email, bob.user.email])
      expect(text).not.toContain(secret.toLowerCase());
    expect(JSON.stringify(named.conversation.otherUser)).not.toMatch(/email|balance|address/i);
  });
});

describe('POST /api/account/delete', () => {
  it('needs a session and a password', async () => {
    expect((await server.request('POST', '/api/account/delete', { body: { password: 'x' } })).status).toBe(401);
    const who = await buildUser(server);
    expect((await post('/api/account/delete', who, {})).status).toBe(400);
  });

  it('refuses a wrong password (403) and, while money is held, says how to get it out (409)', async () => {
    const rich = await buildUser(server);
    await depositFor(server, rich, 12.5);
    const wrong = await deleteAccount(rich, 'not-my-password');
    expect(wrong.status).toBe(403);
    const held = await deleteAccount(rich);
    expect(held.status).toBe(409);
    expect(held.body.message).toBe(withdrawBalanceFirst('$12.50'));
    expect(held.body.message).toBe('Withdraw your balance of $12.50 first (Balance → Withdraw).');

    const giver = await buildUser(server);
    await depositFor(server, giver, 10);
    expect(
      (await post('/links/create', giver, { details: { giveorreceive: 'give', type: 'currency', amount: 5, quantity: 2 } })).status,
    ).toBe(201);
    const escrow = await deleteAccount(giver);
    expect(escrow.status).toBe(409);
    expect(escrow.body.message).toBe(giveLinkHoldsEscrow('$10.00'));
    // Nothing changed: both can still use their accounts.
    expect((await server.request('GET', '/api/auth/me', as(rich))).status).toBe(200);
    expect((await server.request('GET', '/api/auth/me', as(giver))).status).toBe(200);
    await expectLedgerSound(server.deps.db);
  });

  it('refuses while a subscription would still renew, and closes once it is cancelled', async () => {
    const subscriber = await buildUser(server);
    await depositFor(server, subscriber, 1.99);
    const paid = await post('/subscriptions/create-subscription', subscriber, {
      productId: SUBSCRIPTION_PRODUCT_ID,
      paymentMethod: 'balance',
    });
    expect(paid.status).toBe(200);
    const renewing = await deleteAccount(subscriber);
    expect(renewing.status).toBe(409);
    expect(renewing.body).toMatchObject({ error: 'subscription_renewing', message: CANCEL_SUBSCRIPTION_FIRST });
    expect((await post('/subscriptions/cancel', subscriber, {})).body).toEqual({ isCanceled: true });
    expect((await deleteAccount(subscriber)).status).toBe(200);
    await expectLedgerSound(server.deps.db);
  });

  it('closes the account: fields and pictures erased, messages deleted for the other person, sessions ended, ledger kept', async () => {
    const { alice, bob, pictureFile, namedThread } = await aliceWithEverything();
    await readyPayoutsFor(server, alice);
    expect((await post('/api/billing-settings-withdrawal', alice, { balance: 8 })).status).toBe(200);
    const entriesBefore = await server.deps.db.manager.countBy(LedgerEntryEntity, { account: userAccount(alice.user._id) });

    const socket = await connectClient(server, { token: alice.token });
    const closed = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the socket stayed open')), 5000);
      socket.socket.once('disconnect', (reason) => {
        clearTimeout(timer);
        resolve(reason);
      });
    });

    const res = await deleteAccount(alice);
    expect(res.status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    await expect(connectClient(server, { token: alice.token })).rejects.toMatchObject({ message: 'unauthorized' });
    expect(res.body).toEqual({ closed: true });

    const row = await server.deps.db.manager.findOneByOrFail(UserEntity, { id: alice.user._id });
    expect(row).toMatchObject({ displayName: '', bio: '', location: '', profilePicture: null, coverPicture: null, balanceCents: 0 });
    expect(row.email).not.toBe(alice.user.email);
    expect(row.closedAt).toBeInstanceOf(Date);
    expect(fs.existsSync(pictureFile)).toBe(false);

    // Bob reads her message as deleted; the row (and its seq) stays.
    const bobSees = await server.request<{ messages: { text: string; mine: boolean }[] }>(
      'GET',
      `/messages/${namedThread}?page=1`,
      as(bob),
    );
    expect(bobSees.body.messages.filter((m) => !m.mine).map((m) => m.text)).toContain(DELETED_MESSAGE);
    expect(JSON.stringify(bobSees.body)).not.toContain('Thanks Bob, from Alice!');

    // Signed out everywhere, and no way back in.
    expect((await server.request('GET', '/api/auth/me', as(alice))).status).toBe(401);
    const live = await server.deps.db.manager.findBy(SessionEntity, { userId: alice.user._id });
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);
    const login = await server.request('POST', '/api/auth/login', { body: { email: alice.user.email, password: alice.password } });
    expect(login.status).toBe(400);
    expect(login.body.message).toBe(INCORRECT_LOGIN);

    // Profile and wishlist gone (404 by name), links closed, unused invites revoked.
    const wishlist = await server.request('GET', `/wishlists/${alice.user.username}`, as(bob));
    expect(wishlist.status).toBe(404);
    expect((await server.request('GET', `/api/users?username=${alice.user.username}`, as(bob))).status).toBe(404);
    expect((await server.request('GET', `/api/users/getId/${alice.user.username}`, as(bob))).status).toBe(404);
    expect((await server.request('GET', `/api/users?userId=${alice.user._id}`, as(bob))).status).toBe(200);
    const link = await server.request('POST', `/links/${alice.user.username}`, as(bob, {}));
    expect(link.status).toBe(410);

    // Money history is never erased: her entries stay, and the ledger adds up.
    expect(await server.deps.db.manager.countBy(LedgerEntryEntity, { account: userAccount(alice.user._id) })).toBe(entriesBefore);
    await expectLedgerSound(server.deps.db);
    // A second attempt with the old token is refused like any ended session.
    expect((await deleteAccount(alice)).status).toBe(401);
  });

  it('keeps the username taken for 30 days, then frees it', async () => {
    const eve = await buildUser(server);
    expect((await deleteAccount(eve)).status).toBe(200);
    const register = async () =>
      server.request('POST', '/api/auth/register', {
        body: {
          username: eve.user.username,
          email: `new-${eve.user.email}`,
          password: 'secret-pass',
          dateOfBirth: ADULT_BIRTH_DATE,
          inviteCode: await newInviteCode(server),
        },
      });
    const early = await register();
    expect(early.status).toBe(400);
    expect(early.body.message).toBe(DUPLICATE_ACCOUNT);

    server.deps.clock = () => new Date(Date.now() + 29 * 24 * 3600 * 1000);
    expect((await register()).status).toBe(400);
    server.deps.clock = () => new Date(Date.now() + 31 * 24 * 3600 * 1000);
    const later = await register();
    expect(later.status).toBe(201);
    expect(later.body.user._id).not.toBe(eve.user._id);
    const old = await server.deps.db.manager.findOneByOrFail(UserEntity, { id: eve.user._id });
    expect(old.username.startsWith(TOMBSTONE_PREFIX)).toBe(true);
  });

  it("the release job frees every closed account's username after 30 days, once", async () => {
    const frank = await buildUser(server);
    expect((await deleteAccount(frank)).status).toBe(200);
    const run = (days: number) =>
      server.deps.db.transaction((em) => releaseClosedUsernames(em, new Date(Date.now() + days * 24 * 3600 * 1000)));
    await run(1);
    expect((await server.deps.db.manager.findOneByOrFail(UserEntity, { id: frank.user._id })).username).toBe(frank.user.username);
    expect(await run(31)).toBeGreaterThanOrEqual(1);
    expect((await server.deps.db.manager.findOneByOrFail(UserEntity, { id: frank.user._id })).username.startsWith(TOMBSTONE_PREFIX)).toBe(
      true,
    );
    expect(await run(31)).toBe(0);
  });
});
