import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogProductEntity } from '../catalog/entity.js';
import { connectClient, settle, type TestClient } from '../realtime/testing.js';
import { expectThreadsUnlinked, recipientView } from '../testing/anonymity.js';
import { buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import type { WishlistResponse } from '../../contract/wishlists.js';
import { AnonymousPseudonymEntity } from './entity.js';
import type { ConversationView } from './presenter.js';

let server: TestServer;
let itemId: string;
beforeAll(async () => {
  server = await startTestServer();
  const product = await server.deps.db.manager.findOneOrFail(CatalogProductEntity, { where: {}, order: { position: 'ASC' } });
  itemId = product.itemId;
});
afterAll(() => server?.close());

type Step = 'give' | 'wishlist' | 'accept' | 'message';

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((first, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [first, ...rest]));
}

interface Scene {
  giver: TestUser;
  recipient: TestUser;
  receiveLinkId: string;
  wishlistItemId: string;
  /** HTTP answers the recipient got from their own calls. */
  answers: unknown[];
  socket: TestClient;
}

async function setUp(tag: string): Promise<Scene> {
  const [giver, recipient] = await buildUsers(server, 2, tag);
  await depositFor(server, giver, 5000);
  const asGiver = { token: giver.token };
  const asRecipient = { token: recipient.token };
  const give = await server.request('POST', '/links/create', {
    ...asGiver,
    body: { details: { giveorreceive: 'give', type: 'currency', amount: 2, initialQuantity: 3 } },
  });
  expect(give.status).toBe(201);
  const receive = await server.request<{ id: string }>('POST', '/links/create', {
    ...asRecipient,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5, quantity: 3 } },
  });
  expect(receive.status).toBe(201);
  const wishlist = await server.request<WishlistResponse>('PUT', '/wishlists/update', {
    ...asRecipient,
    body: { username: recipient.user.username, items: [{ itemId }] },
  });
  expect(wishlist.status).toBe(200);
  const socket = await connectClient(server, { token: recipient.token });
  return { giver, recipient, receiveLinkId: receive.body.id, wishlistItemId: wishlist.body.userWishlist.items[0]._id, answers: [], socket };
}

const conversationsOf = async (who: TestUser) =>
  (await server.request<ConversationView[]>('GET', `/conversations/${who.user._id}`, { token: who.token })).body;

async function run(scene: Scene, step: Step): Promise<void> {
  const { giver, recipient } = scene;
  switch (step) {
    case 'give': {
      const res = await server.request('POST', '/statuses/api/gives', {
        token: giver.token,
        body: { postId: scene.receiveLinkId, amount: 5 },
      });
      expect(res.status).toBe(201);
      return;
    }
    case 'wishlist': {
      const res = await server.request('POST', '/wishlists/purchase', {
        token: giver.token,
        body: { wishlistUsername: recipient.user.username, itemId: scene.wishlistItemId, lastMessage: 'enjoy' },
      });
      expect(res.status).toBe(200);
      return;
    }
    case 'accept': {
      const res = await server.request('PUT', '/api/accept-link', {
        token: recipient.token,
        body: { linkCreatorUsername: giver.user.username, linkResponderUsername: recipient.user.username },
      });
      expect(res.status).toBe(200);
      scene.answers.push(res.body);
      return;
    }
    case 'message': {
      // Both sides write in every thread they have with each other.
      for (const [who, text] of [
        [giver, 'hello from the giver'],
        [recipient, 'thanks!'],
      ] as const) {
        for (const c of await conversationsOf(who)) {
          const res = await server.request('POST', '/messages/send', { token: who.token, body: { conversationId: c._id, text } });
          expect(res.status).toBe(201);
          if (who === recipient) scene.answers.push(res.body);
        }
      }
      return;
    }
  }
}

