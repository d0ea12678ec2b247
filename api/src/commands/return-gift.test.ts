import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GIFT_RETURNED } from '../../contract/texts.js';
import type { BalanceResponse } from '../../contract/wallet.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { buildUser, depositFor, giveToNewLink, startTestServer, type TestServer, type TestUser } from '../testing/server.js';

const HOUR = 3_600_000;
let server: TestServer;
let offset = 0;
beforeAll(async () => {
  server = await startTestServer({ FUNDS_HOLD_HOURS: '1' });
  server.deps.clock = () => new Date(Date.now() + offset);
});
afterAll(() => server?.close());
afterEach(() => expectLedgerSound(server.deps.db));

const balance = async (who: TestUser) =>
  (await server.request<BalanceResponse>('GET', '/api/billing-settings-balance', { token: who.token })).body;

/** An anonymous gift of `dollars` from `giver` to `recipient`: its thread and gift message. */
async function anonymousGift(giver: TestUser, recipient: TestUser, dollars: number): Promise<{ thread: string; message: string }> {
  await depositFor(server, giver, dollars);
  const thread = await giveToNewLink(server, giver, recipient, dollars);
  const page = await server.request('GET', `/messages/${thread}?page=1`, { token: recipient.token });
  const gift = (page.body as { messages: { _id: string; messageType: string }[] }).messages.find((m) => m.messageType === 'gift')!;
  return { thread, message: gift._id };
}

const returnPath = (g: { thread: string; message: string }) => `/conversations/${g.thread}/gifts/${g.message}/return`;
const giveBack = (who: TestUser | null, g: { thread: string; message: string }, key?: string) =>
  server.request('POST', returnPath(g), { token: who?.token, headers: key ? { 'Idempotency-Key': key } : {} });

describe('returning an anonymous gift', () => {
  it('sends it back to the giver once, held as before, and says so in the thread without naming anyone', async () => {
    const giver = await buildUser(server);
    const recipient = await buildUser(server);
    const gift = await anonymousGift(giver, recipient, 4);
    expect(await balance(giver)).toMatchObject({ balance: 0 });

    const first = await giveBack(recipient, gift, 'return-1');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ returned: 4 });
    const replay = await giveBack(recipient, gift, 'return-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await giveBack(recipient, gift, 'return-2');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('gift_settled');

    expect(await balance(recipient)).toMatchObject({ balance: 0, onHold: 0 });
    // Back with the giver, and not available before the gift's own hold would have ended.
    expect(await balance(giver)).toMatchObject({ balance: 4, available: 0, onHold: 4 });
    for (const who of [giver, recipient]) {
      const page = await server.request('GET', `/messages/${gift.thread}?page=1`, { token: who.token });
      expect((page.body as { messages: { text: string }[] }).messages.map((m) => m.text)).toContain(GIFT_RETURNED);
    }
    const history = await server.request('GET', '/api/wallet/history?limit=10', { token: giver.token });
    expect(JSON.stringify(history.body)).toContain('"kind":"gift_returned"');
    const recipientView = await server.request('GET', `/messages/${gift.thread}?page=1`, { token: recipient.token });
    expect(JSON.stringify(recipientView.body)).not.toContain(giver.user.username);
  });

  it('refuses a gift no longer on hold, and moves nothing', async () => {
    const giver = await buildUser(server);
    const recipient = await buildUser(server);
    const gift = await anonymousGift(giver, recipient, 2);
    offset += HOUR + 1000;
    const late = await giveBack(recipient, gift);
    expect(late.status).toBe(400);
    expect(late.body.error).toBe('gift_not_returnable');
    expect(await balance(recipient)).toMatchObject({ balance: 2 });
    expect(await balance(giver)).toMatchObject({ balance: 0 });
  });

  it('refuses a gift already spent', async () => {
    const giver = await buildUser(server);
    const recipient = await buildUser(server);
    const gift = await anonymousGift(giver, recipient, 3);
    // The recipient spends $2 of it.
    await giveToNewLink(server, recipient, await buildUser(server), 2);
    const spent = await giveBack(recipient, gift);
    expect(spent.status).toBe(400);
    expect(spent.body.error).toBe('gift_not_returnable');
  });

  it('answers 401, 400, 403 and 404', async () => {
    const giver = await buildUser(server);
    const recipient = await buildUser(server);
    const stranger = await buildUser(server);
    const gift = await anonymousGift(giver, recipient, 1);
    expect((await giveBack(null, gift)).status).toBe(401);
    expect((await giveBack(recipient, { ...gift, message: 'x'.repeat(65) })).status).toBe(400);
    expect((await giveBack(recipient, gift, 'bad key with spaces')).status).toBe(400);
    const byGiver = await giveBack(giver, gift);
    expect(byGiver.status).toBe(403);
    expect((await giveBack(stranger, gift)).status).toBe(404);
    expect((await giveBack(recipient, { ...gift, message: '00000000-0000-7000-8000-000000000000' })).status).toBe(404);
    expect((await giveBack(recipient, { ...gift, thread: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect(await balance(recipient)).toMatchObject({ balance: 1 });
  });
});
