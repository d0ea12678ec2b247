import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_MAX_LENGTH } from '../../contract/limits.js';
import { NOTE_NOT_ALLOWED, NOTE_TOO_LONG } from '../../contract/texts.js';
import type { MessageView } from '../../contract/conversations.js';
import { CatalogProductEntity } from '../catalog/entity.js';
import { LedgerEntryEntity } from '../money/entity.js';
import { NotificationEntity } from '../notifications/entity.js';
import { connectClient, settle } from '../realtime/testing.js';
import { expectLedgerSound } from '../testing/ledger.js';
import { balanceOfUser, buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { ConversationEntity, MessageEntity } from './entity.js';

let server: TestServer;
let itemId: string;
let itemDollars: number;
beforeAll(async () => {
  server = await startTestServer();
  const product = await server.deps.db.manager.findOneOrFail(CatalogProductEntity, {
    where: { shippingType: 'FIXED' },
    order: { position: 'ASC' },
  });
  itemId = product.itemId;
  itemDollars = (product.priceCents + product.shippingCents) / 100;
});
afterAll(() => server?.close());

/** One way of giving, set up so that `send(note)` makes the gift: who writes the note and who reads it. */
interface Path {
  name: string;
  /** The gift's thread as the note's writer and its reader know it; `writer` is anonymous in it for an anonymous gift. */
  setUp(): Promise<{ writer: TestUser; reader: TestUser; anonymous: boolean; send: (note?: unknown) => Promise<GiftReply> }>;
}
interface GiftReply {
  status: number;
  body: { conversationId?: string; error?: string; message?: string };
}

const give: Path = {
  name: 'give to a receive link',
  async setUp() {
    const [recipient, giver] = await buildUsers(server, 2, 'ngv');
    await depositFor(server, giver, 10);
    const link = await server.request('POST', '/links/create', {
      token: recipient.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } },
    });
    expect(link.status).toBe(201);
    const send = (note?: unknown) =>
      server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId: link.body.id, amount: 5, note } });
    return { writer: giver, reader: recipient, anonymous: true, send };
  },
};

const accept: Path = {
  name: 'accept a give link',
  async setUp() {
    const [creator, responder] = await buildUsers(server, 2, 'nac');
    await depositFor(server, creator, 5);
    const link = await server.request('POST', '/links/create', {
      token: creator.token,
      body: { details: { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 1 } },
    });
    expect(link.status).toBe(201);
    const send = (note?: unknown) =>
      server.request('PUT', '/api/accept-link', {
        token: responder.token,
        body: { linkCreatorUsername: creator.user.username, linkResponderUsername: responder.user.username, note },
      });
    // The responder writes the note to the link's creator, by name: they know who made the link.
    return { writer: responder, reader: creator, anonymous: false, send };
  },
};

const purchase: Path = {
  name: 'buy a wishlist item',
  async setUp() {
    const [owner, buyer] = await buildUsers(server, 2, 'npu');
    await depositFor(server, buyer, itemDollars);
    const saved = await server.request('PUT', '/wishlists/update', {
      token: owner.token,
      body: { username: owner.user.username, items: [{ itemId }] },
    });
    expect(saved.status).toBe(200);
    const send = (note?: unknown) =>
      server.request('POST', '/wishlists/purchase', {
        token: buyer.token,
        body: { wishlistUsername: owner.user.username, purchaserUserId: buyer.user._id, itemId, lastMessage: '', note },
      });
    return { writer: buyer, reader: owner, anonymous: true, send };
  },
};

const thread = async (who: TestUser, conversationId: string): Promise<MessageView[]> => {
  const page = await server.request('GET', `/messages/${conversationId}?page=1`, { token: who.token });
  expect(page.status).toBe(200);
  return page.body.messages;
};

/** What a refused gift must leave as it was. */
async function snapshot(writer: TestUser, reader: TestUser) {
  const m = server.deps.db.manager;
  return {
    balances: [await balanceOfUser(server, writer), await balanceOfUser(server, reader)],
    entries: await m.count(LedgerEntryEntity),
    conversations: await m.count(ConversationEntity),
    messages: await m.count(MessageEntity),
    notifications: await m.count(NotificationEntity),
  };
}

describe.each([give, accept, purchase])('a note with the gift: $name', (path) => {
  it("arrives as the writer's first message, right after the gift, live and in the thread", async () => {
    const { writer, reader, anonymous, send } = await path.setUp();
    const live = await connectClient(server, { token: reader.token });
    try {
      const reply = await send('  Happy birthday! Spend it on something silly.  ');
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
      const conversationId = reply.body.conversationId!;

      const seen = await thread(reader, conversationId);
      expect(seen.map((m) => [m.messageType, m.mine])).toEqual([
        ['gift', path === accept],
        ['normal', false],
      ]);
      const note = seen[1];
      expect(note.text).toBe('Happy birthday! Spend it on something silly.');
      expect(note.seq).toBeGreaterThan(seen[0].seq);
      // From the identity the gift comes from: the persona (who shows as no one) or the responder by name.
      expect(note.senderUserId).toBe(anonymous ? 'anonymous' : writer.user._id);
      if (anonymous) expect(JSON.stringify(seen)).not.toContain(writer.user._id);
      // The writer sees it as theirs, in the same thread.
      expect((await thread(writer, conversationId)).map((m) => m.mine)).toEqual([path !== accept, true]);
      // The inbox previews the note, as the thread's last message.
      const inbox = await server.request('GET', `/conversations/${reader.user._id}`, { token: reader.token });
      const row = (inbox.body as { _id: string; lastMessage: MessageView | null }[]).find((c) => c._id === conversationId);
      expect(row?.lastMessage?._id).toBe(note._id);

      // Live: the gift message, then the note, each as `new-message` (what a message from that identity sends).
      await live.waitFor('new-message', (e) => e.message._id === note._id);
      const ids = live.received('new-message').map((e) => e.message._id);
      expect(ids).toEqual([seen[0]._id, note._id]);
      await expectLedgerSound(server.deps.db);
    } finally {
      live.close();
    }
  });

  it('without a note, or with a blank one, the thread holds the gift alone, as before', async () => {
    for (const note of [undefined, '   \n ']) {
      const { reader, send } = await path.setUp();
      const reply = await send(note);
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
      expect((await thread(reader, reply.body.conversationId!)).map((m) => m.messageType)).toEqual(['gift']);
    }
  });

  it.each([
    ['over the message limit', 'x'.repeat(MESSAGE_MAX_LENGTH + 1), { error: 'validation_failed', message: NOTE_TOO_LONG }],
    ['with a slur', 'for you, f4ggot', { error: 'abusive_text', message: NOTE_NOT_ALLOWED }],
    ['that is not text', 42, { error: 'validation_failed' }],
  ])('a note %s is a 400 and nothing is given, nothing charged', async (_, note, error) => {
    const { writer, reader, send } = await path.setUp();
    const before = await snapshot(writer, reader);
    const reply = await send(note);
    expect(reply).toMatchObject({ status: 400, body: error });
    await settle(50);
    expect(await snapshot(writer, reader)).toEqual(before);
    await expectLedgerSound(server.deps.db);
    // The same gift with an allowed note still goes through afterwards: nothing was used up.
    expect((await send('Enjoy!')).status).toBeLessThan(300);
  });

  it('a note of exactly the message limit is taken whole', async () => {
    const { reader, send } = await path.setUp();
    const long = 'y'.repeat(MESSAGE_MAX_LENGTH);
    const reply = await send(long);
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);
    expect((await thread(reader, reply.body.conversationId!)).at(-1)?.text).toBe(long);
  });
});
