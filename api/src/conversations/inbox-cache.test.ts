import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETED_MESSAGE } from '../../contract/texts.js';
import { buildConversation, giveGift } from '../realtime/testing.js';
import { conversationQueries } from '../testing/queries.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity, type User } from '../users/entity.js';
import { ConversationEntity, MessageEntity } from './entity.js';
import type { ConversationView } from './presenter.js';

/** Two API processes on one database: the page one keeps must follow the other's writes too. */
let server: TestServer;
let other: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  other = await startTestServer({ share: server });
});
afterAll(async () => {
  await other?.close();
  await server?.close();
});

const firstPage = async (who: TestUser, via = server) => {
  const res = await via.request<ConversationView[]>('GET', `/conversations/${who.user._id}`, { token: who.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** `who`'s first page, asked until it comes from memory (no read of conversations or messages): what a change must undo. */
async function kept(who: TestUser, via = server): Promise<ConversationView[]> {
  await firstPage(who, via);
  let page: ConversationView[] = [];
  expect(await conversationQueries(async () => (page = await firstPage(who, via)))).toBe(0);
  return page;
}

const inConversation = (page: ConversationView[], id: string) => page.find((c) => c._id === id)!;

const send = async (who: TestUser, conversationId: string, text: string, via = server) => {
  const res = await via.request('POST', '/messages/send', { token: who.token, body: { conversationId, text } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};

/** `me` with a named conversation with `ann`, who wrote first. */
async function pair(prefix: string): Promise<{ me: TestUser; ann: TestUser; id: string }> {
  const [me, ann] = await buildUsers(server, 2, prefix);
  const c = await buildConversation(server, ann, me, false);
  await send(ann, c.id, 'hello');
  return { me, ann, id: c.id };
}

const setUser = (who: TestUser, values: Partial<Pick<User, 'subscribedUntil'>>) =>
  server.deps.db.transaction((em) => em.update(UserEntity, { id: who.user._id }, values));

describe('the first inbox page, kept until something on it changes', () => {
  it('shows a new message from the other member, with its unread count', async () => {
    const { me, ann, id } = await pair('icm');
    expect(inConversation(await kept(me), id)).toMatchObject({ unreadCount: 1, lastMessage: { text: 'hello' } });
    await send(ann, id, 'are you there?');
    expect(inConversation(await firstPage(me), id)).toMatchObject({ unreadCount: 2, lastMessage: { text: 'are you there?' } });
  });

  it('shows the member’s own message, and a new conversation at the top', async () => {
    const { me, id } = await pair('icn');
    const [, bob] = await buildUsers(server, 2, 'icn2');
    await kept(me);
    await send(me, id, 'mine');
    expect(inConversation(await firstPage(me), id).lastMessage).toMatchObject({ text: 'mine', mine: true });
    await kept(me);
    const { conversationId } = await giveGift(server, bob, me);
    const page = await firstPage(me);
    expect(page.map((c) => c._id)).toEqual([conversationId, id]);
    expect(page[0]).toMatchObject({ unreadCount: 1, otherUser: { anonymous: true } });
  });

  it('shows the conversation read once the member opens it, and their message read once the other does', async () => {
    const { me, ann, id } = await pair('icr');
    await kept(me);
    expect((await server.request('GET', `/messages/${id}`, { token: me.token })).status).toBe(200);
    expect(inConversation(await firstPage(me), id).unreadCount).toBe(0);
    await send(me, id, 'read me');
    expect(inConversation(await kept(me), id).lastMessage).toMatchObject({ text: 'read me', read: false });
    expect((await server.request('GET', `/messages/${id}`, { token: ann.token })).status).toBe(200);
    expect(inConversation(await firstPage(me), id).lastMessage).toMatchObject({ text: 'read me', read: true });
  });

  it('shows the other member’s new display name, username and picture', async () => {
    const { me, ann, id } = await pair('icp');
    await kept(me);
    const patch = (body: object) => server.request('PATCH', `/api/users/${ann.user._id}`, { token: ann.token, body });
    expect((await patch({ displayName: 'Ann Again' })).status).toBe(200);
    expect(inConversation(await firstPage(me), id).otherUser).toMatchObject({ displayName: 'Ann Again' });
    await kept(me);
    const username = `icp${Date.now().toString(36)}`;
    expect((await patch({ username })).status).toBe(200);
    expect(inConversation(await firstPage(me), id).otherUser).toMatchObject({ username });
    await kept(me);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const data = new FormData();
    data.set('pfpOrCover', 'profilePicture');
    data.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
    const upload = await server.request('POST', '/api/upload', { token: ann.token, body: data });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    expect(inConversation(await firstPage(me), id).otherUser.profilePicture).toBe(upload.body.user.profilePicture);
  });

  it('shows the other member’s badge when it starts, and drops it when it runs out with no write', async () => {
    const { me, ann, id } = await pair('icb');
    expect(inConversation(await kept(me), id).otherUser).toMatchObject({ isSubscribed: false });
    await setUser(ann, { subscribedUntil: new Date(Date.now() + 800) });
    expect(inConversation(await kept(me), id).otherUser).toMatchObject({ isSubscribed: true });
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(inConversation(await firstPage(me), id).otherUser).toMatchObject({ isSubscribed: false });
  });

  it('shows a closed account as closed: its name gone, its messages deleted', async () => {
    const { me, ann, id } = await pair('icc');
    expect(inConversation(await kept(me), id).otherUser.displayName).not.toBe('');
    const res = await server.request('POST', '/api/account/delete', { token: ann.token, body: { password: 'secret-pass' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(inConversation(await firstPage(me), id)).toMatchObject({
      otherUser: { displayName: '' },
      lastMessage: { text: DELETED_MESSAGE },
    });
  });

  it('shows a write made through another process on this one’s next page', async () => {
    const { me, ann, id } = await pair('ico');
    await kept(me);
    await send(ann, id, 'from the other process', other);
    expect(inConversation(await firstPage(me), id).lastMessage).toMatchObject({ text: 'from the other process' });
  });

  it('drops a message or a conversation removed from the database (nothing removes them today)', async () => {
    const { me, ann, id } = await pair('icd');
    await send(ann, id, 'second');
    expect(inConversation(await kept(me), id).unreadCount).toBe(2);
    await server.deps.db.transaction((em) => em.delete(MessageEntity, { conversationId: id, text: 'hello' }));
    expect(inConversation(await kept(me), id).unreadCount).toBe(1);
    await server.deps.db.transaction(async (em) => {
      await em.update(ConversationEntity, { id }, { lastMessageId: null });
      await em.delete(MessageEntity, { conversationId: id });
    });
    await kept(me);
    await server.deps.db.transaction((em) => em.delete(ConversationEntity, { id }));
    expect(await firstPage(me)).toEqual([]);
  });

  it('answers each member their own page, and an anonymous giver’s changes never touch their recipient’s', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'ica');
    const c = await buildConversation(server, giver, recipient, true);
    await send(giver, c.id, 'guess who');
    const mine = await kept(giver);
    const theirs = await kept(recipient);
    expect(mine).toEqual([
      expect.objectContaining({ _id: c.id, youAreAnonymous: true, otherUser: expect.objectContaining({ _id: recipient.user._id }) }),
    ]);
    expect(theirs).toEqual([
      expect.objectContaining({ _id: c.id, youAreAnonymous: false, otherUser: expect.objectContaining({ anonymous: true }) }),
    ]);
    // Asked in turns, each from memory, each still their own.
    expect(await kept(giver)).toEqual(mine);
    expect(await kept(recipient)).toEqual(theirs);
    // The giver renames: the recipient's page does not move, not even out of memory.
    expect(
      (await server.request('PATCH', `/api/users/${giver.user._id}`, { token: giver.token, body: { displayName: 'Not Anonymous' } }))
        .status,
    ).toBe(200);
    expect(await conversationQueries(async () => expect(await firstPage(recipient)).toEqual(theirs))).toBe(0);
  });
});
