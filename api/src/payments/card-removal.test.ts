import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkVisitorEntity } from '../links/entity.js';
import { LedgerTransferEntity } from '../money/entity.js';
import { startPushService, type TestPushService } from '../push/testing.js';
import { PushSubscriptionEntity } from '../push/entity.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { buildUser, readyPayoutsFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { SandboxObjectEntity } from './entity.js';

/** Removing the saved card, and what closing the account removes, with the sandbox provider. */
let server: TestServer;
let push: TestPushService;
beforeAll(async () => {
  push = await startPushService();
  server = await startTestServer({ PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true' });
});
afterAll(async () => {
  await server?.close();
  await push?.close();
});

type Body = { new_balance?: number; authorisation?: string; card?: { last4: string } | null; error?: string };
const PAYS = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };
const db = () => server.deps.db;
const cardDeposit = (who: TestUser, body: Record<string, unknown>) =>
  server.request<Body>('POST', '/api/wallet/card-deposit', { token: who.token, body, headers: { 'Idempotency-Key': crypto.randomUUID() } });
const savedCard = async (who: TestUser) => (await server.request<Body>('GET', '/api/wallet/card', { token: who.token })).body.card;
const removeCard = (who?: TestUser) => server.request<Body>('DELETE', '/api/wallet/card', { token: who?.token });
/** What the sandbox keeps of the user's customer: its rows in `sandbox_payment_objects`. */
const customerRows = async (who: TestUser) =>
  (await db().manager.findBy(SandboxObjectEntity, { kind: 'customer' })).filter((row) => row.data.includes(who.user._id));

async function withSavedCard(): Promise<TestUser> {
  const who = await buildUser(server);
  expect((await cardDeposit(who, { amount: 2, card: PAYS, save: true })).status).toBe(200);
  expect(await savedCard(who)).toEqual({ last4: '4242' });
  return who;
}

describe('removing the saved card (sandbox)', () => {
  it('removes it from the sandbox and answers the card state: none; the next saved-card payment is refused', async () => {
    const ann = await withSavedCard();
    const res = await removeCard(ann);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ card: null });
    expect(await savedCard(ann)).toBeNull();
    const rows = await customerRows(ann);
    expect(rows).toHaveLength(1);
    expect(rows[0].data).not.toContain('4242');
    expect((await cardDeposit(ann, { amount: 3 })).body).toMatchObject({ error: 'no_saved_card' });
    // Removing it again changes nothing and answers the same.
    expect((await removeCard(ann)).body).toEqual({ card: null });
  });

  it("leaves another user's card as it was, and a visitor gets 401", async () => {
    const [bea, cal] = [await withSavedCard(), await withSavedCard()];
    expect((await removeCard(bea)).status).toBe(200);
    expect(await savedCard(cal)).toEqual({ last4: '4242' });
    expect((await cardDeposit(cal, { amount: 1 })).body).toEqual({ new_balance: 3 });
    expect((await removeCard()).status).toBe(401);
    expect(await savedCard(cal)).toEqual({ last4: '4242' });
  });

  it('a gift already authorised on the card still lands and is captured after the card is removed', async () => {
    const [owner, dan] = [await buildUser(server), await withSavedCard()];
    const link = await server.request<{ id: string }>('POST', '/links/create', {
      token: owner.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 100 } },
    });
    const postId = link.body.id;
    const held = await cardDeposit(dan, { amount: 5, for: { kind: 'give', postId, amount: 5 } });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    expect((await removeCard(dan)).body).toEqual({ card: null });
    const gave = await server.request('POST', '/statuses/api/gives', {
      token: dan.token,
      body: { postId, amount: 5, authorisation: held.body.authorisation },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(gave.status).toBe(201);
    expect(await db().manager.countBy(LedgerTransferEntity, { kind: 'deposit', actorUserId: dan.user._id })).toBe(2);
    await expectLedgerSound(db());
  });
});

describe('closing the account (sandbox)', () => {
  it('removes the customer with its email and card, the push subscriptions and the link visits; not those of others', async () => {
    const [eve, fay, owner] = [await withSavedCard(), await withSavedCard(), await buildUser(server)];
    const link = await server.request('POST', '/links/create', {
      token: owner.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } },
    });
    expect(link.status).toBe(201);
    for (const who of [eve, fay]) {
      const res = await server.request('POST', '/api/push/subscriptions', { token: who.token, body: push.browser().subscription });
      expect(res.status).toBe(201);
      expect((await server.request('POST', `/links/${owner.user.username}`, { token: who.token, body: {} })).status).toBe(200);
    }
    const email = eve.user.email;
    // Closing asks for the balance the card deposit made to be withdrawn first.
    await readyPayoutsFor(server, eve);
    const withdrawn = await server.request('POST', '/api/billing-settings-withdrawal', { token: eve.token, body: { balance: 2 } });
    expect(withdrawn.status).toBe(200);
    const before = await customerRows(eve);
    expect(before.map((row) => row.data).join()).toContain(email);

    const closed = await server.request('POST', '/api/account/delete', { token: eve.token, body: { password: eve.password } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);

    expect(await customerRows(eve)).toEqual([]);
    const everything = (await db().manager.find(SandboxObjectEntity)).map((row) => row.data).join();
    expect(everything).not.toContain(email);
    expect(await db().manager.countBy(PushSubscriptionEntity, { userId: eve.user._id })).toBe(0);
    expect(await db().manager.countBy(LinkVisitorEntity, { visitorKey: `u:${eve.user._id}` })).toBe(0);
    // Fay's are untouched.
    expect(await savedCard(fay)).toEqual({ last4: '4242' });
    expect(await db().manager.countBy(PushSubscriptionEntity, { userId: fay.user._id })).toBe(1);
    expect(await db().manager.countBy(LinkVisitorEntity, { visitorKey: `u:${fay.user._id}` })).toBe(1);
    await expectLedgerSound(db());
  });
});
