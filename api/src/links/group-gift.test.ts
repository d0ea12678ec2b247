import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOfUser, buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { LinkEntity, LinkResponseEntity } from './entity.js';
import { expectLedgerSound } from '../testing/ledger.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function request(owner: TestUser, dollars: number, extra: Record<string, unknown> = {}): Promise<{ id: string }> {
  const res = await server.request('POST', '/links/create', {
    token: owner.token,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount: dollars, ...extra } },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const give = (giver: TestUser, postId: string, amount: number) =>
  server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId, type: 'currency', amount } });

const open = (username: string, who?: TestUser) =>
  server.request('POST', `/links/${username}`, { token: who?.token, body: { sessionId: crypto.randomUUID() } });

async function expectInvariants() {
  await expectLedgerSound(server.deps.db);
}

describe('group gifts on receive currency links', () => {
  it('four $5 gifts fill a $20 link; a fifth is refused; progress is public and in the owner view', async () => {
    const [owner, ...givers] = await buildUsers(server, 6, 'grp');
    for (const g of givers) await depositFor(server, g, 20);
    const link = await request(owner, 20, { quantity: 7 });

    // A receive link has no quantity: 1 while open, whatever the request said.
    const fresh = await open(owner.user.username, givers[0]);
    expect(fresh.body.updatedLink.details).toMatchObject({ amount: 20, initialQuantity: 1, remainingQuantity: 1, totalCost: 20 });
    expect(fresh.body.updatedLink.progress).toEqual({ raised: 0, goal: 20, left: 20, gifts: 0 });

    for (const [i, g] of givers.slice(0, 4).entries()) {
      const res = await give(g, link.id, 5);
      expect(res.status, `gift ${i + 1}`).toBe(201);
      if (i === 0) {
        // '$5 of $20 from 1 person', for anyone who opens the link, signed in or not.
        const seen = await open(owner.user.username);
        expect(seen.body.updatedLink.progress).toEqual({ raised: 5, goal: 20, left: 15, gifts: 1 });
        expect(seen.body.updatedLink.status).toBe('active');
        const feed = await server.request('GET', '/links/all?page=1');
        const card = feed.body.find((l: { id: string }) => l.id === link.id);
        expect(card.progress).toEqual({ raised: 5, goal: 20, left: 15, gifts: 1 });
      }
    }
    expect(await balanceOfUser(server, owner)).toBe(20);

    const fifth = await give(givers[4], link.id, 5);
    expect(fifth.status).toBe(410);
    expect(fifth.body.message).toBe('Link is no longer available.');
    expect(await balanceOfUser(server, givers[4])).toBe(20);

    // Others see it gone; its owner sees it used, filled, with the gifts in the metrics card.
    expect((await open(owner.user.username, givers[4])).status).toBe(410);
    const mine = await open(owner.user.username, owner);
    expect(mine.body.updatedLink).toMatchObject({
      status: 'used',
      details: { remainingQuantity: 0, initialQuantity: 1 },
      progress: { raised: 20, goal: 20, left: 0, gifts: 4 },
      metrics: { views: expect.any(Number), visitorCount: expect.any(Number) },
    });
    await expectInvariants();
  });

  it('refuses a gift above what is left, moving nothing, and takes exactly what is left', async () => {
    const [owner, ann, bo] = await buildUsers(server, 3, 'left');
    await depositFor(server, ann, 50);
    await depositFor(server, bo, 50);
    const link = await request(owner, 20.5);
    expect((await give(ann, link.id, 20)).status).toBe(201);

    const over = await give(bo, link.id, 5);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'over_goal', message: 'Only $0.50 is left to give.' });
    expect(await balanceOfUser(server, bo)).toBe(50);
    expect(await server.deps.db.manager.countBy(LinkResponseEntity, { linkId: link.id })).toBe(1);

    // Under the $1 minimum only to give exactly what is left.
    const tooSmall = await give(bo, link.id, 0.25);
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.message).toBe('Please enter a valid amount above $1');
    const last = await give(bo, link.id, 0.5);
    expect(last.status).toBe(201);
    const row = await server.deps.db.manager.findOneByOrFail(LinkEntity, { id: link.id });
    expect(row).toMatchObject({ status: 'used', raisedCents: 2050, gifts: 2, remainingQuantity: 0 });
    expect(await balanceOfUser(server, owner)).toBe(20.5);
    await expectInvariants();
  });

  it('lets each giver give once', async () => {
    const [owner, ann] = await buildUsers(server, 2, 'once');
    await depositFor(server, ann, 50);
    const link = await request(owner, 20);
    expect((await give(ann, link.id, 5)).status).toBe(201);
    const again = await give(ann, link.id, 5);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("you can't use this link more than once");
    expect(await balanceOfUser(server, ann)).toBe(45);
    const responded = await server.request('GET', `/api/user-respond?creatorUsername=${owner.user.username}`, { token: ann.token });
    expect(responded.body).toEqual({ responded: true });
  });

  it('never overfills when 10 givers give $5 at once to a $20 link', async () => {
    const [owner, ...givers] = await buildUsers(server, 11, 'rush');
    for (const g of givers) await depositFor(server, g, 10);
    const link = await request(owner, 20);
    const results = await Promise.all(givers.map((g) => give(g, link.id, 5)));
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(4);
    for (const r of results.filter((x) => x.status !== 201)) expect([400, 410]).toContain(r.status);

    const balances = await Promise.all(givers.map((g) => balanceOfUser(server, g)));
    expect(balances.filter((b) => b === 5)).toHaveLength(4);
    expect(balances.filter((b) => b === 10)).toHaveLength(6);
    expect(await balanceOfUser(server, owner)).toBe(20);
    const row = await server.deps.db.manager.findOneByOrFail(LinkEntity, { id: link.id });
    expect(row).toMatchObject({ status: 'used', raisedCents: 2000, gifts: 4, remainingQuantity: 0 });
    expect(await server.deps.db.manager.countBy(LinkResponseEntity, { linkId: link.id })).toBe(4);
    await expectInvariants();
  });

  it('never overfills with mixed amounts racing for the last dollars', async () => {
    const [owner, ...givers] = await buildUsers(server, 9, 'mix');
    for (const g of givers) await depositFor(server, g, 20);
    const link = await request(owner, 20);
    const amounts = [10, 5, 5, 10, 1, 1, 5, 10];
    const results = await Promise.all(givers.map((g, i) => give(g, link.id, amounts[i])));
    const given = results.filter((r) => r.status === 201).reduce((sum, r) => sum + r.body.give.amount, 0);
    expect(given).toBeLessThanOrEqual(20);
    const row = await server.deps.db.manager.findOneByOrFail(LinkEntity, { id: link.id });
    expect(row.raisedCents).toBe(given * 100);
    expect(row.gifts).toBe(results.filter((r) => r.status === 201).length);
    expect(await balanceOfUser(server, owner)).toBe(given);
    await expectInvariants();
  });

  it('keeps item receive links to one gift, the item', async () => {
    const [owner, ann, bo] = await buildUsers(server, 3, 'item');
    await depositFor(server, ann, 1000);
    await depositFor(server, bo, 1000);
    const products = (await server.request('GET', '/api/products/search?q=camera', { token: ann.token })).body;
    const created = await server.request('POST', '/links/create', {
      token: owner.token,
      body: { details: { giveorreceive: 'receive', type: 'item', itemId: products[0].itemId } },
    });
    expect(created.status).toBe(201);
    expect(created.body.progress).toBeUndefined();
    expect((await give(ann, created.body.id, 1)).status).toBe(201);
    expect((await give(bo, created.body.id, 1)).status).toBe(410);
    const row = await server.deps.db.manager.findOneByOrFail(LinkEntity, { id: created.body.id });
    expect(row).toMatchObject({ status: 'used', gifts: 1, remainingQuantity: 0 });
    await expectInvariants();
  });
});
