import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BalanceResponse } from '../../contract/wallet.js';
import { disputeSandboxCharges } from '../commands/sandbox-disputes.js';
import { LinkEntity } from '../links/entity.js';
import { sweepExpiredLinks } from '../links/expiry.js';
import { SANDBOX_DISPUTE_AFTER_MS } from '../payments/sandbox-cards.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { connectClient, settle, type TestClient } from './testing.js';

/** The `balance` event: each person whose money a committed transaction moved hears their own balance answer. */
let server: TestServer;
const open: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer({ FUNDS_HOLD_HOURS: '1' });
});
afterEach(async () => {
  for (const c of open.splice(0)) c.close();
  await expectLedgerSound(server.deps.db);
});
afterAll(() => server?.close());

const socketOf = async (who: TestUser) => {
  const client = await connectClient(server, { token: who.token });
  open.push(client);
  return client;
};

const balanceAnswer = async (who: TestUser) =>
  (await server.request<BalanceResponse>('GET', '/api/billing-settings-balance', { token: who.token })).body;

/** The next `balance` event after the `seen` already received, checked against the balance answer. */
async function pushed(client: TestClient, who: TestUser, seen: number): Promise<BalanceResponse> {
  await client.waitFor('balance', () => client.received('balance').length > seen);
  const event = client.received('balance')[seen];
  expect(event).toEqual(await balanceAnswer(who));
  return event;
}

const receiveLink = async (who: TestUser, dollars: number) =>
  (
    await server.request<{ id: string }>('POST', '/links/create', {
      token: who.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: dollars, quantity: 1 } },
    })
  ).body.id;

const give = (giver: TestUser, postId: string, dollars: number, key: string) =>
  server.request<{ conversationId: string }>('POST', '/statuses/api/gives', {
    token: giver.token,
    body: { postId, amount: dollars },
    headers: { 'Idempotency-Key': key },
  });

describe('the balance event', () => {
  it('a give pushes both new balances after the commit, a replay pushes nothing, and nobody else hears of it', async () => {
    const [giver, recipient, stranger] = await buildUsers(server, 3, 'bal');
    const [atGiver, atRecipient, atStranger] = await Promise.all([giver, recipient, stranger].map(socketOf));
    await depositFor(server, giver, 10);
    expect(await pushed(atGiver, giver, 0)).toMatchObject({ balance: 10, owed: 0 });

    const postId = await receiveLink(recipient, 4);
    const key = crypto.randomUUID();
    expect((await give(giver, postId, 4, key)).status).toBe(201);
    expect(await pushed(atGiver, giver, 1)).toMatchObject({ balance: 6 });
    const received = await pushed(atRecipient, recipient, 0);
    // Held for the hour, and what it carries is the recipient's own money only.
    expect(received).toMatchObject({ balance: 4, available: 0, onHold: 4, owed: 0 });
    expect(Object.keys(received).sort()).toEqual(['available', 'balance', 'nextReleaseAt', 'onHold', 'owed']);

    const replay = await give(giver, postId, 4, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await settle(300);
    expect(atGiver.received('balance')).toHaveLength(2);
    expect(atRecipient.received('balance')).toHaveLength(1);
    expect(atStranger.received('balance')).toHaveLength(0);
    expect(JSON.stringify(atRecipient.events)).not.toContain(giver.user._id);
  });

  it('a gift returned pushes both sides, a dispute pushes whoever it took from', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'bal');
    const [atGiver, atRecipient] = await Promise.all([giver, recipient].map(socketOf));
    // The sandbox's disputed card pays now; its charge is disputed by the job later.
    const card = { number: '4000 0000 0000 0259', expiry: '12/40', cvc: '123' };
    const paid = await server.request('POST', '/api/wallet/card-deposit', {
      token: giver.token,
      body: { amount: 6, card },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(paid.status).toBe(200);
    await pushed(atGiver, giver, 0);

    const returned = await give(giver, await receiveLink(recipient, 2), 2, crypto.randomUUID());
    await pushed(atRecipient, recipient, 0);
    const thread = returned.body.conversationId;
    const page = await server.request<{ messages: { _id: string; messageType: string }[] }>('GET', `/messages/${thread}?page=1`, {
      token: recipient.token,
    });
    const gift = page.body.messages.find((m) => m.messageType === 'gift')!;
    const back = await server.request('POST', `/conversations/${thread}/gifts/${gift._id}/return`, { token: recipient.token });
    expect(back.status).toBe(200);
    expect(await pushed(atRecipient, recipient, 1)).toMatchObject({ balance: 0 });
    expect(await pushed(atGiver, giver, 2)).toMatchObject({ balance: 6 });

    // Another giver pays an anonymous gift in one step with the same card: that payment follows its gift.
    const [other] = await buildUsers(server, 1, 'bal');
    const postId = await receiveLink(recipient, 4);
    const held = await server.request<{ authorisation: string }>('POST', '/api/wallet/card-deposit', {
      token: other.token,
      body: { amount: 4, card, for: { kind: 'give', postId, amount: 4 } },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(held.status).toBe(200);
    const gave = await server.request('POST', '/statuses/api/gives', {
      token: other.token,
      body: { postId, amount: 4, authorisation: held.body.authorisation },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(gave.status).toBe(201);
    await pushed(atRecipient, recipient, 2);
    const seenByGiver = atGiver.received('balance').length;
    const disputed = await disputeSandboxCharges(server.deps, new Date(Date.now() + SANDBOX_DISPUTE_AFTER_MS + 1000));
    expect(disputed).toBe(2);
    // The gift still on hold goes back to the card's bank, and the first payer's own money with theirs.
    expect(await pushed(atRecipient, recipient, 3)).toMatchObject({ balance: 0, onHold: 0 });
    expect(await pushed(atGiver, giver, seenByGiver)).toMatchObject({ balance: 0, owed: 0 });
  });

  it("a give link's escrow refunded by the expiry job pushes its creator's balance", async () => {
    const [creator] = await buildUsers(server, 1, 'bal');
    const atCreator = await socketOf(creator);
    await depositFor(server, creator, 9);
    const made = await server.request('POST', '/links/create', {
      token: creator.token,
      body: { details: { giveorreceive: 'give', type: 'currency', amount: 3, initialQuantity: 2 } },
    });
    expect(made.status).toBe(201);
    expect(await pushed(atCreator, creator, 1)).toMatchObject({ balance: 3 });
    await server.deps.db.transaction((em) =>
      em.update(LinkEntity, { creatorId: creator.user._id }, { expiresAt: new Date(Date.now() - 1000) }),
    );
    expect(await sweepExpiredLinks(server.deps.db)).toBe(1);
    expect(await pushed(atCreator, creator, 2)).toMatchObject({ balance: 9 });
  });
});
