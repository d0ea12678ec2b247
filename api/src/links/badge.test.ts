import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';

/**
 * The verified badge on the wire: a named user's `isSubscribed` travels with their name
 * (a link's creator, a conversation's named member), and never with an anonymous giver, who has
 * no user data at all.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function subscribeFromBalance(who: TestUser): Promise<void> {
  await depositFor(server, who, 5);
  const res = await server.request('POST', '/subscriptions/create-subscription', {
    token: who.token,
    body: { userId: who.user._id, productId: 'giftlink-weekly', paymentMethod: 'balance' },
  });
  expect(res.status).toBeLessThan(300);
}

async function createLink(who: TestUser, details: Record<string, unknown>): Promise<{ id: string }> {
  const res = await server.request<{ id: string }>('POST', '/links/create', { token: who.token, body: { details } });
  expect(res.status).toBe(201);
  return res.body;
}

interface OtherUser {
  _id: string | null;
  anonymous: boolean;
  isSubscribed?: boolean;
}

describe('the verified badge on the wire', () => {
  it("carries a link creator's badge on the feed, the link page and the profile list", async () => {
    const [sub, plain, viewer] = await buildUsers(server, 3, 'badge');
    await subscribeFromBalance(sub);
    await subscribeFromBalance(viewer);
    await createLink(sub, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    await createLink(plain, { giveorreceive: 'receive', type: 'currency', amount: 5 });

    const feed = await server.request<{ creatorUsername: string; creatorIsSubscribed: boolean }[]>('GET', '/links/all?page=1', {
      token: viewer.token,
    });
    const byCreator = new Map(feed.body.map((l) => [l.creatorUsername, l.creatorIsSubscribed]));
    expect(byCreator.get(sub.user.username)).toBe(true);
    expect(byCreator.get(plain.user.username)).toBe(false);

    const page = await server.request('POST', `/links/${sub.user.username}`, { token: plain.token, body: {} });
    expect(page.body.updatedLink.creatorIsSubscribed).toBe(true);
    const plainPage = await server.request('POST', `/links/${plain.user.username}`, { token: sub.token, body: {} });
    expect(plainPage.body.updatedLink.creatorIsSubscribed).toBe(false);

    const list = await server.request<{ creatorIsSubscribed: boolean }[]>('GET', `/links/profile/${sub.user.username}`, {
      token: viewer.token,
    });
    expect(list.body[0].creatorIsSubscribed).toBe(true);
  });

  it('shows a named member’s badge in conversations, and nothing at all for a subscribed anonymous giver', async () => {
    const [recipient, giver] = await buildUsers(server, 2, 'badgec');
    await subscribeFromBalance(giver);
    await depositFor(server, giver, 20);

    // Anonymous: the subscribed giver gives to the recipient's receive link.
    const receive = await createLink(recipient, { giveorreceive: 'receive', type: 'currency', amount: 5 });
    const give = await server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId: receive.id, amount: 5 } });
    expect(give.status).toBe(201);

    // Named: the recipient accepts the (subscribed) giver's give link.
    await createLink(giver, { giveorreceive: 'give', type: 'currency', amount: 2, quantity: 1 });
    const accepted = await server.request('PUT', '/api/accept-link', {
      token: recipient.token,
      body: { linkCreatorUsername: giver.user.username },
    });
    expect(accepted.status).toBe(200);

    const threads = await server.request<{ _id: string; otherUser: OtherUser }[]>('GET', `/conversations/${recipient.user._id}`, {
      token: recipient.token,
    });
    const anonymous = threads.body.filter((c) => c.otherUser.anonymous);
    const named = threads.body.filter((c) => !c.otherUser.anonymous);
    expect(anonymous).toHaveLength(1);
    expect(named).toHaveLength(1);
    expect('isSubscribed' in anonymous[0].otherUser).toBe(false);
    expect(named[0].otherUser).toMatchObject({ _id: giver.user._id, isSubscribed: true });
    for (const c of anonymous) {
      const found = await server.request<{ otherUser: OtherUser }>('GET', `/conversations/find/${c._id}`, { token: recipient.token });
      expect(found.status).toBe(200);
      expect('isSubscribed' in found.body.otherUser).toBe(false);
    }

    // The giver sees the (unsubscribed) recipient by name in both threads, without a badge.
    const giverThreads = await server.request<{ otherUser: OtherUser }[]>('GET', `/conversations/${giver.user._id}`, {
      token: giver.token,
    });
    for (const c of giverThreads.body) expect(c.otherUser).toMatchObject({ _id: recipient.user._id, isSubscribed: false });
  });
});
