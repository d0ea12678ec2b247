import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CARD_PAYMENTS_LIMITED, CARD_PAYMENTS_LOCKED } from '../../contract/texts.js';
import { loadConfig } from '../config.js';
import { LedgerTransferEntity } from '../money/entity.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { balanceOfUser, buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { PaymentIntentEntity } from './entity.js';

/** Card testing stopped: limits per account, card and client, and a lock after repeated declines. */
const PAYS = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };
const DECLINED = { number: '4000 0000 0000 0002', expiry: '12/40', cvc: '123' };
const FRAUDULENT = { number: '4100 0000 0000 0019', expiry: '12/40', cvc: '123' };

let server: TestServer | undefined;
afterEach(async () => {
  if (server) await expectLedgerSound(server.deps.db);
  await server?.close();
  server = undefined;
});

async function start(limits: Record<string, string>): Promise<TestServer> {
  server = await startTestServer({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '1', METRICS_PORT: '0', ...limits });
  return server;
}

type Body = { error?: string; message?: string; new_balance?: number };
const pay = (s: TestServer, who: TestUser, card: typeof PAYS, address = '198.51.100.7') =>
  s.request<Body>('POST', '/api/wallet/card-deposit', {
    token: who.token,
    body: { amount: 5, card },
    headers: { 'Idempotency-Key': crypto.randomUUID(), 'X-Forwarded-For': address },
  });
async function refusals(s: TestServer): Promise<Record<string, number>> {
  const metric = s.deps.metrics!.registry.getSingleMetric('giftlink_card_payments_refused_total');
  const { values } = await metric!.get();
  return Object.fromEntries(values.map((v) => [String(v.labels.reason), v.value]));
}
const intentsOf = (s: TestServer, who: TestUser) => s.deps.db.manager.countBy(PaymentIntentEntity, { userId: who.user._id });
const depositsOf = (s: TestServer, who: TestUser) =>
  s.deps.db.manager.countBy(LedgerTransferEntity, { kind: 'deposit', actorUserId: who.user._id });

