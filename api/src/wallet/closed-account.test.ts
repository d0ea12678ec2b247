import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerInvariants, SYSTEM_UNCLAIMED, balanceOf } from '../money/ledger.js';
import { SandboxObjectEntity } from '../payments/entity.js';
import { expectLedgerSound as expectLedgerSoundIn } from '../testing/ledger.js';
import { buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';
import { PaymentIntentEntity, type PaymentIntent } from './entity.js';
import { beginDeposit, resolvePendingPayments } from './intents.js';
import { reconcileWithProvider } from './reconcile.js';

/** A card payment and the account's closing: the card is never charged with the money lost. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const PAYS = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };
const db = () => server.deps.db;
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
const recover = () => resolvePendingPayments({ db: db(), payments: server.deps.payments }, later(2));
const expectLedgerSound = () => expectLedgerSoundIn(db());
const reconcile = () => reconcileWithProvider({ db: db(), payments: server.deps.payments });

/** What the sandbox did with an intent's card charge: taken and kept, given back, or nothing. */
async function chargeOf(intent: PaymentIntent): Promise<'kept' | 'refunded' | 'none'> {
  const row = await db().manager.findOneBy(SandboxObjectEntity, { idempotencyKey: `charge:${intent.idempotencyKey}` });
  if (!row) return 'none';
  const data = JSON.parse(row.data) as { outcome: string; refunded?: boolean };
  if (data.outcome !== 'succeeded') return 'none';
  return data.refunded ? 'refunded' : 'kept';
}

const closeDirectly = (who: TestUser) => db().transaction((em) => em.update(UserEntity, { id: who.user._id }, { closedAt: new Date() }));

describe('closed accounts and card payments', () => {
  it('refuses to begin a deposit for a closed account, before any charge', async () => {
    const ana = await buildUser(server);
    await closeDirectly(ana);
    await expect(
      db().transaction((em) => beginDeposit(em, { userId: ana.user._id, amountCents: 500, recordId: null, card: 'form' })),
    ).rejects.toMatchObject({ code: 'account_closed', status: 409 });
    expect(await db().manager.countBy(PaymentIntentEntity, { userId: ana.user._id })).toBe(0);
  });

  it('a settlement that finds the account closed books the money to unclaimed and refunds the card, once', async () => {
    const ben = await buildUser(server);
    const unclaimedBefore = await balanceOf(db().manager, SYSTEM_UNCLAIMED);
    const intent = await db().transaction((em) =>
      beginDeposit(em, { userId: ben.user._id, amountCents: 6800, recordId: null, card: 'form' }),
    );
    // The card was charged, then the process stopped; the account closed before anyone settled it.
    await server.deps.payments.chargeCard({
      userId: ben.user._id,
      amountCents: 6800,
      idempotencyKey: intent.idempotencyKey,
      source: { kind: 'card', card: PAYS, save: false },
    });
    await closeDirectly(ben);
    expect(await recover()).toMatchObject({ unresolved: 0 });
    const settled = await db().manager.findOneByOrFail(PaymentIntentEntity, { id: intent.id });
    expect(settled.status).toBe('refunded');
    expect(await chargeOf(settled)).toBe('refunded');
    expect(await balanceOf(db().manager, SYSTEM_UNCLAIMED)).toBe(unclaimedBefore);
    // Nothing left for the next run: no 'User not found' every minute.
    expect(await recover()).toEqual({ succeeded: 0, failed: 0, unresolved: 0 });
    expect(await reconcile()).toEqual([]);
    await expectLedgerSound();
  });

  it('a card deposit racing the closing is never charged and lost', async () => {
    const trials = 8;
    const users = await Promise.all(Array.from({ length: trials }, () => buildUser(server)));
    const outcomes = await Promise.all(
      users.map((who) =>
        Promise.all([
          server.request('POST', '/api/wallet/card-deposit', {
            token: who.token,
            body: { amount: 68, card: PAYS },
            headers: { 'Idempotency-Key': crypto.randomUUID() },
          }),
          server.request('POST', '/api/account/delete', { token: who.token, body: { password: who.password } }),
        ]),
      ),
    );
    await recover();
    for (const [i, who] of users.entries()) {
      const user = await db().manager.findOneByOrFail(UserEntity, { id: who.user._id });
      const intents = await db().manager.findBy(PaymentIntentEntity, { userId: who.user._id });
      for (const intent of intents) {
        const charge = await chargeOf(intent);
        const context = JSON.stringify({
          statuses: outcomes[i].map((r) => r.status),
          intent: intent.status,
          charge,
          closed: !!user.closedAt,
        });
        expect(['succeeded', 'failed', 'refunded'], context).toContain(intent.status);
        // Money kept by the card's side is credited to an open account; a closed one's is given back.
        if (charge === 'kept') expect([intent.status, !!user.closedAt], context).toEqual(['succeeded', false]);
        if (intent.status === 'succeeded') expect(charge, context).toBe('kept');
      }
    }
    expect(await reconcile()).toEqual([]);
    const inv = await ledgerInvariants(db());
    expect(inv.creditsToClosedAccounts).toEqual([]);
    await expectLedgerSound();
  });

  it("locks the account's row without deadlocking concurrent deposits of one user", async () => {
    const eve = await buildUser(server);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        server.request('POST', '/api/wallet/card-deposit', {
          token: eve.token,
          body: { amount: 1, card: PAYS },
          headers: { 'Idempotency-Key': crypto.randomUUID() },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 12 }, () => 200));
    await expectLedgerSound();
  });
});
