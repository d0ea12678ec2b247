import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUsers, depositFor, everythingVisibleTo, startTestServer, type TestServer } from '../testing/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('anonymity of givers', () => {
  it('never shows the recipient the id, username or email of who gave to their link', async () => {
    const [recipient, giver] = await buildUsers(server, 2, 'anon');
    await depositFor(server, giver, 40);
    const link = (
      await server.request('POST', '/links/create', {
        token: recipient.token,
        body: { details: { giveorreceive: 'receive', type: 'currency', amount: 10, quantity: 3 } },
      })
    ).body;
    await server.request('POST', `/links/${recipient.user.username}`, { token: giver.token, body: {} });
    const give = await server.request('POST', '/statuses/api/gives', {
      token: giver.token,
      body: { postId: link.id, type: 'currency', amount: 10 },
    });
    expect(give.status).toBe(201);

    const text = await everythingVisibleTo(server, recipient, [
      ['GET', '/links/all?page=1'],
      ['POST', `/links/${recipient.user.username}`, {}],
      ['GET', `/links/profile/${recipient.user.username}`],
    ]);
    // The gift did arrive where the recipient can see it...
    expect(text).toContain('You received a gift of $10.00!');
    expect(text).toContain('Anonymous');
    // ...and nothing names who sent it.
    for (const secret of [giver.user._id, giver.user.username, giver.user.email]) {
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });

  it('shows the gift to the recipient in their conversation, with the giver hidden', async () => {
    const [recipient, giver] = await buildUsers(server, 2, 'anon2');
    await depositFor(server, giver, 20);
    const link = (
      await server.request('POST', '/links/create', {
        token: recipient.token,
        body: { details: { giveorreceive: 'receive', type: 'currency', amount: 10 } },
      })
    ).body;
    const give = await server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId: link.id, amount: 5 } });
    const conversationId = give.body.conversationId;
    const messages = await server.request('GET', `/messages/${conversationId}?page=1`, { token: recipient.token });
    expect(messages.body.messages).toHaveLength(1);
    expect(messages.body.messages[0]).toMatchObject({
      senderUserId: 'anonymous',
      mine: false,
      messageType: 'gift',
      // What was given, not what the link asked for.
      giftDetails: { title: '$5.00', giftType: 'currency', img: null },
    });
    expect(messages.body.markedAsRead).toBe(1);
    // The giver sees their own message as theirs; an outsider cannot read it at all.
    const own = await server.request('GET', `/messages/${conversationId}?page=1`, { token: giver.token });
    expect(own.body.messages[0]).toMatchObject({ senderUserId: giver.user._id, mine: true });
    const [outsider] = await buildUsers(server, 1, 'out');
    expect((await server.request('GET', `/messages/${conversationId}`, { token: outsider.token })).status).toBe(403);
    expect((await server.request('GET', `/conversations/find/${conversationId}`, { token: outsider.token })).status).toBe(403);
    expect((await server.request('GET', `/conversations/${recipient.user._id}`, { token: outsider.token })).status).toBe(403);
    expect((await server.request('GET', `/api/notifications/${recipient.user._id}`, { token: outsider.token })).status).toBe(403);
  });
});
