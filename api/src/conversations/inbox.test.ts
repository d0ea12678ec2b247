import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConversation } from '../realtime/testing.js';
import { conversationQueries } from '../testing/queries.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import type { ConversationView } from './presenter.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const send = (who: TestUser, conversationId: string, text: string) =>
  server.request('POST', '/messages/send', { token: who.token, body: { conversationId, text } });
const inbox = (who: TestUser) => server.request<ConversationView[]>('GET', `/conversations/${who.user._id}`, { token: who.token });

describe('GET /conversations/{userId} (the inbox)', () => {
  it('answers each conversation with its last message and unread count, newest first, the anonymous giver hidden', async () => {
    const [me, ann, ben, anon] = await buildUsers(server, 4, 'ibx');
    const withAnn = await buildConversation(server, ann, me, false);
    const withBen = await buildConversation(server, me, ben, false);
    const withAnon = await buildConversation(server, anon, me, true);
    const empty = await buildConversation(server, me, (await buildUsers(server, 1, 'ibe'))[0], false);
    await send(ann, withAnn.id, 'one');
    await send(ann, withAnn.id, 'two');
    await send(me, withAnn.id, 'mine');
    await send(ann, withAnn.id, 'three');
    await send(anon, withAnon.id, 'secret hello');
    await send(ben, withBen.id, 'hi');
    await send(me, withBen.id, 'hello ben');

    const res = await inbox(me);
    expect(res.status).toBe(200);
    const byId = new Map(res.body.map((c) => [c._id, c]));
    expect(res.body.map((c) => c._id).slice(0, 3)).toEqual([withBen.id, withAnon.id, withAnn.id]);
    expect(byId.get(withAnn.id)).toMatchObject({
      unreadCount: 3,
      lastMessage: { text: 'three', mine: false },
      otherUser: { _id: ann.user._id },
    });
    expect(byId.get(withBen.id)).toMatchObject({ unreadCount: 1, lastMessage: { text: 'hello ben', mine: true } });
    expect(byId.get(withAnon.id)).toMatchObject({
      unreadCount: 1,
      lastMessage: { text: 'secret hello', senderUserId: 'anonymous' },
      otherUser: { _id: null, username: 'Anonymous', anonymous: true },
    });
    expect(JSON.stringify(byId.get(withAnon.id))).not.toContain(anon.user._id);
    expect(byId.get(empty.id)).toMatchObject({ unreadCount: 0, lastMessage: null });

    // Reading a conversation clears its count; the others keep theirs.
    await server.request('GET', `/messages/${withAnn.id}?page=1`, { token: me.token });
    const after = new Map((await inbox(me)).body.map((c) => [c._id, c.unreadCount]));
    expect([after.get(withAnn.id), after.get(withBen.id), after.get(withAnon.id)]).toEqual([0, 1, 1]);
    // The other side's count is theirs: ann has read nothing of mine.
    expect((await inbox(ann)).body.find((c) => c._id === withAnn.id)?.unreadCount).toBe(1);
  });

  it('answers one conversation to its members only, in one read', async () => {
    const [me, ann, outsider] = await buildUsers(server, 3, 'ibf');
    const c = await buildConversation(server, ann, me, false);
    await send(ann, c.id, 'hi');
    const find = (who: TestUser, id: string) => server.request<ConversationView>('GET', `/conversations/find/${id}`, { token: who.token });
    let found: Awaited<ReturnType<typeof find>> | undefined;
    expect(await conversationQueries(async () => (found = await find(me, c.id)))).toBe(1);
    expect(found?.status).toBe(200);
    expect(found?.body).toMatchObject({ _id: c.id, unreadCount: 1, lastMessage: { text: 'hi' }, otherUser: { _id: ann.user._id } });
    expect((await find(outsider, c.id)).status).toBe(403);
    expect((await find(me, crypto.randomUUID())).status).toBe(404);
  });

  it('reads once, for 2 conversations as for 40', async () => {
    const [few, many, ...others] = await buildUsers(server, 42, 'ibq');
    for (const [i, other] of others.entries()) {
      const c = await buildConversation(server, other, i < 2 ? few : many, i % 3 === 0);
      await send(other, c.id, `hello ${i}`);
      if (i < 2) {
        const again = await buildConversation(server, other, many, false);
        await send(other, again.id, `again ${i}`);
      }
    }
    let small: ConversationView[] = [];
    let large: ConversationView[] = [];
    const smallQueries = await conversationQueries(async () => (small = (await inbox(few)).body));
    const largeQueries = await conversationQueries(
      async () =>
        (large = (await server.request<ConversationView[]>('GET', `/conversations/${many.user._id}?limit=40`, { token: many.token })).body),
    );
    expect(small).toHaveLength(2);
    expect(large).toHaveLength(40);
    expect(large.every((c) => c.unreadCount === 1 && c.lastMessage !== null)).toBe(true);
    expect(largeQueries).toBe(smallQueries);
    expect(largeQueries).toBe(1);
  });
});
