import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '../../contract/push.js';
import { ALERT_GIFT_BODY, ALERT_GIFT_SUBJECT, PUSH_SUBSCRIPTION_NOT_FOUND } from '../../contract/texts.js';
import { AlertEntity } from '../alerts/entity.js';
import { deliverAlerts, WAIT_RECHECK_MS } from '../alerts/job.js';
import { connectClient, giveGift, settle } from '../realtime/testing.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { pushChannel } from './channel.js';
import { startPushService, type TestBrowser, type TestPushService } from './testing.js';

/**
 * Web Push end to end: the real server, the job run by hand, a push service of the test's own
 * that checks each push's VAPID signature and decrypts it as the browser would.
 */
let push: TestPushService;
let server: TestServer;
beforeAll(async () => {
  push = await startPushService();
  server = await startTestServer({
    PUBLIC_URL: 'https://giftlink.example',
    COOKIE_SECURE: 'false',
    ALERT_EMAIL_DELAY_MS: '0',
    PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true',
  });
});
afterAll(async () => {
  await server?.close();
  await push?.close();
});

const runJob = (at = new Date()) => deliverAlerts(server.deps, pushChannel(server.deps), at);
const pushesTo = (browser: TestBrowser) =>
  push.received.filter((p) => p.browser === browser.id).map((p) => JSON.parse(p.text) as PushPayload);
const subscribe = async (who: TestUser) => {
  const browser = push.browser();
  const res = await server.request('POST', '/api/push/subscriptions', { token: who.token, body: browser.subscription });
  expect(res.status).toBe(201);
  return { browser, id: (res.body as { id: string }).id };
};
const pushStates = async (who: TestUser) =>
  (await server.deps.db.manager.find(AlertEntity, { where: { userId: who.user._id, kind: 'gift' } })).map((a) => a.pushState);

describe('web push', () => {
  it('a gift to someone offline is one push, signed with the VAPID key and decrypted on the device, naming no one', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'pus');
    const { browser } = await subscribe(recipient);
    const { conversationId } = await giveGift(server, giver, recipient);
    await runJob();
    expect(push.refused).toEqual([]);
    expect(pushesTo(browser)).toEqual([
      {
        title: ALERT_GIFT_SUBJECT,
        body: ALERT_GIFT_BODY,
        url: `https://giftlink.example/messages/${conversationId}`,
        tag: `conversation:${conversationId}`,
      },
    ]);
    const [got] = push.received.filter((p) => p.browser === browser.id);
    const { publicKey } = (await server.request('GET', '/api/push/public-key')).body as { publicKey: string };
    expect(got.key).toBe(publicKey);
    expect(got.claims.aud).toBe(push.url);
    expect(got.claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(got.ttl).toBe('86400');
    for (const trace of [giver.user._id, giver.user.username, giver.user.displayName, giver.user.email])
      expect(got.text).not.toContain(trace);
    // Sent is sent.
    await runJob();
    expect(pushesTo(browser)).toHaveLength(1);
    expect(await pushStates(recipient)).toEqual(['sent']);
  });

  it("an anonymous gift's push is the same whoever gave it", async () => {
    const [alice, bob, rita, ruth] = await buildUsers(server, 4, 'puw');
    const [one, two] = [await subscribe(rita), await subscribe(ruth)];
    const a = await giveGift(server, alice, rita);
    const b = await giveGift(server, bob, ruth);
    await runJob();
    const [fromAlice] = push.received.filter((p) => p.browser === one.browser.id);
    const [fromBob] = push.received.filter((p) => p.browser === two.browser.id);
    // Apart from the thread's id (each recipient's own), the decrypted bytes are the same.
    expect(fromAlice.text.replaceAll(a.conversationId, 'THREAD')).toBe(fromBob.text.replaceAll(b.conversationId, 'THREAD'));
  });

  it('a 410 from the push service removes that device; the next alert is not pushed', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'pug');
    const { browser } = await subscribe(recipient);
    browser.answer = 410;
    await giveGift(server, giver, recipient);
    await runJob();
    expect(pushesTo(browser)).toHaveLength(1);
    const list = await server.request('GET', '/api/push/subscriptions', { token: recipient.token });
    expect(list.body).toEqual({ devices: [] });
    await giveGift(server, giver, recipient);
    await runJob();
    expect(pushesTo(browser)).toHaveLength(1);
    expect((await pushStates(recipient)).sort()).toEqual(['sent', 'skipped']);
  });

  it('another failure leaves the push pending, and the next run after the lease sends it', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'pur');
    const { browser } = await subscribe(recipient);
    browser.answer = 503;
    await giveGift(server, giver, recipient);
    const start = new Date();
    await runJob(start);
    expect(await pushStates(recipient)).toEqual(['pending']);
    browser.answer = 201;
    await runJob(new Date(start.getTime() + server.deps.config.alertEmailLeaseMs + 1000));
    expect(pushesTo(browser)).toHaveLength(2);
    expect(await pushStates(recipient)).toEqual(['sent']);
  });

  it('no push while the user has a socket open; it goes once the socket closes', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'puo');
    const { browser } = await subscribe(recipient);
    const socket = await connectClient(server, { token: recipient.token });
    await giveGift(server, giver, recipient);
    await runJob();
    expect(pushesTo(browser)).toHaveLength(0);
    socket.close();
    await settle(150);
    // Looked at again WAIT_RECHECK_MS after it last waited.
    await runJob(new Date(Date.now() + WAIT_RECHECK_MS + 1000));
    expect(pushesTo(browser)).toHaveLength(1);
  });

  it("the push preference off: no push, and the email's state is its own", async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'pup');
    const { browser } = await subscribe(recipient);
    const put = await server.request('PUT', '/api/alerts/preferences', {
      token: recipient.token,
      body: { preferences: [{ kind: 'gift', channel: 'push', enabled: false }] },
    });
    expect(put.status).toBe(200);
    await giveGift(server, giver, recipient);
    await runJob();
    expect(pushesTo(browser)).toHaveLength(0);
    const [row] = await server.deps.db.manager.find(AlertEntity, { where: { userId: recipient.user._id, kind: 'gift' } });
    expect([row.pushState, row.emailState]).toEqual(['skipped', 'pending']);
  });

  it('subscriptions: one per endpoint with its device; listed and removed by their owner only', async () => {
    const [owner, other] = await buildUsers(server, 2, 'pul');
    const { browser, id } = await subscribe(owner);
    // The same browser again: the same row.
    const again = await server.request('POST', '/api/push/subscriptions', { token: owner.token, body: browser.subscription });
    expect(again.body.id).toBe(id);
    const list = await server.request('GET', '/api/push/subscriptions', { token: owner.token });
    expect(list.body.devices).toEqual([{ id, device: 'Chrome on macOS', createdAt: expect.any(String) }]);
    expect((await server.request('GET', '/api/push/subscriptions', { token: other.token })).body).toEqual({ devices: [] });
    const theirs = await server.request('DELETE', `/api/push/subscriptions/${id}`, { token: other.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ error: 'not_found', message: PUSH_SUBSCRIPTION_NOT_FOUND });
    expect((await server.request('DELETE', `/api/push/subscriptions/${id}`, { token: owner.token })).status).toBe(204);
    expect((await server.request('GET', '/api/push/subscriptions', { token: owner.token })).body).toEqual({ devices: [] });
  });
});
