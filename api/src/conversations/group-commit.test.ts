import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_UNDELIVERABLE } from '../../contract/texts.js';
import { AppError } from '../errors.js';
import { buildConversation } from '../realtime/testing.js';
import { buildUsers, startTestServer, type TestServer } from '../testing/server.js';
import { ConversationEntity, MessageEntity, type Message } from './entity.js';
import { messageWriter } from './message-writer.js';
import { sendMessage, type MessageDeps } from './service.js';

let server: TestServer;
let deps: MessageDeps;
beforeAll(async () => {
  server = await startTestServer();
  deps = { db: server.deps.db, realtime: server.deps.realtime, limits: server.deps.limits, messagesPerMinute: 6000 };
});
afterAll(() => server?.close());

const stored = (id: string) => server.deps.db.manager.findOneBy(MessageEntity, { id });

describe('messages sent at the same moment (group commit)', () => {
  it('are each stored before they are answered, numbered in the order sent, and only a blocked sender is refused', async () => {
    const [a0, b0, a1, b1, a2, b2] = await buildUsers(server, 6, 'gc');
    const [c0, c1, c2] = await Promise.all([
      buildConversation(server, a0, b0, false),
      buildConversation(server, a1, b1, false),
      buildConversation(server, a2, b2, false),
    ]);
    expect((await server.request('POST', '/api/blocks', { token: b2.token, body: { conversationId: c2.id } })).status).toBe(201);

    // All started in one tick: they share batches, the blocked sender's messages among them.
    const sends: { from: string; conversationId: string; text: string; answer: Promise<{ message: Message; storedFirst: boolean }> }[] = [];
    for (let i = 0; i < 10; i += 1)
      for (const [who, c] of [
        [a0, c0],
        [b1, c1],
        [a2, c2],
        [b2, c2],
      ] as const) {
        const text = `${who.user.username} ${i}`;
        const answer = sendMessage(deps, who.user._id, { conversationId: c.id, text }).then(async ({ message }) => ({
          message,
          // Read on another connection the moment it is answered: it has committed by then.
          storedFirst: (await stored(message.id)) !== null,
        }));
        sends.push({ from: who.user._id, conversationId: c.id, text, answer });
      }
    const settled = await Promise.allSettled(sends.map((s) => s.answer));

    settled.forEach((result, i) => {
      if (sends[i].from === a2.user._id) {
        expect(result.status).toBe('rejected');
        const err = (result as PromiseRejectedResult).reason as AppError;
        expect(err).toBeInstanceOf(AppError);
        expect({ status: err.status, message: err.message }).toEqual({ status: 403, message: MESSAGE_UNDELIVERABLE });
      } else {
        expect(result.status).toBe('fulfilled');
        const { message, storedFirst } = (result as PromiseFulfilledResult<{ message: Message; storedFirst: boolean }>).value;
        expect(storedFirst).toBe(true);
        expect(message).toMatchObject({ text: sends[i].text, conversationId: sends[i].conversationId, seq: expect.any(Number) });
      }
    });

    for (const [c, sender] of [
      [c0, a0],
      [c1, b1],
      [c2, b2],
    ] as const) {
      const rows = await server.deps.db.manager.find(MessageEntity, { where: { conversationId: c.id }, order: { seq: 'ASC' } });
      expect(rows.map((m) => m.text)).toEqual(Array.from({ length: 10 }, (_, i) => `${sender.user.username} ${i}`));
      const conversation = await server.deps.db.manager.findOneByOrFail(ConversationEntity, { id: c.id });
      expect(conversation.lastMessageId).toBe(rows.at(-1)!.id);
    }
    const seqs = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value.message.seq!] : []));
    expect(new Set(seqs).size).toBe(30);
  });

  it('refuse only the message that cannot be written, not the rest of its batch', async () => {
    const [a, b] = await buildUsers(server, 2, 'gf');
    const c = await buildConversation(server, a, b, false);
    const row = (conversationId: string, text: string): Message => ({
      id: crypto.randomUUID(),
      conversationId,
      senderId: a.user._id,
      text,
      messageType: 'normal',
      giftTitle: null,
      giftType: null,
      giftImg: null,
      read: false,
      createdAt: new Date(),
      seq: null,
    });
    const writer = messageWriter(server.deps.db);
    // A conversation that does not exist breaks its foreign key; it is in the same batch as two good ones.
    const [first, broken, last] = await Promise.allSettled([
      writer.write({ row: row(c.id, 'first'), recipientId: b.user._id }),
      writer.write({ row: row(crypto.randomUUID(), 'orphan'), recipientId: b.user._id }),
      writer.write({ row: row(c.id, 'last'), recipientId: b.user._id }),
    ]);
    expect(broken.status).toBe('rejected');
    expect([first.status, last.status]).toEqual(['fulfilled', 'fulfilled']);
    const texts = (await server.deps.db.manager.find(MessageEntity, { where: { conversationId: c.id }, order: { seq: 'ASC' } })).map(
      (m) => m.text,
    );
    expect(texts).toEqual(['first', 'last']);
  });
});
