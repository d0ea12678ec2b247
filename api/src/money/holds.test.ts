import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, depositFor, readyPayoutsFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { expectLedgerSound } from '../testing/ledger.js';
import type { BalanceResponse } from '../../contract/wallet.js';
import { LedgerTransferEntity } from './entity.js';
import { SYSTEM_PAYMENTS, SYSTEM_UNCLAIMED, balanceOf as ledgerBalance, transfer, userAccount } from './ledger.js';

const HOUR = 3_600_000;
let server: TestServer;
let offset = 0;
const now = () => new Date(Date.now() + offset);

beforeAll(async () => {
  server = await startTestServer({ FUNDS_HOLD_HOURS: '1' });
  server.deps.clock = now;
});
afterAll(() => server?.close());

const balance = async (who: TestUser) =>
  (await server.request<BalanceResponse>('GET', '/api/billing-settings-balance', { token: who.token })).body;
const withPayouts = new Set<string>();
async function withdraw(who: TestUser, dollars: number) {
  if (!withPayouts.has(who.user._id)) await readyPayoutsFor(server, who);
  withPayouts.add(who.user._id);
  return server.request('POST', '/api/billing-settings-withdrawal', { token: who.token, body: { balance: dollars } });
}

async function receiveLink(owner: TestUser, dollars: number, quantity = 1): Promise<string> {
  const link = await server.request('POST', '/links/create', {
    token: owner.token,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount: dollars, quantity } },
  });
  expect(link.status).toBe(201);
  return (link.body as { id: string }).id;
}

async function give(giver: TestUser, linkId: string, dollars: number): Promise<void> {
  const res = await server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId: linkId, amount: dollars } });
  expect(res.status).toBe(201);
}

