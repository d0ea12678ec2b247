import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIFTS_PAUSED } from '../../contract/texts.js';
import type { LinkView } from '../../contract/links.js';
import type { PrivateUser } from '../../contract/users.js';
import type { WishlistResponse } from '../../contract/wishlists.js';
import { CatalogProductEntity } from '../catalog/entity.js';
import { LinkEntity } from '../links/entity.js';
import { sweepExpiredLinks } from '../links/expiry.js';
import { balanceOf, escrowAccount } from '../money/ledger.js';
import { SandboxObjectEntity } from '../payments/entity.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { balanceOfUser, buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from './entity.js';

/** Pausing gifts: the link and the wishlist stay up, and every way of giving is refused until resume. */
let server: TestServer;
let productId: string;
beforeAll(async () => {
  server = await startTestServer();
  const product = await server.deps.db.manager.findOneByOrFail(CatalogProductEntity, { shippingType: 'FIXED' });
  productId = product.itemId;
});
afterAll(() => server?.close());

const PAYS = { number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' };
const key = () => ({ 'Idempotency-Key': crypto.randomUUID() });

const setPaused = (who: TestUser, giftsPaused: boolean, as: TestUser = who) =>
  server.request<PrivateUser>('PATCH', `/api/users/${who.user._id}`, { token: as.token, body: { giftsPaused } });
const me = async (who: TestUser) => (await server.request<PrivateUser>('GET', '/api/auth/me', { token: who.token })).body;

async function makeLink(owner: TestUser, giveOrReceive: 'give' | 'receive', amount: number): Promise<string> {
  const res = await server.request<{ id: string }>('POST', '/links/create', {
    token: owner.token,
    body: { details: { giveorreceive: giveOrReceive, type: 'currency', amount, initialQuantity: 1 } },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}
const give = (giver: TestUser, postId: string, amount: number) =>
  server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId, amount }, headers: key() });
const accept = (who: TestUser, creator: TestUser) =>
  server.request('PUT', '/api/accept-link', { token: who.token, body: { linkCreatorUsername: creator.user.username }, headers: key() });
async function wishFor(owner: TestUser): Promise<string> {
  const res = await server.request<WishlistResponse>('PUT', '/wishlists/update', {
    token: owner.token,
    body: { username: owner.user.username, items: [{ itemId: productId }] },
  });
  expect(res.status).toBe(200);
  return res.body.userWishlist.items[0]._id;
}
const buy = (buyer: TestUser, owner: TestUser, itemId: string) =>
  server.request('POST', '/wishlists/purchase', {
    token: buyer.token,
    body: { wishlistUsername: owner.user.username, purchaserUserId: buyer.user._id, itemId },
    headers: key(),
  });
const cardHolds = async () => (await server.deps.db.manager.findBy(SandboxObjectEntity, { kind: 'card_hold' })).length;
const linkRow = (id: string) => server.deps.db.manager.findOneByOrFail(LinkEntity, { id });

