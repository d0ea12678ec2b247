import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, giveGift, settle, type TestClient } from '../realtime/testing.js';
import { buildUsers, startTestServer, type TestServer } from '../testing/server.js';
import type { NotificationView } from './presenter.js';

let server: TestServer;
const open: TestClient[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});
afterAll(() => server?.close());

describe('notifications', () => {
  it('are made by the server on a gift, arrive live at the receiver only, and are listed for them alone', async () => {
    const [giver, recipient, outsider] = await buildUsers(server, 3, 'nt');
    const receiverClient = await connectClient(server, { token: recipient.token });
    const giverClient = await connectClient(server, { token: giver.token });
    open.push(receiverClient, giverClient);
    const { conversationId } = await giveGift(server, giver, recipient, 7);

    const live = await receiverClient.waitFor('getNotification');
    const listed = await server.request<NotificationView[]>('GET', `/api/notifications/${recipient.user._id}`, { token: recipient.token });
    expect(listed.body).toEqual([live]);
    expect(live).toMatchObject({
      senderUserId: null,
      receiverUserId: recipient.user._id,
      amount: 7,
      type: 'currency',
      giveorreceive: 'receive',
      linkOrWishlist: 'link',
      message: 'You received a gift of $7.00!',
      conversationId,
      read: 0,
    });
    await settle();
    expect(giverClient.received('getNotification')).toEqual([]);
    expect((await server.request('GET', `/api/notifications/${giver.user._id}`, { token: giver.token })).body).toEqual([]);

    expect((await server.request('GET', `/api/notifications/${recipient.user._id}`)).status).toBe(401);
    expect((await server.request('GET', `/api/notifications/${recipient.user._id}`, { token: outsider.token })).status).toBe(403);
    expect((await server.request('PUT', `/api/read-notifications/${recipient.user._id}`, { token: outsider.token })).status).toBe(403);
    // There is no way for a client to make one.
    expect(
      (await server.request('POST', '/api/notifications', { token: giver.token, body: { receiverUserId: recipient.user._id } })).status,
    ).toBe(404);
  });

  it('Mark all read empties the unread list, once, and every tab hears the new count', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'nr');
    await giveGift(server, giver, recipient, 2);
    const tab = await connectClient(server, { token: recipient.token });
    open.push(tab);
    expect(tab.received('init')).toEqual([{ unreadMessages: 1, unreadNotifications: 1 }]);

    const mark = () => server.request('PUT', `/api/read-notifications/${recipient.user._id}`, { token: recipient.token });
    expect((await mark()).body).toEqual({ markedAsRead: 1 });
    expect(await tab.waitFor('unread-counts')).toEqual({ unreadMessages: 1, unreadNotifications: 0 });
    const listed = await server.request<NotificationView[]>('GET', `/api/notifications/${recipient.user._id}`, { token: recipient.token });
    expect(listed.body.filter((n) => n.read === 0)).toEqual([]);
    expect((await mark()).body).toEqual({ markedAsRead: 0 });
    await settle();
    expect(tab.received('unread-counts')).toHaveLength(1);
  });

  it("opening a gift thread reads its notification too, live on every tab, and no other thread's", async () => {
    const [giver, other, recipient] = await buildUsers(server, 3, 'nc');
    const { conversationId } = await giveGift(server, giver, recipient, 3);
    const second = await giveGift(server, other, recipient, 4);
    expect(second.conversationId).not.toBe(conversationId);
    const tab = await connectClient(server, { token: recipient.token });
    open.push(tab);
    expect(tab.received('init')).toEqual([{ unreadMessages: 2, unreadNotifications: 2 }]);
    const openThread = (who: typeof recipient, id: string) =>
      server.request<{ markedAsRead: number }>('GET', `/messages/${id}?page=1`, { token: who.token });

    // The (anonymous) giver opening the thread reads nothing of the recipient's.
    expect((await openThread(giver, conversationId)).status).toBe(200);
    expect((await openThread(recipient, conversationId)).body.markedAsRead).toBe(1);
    expect(await tab.waitFor('unread-counts')).toEqual({ unreadMessages: 1, unreadNotifications: 1 });
    const listed = await server.request<NotificationView[]>('GET', `/api/notifications/${recipient.user._id}`, { token: recipient.token });
    expect(listed.body.map((n) => [n.conversationId, n.read])).toEqual([
      [second.conversationId, 0],
      [conversationId, 1],
    ]);

    // Opening it again changes nothing, so nothing is sent.
    expect((await openThread(recipient, conversationId)).body.markedAsRead).toBe(0);
    await settle();
    expect(tab.received('unread-counts')).toHaveLength(1);
    await openThread(recipient, second.conversationId);
    expect(await tab.waitFor('unread-counts', (c) => c.unreadMessages === 0)).toEqual({ unreadMessages: 0, unreadNotifications: 0 });
  });
});
