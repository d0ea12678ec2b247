import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_KINDS, type AlertPreferencesAnswer } from '../../contract/alerts.js';
import { ALERT_GIFT_SUBJECT, ALERT_PASSWORD_SUBJECT, ALERT_UNSUBSCRIBED } from '../../contract/texts.js';
import { giveGift } from '../realtime/testing.js';
import { buildUser, buildUsers, type TestServer, type TestUser } from '../testing/server.js';
import { mailHeader, startMailingServer, type TestSmtp } from '../testing/smtp.js';
import { sendAlertEmails } from './job.js';

/** Settings → Notifications' switches, and the emails' unsubscribe link (no login, one click, RFC 8058). */
let smtp: TestSmtp;
let server: TestServer;
beforeAll(async () => {
  ({ smtp, server } = await startMailingServer());
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const runJob = () => sendAlertEmails(server.deps, new Date());
const mailsTo = (who: TestUser) => smtp.inbox.filter((m) => m.to.includes(who.user.email)).map((m) => m.raw);
const preferences = (who: TestUser) => server.request<AlertPreferencesAnswer>('GET', '/api/alerts/preferences', { token: who.token });
const put = (who: TestUser, body: unknown) =>
  server.request<AlertPreferencesAnswer>('PUT', '/api/alerts/preferences', { token: who.token, body });
const emailOf = (answer: AlertPreferencesAnswer, kind: string) => answer.preferences.find((p) => p.kind === kind)?.channels.email;

/** The path and query of the unsubscribe link in the email's List-Unsubscribe header. */
function unsubscribeLink(raw: string): string {
  const url = /^<(.+)>$/.exec(mailHeader(raw, 'List-Unsubscribe'))?.[1];
  expect(url).toBeDefined();
  const parsed = new URL(url!);
  return parsed.pathname + parsed.search;
}

describe('alert preferences', () => {
  it('answers every kind with its channels, all on by default, security kinds locked', async () => {
    const who = await buildUser(server);
    const res = await preferences(who);
    expect(res.status).toBe(200);
    expect(res.body.available).toEqual(['email', 'push']);
    expect(res.body.preferences.map((p) => p.kind)).toEqual([...ALERT_KINDS]);
    for (const p of res.body.preferences) expect(p.channels).toEqual({ email: true, push: true });
    expect(res.body.preferences.filter((p) => p.locked).map((p) => p.kind)).toEqual(['password_changed', 'email_changed', 'new_sign_in']);
    expect((await server.request('GET', '/api/alerts/preferences')).status).toBe(401);
  });

  it('saves switches, and refuses to turn a security kind off (400, nothing saved)', async () => {
    const who = await buildUser(server);
    const off = await put(who, { preferences: [{ kind: 'message', channel: 'email', enabled: false }] });
    expect(off.status).toBe(200);
    expect(emailOf(off.body, 'message')).toBe(false);
    expect(emailOf((await preferences(who)).body, 'message')).toBe(false);
    const refused = await put(who, {
      preferences: [
        { kind: 'gift', channel: 'email', enabled: false },
        { kind: 'new_sign_in', channel: 'email', enabled: false },
      ],
    });
    expect(refused).toMatchObject({ status: 400, body: { error: 'alert_locked' } });
    expect(emailOf((await preferences(who)).body, 'gift')).toBe(true);
    expect((await put(who, { preferences: [{ kind: 'nope', channel: 'email', enabled: false }] })).status).toBe(400);
    expect((await put(who, { preferences: [] })).status).toBe(400);
    const back = await put(who, { preferences: [{ kind: 'message', channel: 'email', enabled: true }] });
    expect(emailOf(back.body, 'message')).toBe(true);
  });
});

describe('the unsubscribe link', () => {
  it('a GET shows a button and changes nothing; a POST without login turns that kind off, again and again', async () => {
    // Registered through the API (not in bulk), so the password change below is from a known device.
    const [giver, recipient] = [await buildUser(server), await buildUser(server)];
    await giveGift(server, giver, recipient);
    await runJob();
    const [first] = mailsTo(recipient);
    expect(mailHeader(first, 'Subject')).toBe(ALERT_GIFT_SUBJECT);
    const link = unsubscribeLink(first);

    const page = await server.request<string>('GET', link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.body).toContain('<form method="post"');
    expect(emailOf((await preferences(recipient)).body, 'gift')).toBe(true);

    for (let i = 0; i < 2; i++) {
      const res = await server.request('POST', link, {
        body: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res).toMatchObject({ status: 200, body: { unsubscribed: true, kind: 'gift' } });
    }
    expect(emailOf((await preferences(recipient)).body, 'gift')).toBe(false);
    expect(emailOf((await preferences(recipient)).body, 'message')).toBe(true);
    expect((await server.request<string>('GET', link)).body).toContain(ALERT_UNSUBSCRIBED);

    // The next gift makes no email; a security alert still goes.
    await giveGift(server, giver, recipient);
    await runJob();
    expect(mailsTo(recipient)).toHaveLength(1);
    const changed = await server.request('PATCH', `/api/users/${recipient.user._id}`, {
      token: recipient.token,
      body: { password: 'another-pass-9', currentPassword: recipient.password },
    });
    expect(changed.status).toBe(200);
    await runJob();
    expect(mailsTo(recipient).map((raw) => mailHeader(raw, 'Subject'))).toEqual([ALERT_GIFT_SUBJECT, ALERT_PASSWORD_SUBJECT]);
  });

  it("a browser's POST (from the page's button) is sent back to the page", async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'unb');
    await giveGift(server, giver, recipient);
    await runJob();
    const link = unsubscribeLink(mailsTo(recipient)[0]);
    const res = await fetch(server.url + link, {
      method: 'POST',
      redirect: 'manual',
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(link);
  });

  it('a tampered token is refused (400) and changes nothing', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'unt');
    await giveGift(server, giver, recipient);
    await runJob();
    const link = unsubscribeLink(mailsTo(recipient)[0]);
    const token = decodeURIComponent(new URL(link, server.url).searchParams.get('t')!);
    const other = await buildUser(server);
    // The old shape (user id, kind and a signature in clear) is no longer a key either.
    const oldShape = `${recipient.user._id}.gift.${server.deps.tokens.mac('alerts.unsubscribe', `${recipient.user._id}.gift`)}`;
    const flipped = Buffer.from(token, 'base64url');
    flipped[20] ^= 1;
    for (const forged of [flipped.toString('base64url'), token.slice(0, -4), `${token}AAAA`, oldShape, 'nonsense']) {
      const path = `/api/alerts/unsubscribe?t=${encodeURIComponent(forged)}`;
      expect(await server.request('POST', path)).toMatchObject({ status: 400, body: { error: 'invalid_unsubscribe_link' } });
      expect(await server.request('GET', path)).toMatchObject({ status: 400, body: { error: 'invalid_unsubscribe_link' } });
    }
    expect((await preferences(recipient)).body.preferences.every((p) => p.channels.email)).toBe(true);
    expect((await preferences(other)).body.preferences.every((p) => p.channels.email)).toBe(true);
  });
});
