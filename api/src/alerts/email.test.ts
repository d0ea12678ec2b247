import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_GIFT_SUBJECT, ALERT_SIGN_IN_SUBJECT, alertMessagesSubject } from '../../contract/texts.js';
import { connectClient, giveGift, settle } from '../realtime/testing.js';
import { buildUser, buildUsers, depositFor, type TestServer, type TestUser } from '../testing/server.js';
import { decodedBody, mailHeader, startMailingServer, type TestSmtp } from '../testing/smtp.js';
import { UserEntity } from '../users/entity.js';
import { ALERT_RETENTION_MS, pruneAlerts, sendAlertEmails, WAIT_RECHECK_MS } from './job.js';
import { AlertEntity } from './entity.js';

/**
 * Alert emails through a real SMTP server. The job is run by hand with the time it is given
 * (ALERTS_EMAIL off stops the server's own timer), so the 15-minute window is a moved clock.
 */
let smtp: TestSmtp;
let server: TestServer;
beforeAll(async () => {
  ({ smtp, server } = await startMailingServer({ MESSAGE_RATE_LIMIT: '600' }));
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const MINUTE = 60_000;
const runJob = (at = new Date()) => sendAlertEmails(server.deps, at);
const mailsTo = (who: TestUser) => smtp.inbox.filter((m) => m.to.includes(who.user.email)).map((m) => m.raw);
const send = (who: TestUser, conversationId: string, text: string) =>
  server.request('POST', '/messages/send', { token: who.token, body: { conversationId, text } }).then((r) => expect(r.status).toBe(201));
const statesOf = async (who: TestUser, kind: string) =>
  (await server.deps.db.manager.find(AlertEntity, { where: { userId: who.user._id, kind: kind as never } })).map((a) => a.emailState);

/** What must not appear anywhere in an email about an anonymous giver. */
const traces = (giver: TestUser) => [giver.user._id, giver.user.username, giver.user.displayName, giver.user.email];

describe('alert emails', () => {
  it('a gift to someone offline sends one email, text and HTML, with one-click unsubscribe, naming no one', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'emg');
    const { conversationId } = await giveGift(server, giver, recipient);
    await runJob();
    const mails = mailsTo(recipient);
    expect(mails).toHaveLength(1);
    const [raw] = mails;
    expect(mailHeader(raw, 'Subject')).toBe(ALERT_GIFT_SUBJECT);
    expect(raw).toMatch(/Content-Type: text\/plain/);
    expect(raw).toMatch(/Content-Type: text\/html/);
    const body = decodedBody(raw);
    expect(body).toContain(`https://giftlink.example/messages/${conversationId}`);
    expect(mailHeader(raw, 'List-Unsubscribe')).toMatch(/^<https:\/\/giftlink\.example\/api\/alerts\/unsubscribe\?t=[^>]+>$/);
    expect(mailHeader(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mailHeader(raw, 'Message-ID')).toMatch(/^<alert\.[0-9a-f-]{36}@giftlink\.example>$/);
    for (const trace of traces(giver)) expect(raw).not.toContain(trace);
    // Sent is sent: the next run sends nothing more.
    await runJob();
    expect(mailsTo(recipient)).toHaveLength(1);
    expect(mailsTo(giver)).toHaveLength(0);
  });

  it("an anonymous gift's email is the same whoever gave it, and whether the giver is also known by name", async () => {
    const [alice, bob, rita, ruth, rose] = await buildUsers(server, 5, 'emw');
    // Alice is known to Rose by name: Rose accepted Alice's give link first.
    await depositFor(server, alice, 20);
    const give = await server.request('POST', '/links/create', {
      token: alice.token,
      body: { details: { giveorreceive: 'give', type: 'currency', amount: 2, initialQuantity: 1 } },
    });
    expect(give.status).toBe(201);
    const accepted = await server.request('PUT', '/api/accept-link', {
      token: rose.token,
      body: { linkCreatorUsername: alice.user.username },
    });
    expect(accepted.status).toBe(200);
    await runJob();
    const before = mailsTo(rose).length;
    await giveGift(server, alice, rita);
    await giveGift(server, bob, ruth);
    await giveGift(server, alice, rose);
    await runJob();
    const last = (who: TestUser) => mailsTo(who).at(-1)!;
    expect(mailsTo(rose)).toHaveLength(before + 1);
    // Apart from who it is to, its ids (the thread's; the sealed unsubscribe token, new for each
    // email), the Message-ID, the date and the MIME boundaries, the three emails are the same bytes.
    const same = (raw: string, to: TestUser) => {
      const split = raw.search(/\r?\n\r?\n/);
      const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
      return (head + decodedBody(raw.slice(split)))
        .replaceAll(to.user.email, 'TO')
        .replace(/^(Message-ID|Date): .*$/gim, '$1: X')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
        .replace(/\?t=[A-Za-z0-9_-]+/g, '?t=TOKEN')
        .replace(/--_NmP-[0-9a-f-]+-Part_\d+/g, 'BOUNDARY');
    };
    expect(same(last(rita), rita)).toBe(same(last(ruth), ruth));
    expect(same(last(rose), rose)).toBe(same(last(rita), rita));
    for (const [raw, giver] of [
      [last(rita), alice],
      [last(ruth), bob],
      [last(rose), alice],
    ] as const)
      for (const trace of traces(giver)) expect(raw).not.toContain(trace);
  });

  it('ten messages in a minute make one email; one after it waits for the 15-minute window and goes alone', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'emb');
    const { conversationId } = await giveGift(server, giver, recipient);
    const start = new Date();
    for (let i = 1; i <= 10; i++) await send(giver, conversationId, `message ${i}`);
    await runJob(start);
    await runJob(new Date(start.getTime() + 30_000));
    const aboutMessages = () => mailsTo(recipient).filter((raw) => !mailHeader(raw, 'Subject').startsWith(ALERT_GIFT_SUBJECT));
    expect(aboutMessages().map((raw) => mailHeader(raw, 'Subject'))).toEqual([alertMessagesSubject(10)]);
    await send(giver, conversationId, 'one more');
    await runJob(new Date(start.getTime() + MINUTE));
    await runJob(new Date(start.getTime() + 14 * MINUTE));
    expect(aboutMessages()).toHaveLength(1);
    await runJob(new Date(start.getTime() + 16 * MINUTE));
    expect(aboutMessages().map((raw) => mailHeader(raw, 'Subject'))).toEqual([alertMessagesSubject(10), alertMessagesSubject(1)]);
    expect(new Set(aboutMessages().map((raw) => mailHeader(raw, 'Message-ID'))).size).toBe(2);
  });

  it('a user with a socket open gets no email until it closes', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'emo');
    const socket = await connectClient(server, { token: recipient.token });
    await giveGift(server, giver, recipient);
    await runJob();
    expect(mailsTo(recipient)).toHaveLength(0);
    expect(await statesOf(recipient, 'gift')).toEqual(['pending']);
    socket.close();
    await settle(150);
    // Looked at again WAIT_RECHECK_MS after it last waited: still within the minute.
    await runJob();
    expect(mailsTo(recipient)).toHaveLength(0);
    await runJob(new Date(Date.now() + WAIT_RECHECK_MS + 1000));
    expect(mailsTo(recipient)).toHaveLength(1);
    expect(await statesOf(recipient, 'gift')).toEqual(['sent']);
  });

  it('alerts waiting for users who are online never hold back one for a user who is not', async () => {
    const [giver, ...online] = await buildUsers(server, 4, 'emq');
    const [offline] = await buildUsers(server, 1, 'emr');
    const sockets = await Promise.all(online.map((u) => connectClient(server, { token: u.token })));
    for (const u of online) await giveGift(server, giver, u);
    await giveGift(server, giver, offline);
    // A scan of two: the first runs meet only waiting ones, and set them aside.
    const at = Date.now() + 1000;
    for (let i = 0; i < 3; i++) await sendAlertEmails(server.deps, new Date(at + i * 1000), undefined, 2);
    expect(mailsTo(offline)).toHaveLength(1);
    for (const u of online) expect(mailsTo(u)).toHaveLength(0);
    for (const s of sockets) s.close();
  });

  it('alerts settled on every channel are deleted after a month; pending ones are kept', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'emp');
    await send(giver, (await giveGift(server, giver, recipient)).conversationId, 'still pending');
    await server.deps.db.transaction((tx) =>
      tx.update(AlertEntity, { userId: recipient.user._id, kind: 'gift' }, { emailState: 'sent', pushState: 'skipped' }),
    );
    const kinds = async () =>
      (await server.deps.db.manager.find(AlertEntity, { where: { userId: recipient.user._id } })).map((a) => a.kind).sort();
    await pruneAlerts(server.deps, new Date(Date.now() + ALERT_RETENTION_MS - MINUTE));
    expect(await kinds()).toEqual(['gift', 'message']);
    expect(await pruneAlerts(server.deps, new Date(Date.now() + ALERT_RETENTION_MS + MINUTE))).toBeGreaterThanOrEqual(1);
    expect(await kinds()).toEqual(['message']);
  });

  it('an alert left pending a day (its user online all along) is given up', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'ems');
    const socket = await connectClient(server, { token: recipient.token });
    await giveGift(server, giver, recipient);
    await runJob(new Date(Date.now() + 23 * 60 * MINUTE));
    expect(await statesOf(recipient, 'gift')).toEqual(['pending']);
    await runJob(new Date(Date.now() + 25 * 60 * MINUTE));
    socket.close();
    expect(await statesOf(recipient, 'gift')).toEqual(['skipped']);
    expect(mailsTo(recipient)).toHaveLength(0);
  });

  it('a thread read before the job runs makes no email', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'emr');
    const { conversationId } = await giveGift(server, giver, recipient);
    await send(giver, conversationId, 'did you see it?');
    const opened = await server.request('GET', `/messages/${conversationId}`, { token: recipient.token });
    expect(opened.status).toBe(200);
    await runJob();
    expect(mailsTo(recipient)).toHaveLength(0);
    expect(await statesOf(recipient, 'gift')).toEqual(['skipped']);
    expect(await statesOf(recipient, 'message')).toEqual(['skipped']);
  });

  it('a closed account gets no email', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'emc');
    await giveGift(server, giver, recipient);
    await server.deps.db.transaction((em) => em.update(UserEntity, { id: recipient.user._id }, { closedAt: new Date() }));
    await runJob();
    expect(mailsTo(recipient)).toHaveLength(0);
    expect(await statesOf(recipient, 'gift')).toEqual(['skipped']);
  });

  it('security alerts are sent while a socket is open, without an unsubscribe link', async () => {
    const who = await buildUser(server);
    const socket = await connectClient(server, { token: who.token });
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: who.user.email, password: who.password },
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' },
    });
    expect(login.status).toBe(200);
    await runJob();
    socket.close();
    const [raw] = mailsTo(who);
    expect(mailHeader(raw, 'Subject')).toBe(ALERT_SIGN_IN_SUBJECT);
    expect(mailHeader(raw, 'List-Unsubscribe')).toBe('');
  });
});
