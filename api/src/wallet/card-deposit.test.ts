import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerSound as expectLedgerSoundIn } from '../testing/ledger.js';
import { LedgerTransferEntity } from '../money/entity.js';
import { SandboxObjectEntity } from '../payments/entity.js';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { PaymentIntentEntity } from './entity.js';
import { resolvePendingPayments } from './intents.js';

/** A card deposit with the sandbox's test cards: the one-step gift's first step. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const CARD_DEPOSIT = '/api/wallet/card-deposit';
const PAYS = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };
const DECLINED = { number: '4000 0000 0000 0002', expiry: '12/40', cvc: '123' };

const cardDeposit = (who: TestUser | null, body: unknown, key: string | null = crypto.randomUUID()) =>
  server.request<{ new_balance?: number; error?: string; message?: string }>('POST', CARD_DEPOSIT, {
    token: who?.token,
    body,
    headers: key ? { 'Idempotency-Key': key } : {},
  });
const balanceOf = async (who: TestUser): Promise<number> =>
  (await server.request<{ balance: number }>('GET', '/api/billing-settings-balance', { token: who.token })).body.balance;
const depositsOf = (who: TestUser) => server.deps.db.manager.countBy(LedgerTransferEntity, { kind: 'deposit', actorUserId: who.user._id });
const intentsOf = (who: TestUser) => server.deps.db.manager.findBy(PaymentIntentEntity, { userId: who.user._id });
const expectLedgerSound = () => expectLedgerSoundIn(server.deps.db);

describe('card deposit (sandbox)', () => {
  it('charges 4242 and credits exactly the amount, once per Idempotency-Key', async () => {
    const ana = await buildUser(server);
    const key = crypto.randomUUID();
    const first = await cardDeposit(ana, { amount: 5, card: PAYS }, key);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ new_balance: 5 });
    const again = await cardDeposit(ana, { amount: 5, card: PAYS }, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ new_balance: 5 });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await balanceOf(ana)).toBe(5);
    expect(await depositsOf(ana)).toBe(1);
    const intents = await intentsOf(ana);
    expect(intents.map((i) => [i.kind, i.status, i.amountCents])).toEqual([['card_deposit', 'succeeded', 500]]);
    await expectLedgerSound();
  });

  it('charges once when the same key arrives twice at once', async () => {
    const ben = await buildUser(server);
    const key = crypto.randomUUID();
    const [a, b] = await Promise.all([
      cardDeposit(ben, { amount: 3.5, card: PAYS }, key),
      cardDeposit(ben, { amount: 3.5, card: PAYS }, key),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual({ new_balance: 3.5 });
    expect(b.body).toEqual({ new_balance: 3.5 });
    expect(await balanceOf(ben)).toBe(3.5);
    expect(await depositsOf(ben)).toBe(1);
    expect(
      await server.deps.db.manager.countBy(SandboxObjectEntity, {
        kind: 'charge',
        idempotencyKey: `charge:${(await intentsOf(ben))[0].idempotencyKey}`,
      }),
    ).toBe(1);
    await expectLedgerSound();
  });

  it('moves nothing for a declined card and says so; the intent is failed and the key can be tried again', async () => {
    const cy = await buildUser(server);
    const key = crypto.randomUUID();
    const declined = await cardDeposit(cy, { amount: 5, card: DECLINED }, key);
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ error: 'card_declined', message: 'Your card was declined.' });
    expect(await balanceOf(cy)).toBe(0);
    expect(await depositsOf(cy)).toBe(0);
    expect((await intentsOf(cy)).map((i) => i.status)).toEqual(['failed']);
    // A definite failure frees the key: the same key with a card that pays is evaluated afresh.
    const paid = await cardDeposit(cy, { amount: 5, card: PAYS }, key);
    expect(paid.status).toBe(200);
    expect(await balanceOf(cy)).toBe(5);
    await expectLedgerSound();
  });

  it('refuses a visitor, and never lets one user deposit for another', async () => {
    const dee = await buildUser(server);
    const eve = await buildUser(server);
    expect((await cardDeposit(null, { amount: 5, card: PAYS })).status).toBe(401);
    const res = await server.request('POST', CARD_DEPOSIT, {
      token: 'abc.def.ghi',
      body: { amount: 5, card: PAYS },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(res.status).toBe(401);
    // A `userId` is no part of the call: the signed-in user is the one charged and credited.
    const other = await cardDeposit(eve, { amount: 5, card: PAYS, userId: dee.user._id });
    expect(other.status).toBe(400);
    expect(await balanceOf(dee)).toBe(0);
    expect(await balanceOf(eve)).toBe(0);
    // Eve's key is hers: Dee using the same key is a request of her own.
    const key = crypto.randomUUID();
    expect((await cardDeposit(eve, { amount: 2, card: PAYS }, key)).status).toBe(200);
    expect((await cardDeposit(dee, { amount: 3, card: PAYS }, key)).body).toEqual({ new_balance: 3 });
    expect(await balanceOf(eve)).toBe(2);
    await expectLedgerSound();
  });

  it('answers 400 for bad input and changes nothing', async () => {
    const fay = await buildUser(server);
    const before = await server.deps.db.manager.count(LedgerTransferEntity);
    const bad: unknown[] = [
      { amount: 0.5, card: PAYS },
      { amount: 'five', card: PAYS },
      { amount: 5, card: { ...PAYS, number: '4242' } },
      { amount: 5, card: { ...PAYS, cvc: '12' } },
      { amount: 5, card: { ...PAYS, expiry: '13/40' } },
      { amount: 5, card: { ...PAYS, expiry: '01/20' } },
      { amount: 5, card: { ...PAYS, number: '5555 5555 5555 4444' } },
      { amount: 5, card: { number: 4242424242424242, expiry: '12/40', cvc: '123' } },
    ];
    for (const body of bad) {
      const res = await cardDeposit(fay, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await cardDeposit(fay, { amount: 5, card: PAYS }, null)).status).toBe(400);
    expect((await cardDeposit(fay, { amount: 5 })).body).toMatchObject({ error: 'no_saved_card' });
    expect(await balanceOf(fay)).toBe(0);
    expect(await server.deps.db.manager.count(LedgerTransferEntity)).toBe(before);
    await expectLedgerSound();
  });

  it('saves a card (its last 4 digits and outcome only) and charges it later without the number', async () => {
    const gus = await buildUser(server);
    expect((await server.request('GET', '/api/wallet/card', { token: gus.token })).body).toEqual({ card: null });
    expect((await cardDeposit(gus, { amount: 2, card: PAYS, save: true })).status).toBe(200);
    expect((await server.request('GET', '/api/wallet/card', { token: gus.token })).body).toEqual({ card: { last4: '4242' } });
    const stored = await server.deps.db.manager.findBy(SandboxObjectEntity, {});
    expect(stored.some((row) => row.data.includes('4242424242424242'))).toBe(false);
    const saved = await cardDeposit(gus, { amount: 3 });
    expect(saved.body).toEqual({ new_balance: 5 });
    expect(await depositsOf(gus)).toBe(2);
    // Someone else sees no card of Gus's.
    const hal = await buildUser(server);
    expect((await server.request('GET', '/api/wallet/card', { token: hal.token })).body).toEqual({ card: null });
    expect((await server.request('GET', '/api/wallet/card')).status).toBe(401);
    await expectLedgerSound();
  });

  it('after a crash, recovery settles a charged card once and never charges a forgotten card', async () => {
    const ivy = await buildUser(server);
    expect((await cardDeposit(ivy, { amount: 4, card: PAYS })).status).toBe(200);
    // An intent whose card never reached the sandbox: the card is gone, so it fails and nothing moves.
    const now = new Date();
    const id = crypto.randomUUID();
    await server.deps.db.transaction((em) =>
      em.insert(PaymentIntentEntity, {
        id,
        userId: ivy.user._id,
        kind: 'card_deposit',
        amountCents: 700,
        idempotencyKey: `giftlink:card_deposit:${id}`,
        idempotencyRecordId: null,
        status: 'pending',
        providerReference: null,
        resultBalanceCents: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    await resolvePendingPayments({ db: server.deps.db, payments: server.deps.payments }, new Date(now.getTime() + 120_000));
    expect((await server.deps.db.manager.findOneByOrFail(PaymentIntentEntity, { id })).status).toBe('failed');
    expect(await balanceOf(ivy)).toBe(4);
    expect(await depositsOf(ivy)).toBe(1);
    await expectLedgerSound();
  });
});
