import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageEntity } from '../conversations/entity.js';
import { giveGift } from '../realtime/testing.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { REPORT_THANKS, REPORTS_TOO_QUICKLY } from '../../contract/texts.js';
import type { ReportAnswer } from '../../contract/reports.js';
import { ReportEntity } from './entity.js';
import { REPORTS_PER_HOUR } from './service.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const report = (who: TestUser, body: Record<string, unknown>) =>
  server.request<ReportAnswer>('POST', '/api/reports', { token: who.token, body });
const storedBy = (who: TestUser) => server.deps.db.manager.countBy(ReportEntity, { reporterId: who.user._id });

let nextSeq = 2_000_000;
/** A conversation where `from` (an anonymous giver) wrote `count` messages to `to`, stored directly (no send limit). */
async function messagesFrom(from: TestUser, to: TestUser, count: number) {
  const { conversationId } = await giveGift(server, from, to);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    await server.deps.db.transaction((em) =>
      em.insert(MessageEntity, {
        id,
        conversationId,
        senderId: from.user._id,
        text: `message ${i}`,
        messageType: 'normal',
        giftTitle: null,
        giftType: null,
        giftImg: null,
        read: false,
        createdAt: new Date(),
        seq: server.deps.db.isPostgres ? undefined : (nextSeq += 1),
      }),
    );
    ids.push(id);
  }
  return { conversationId, ids };
}

describe('reports are not flooded', () => {
  it('40 reports of the same 4 messages store one per message and answer the first report again (200)', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'rlf');
    const { conversationId, ids } = await messagesFrom(giver, recipient, 4);
    const firstIds = new Map<string, string>();
    for (let round = 0; round < 10; round++)
      for (const messageId of ids) {
        const res = await report(recipient, {
          conversationId,
          messageId,
          reason: round % 2 ? 'spam' : 'harassment',
          note: `round ${round}`,
        });
        expect(res.status).toBe(round === 0 ? 201 : 200);
        expect(res.body).toMatchObject({ ok: true, message: REPORT_THANKS });
        if (round === 0) firstIds.set(messageId, res.body.reportId);
        else expect(res.body.reportId).toBe(firstIds.get(messageId));
      }
    expect(await storedBy(recipient)).toBe(4);
    // The stored report is the first one, as it was sent.
    const stored = await server.deps.db.manager.findOneByOrFail(ReportEntity, { id: firstIds.get(ids[0])! });
    expect(stored).toMatchObject({ reason: 'harassment', note: 'round 0', messageId: ids[0] });
    // The repeats were not counted: 6 more distinct reports still go through.
    const more = await messagesFrom(giver, recipient, 0);
    for (let i = 0; i < REPORTS_PER_HOUR - 4; i++)
      expect((await report(recipient, { conversationId: more.conversationId, reason: 'spam' })).status).toBe(201);
  });

  it(`the ${REPORTS_PER_HOUR + 1}th distinct report in an hour is a 429 with Retry-After; a repeat still answers its report`, async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'rll');
    const { conversationId, ids } = await messagesFrom(giver, recipient, REPORTS_PER_HOUR + 1);
    for (const messageId of ids.slice(0, REPORTS_PER_HOUR))
      expect((await report(recipient, { conversationId, messageId, reason: 'spam' })).status).toBe(201);
    const refused = await report(recipient, { conversationId, messageId: ids[REPORTS_PER_HOUR], reason: 'spam' });
    expect(refused).toMatchObject({ status: 429, body: { error: 'rate_limited', message: REPORTS_TOO_QUICKLY } });
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60 * 60);
    // A conversation report counts as well.
    expect((await report(recipient, { conversationId, reason: 'spam' })).status).toBe(429);
    // Past the limit a repeat stores nothing and is no 429: it answers the report it repeats.
    expect((await report(recipient, { conversationId, messageId: ids[0], reason: 'hate' })).status).toBe(200);
    expect(await storedBy(recipient)).toBe(REPORTS_PER_HOUR);
  });

  it('counts per reporter, whoever is reported: the answers are the same whoever wrote the messages', async () => {
    const [one, another, reporter, other] = await buildUsers(server, 4, 'rlp');
    const a = await messagesFrom(one, reporter, 5);
    const n = await messagesFrom(another, reporter, 6);
    // The limit is shared over everyone the reporter reports, and answers alike for each.
    const answers: { status: number; body: unknown; retry: string | null }[] = [];
    const shape = (res: Awaited<ReturnType<typeof report>>) => ({
      status: res.status,
      body: res.status === 429 ? res.body : { ...res.body, reportId: typeof res.body.reportId },
      retry: res.headers.get('retry-after') === null ? null : 'set',
    });
    for (let i = 0; i < 5; i++)
      answers.push(shape(await report(reporter, { conversationId: a.conversationId, messageId: a.ids[i], reason: 'spam' })));
    for (let i = 0; i < 5; i++)
      answers.push(shape(await report(reporter, { conversationId: n.conversationId, messageId: n.ids[i], reason: 'spam' })));
    expect(answers.slice(0, 5)).toEqual(answers.slice(5));
    const overA = shape(await report(reporter, { conversationId: a.conversationId, reason: 'spam' }));
    const overN = shape(await report(reporter, { conversationId: n.conversationId, messageId: n.ids[5], reason: 'spam' }));
    expect(overA).toMatchObject({ status: 429, retry: 'set' });
    expect(overN).toEqual(overA);
    const againA = shape(await report(reporter, { conversationId: a.conversationId, messageId: a.ids[0], reason: 'spam' }));
    const againN = shape(await report(reporter, { conversationId: n.conversationId, messageId: n.ids[0], reason: 'spam' }));
    expect(againA).toMatchObject({ status: 200, retry: null });
    expect(againN).toEqual(againA);

    // Another reporter of the same person is not held back by this one's reports.
    const o = await messagesFrom(one, other, 1);
    expect((await report(other, { conversationId: o.conversationId, messageId: o.ids[0], reason: 'spam' })).status).toBe(201);
  });

  it('two identical reports at once store one: the database keeps one report per message per reporter', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'rlr');
    const { conversationId, ids } = await messagesFrom(giver, recipient, 1);
    const both = await Promise.all([1, 2, 3].map(() => report(recipient, { conversationId, messageId: ids[0], reason: 'spam' })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(both.map((r) => r.body.reportId)).size).toBe(1);
    expect(await storedBy(recipient)).toBe(1);
    const row = await server.deps.db.manager.findOneByOrFail(ReportEntity, { reporterId: recipient.user._id });
    await expect(
      server.deps.db.transaction((em) => em.insert(ReportEntity, { ...row, id: crypto.randomUUID(), createdAt: new Date() })),
    ).rejects.toThrow();
    // Conversation reports have no message and may repeat.
    expect((await report(recipient, { conversationId, reason: 'spam' })).status).toBe(201);
    expect((await report(recipient, { conversationId, reason: 'spam' })).status).toBe(201);
  });
});
