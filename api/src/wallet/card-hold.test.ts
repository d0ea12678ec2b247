import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { In } from 'typeorm';
import { CARD_BLOCKED, CARD_HOLD_GONE, ITEM_UNAVAILABLE, LINK_GONE } from '../../contract/texts.js';
import { CatalogProductEntity } from '../catalog/entity.js';
import { LinkEntity } from '../links/entity.js';
import { LedgerTransferEntity } from '../money/entity.js';
import { SandboxObjectEntity } from '../payments/entity.js';
import { giveGift } from '../realtime/testing.js';
import { expectLedgerSound as expectLedgerSoundIn } from '../testing/ledger.js';
import { balanceOfUser, buildUser, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { landHold } from './card-hold.js';
import { PaymentIntentEntity } from './entity.js';
import { resolvePendingPayments } from './intents.js';
import { reconcileWithProvider } from './reconcile.js';

/** A one-step gift with the sandbox: the card is authorised, captured only where the gift lands, let go otherwise. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

type Body = { new_balance?: number; authorisation?: string; error?: string; message?: string; conversationId?: string };
const PAYS = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };
const DECLINED = { number: '4000 0000 0000 0002', expiry: '12/40', cvc: '123' };
const FRAUDULENT = { number: '4100 0000 0000 0019', expiry: '12/40', cvc: '123' };
const db = () => server.deps.db;
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

const authorise = (who: TestUser, body: Record<string, unknown>, key = crypto.randomUUID()) =>
  server.request<Body>('POST', '/api/wallet/card-deposit', { token: who.token, body, headers: { 'Idempotency-Key': key } });
const give = (who: TestUser, body: Record<string, unknown>, key = crypto.randomUUID()) =>
  server.request<Body>('POST', '/statuses/api/gives', { token: who.token, body, headers: { 'Idempotency-Key': key } });
async function receiveLink(owner: TestUser, amount = 100): Promise<string> {
  const res = await server.request<{ id: string }>('POST', '/links/create', {
    token: owner.token,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount } },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}
/** The link expires (as its time running out would close it). */
const closeLink = (id: string) => db().transaction((em) => em.update(LinkEntity, { id }, { status: 'expired', closedAt: new Date() }));
const holdsOf = async (who: TestUser) =>
  (await db().manager.findBy(SandboxObjectEntity, { kind: 'card_hold' }))
    .map((row) => JSON.parse(row.data) as { userId: string; status: string; amountCents: number })
    .filter((h) => h.userId === who.user._id);
const intentsOf = (who: TestUser) => db().manager.findBy(PaymentIntentEntity, { userId: who.user._id });
const depositsOf = (who: TestUser) => db().manager.countBy(LedgerTransferEntity, { kind: 'deposit', actorUserId: who.user._id });
/** The ledger's invariants, and the sandbox's records reconciled with it. */
async function expectLedgerSound() {
  await expectLedgerSoundIn(db());
  expect(await reconcileWithProvider({ db: db(), payments: server.deps.payments })).toEqual([]);
}

/** Nothing was asked of the card and nothing recorded: the refusal came first. */
async function expectUntouched(who: TestUser) {
  expect(await holdsOf(who)).toEqual([]);
  expect(await intentsOf(who)).toEqual([]);
  expect(await depositsOf(who)).toBe(0);
}

describe('authorise, then capture where the gift lands (sandbox)', () => {
  it('authorises without crediting, then the give credits, lands and captures: two history rows', async () => {
    const [owner, giver] = [await buildUser(server), await buildUser(server)];
    const postId = await receiveLink(owner);
    const held = await authorise(giver, { amount: 5, card: PAYS, for: { kind: 'give', postId, amount: 5 } });
    expect(held.status).toBe(200);
    expect(held.body.new_balance).toBe(0);
    expect(await holdsOf(giver)).toMatchObject([{ status: 'requires_capture', amountCents: 500 }]);
    expect(await depositsOf(giver)).toBe(0);

    const gave = await give(giver, { postId, amount: 5, note: 'hi', authorisation: held.body.authorisation });
    expect(gave.status, JSON.stringify(gave.body)).toBe(201);
    expect(await holdsOf(giver)).toMatchObject([{ status: 'succeeded' }]);
    expect((await intentsOf(giver)).map((i) => [i.kind, i.status])).toEqual([['card_hold', 'succeeded']]);
    expect(await balanceOfUser(server, giver)).toBe(0);
    expect(await balanceOfUser(server, owner)).toBe(5);
    const history = await server.request<{ entries: { kind: string }[] }>('GET', '/api/wallet/history', { token: giver.token });
    expect(history.body.entries.map((e) => e.kind)).toEqual(['gift_given', 'deposit']);
    // The authorisation pays once: a second give with it is refused and moves nothing.
    const again = await give(giver, { postId, amount: 5, authorisation: held.body.authorisation });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(CARD_HOLD_GONE);
    expect(await balanceOfUser(server, owner)).toBe(5);
    await expectLedgerSound();
  });

  it("refuses a blocked giver's one-step gift before any card is touched", async () => {
    const [alice, bob] = [await buildUser(server), await buildUser(server)];
    const { conversationId } = await giveGift(server, bob, alice, 5);
    expect((await server.request('POST', '/api/blocks', { token: alice.token, body: { conversationId } })).status).toBe(201);
    const postId = await receiveLink(alice);
    const intentsBefore = (await intentsOf(bob)).length;
    const res = await authorise(bob, { amount: 99, card: PAYS, for: { kind: 'give', postId, amount: 99 } });
    expect(res.status).toBe(410);
    expect(res.body.message).toBe(LINK_GONE);
    expect(await holdsOf(bob)).toEqual([]);
    expect((await intentsOf(bob)).length).toBe(intentsBefore);
    expect(await balanceOfUser(server, bob)).toBe(0);
    await expectLedgerSound();
  });

  it('refuses own link, a closed link, a used link and a deposit short of the gift, before the card', async () => {
    const [owner, giver] = [await buildUser(server), await buildUser(server)];
    const postId = await receiveLink(owner);
    const own = await authorise(owner, { amount: 5, card: PAYS, for: { kind: 'give', postId, amount: 5 } });
    expect([own.status, own.body.error]).toEqual([400, 'own_post']);
    await expectUntouched(owner);
    const short = await authorise(giver, { amount: 2, card: PAYS, for: { kind: 'give', postId, amount: 5 } });
    expect([short.status, short.body.error]).toEqual([400, 'insufficient_funds']);
    await expectUntouched(giver);

    await depositFor(server, giver, 1);
    expect((await give(giver, { postId, amount: 1 })).status).toBe(201);
    const used = await authorise(giver, { amount: 5, card: PAYS, for: { kind: 'give', postId, amount: 5 } });
    expect([used.status, used.body.error]).toEqual([400, 'already_used']);

    const closing = await receiveLink(await buildUser(server));
    await closeLink(closing);
    const other = await buildUser(server);
    const closed = await authorise(other, { amount: 5, card: PAYS, for: { kind: 'give', postId: closing, amount: 5 } });
    expect(closed.status).toBe(410);
    await expectUntouched(other);
    await expectLedgerSound();
  });

  it('lets the authorisation go when the gift is refused after it (the link closed meanwhile): never charged', async () => {
    const [owner, giver] = [await buildUser(server), await buildUser(server)];
    const postId = await receiveLink(owner);
    const held = await authorise(giver, { amount: 5, card: PAYS, for: { kind: 'give', postId, amount: 5 } });
    expect(held.status).toBe(200);
    await closeLink(postId);
    const gave = await give(giver, { postId, amount: 5, authorisation: held.body.authorisation });
    expect(gave.status).toBe(410);
    expect(await holdsOf(giver)).toMatchObject([{ status: 'canceled' }]);
    expect((await intentsOf(giver)).map((i) => i.status)).toEqual(['failed']);
    expect(await depositsOf(giver)).toBe(0);
    expect(await balanceOfUser(server, giver)).toBe(0);
    await expectLedgerSound();
  });

  it("another user's authorisation is not theirs to give with, nor to let go", async () => {
    const [owner, giver, thief] = [await buildUser(server), await buildUser(server), await buildUser(server)];
    const postId = await receiveLink(owner);
    const held = await authorise(giver, { amount: 5, card: PAYS, for: { kind: 'give', postId, amount: 5 } });
    const stolen = await give(thief, { postId, amount: 5, authorisation: held.body.authorisation });
    expect(stolen.status).toBe(409);
    expect(await holdsOf(giver)).toMatchObject([{ status: 'requires_capture' }]);
    expect((await give(giver, { postId, amount: 5, authorisation: held.body.authorisation })).status).toBe(201);
    await expectLedgerSound();
  });

  it('a declined card and a card the risk check blocks move nothing; the block says so plainly', async () => {
    const [owner, giver] = [await buildUser(server), await buildUser(server)];
    const postId = await receiveLink(owner);
    const declined = await authorise(giver, { amount: 5, card: DECLINED, for: { kind: 'give', postId, amount: 5 } });
    expect([declined.status, declined.body.error]).toEqual([402, 'card_declined']);
    const blocked = await authorise(giver, { amount: 5, card: FRAUDULENT, for: { kind: 'give', postId, amount: 5 } });
    expect([blocked.status, blocked.body.error, blocked.body.message]).toEqual([402, 'card_blocked', CARD_BLOCKED]);
    const plain = await server.request<Body>('POST', '/api/wallet/card-deposit', {
      token: giver.token,
      body: { amount: 5, card: FRAUDULENT },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect([plain.status, plain.body.error]).toEqual([402, 'card_blocked']);
    expect((await intentsOf(giver)).map((i) => i.status)).toEqual(['failed', 'failed', 'failed']);
    expect(await depositsOf(giver)).toBe(0);
    await expectLedgerSound();
  });

  it('buys a wishlist item with an authorisation, captured where the purchase lands', async () => {
    const [owner, buyer] = [await buildUser(server), await buildUser(server)];
    const product = await db().manager.findOneOrFail(CatalogProductEntity, { where: {}, order: { position: 'ASC' } });
    const saved = await server.request<{ userWishlist: { items: { _id: string; total: number }[] } }>('PUT', '/wishlists/update', {
      token: owner.token,
      body: { username: owner.user.username, items: [{ itemId: product.itemId }] },
    });
    const item = saved.body.userWishlist.items[0];
    const target = { kind: 'purchase', wishlistUsername: owner.user.username, itemId: item._id };
    const held = await authorise(buyer, { amount: item.total, card: PAYS, for: target });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    const bought = await server.request<Body>('POST', '/wishlists/purchase', {
      token: buyer.token,
      body: { wishlistUsername: owner.user.username, itemId: item._id, authorisation: held.body.authorisation },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(await holdsOf(buyer)).toMatchObject([{ status: 'succeeded' }]);
    expect(await balanceOfUser(server, buyer)).toBe(0);
    // Bought already: the next buyer is refused before the card.
    const late = await buildUser(server);
    const refused = await authorise(late, { amount: item.total, card: PAYS, for: target });
    expect(refused.status).toBe(409);
    await expectUntouched(late);
    await expectLedgerSound();
  });
});

describe('a blocked buyer (wishlist)', () => {
  it("refuses the blocked buyer's one-step purchase before any card is touched", async () => {
    const [owner, buyer] = [await buildUser(server), await buildUser(server)];
    const { conversationId } = await giveGift(server, buyer, owner, 5);
    expect((await server.request('POST', '/api/blocks', { token: owner.token, body: { conversationId } })).status).toBe(201);
    const product = await db().manager.findOneOrFail(CatalogProductEntity, { where: {}, order: { position: 'ASC' } });
    const saved = await server.request<{ userWishlist: { items: { _id: string; total: number }[] } }>('PUT', '/wishlists/update', {
      token: owner.token,
      body: { username: owner.user.username, items: [{ itemId: product.itemId }] },
    });
    const item = saved.body.userWishlist.items[0];
    const intentsBefore = (await intentsOf(buyer)).length;
    const res = await authorise(buyer, {
      amount: item.total,
      card: PAYS,
      for: { kind: 'purchase', wishlistUsername: owner.user.username, itemId: item._id },
    });
    expect([res.status, res.body.message]).toEqual([403, ITEM_UNAVAILABLE]);
    expect(await holdsOf(buyer)).toEqual([]);
    expect((await intentsOf(buyer)).length).toBe(intentsBefore);
    await expectLedgerSound();
  });
});

describe('recovery of authorisations', () => {
  it('lets go an authorisation whose gift never came, once its window is over', async () => {
    const [owner, giver] = [await buildUser(server), await buildUser(server)];
    const postId = await receiveLink(owner);
    expect((await authorise(giver, { amount: 5, card: PAYS, for: { kind: 'give', postId, amount: 5 } })).status).toBe(200);
    await resolvePendingPayments({ db: db(), payments: server.deps.payments }, later(2));
    expect(await holdsOf(giver)).toMatchObject([{ status: 'requires_capture' }]);
    await resolvePendingPayments({ db: db(), payments: server.deps.payments }, later(20));
    expect(await holdsOf(giver)).toMatchObject([{ status: 'canceled' }]);
    expect((await intentsOf(giver)).map((i) => i.status)).toEqual(['failed']);
    expect(await depositsOf(giver)).toBe(0);
    await expectLedgerSound();
  });

  it('captures again, with the same key, a landed gift whose capture answer was lost', async () => {
    const [owner, giver] = [await buildUser(server), await buildUser(server)];
    const postId = await receiveLink(owner);
    const held = await authorise(giver, { amount: 5, card: PAYS, for: { kind: 'give', postId, amount: 5 } });
    const intentId = held.body.authorisation!;
    // The gift's transaction committed, and the process stopped before the capture.
    await db().transaction((em) => landHold(em, { intentId, userId: giver.user._id, identity: 'anonymous' }));
    expect(await holdsOf(giver)).toMatchObject([{ status: 'requires_capture' }]);
    await resolvePendingPayments({ db: db(), payments: server.deps.payments }, later(2));
    expect(await holdsOf(giver)).toMatchObject([{ status: 'succeeded' }]);
    expect((await intentsOf(giver)).map((i) => i.status)).toEqual(['succeeded']);
    expect(await balanceOfUser(server, giver)).toBe(5);
    await expectLedgerSound();
  });

  it('asks about an authorisation whose answer was lost and lets it go', async () => {
    const giver = await buildUser(server);
    const key = `giftlink:card_hold:${crypto.randomUUID()}`;
    const hold = await server.deps.payments.authoriseCard({
      userId: giver.user._id,
      amountCents: 700,
      idempotencyKey: key,
      source: { kind: 'card', card: PAYS, save: false },
    });
    const now = new Date();
    await db().transaction((em) =>
      em.insert(PaymentIntentEntity, {
        id: crypto.randomUUID(),
        userId: giver.user._id,
        kind: 'card_hold',
        amountCents: 700,
        idempotencyKey: key,
        idempotencyRecordId: null,
        status: 'pending',
        providerReference: null,
        resultBalanceCents: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    await resolvePendingPayments({ db: db(), payments: server.deps.payments }, later(2));
    expect((await db().manager.findOneByOrFail(SandboxObjectEntity, { id: hold.reference })).data).toContain('"canceled"');
    expect((await intentsOf(giver)).map((i) => i.status)).toEqual(['failed']);
    expect(await db().manager.countBy(PaymentIntentEntity, { userId: giver.user._id, status: In(['authorised', 'pending']) })).toBe(0);
    await expectLedgerSound();
  });
});
