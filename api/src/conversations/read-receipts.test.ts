import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveGift } from '../realtime/testing.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import type { MessageView } from './presenter.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const as = (who: TestUser, body?: unknown) => ({ token: who.token, body });
const send = (who: TestUser, conversationId: string, text: string) =>
  server.request('POST', '/messages/send', as(who, { conversationId, text }));
const page = async (who: TestUser, conversationId: string) =>
  (await server.request<{ messages: MessageView[] }>('GET', `/messages/${conversationId}?page=1`, as(who))).body.messages;

describe('read receipts', () => {
  it('never tell the recipient when an anonymous giver read them, but tell the giver and named members', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'rr');
    const { conversationId } = await giveGift(server, giver, recipient, 5);
    expect((await send(recipient, conversationId, 'Thank you!')).status).toBe(201);
    const before = (await page(recipient, conversationId)).find((m) => m.mine)!;
    // The giver opens the thread: the recipient's message is read, but the recipient's view does not change.
    await page(giver, conversationId);
    const after = (await page(recipient, conversationId)).find((m) => m.mine)!;
    expect(after).toEqual(before);
    expect(after.read).toBe(false);

    // The other way, the giver sees when the recipient (a named identity to them) read.
    expect((await send(giver, conversationId, 'You are welcome')).status).toBe(201);
    await page(recipient, conversationId);
    expect((await page(giver, conversationId)).find((m) => m.text === 'You are welcome')?.read).toBe(true);
  });
});
