import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIFT_REVERSED } from '../../contract/texts.js';
import { SANDBOX_DISPUTE_AFTER_MS } from '../payments/sandbox.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { buildUser, giveToNewLink, startTestServer, type TestServer } from '../testing/server.js';
import { disputeSandboxCharges } from './sandbox-disputes.js';

/** The sandbox's disputed test card (4000 0000 0000 0259): it pays, and is disputed shortly after through the webhook's path. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ FUNDS_HOLD_HOURS: '1' });
});
afterAll(() => server?.close());

const DISPUTED = { number: '4000 0000 0000 0259', expiry: '12/40', cvc: '123' };

describe('the sandbox disputed card', () => {
  it('pays by name, then is disputed once its moment comes: from the payer, never from the anonymous gift it paid', async () => {
    const payer = await buildUser(server);
    const recipient = await buildUser(server);
    const paid = await server.request('POST', '/api/wallet/card-deposit', {
      token: payer.token,
      body: { amount: 7, card: DISPUTED },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(paid.status).toBe(200);
    const thread = await giveToNewLink(server, payer, recipient, 5);

    // Not yet: nothing is due.
    expect(await disputeSandboxCharges(server.deps, new Date())).toBe(0);
    const later = new Date(Date.now() + SANDBOX_DISPUTE_AFTER_MS + 1000);
    expect(await disputeSandboxCharges(server.deps, later)).toBe(1);
    expect(await disputeSandboxCharges(server.deps, later)).toBe(0);

    const balance = async (who: typeof payer) =>
      (await server.request('GET', '/api/billing-settings-balance', { token: who.token })).body as { balance: number; owed: number };
    // The deposit was the payer's named act: following it into the anonymous gift would tell the recipient who gave.
    expect(await balance(payer)).toMatchObject({ balance: 0, owed: 5 });
    expect((await balance(recipient)).balance).toBe(5);
    const page = await server.request('GET', `/messages/${thread}?page=1`, { token: recipient.token });
    expect((page.body as { messages: { text: string }[] }).messages.map((m) => m.text)).not.toContain(GIFT_REVERSED);
    await expectLedgerSound(server.deps.db);
  });

  it('disputes a one-step gift paid with it (authorised, then captured where the gift landed) the same way', async () => {
    const payer = await buildUser(server);
    const recipient = await buildUser(server);
    const link = await server.request('POST', '/links/create', {
      token: recipient.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 6, quantity: 1 } },
    });
    const postId = (link.body as { id: string }).id;
    const held = await server.request('POST', '/api/wallet/card-deposit', {
      token: payer.token,
      body: { amount: 6, card: DISPUTED, for: { kind: 'give', postId, amount: 6 } },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(held.status).toBe(200);
    const give = await server.request('POST', '/statuses/api/gives', {
      token: payer.token,
      body: { postId, amount: 6, authorisation: (held.body as { authorisation: string }).authorisation },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    expect(give.status).toBe(201);
    const thread = (give.body as { conversationId: string }).conversationId;

    const later = new Date(Date.now() + SANDBOX_DISPUTE_AFTER_MS + 1000);
    expect(await disputeSandboxCharges(server.deps, later)).toBe(1);
    expect(await disputeSandboxCharges(server.deps, later)).toBe(0);
    const balance = async (who: typeof payer) =>
      (await server.request('GET', '/api/billing-settings-balance', { token: who.token })).body as { balance: number };
    expect((await balance(recipient)).balance).toBe(0);
    const page = await server.request('GET', `/messages/${thread}?page=1`, { token: recipient.token });
    expect((page.body as { messages: { text: string }[] }).messages.map((m) => m.text)).toContain(GIFT_REVERSED);
    await expectLedgerSound(server.deps.db);
  });
});