describe('pausing gifts (PATCH /api/users/{id} giftsPaused)', () => {
  it('only the person themselves can pause: another user gets a 403, a visitor a 401', async () => {
    const [ann, bob] = await buildUsers(server, 2, 'psown');
    expect((await setPaused(ann, true, bob)).status).toBe(403);
    expect((await server.request('PATCH', `/api/users/${ann.user._id}`, { body: { giftsPaused: true } })).status).toBe(401);
    expect((await me(ann)).giftsPaused).toBe(false);
    const paused = await setPaused(ann, true);
    expect(paused.status).toBe(200);
    expect(paused.body.giftsPaused).toBe(true);
    expect((await me(ann)).giftsPaused).toBe(true);
  });

  it('refuses a give, an accept, a purchase and a card payment with the text, moving nothing; resumed, they work', async () => {
    const [maker, giver, giveLinkOwner, buyer] = await buildUsers(server, 4, 'psall');
    await depositFor(server, giver, 50);
    await depositFor(server, giveLinkOwner, 50);
    await depositFor(server, buyer, 500);
    const receiveId = await makeLink(maker, 'receive', 5);
    const giveLinkId = await makeLink(giveLinkOwner, 'give', 5);
    const itemId = await wishFor(maker);
    expect((await setPaused(maker, true)).status).toBe(200);
    expect((await setPaused(giveLinkOwner, true)).status).toBe(200);
    const before = await Promise.all([giver, giveLinkOwner, buyer, maker].map((u) => balanceOfUser(server, u)));
    const holdsBefore = await cardHolds();

    const refusals = [
      await give(giver, receiveId, 5),
      await accept(maker, giveLinkOwner),
      await buy(buyer, maker, itemId),
      await server.request('POST', '/api/wallet/card-deposit', {
        token: giver.token,
        body: { amount: 5, card: PAYS, for: { kind: 'give', postId: receiveId, amount: 5 } },
        headers: key(),
      }),
    ];
    for (const res of refusals) expect(res.body).toEqual({ error: 'gifts_paused', message: GIFTS_PAUSED });
    expect(refusals.map((res) => res.status)).toEqual([409, 409, 409, 409]);
    expect(await Promise.all([giver, giveLinkOwner, buyer, maker].map((u) => balanceOfUser(server, u)))).toEqual(before);
    expect(await cardHolds()).toBe(holdsBefore);
    expect((await linkRow(receiveId)).gifts).toBe(0);
    expect(await balanceOf(server.deps.db.manager, escrowAccount(giveLinkId))).toBe(500);

    expect((await setPaused(maker, false)).body.giftsPaused).toBe(false);
    expect((await setPaused(giveLinkOwner, false)).status).toBe(200);
    expect((await give(giver, receiveId, 5)).status).toBe(201);
    expect((await accept(maker, giveLinkOwner)).status).toBe(200);
    expect((await buy(buyer, maker, itemId)).status).toBe(200);
    await expectLedgerSound(server.deps.db);
  });

  it('the link page and the wishlist say the person is paused, to visitors too', async () => {
    const [maker] = await buildUsers(server, 1, 'psview');
    await makeLink(maker, 'receive', 5);
    await setPaused(maker, true);
    const page = await server.request<{ updatedLink: LinkView }>('POST', `/links/${maker.user.username}`, { body: {} });
    expect(page.status).toBe(200);
    expect(page.body.updatedLink.creatorGiftsPaused).toBe(true);
    const list = await server.request<WishlistResponse>('GET', `/wishlists/${maker.user.username}`);
    expect(list.body.userWishlist.giftsPaused).toBe(true);
    await setPaused(maker, false);
    expect((await server.request<WishlistResponse>('GET', `/wishlists/${maker.user.username}`)).body.userWishlist.giftsPaused).toBe(false);
  });

  it("a paused link's time does not run out: expiry skips it, and resume moves its end on by the pause", async () => {
    const [maker] = await buildUsers(server, 1, 'psexp');
    await depositFor(server, maker, 20);
    const linkId = await makeLink(maker, 'give', 5);
    await setPaused(maker, true);
    const hourAgo = new Date(Date.now() - 3_600_000);
    const ended = new Date(Date.now() - 60_000);
    await server.deps.db.transaction(async (em) => {
      await em.update(UserEntity, { id: maker.user._id }, { giftsPausedAt: hourAgo });
      await em.update(LinkEntity, { id: linkId }, { expiresAt: ended });
    });

    await sweepExpiredLinks(server.deps.db);
    expect((await linkRow(linkId)).status).toBe('active');
    expect(await balanceOf(server.deps.db.manager, escrowAccount(linkId))).toBe(500);
    // Its page still shows it, paused, rather than gone.
    const page = await server.request<{ updatedLink: LinkView }>('POST', `/links/${maker.user.username}`, { body: {} });
    expect(page.status).toBe(200);

    await setPaused(maker, false);
    const moved = (await linkRow(linkId)).expiresAt.getTime() - ended.getTime();
    expect(moved).toBeGreaterThanOrEqual(3_600_000);
    expect(moved).toBeLessThan(3_600_000 + 60_000);
    await sweepExpiredLinks(server.deps.db);
    expect((await linkRow(linkId)).status).toBe('active');
  });
});