describe('card payment limits', () => {
  it('per account: past the limit a 429 that moves nothing, counted', async () => {
    const s = await start({ CARD_PAYMENTS_PER_ACCOUNT: '3' });
    const ana = await buildUser(s);
    for (let i = 0; i < 3; i++) expect((await pay(s, ana, PAYS)).status).toBe(200);
    const refused = await pay(s, ana, PAYS, '203.0.113.9');
    expect([refused.status, refused.body.error, refused.body.message]).toEqual([429, 'card_payments_limited', CARD_PAYMENTS_LIMITED]);
    expect(await intentsOf(s, ana)).toBe(3);
    expect(await balanceOfUser(s, ana)).toBe(15);
    expect(await refusals(s)).toEqual({ 'card-account': 1 });
    // Another account is not held back by it.
    expect((await pay(s, await buildUser(s), PAYS)).status).toBe(200);
  });

  it("per card: the same card's fingerprint across accounts and addresses", async () => {
    const s = await start({ CARD_PAYMENTS_PER_CARD: '2' });
    const [ana, ben, cat] = [await buildUser(s), await buildUser(s), await buildUser(s)];
    expect((await pay(s, ana, PAYS, '192.0.2.1')).status).toBe(200);
    expect((await pay(s, ben, PAYS, '192.0.2.2')).status).toBe(200);
    const refused = await pay(s, cat, PAYS, '192.0.2.3');
    expect([refused.status, refused.body.error]).toEqual([429, 'card_payments_limited']);
    expect(await intentsOf(s, cat)).toBe(0);
    // Another card still pays for the same account.
    expect((await pay(s, cat, DECLINED, '192.0.2.3')).body.error).toBe('card_declined');
    expect(await refusals(s)).toMatchObject({ 'card-fingerprint': 1, declined: 1 });
  });

  it("per card in the sandbox: every demo user's test card 4242 is one card, so its default limit is the sandbox's own", async () => {
    // Unset (the tests' server sets its own), as on `npm start`.
    const s = await start({ CARD_PAYMENTS_PER_CARD: '' });
    const users = await Promise.all(Array.from({ length: 12 }, () => buildUser(s)));
    for (const [i, who] of users.entries()) expect((await pay(s, who, PAYS, `192.0.2.${100 + i}`)).status).toBe(200);
    expect(await refusals(s)).toEqual({});
    expect(s.deps.config.cardSafety.perCard).toBe(1000);
    // A real card keeps the tighter default, and a set figure wins in either.
    const stripe = { PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x', STRIPE_PRICE_ID: 'price_x' };
    expect(loadConfig({ ...stripe, STRIPE_WEBHOOK_SECRET: 'whsec_x' }).cardSafety.perCard).toBe(10);
    expect(loadConfig({ PAYMENTS: 'sandbox', CARD_PAYMENTS_PER_CARD: '3' }).cardSafety.perCard).toBe(3);
  });

  it('per client address, across accounts', async () => {
    const s = await start({ CARD_PAYMENTS_PER_CLIENT: '2' });
    const users = [await buildUser(s), await buildUser(s), await buildUser(s)];
    expect((await pay(s, users[0], PAYS, '198.51.100.20')).status).toBe(200);
    expect((await pay(s, users[1], PAYS, '198.51.100.20')).status).toBe(200);
    expect((await pay(s, users[2], PAYS, '198.51.100.20')).status).toBe(429);
    expect(await depositsOf(s, users[2])).toBe(0);
    expect((await pay(s, users[2], PAYS, '198.51.100.21')).status).toBe(200);
    expect(await refusals(s)).toEqual({ 'card-client': 1 });
  });
});

describe('a lock after repeated declines', () => {
  it('locks card payments after CARD_DECLINES_BEFORE_LOCK declines; the risk block counts too', async () => {
    const s = await start({ CARD_DECLINES_BEFORE_LOCK: '3', CARD_LOCK_SECONDS: '600' });
    const dan = await buildUser(s);
    expect((await pay(s, dan, DECLINED)).body.error).toBe('card_declined');
    expect((await pay(s, dan, FRAUDULENT)).body.error).toBe('card_blocked');
    expect((await pay(s, dan, DECLINED)).body.error).toBe('card_declined');
    const locked = await pay(s, dan, PAYS);
    expect([locked.status, locked.body.error, locked.body.message]).toEqual([429, 'card_payments_locked', CARD_PAYMENTS_LOCKED]);
    expect(await depositsOf(s, dan)).toBe(0);
    expect(await intentsOf(s, dan)).toBe(3);
    expect(await refusals(s)).toEqual({ declined: 2, blocked: 1, locked: 1 });
    // Another account pays as before.
    expect((await pay(s, await buildUser(s), PAYS)).status).toBe(200);
  });
});

describe('limits per identity that pays', () => {
  const receiveLink = async (s: TestServer, owner: TestUser) =>
    (
      await s.request<{ id: string }>('POST', '/links/create', {
        token: owner.token,
        body: { details: { giveorreceive: 'receive', type: 'currency', amount: 50 } },
      })
    ).body.id;
  const payGift = (s: TestServer, who: TestUser, postId: string, card: typeof PAYS) =>
    s.request<Body>('POST', '/api/wallet/card-deposit', {
      token: who.token,
      body: { amount: 5, card, for: { kind: 'give', postId, amount: 5 } },
      headers: { 'Idempotency-Key': crypto.randomUUID(), 'X-Forwarded-For': '198.51.100.7' },
    });

  it("a lock by name does not refuse a one-step anonymous gift, and the persona's declines lock only the persona", async () => {
    const s = await start({ CARD_DECLINES_BEFORE_LOCK: '2', CARD_LOCK_SECONDS: '600' });
    const [eve, rita, rob] = [await buildUser(s), await buildUser(s), await buildUser(s)];
    for (let i = 0; i < 2; i++) expect((await pay(s, eve, DECLINED)).body.error).toBe('card_declined');
    expect((await pay(s, eve, PAYS)).body.error).toBe('card_payments_locked');
    // The gift goes out as eve's persona towards rita, which the recipient must not see locked by eve's name.
    const toRita = await receiveLink(s, rita);
    expect((await payGift(s, eve, toRita, PAYS)).status).toBe(200);
    // The persona's own declines lock it, and not eve's persona towards someone else.
    for (let i = 0; i < 2; i++) expect((await payGift(s, eve, toRita, DECLINED)).body.error).toBe('card_declined');
    expect((await payGift(s, eve, toRita, PAYS)).body.error).toBe('card_payments_locked');
    expect((await payGift(s, eve, await receiveLink(s, rob), PAYS)).status).toBe(200);
    expect(await refusals(s)).toEqual({ declined: 4, locked: 2 });
  });

  it('per account counts the identity that pays; per card and per client still bound every identity', async () => {
    const s = await start({ CARD_PAYMENTS_PER_ACCOUNT: '1', CARD_PAYMENTS_PER_CARD: '3' });
    const [fay, gil, hal] = [await buildUser(s), await buildUser(s), await buildUser(s)];
    expect((await pay(s, fay, PAYS)).status).toBe(200);
    expect((await pay(s, fay, PAYS)).body.error).toBe('card_payments_limited');
    expect((await payGift(s, fay, await receiveLink(s, gil), PAYS)).status).toBe(200);
    expect((await payGift(s, fay, await receiveLink(s, hal), PAYS)).status).toBe(200);
    // A fresh persona per recipient does not buy a card tester more uses of one card.
    const tried = await payGift(s, fay, await receiveLink(s, await buildUser(s)), PAYS);
    expect([tried.status, tried.body.error]).toEqual([429, 'card_payments_limited']);
    expect(await refusals(s)).toEqual({ 'card-account': 1, 'card-fingerprint': 1 });
  });
});
