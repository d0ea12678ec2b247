import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkEntity } from './entity.js';
import { sweepExpiredLinks } from './expiry.js';
import { escrowAccount, balanceOf } from '../money/ledger.js';
import { balanceOfUser, buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { expectLedgerSound } from '../testing/ledger.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const create = (who: TestUser, details: Record<string, unknown>, headers: Record<string, string> = {}) =>
  server.request('POST', '/links/create', {
    token: who.token,
    headers,
    body: { creatorUserId: who.user._id, creatorUsername: who.user.username, details },
  });

async function expectInvariants() {
  await expectLedgerSound(server.deps.db);
  const open = await server.deps.db.manager.findBy(LinkEntity, { status: 'active', giveOrReceive: 'give' });
  for (const link of open) {
    const held = await balanceOf(server.deps.db.manager, escrowAccount(link.id));
    expect(held).toBe(link.type === 'currency' ? link.amountCents * link.remainingQuantity : link.remainingQuantity * link.amountCents);
  }
}

describe('creating links', () => {
  it("moves a give link's whole cost into escrow and allows one active link", async () => {
    const [ann] = await buildUsers(server, 1, 'ann');
    await depositFor(server, ann, 50);
    const res = await create(ann, { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 3 });
    expect(res.status).toBe(201);
    expect(res.body.details).toMatchObject({ amount: 5, initialQuantity: 3, remainingQuantity: 3, totalCost: 15 });
    expect(await balanceOfUser(server, ann)).toBe(35);
    const second = await create(ann, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    expect(second.status).toBe(400);
    expect(second.body.message).toMatch(/one active link/);
    await expectInvariants();
  });

  it("checks its input with the spec's messages and changes nothing on failure", async () => {
    const [bo] = await buildUsers(server, 1, 'bo');
    await depositFor(server, bo, 10);
    const cases: [Record<string, unknown>, string][] = [
      [{ giveorreceive: 'give', type: 'currency', amount: 5 }, 'Please enter how many times this link can be used'],
      [{ giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 0 }, 'Please enter how many times this link can be used'],
      [{ giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 1.5 }, 'Please enter how many times this link can be used'],
      [{ giveorreceive: 'give', type: 'currency', amount: 0.5, initialQuantity: 1 }, 'Please enter a valid amount above $1'],
      [{ giveorreceive: 'give', type: 'currency', amount: 6, initialQuantity: 2 }, 'Add money to your account balance.'],
      [{ type: 'currency', amount: 5 }, 'Choose give or receive, currency or item, and an amount or an item.'],
      [{ giveorreceive: 'receive', type: 'currency' }, 'Choose give or receive, currency or item, and an amount or an item.'],
      [{ giveorreceive: 'receive', type: 'item' }, 'Choose give or receive, currency or item, and an amount or an item.'],
    ];
    for (const [details, message] of cases) {
      const res = await create(bo, details);
      expect(res.status, JSON.stringify(details)).toBe(400);
      expect(res.body.message, JSON.stringify(details)).toBe(message);
    }
    expect(await balanceOfUser(server, bo)).toBe(10);
    expect(await server.deps.db.manager.countBy(LinkEntity, { creatorId: bo.user._id })).toBe(0);
  });

  it('prices an item link from the catalogue: price plus the first shipping cost', async () => {
    const [cy] = await buildUsers(server, 1, 'cy');
    await depositFor(server, cy, 500);
    const products = (await server.request('GET', '/api/products/search?q=camera', { token: cy.token })).body;
    const product = products[0];
    const res = await create(cy, { giveorreceive: 'give', type: 'item', itemId: product.itemId, amount: 1 });
    expect(res.status).toBe(201);
    const expected = Math.round((Number(product.price.value) + Number(product.shippingOptions[0].shippingCost.value)) * 100) / 100;
    expect(res.body.details).toMatchObject({ title: product.title, initialQuantity: 1, totalCost: expected, itemId: product.itemId });
    expect(await balanceOfUser(server, cy)).toBeCloseTo(500 - expected, 2);
  });

  it('refuses acting as another user', async () => {
    const [a, b] = await buildUsers(server, 2, 'imp');
    const res = await server.request('POST', '/links/create', {
      token: a.token,
      body: {
        creatorUserId: b.user._id,
        creatorUsername: b.user.username,
        details: { giveorreceive: 'receive', type: 'currency', amount: 5 },
      },
    });
    expect(res.status).toBe(403);
    expect((await server.request('POST', '/links/create', { body: { details: {} } })).status).toBe(401);
  });
});

describe('opening and using links', () => {
  it('counts views and visitors, shows metrics only to the creator, and 404/410 when gone', async () => {
    const [gia, v1] = await buildUsers(server, 2, 'gia');
    await create(gia, { giveorreceive: 'receive', type: 'currency', amount: 10 });
    const visitor = await server.request('POST', `/links/${gia.user.username}`, { token: v1.token, body: {} });
    expect(visitor.status).toBe(200);
    expect(visitor.body.updatedLink.metrics).toBeUndefined();
    await server.request('POST', `/links/${gia.user.username}`, { body: { sessionId: 'anon-session-1' } });
    await server.request('POST', `/links/${gia.user.username}`, { body: { sessionId: 'anon-session-1' } });
    const owner = await server.request('POST', `/links/${gia.user.username}`, { token: gia.token, body: {} });
    // The second anonymous open within the hour is the same visitor (not a UUID session: the address): no view.
    expect(owner.body.updatedLink.metrics).toEqual({ views: 2, visitorCount: 2 });

    expect((await server.request('POST', '/links/nobody-here', { body: {} })).body.message).toBe('Link not found');
    const [noLink] = await buildUsers(server, 1, 'nol');
    expect((await server.request('POST', `/links/${noLink.user.username}`, { body: {} })).status).toBe(404);
  });

  it('lets 50 racing responders take exactly 10 uses, each at most once', async () => {
    const [giver] = await buildUsers(server, 1, 'race');
    await depositFor(server, giver, 100);
    await create(giver, { giveorreceive: 'give', type: 'currency', amount: 2, initialQuantity: 10 });
    const responders = await buildUsers(server, 50, 'resp');
    const results = await Promise.all(
      responders.flatMap((r) => [
        server.request('PUT', '/api/accept-link', { token: r.token, body: { linkCreatorUsername: giver.user.username } }),
      ]),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(10);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect([400, 410]).toContain(r.status);
    }
    const paid = await Promise.all(responders.map((r) => balanceOfUser(server, r)));
    expect(paid.filter((b) => b === 2)).toHaveLength(10);
    expect(paid.filter((b) => b !== 0 && b !== 2)).toHaveLength(0);
    const link = await server.deps.db.manager.findOneByOrFail(LinkEntity, { creatorId: giver.user._id });
    expect(link.remainingQuantity).toBe(0);
    expect(link.status).toBe('used');
    await expectInvariants();
  });

  it('lets each responder use a link once, and not their own', async () => {
    const [dee, eve] = await buildUsers(server, 2, 'dee');
    await depositFor(server, dee, 20);
    await create(dee, { giveorreceive: 'give', type: 'currency', amount: 3, initialQuantity: 2 });
    const first = await server.request('PUT', '/api/accept-link', { token: eve.token, body: { linkCreatorUsername: dee.user.username } });
    expect(first.status).toBe(200);
    expect(first.body.newMessage.text).toBe('You received a gift of $3.00!');
    const again = await server.request('PUT', '/api/accept-link', { token: eve.token, body: { linkCreatorUsername: dee.user.username } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("you can't use this link more than once");
    const responded = await server.request('GET', `/api/user-respond?creatorUsername=${dee.user.username}`, { token: eve.token });
    expect(responded.body).toEqual({ responded: true });
    const own = await server.request('PUT', '/api/accept-link', { token: dee.token, body: { linkCreatorUsername: dee.user.username } });
    expect(own.status).toBe(403);
    expect(await balanceOfUser(server, eve)).toBe(3);
  });
});

describe('expiry', () => {
  it('refunds unused escrow exactly once when two sweeps race', async () => {
    const [hal, ivy] = await buildUsers(server, 2, 'hal');
    await depositFor(server, hal, 30);
    await create(hal, { giveorreceive: 'give', type: 'currency', amount: 4, initialQuantity: 5 });
    await server.request('PUT', '/api/accept-link', { token: ivy.token, body: { linkCreatorUsername: hal.user.username } });
    expect(await balanceOfUser(server, hal)).toBe(10);
    await server.deps.db.transaction((em) =>
      em.update(LinkEntity, { creatorId: hal.user._id }, { expiresAt: new Date(Date.now() - 1000) }),
    );
    const swept = await Promise.all([
      sweepExpiredLinks(server.deps.db),
      sweepExpiredLinks(server.deps.db),
      sweepExpiredLinks(server.deps.db),
    ]);
    expect(swept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await balanceOfUser(server, hal)).toBe(26);
    const gone = await server.request('POST', `/links/${hal.user.username}`, { body: {} });
    expect(gone.status).toBe(410);
    expect(gone.body.message).toBe('Link is no longer available.');
    const own = await server.request('POST', `/links/${hal.user.username}`, { token: hal.token, body: {} });
    expect(own.status).toBe(200);
    expect(own.body.updatedLink).toMatchObject({ status: 'expired', metrics: { views: 0, visitorCount: 0 } });
    // The creator may make a new link now.
    expect((await create(hal, { giveorreceive: 'receive', type: 'currency', amount: 2 })).status).toBe(201);
    await expectInvariants();
  });
});

describe('feed', () => {
  it('lists open links newest first, 25 a page', async () => {
    const makers = await buildUsers(server, 30, 'feed');
    for (const m of makers) expect((await create(m, { giveorreceive: 'receive', type: 'currency', amount: 1 })).status).toBe(201);
    const page1 = await server.request('GET', '/links/all?page=1');
    expect(page1.status).toBe(200);
    expect(page1.body).toHaveLength(25);
    const times = page1.body.map((l: { createdAt: string }) => Date.parse(l.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page1.body[0].creatorUsername).toBe(makers[29].user.username);
    const page2 = await server.request('GET', '/links/all?page=2');
    expect(page2.body.length).toBeGreaterThanOrEqual(5);
    expect((await server.request('GET', '/links/all?page=0')).status).toBe(400);
    const active = await server.request('GET', `/links/active-links/${makers[0].user.username}`, { token: makers[1].token });
    expect(active.body).toEqual({ totalLinks: 1 });
    const profile = await server.request('GET', `/links/profile/${makers[0].user.username}`, { token: makers[1].token });
    expect(profile.status).toBe(403);
    expect(profile.body.message).toBe("Subscribe to see this user's link");
    const mine = await server.request('GET', `/links/profile/${makers[0].user.username}`, { token: makers[0].token });
    expect(mine.body).toHaveLength(1);
  });
});