describe('an anonymous gift and a named gift never share a thread', () => {
  const orders = permutations<Step>(['give', 'wishlist', 'accept', 'message']);

  it.each(orders.map((order) => [order.join(' → '), order] as const))('%s', async (_name, order) => {
    const scene = await setUp('ord');
    try {
      for (const step of order) await run(scene, step);
      await settle(150); // socket events of the last step
      const view = await recipientView(server, scene.recipient, { socket: scene.socket, answers: scene.answers });

      // Both anonymous gifts from one giver share one anonymous thread; accepting their link is a named one.
      expect(view.anonymous).toHaveLength(1);
      expect(view.named).toHaveLength(1);
      expect(view.anonymous[0].messages.filter((m) => m.messageType === 'gift')).toHaveLength(2);
      expect(view.named[0].messages.filter((m) => m.messageType === 'gift')).toHaveLength(1);
      expectThreadsUnlinked(view, scene.giver);

      // The giver sees both threads as theirs, with the recipient named, and knows which one hides them.
      const giverThreads = await conversationsOf(scene.giver);
      expect(giverThreads).toHaveLength(2);
      for (const c of giverThreads) expect(c.otherUser).toMatchObject({ _id: scene.recipient.user._id, anonymous: false });
      const mine = giverThreads.find((c) => c._id === view.anonymous[0].conversation._id);
      expect(mine?.youAreAnonymous).toBe(true);
      expect(giverThreads.find((c) => c._id === view.named[0].conversation._id)?.youAreAnonymous).toBe(false);
      const giverMessages = (
        await server.request<{ messages: { mine: boolean; messageType: string; senderUserId: string }[] }>(
          'GET',
          `/messages/${view.anonymous[0].conversation._id}`,
          { token: scene.giver.token },
        )
      ).body.messages;
      for (const m of giverMessages.filter((x) => x.messageType === 'gift'))
        expect(m).toMatchObject({ mine: true, senderUserId: scene.giver.user._id });
    } finally {
      scene.socket.close();
    }
  });

  it('gives a giver one anonymous thread per recipient, and a different pseudonym towards each', async () => {
    const [giver, r1, r2] = await buildUsers(server, 3, 'pseu');
    await depositFor(server, giver, 5000);
    const ids: string[] = [];
    for (const r of [r1, r2]) {
      const link = await server.request<{ id: string }>('POST', '/links/create', {
        token: r.token,
        body: { details: { giveorreceive: 'receive', type: 'currency', amount: 1, quantity: 5 } },
      });
      const give = await server.request<{ conversationId: string }>('POST', '/statuses/api/gives', {
        token: giver.token,
        body: { postId: link.body.id, amount: 1 },
      });
      ids.push(give.body.conversationId);
    }
    const wishlist = await server.request<WishlistResponse>('PUT', '/wishlists/update', {
      token: r1.token,
      body: { username: r1.user.username, items: [{ itemId }] },
    });
    const bought = await server.request<{ conversationId: string }>('POST', '/wishlists/purchase', {
      token: giver.token,
      body: { wishlistUsername: r1.user.username, itemId: wishlist.body.userWishlist.items[0]._id },
    });
    expect(bought.status).toBe(200);
    expect(bought.body.conversationId).toBe(ids[0]);
    expect(ids[0]).not.toBe(ids[1]);
    const pseudonyms = await server.deps.db.manager.findBy(AnonymousPseudonymEntity, { giverId: giver.user._id });
    expect(pseudonyms).toHaveLength(2);
    for (const p of pseudonyms) expect([giver.user._id, r1.user._id, r2.user._id]).not.toContain(p.id);
  });
});

describe('presence never reveals an anonymous giver', () => {
  it('answers only for people the asker talks with by name', async () => {
    const [giver, recipient, stranger] = await buildUsers(server, 3, 'pres');
    const giverSocket = await connectClient(server, { token: giver.token });
    try {
      await depositFor(server, giver, 50);
      const receive = await server.request<{ id: string }>('POST', '/links/create', {
        token: recipient.token,
        body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } },
      });
      await server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId: receive.body.id, amount: 5 } });
      const presence = (asker: TestUser, target: TestUser) =>
        server.request('GET', `/api/onlineusers/${target.user._id}`, { token: asker.token });

      // The recipient's only thread with the giver is anonymous: refused, exactly as for a stranger.
      const anonymousCounterpart = await presence(recipient, giver);
      const unrelated = await presence(recipient, stranger);
      expect(anonymousCounterpart.status).toBe(403);
      expect(unrelated.status).toBe(403);
      expect(anonymousCounterpart.body).toEqual(unrelated.body);
      expect((await presence(stranger, giver)).status).toBe(403);
      // Presence is a named path: the giver's anonymous tie is no reason either; everyone may ask about themselves.
      expect((await presence(giver, recipient)).status).toBe(403);
      expect((await presence(giver, giver)).status).toBe(200);

      // Once the recipient accepts the giver's own give link, they talk by name: presence answers.
      await server.request('POST', '/links/create', {
        token: giver.token,
        body: { details: { giveorreceive: 'give', type: 'currency', amount: 1, initialQuantity: 1 } },
      });
      const accepted = await server.request('PUT', '/api/accept-link', {
        token: recipient.token,
        body: { linkCreatorUsername: giver.user.username },
      });
      expect(accepted.status).toBe(200);
      // Answered now, but 204 until both show their presence (realtime/presence.test.ts has the rule).
      expect((await presence(recipient, giver)).status).toBe(204);
    } finally {
      giverSocket.close();
    }
  });
});