describe('funds on hold', () => {
  it('holds a card deposit: a withdrawal above what is available is refused with the amount and time, and nothing moves', async () => {
    const a = await buildUser(server);
    await depositFor(server, a, 10);
    const held = await balance(a);
    expect(held).toMatchObject({ balance: 10, available: 0, onHold: 10 });
    expect(new Date(held.nextReleaseAt!).getTime()).toBeGreaterThan(now().getTime() + HOUR - 60_000);

    const refused = await withdraw(a, 5);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('funds_on_hold');
    expect(refused.body.message).toMatch(/^Only \$0\.00 can be withdrawn now: the rest is on hold until .* UTC\.$/);
    expect(await balance(a)).toMatchObject({ balance: 10, available: 0 });
    const me = await server.request('GET', '/api/auth/me', { token: a.token });
    expect(me.body).toMatchObject({ balance: 10, available: 0, onHold: 10 });
    await expectLedgerSound(server.deps.db);

    offset += HOUR + 1000;
    expect(await balance(a)).toMatchObject({ balance: 10, available: 10, onHold: 0, nextReleaseAt: null });
    expect((await withdraw(a, 10)).status).toBe(200);
    await expectLedgerSound(server.deps.db);
  });

  it('holds a gift received no earlier than the money that paid it, and spends held money first', async () => {
    const giver = await buildUser(server);
    const recipient = await buildUser(server);
    await depositFor(server, giver, 5);
    offset += HOUR / 2;
    await depositFor(server, giver, 5);
    // $3 of the giver's $10 is spent: the newer deposit's money goes first.
    await give(giver, await receiveLink(recipient, 3), 3);
    const giverAfter = await balance(giver);
    expect(giverAfter).toMatchObject({ balance: 7, onHold: 7 });
    const got = await balance(recipient);
    expect(got).toMatchObject({ balance: 3, available: 0, onHold: 3 });
    await expectLedgerSound(server.deps.db);

    // Half an hour on: the giver's first deposit is free, the gift still waits its own hold.
    offset += HOUR / 2 + 1000;
    expect(await balance(giver)).toMatchObject({ available: 5, onHold: 2 });
    expect((await withdraw(recipient, 1)).status).toBe(400);
    offset += HOUR;
    expect(await balance(recipient)).toMatchObject({ available: 3, onHold: 0 });
    await expectLedgerSound(server.deps.db);
  });

  it('holds group gifts and give-link money received, and gives escrow refunds their hold back', async () => {
    const owner = await buildUser(server);
    const [g1, g2] = [await buildUser(server), await buildUser(server)];
    await depositFor(server, g1, 4);
    await depositFor(server, g2, 4);
    const group = await receiveLink(owner, 6, 2);
    await give(g1, group, 3);
    await give(g2, group, 3);
    expect(await balance(owner)).toMatchObject({ balance: 6, available: 0, onHold: 6 });

    // A give link's escrow: accepted, its money lands held; cancelled, the rest comes back as held as it went.
    await depositFor(server, owner, 2);
    const giveLink = await server.request('POST', '/links/create', {
      token: owner.token,
      body: { details: { giveorreceive: 'give', type: 'currency', amount: 1, initialQuantity: 2 } },
    });
    expect(giveLink.status).toBe(201);
    const accepted = await server.request('PUT', '/api/accept-link', {
      token: g1.token,
      body: { linkCreatorUsername: owner.user.username, linkResponderUsername: g1.user.username },
    });
    expect(accepted.status).toBe(200);
    expect(await balance(g1)).toMatchObject({ balance: 2, available: 0, onHold: 2 });
    const cancelled = await server.request('DELETE', `/api/links/${(giveLink.body as { id: string }).id}`, { token: owner.token });
    expect(cancelled.status).toBe(200);
    expect(await balance(owner)).toMatchObject({ balance: 7, available: 0, onHold: 7 });
    await expectLedgerSound(server.deps.db);
    offset += HOUR + 1000;
    expect(await balance(owner)).toMatchObject({ available: 7, onHold: 0 });
  });

  it('gives a returned withdrawal back as available as it was', async () => {
    const a = await buildUser(server);
    await depositFor(server, a, 3);
    offset += HOUR + 1000;
    expect((await withdraw(a, 2)).status).toBe(200);
    expect(await balance(a)).toMatchObject({ balance: 1, available: 1, onHold: 0 });
    await expectLedgerSound(server.deps.db);
  });

  it('lets an account close with money still on hold, keeping it in system:unclaimed; available money must be withdrawn first', async () => {
    const a = await buildUser(server);
    await depositFor(server, a, 4);
    const unclaimed = () => ledgerBalance(server.deps.db.manager, SYSTEM_UNCLAIMED);
    const before = await unclaimed();
    const closed = await server.request('POST', '/api/account/delete', { token: a.token, body: { password: a.password } });
    expect(closed.status).toBe(200);
    expect(await unclaimed()).toBe(before + 400);
    await expectLedgerSound(server.deps.db);

    const b = await buildUser(server);
    await depositFor(server, b, 2);
    offset += HOUR + 1000;
    const refused = await server.request('POST', '/api/account/delete', { token: b.token, body: { password: b.password } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('balance_held');
  });
});

describe('held money taken by name', () => {
  it('comes from the account’s other held money when some of it was spent since it was read (a dispute’s stale read)', async () => {
    const payer = await buildUser(server);
    const recipient = await buildUser(server);
    await depositFor(server, payer, 10);
    const [first] = await server.deps.db.manager.find(LedgerTransferEntity, { where: { kind: 'deposit', actorUserId: payer.user._id } });
    // $8 of the first deposit is given away, then a second deposit: $2 of the first is held, and $5 of the second.
    await give(payer, await receiveLink(recipient, 8), 8);
    await depositFor(server, payer, 5);
    expect(await balance(payer)).toMatchObject({ balance: 7, onHold: 7 });
    // Taken back as if the first deposit still held $7 here (read before the gift): only $2 of it is left.
    await server.deps.db.transaction((em) =>
      transfer(em, {
        from: userAccount(payer.user._id),
        to: SYSTEM_PAYMENTS,
        amountCents: 700,
        kind: 'dispute',
        only: { origin: first.id },
      }),
    );
    await expectLedgerSound(server.deps.db);
    expect(await balance(payer)).toMatchObject({ balance: 0, onHold: 0 });
  });
});
