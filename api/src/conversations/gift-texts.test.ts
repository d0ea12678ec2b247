import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogProductEntity } from '../catalog/entity.js';
import { buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import type { ConversationView, MessageView } from './presenter.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const inbox = async (who: TestUser) =>
  (await server.request<ConversationView[]>('GET', `/conversations/${who.user._id}`, { token: who.token })).body;

const thread = async (who: TestUser, conversationId: string) =>
  (await server.request<{ messages: MessageView[] }>('GET', `/messages/${conversationId}?page=1`, { token: who.token })).body.messages;

describe('gift messages are written for their reader', () => {
  it("the giver reads 'You gave $5.00', the recipient 'You received a gift of $5.00!' (a receive link, anonymous)", async () => {
    const [recipient, giver] = await buildUsers(server, 2, 'gtxt');
    await depositFor(server, giver, 20);
    const link = await server.request<{ id: string }>('POST', '/links/create', {
      token: recipient.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 10 } },
    });
    const give = await server.request<{ conversationId: string }>('POST', '/statuses/api/gives', {
      token: giver.token,
      body: { postId: link.body.id, amount: 5 },
    });
    expect(give.status).toBe(201);

    const [mine] = await inbox(giver);
    expect(mine.lastMessage).toMatchObject({ text: 'You gave $5.00', mine: true, messageType: 'gift' });
    expect((await thread(giver, mine._id)).map((m) => m.text)).toEqual(['You gave $5.00']);

    const [theirs] = await inbox(recipient);
    expect(theirs.lastMessage).toMatchObject({ text: 'You received a gift of $5.00!', mine: false, senderUserId: 'anonymous' });
    expect((await thread(recipient, theirs._id)).map((m) => m.text)).toEqual(['You received a gift of $5.00!']);
    // The recipient's view says nothing new about the giver.
    const seen = JSON.stringify([await inbox(recipient), await thread(recipient, theirs._id)]).toLowerCase();
    for (const secret of [giver.user._id, giver.user.username, giver.user.email]) expect(seen).not.toContain(secret.toLowerCase());
  });

  it("the buyer of a wishlist item reads 'You gave <title>', the owner the gift from their wishlist", async () => {
    const [owner, buyer] = await buildUsers(server, 2, 'gtxw');
    await depositFor(server, buyer, 2000);
    const product = await server.deps.db.manager.findOneOrFail(CatalogProductEntity, {
      where: { shippingType: 'FIXED' },
      order: { position: 'ASC' },
    });
    const saved = await server.request<{ userWishlist: { items: { _id: string }[] } }>('PUT', '/wishlists/update', {
      token: owner.token,
      body: { username: owner.user.username, items: [{ itemId: product.itemId }] },
    });
    const bought = await server.request('POST', '/wishlists/purchase', {
      token: buyer.token,
      body: { wishlistUsername: owner.user.username, itemId: saved.body.userWishlist.items[0]._id },
    });
    expect(bought.status).toBe(200);
    expect((await inbox(buyer))[0].lastMessage?.text).toBe(`You gave ${product.title}`);
    expect((await inbox(owner))[0].lastMessage?.text).toBe(`You received a gift from your wishlist: ${product.title}!`);
  });

  it("the creator of an accepted give link reads 'You gave $5.00', the one who accepted it the gift (named)", async () => {
    const [creator, taker] = await buildUsers(server, 2, 'gtxg');
    await depositFor(server, creator, 20);
    const link = await server.request('POST', '/links/create', {
      token: creator.token,
      body: { details: { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 1 } },
    });
    expect(link.status).toBe(201);
    const accepted = await server.request('PUT', '/api/accept-link', {
      token: taker.token,
      body: { linkCreatorUsername: creator.user.username },
    });
    expect(accepted.status).toBeLessThan(300);
    expect((await inbox(creator))[0].lastMessage?.text).toBe('You gave $5.00');
    expect((await inbox(taker))[0].lastMessage?.text).toBe('You received a gift of $5.00!');
  });
});
