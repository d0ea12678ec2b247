import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '../../contract/push.js';
import { ALERT_GIFT_SUBJECT } from '../../contract/texts.js';
import { deliverAlerts } from '../alerts/job.js';
import { SessionEntity } from '../auth/entity.js';
import { suspendAccount } from '../moderation/service.js';
import { giveGift } from '../realtime/testing.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { pushChannel } from './channel.js';
import { PushSubscriptionEntity } from './entity.js';
import { startPushService, type TestBrowser, type TestPushService } from './testing.js';

/** A device ends with the session that subscribed it: logout, revoke, sign out others, a password change, a suspension. */
let push: TestPushService;
let server: TestServer;
beforeAll(async () => {
  push = await startPushService();
  server = await startTestServer({
    PUBLIC_URL: 'https://giftlink.example',
    ALERT_EMAIL_DELAY_MS: '0',
    PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true',
  });
});
afterAll(async () => {
  await server?.close();
  await push?.close();
});

const runJob = () => deliverAlerts(server.deps, pushChannel(server.deps), new Date());
/** The gift pushes a device got (signing in and a password change are alerts of their own). */
const pushesTo = (browser: TestBrowser) =>
  push.received
    .filter((p) => p.browser === browser.id)
    .map((p) => JSON.parse(p.text) as PushPayload)
    .filter((p) => p.title === ALERT_GIFT_SUBJECT);

/** A second session of the same user, as another browser signs in. */
const signIn = async (who: TestUser): Promise<TestUser> => {
  const res = await server.request<{ token: string }>('POST', '/api/auth/login', {
    body: { email: who.user.email, password: who.password },
  });
  expect(res.status).toBe(200);
  return { ...who, token: res.body.token };
};

const subscribe = async (session: TestUser): Promise<TestBrowser> => {
  const browser = push.browser();
  const res = await server.request('POST', '/api/push/subscriptions', { token: session.token, body: browser.subscription });
  expect(res.status).toBe(201);
  return browser;
};

const sessionIdOf = async (session: TestUser) => (await server.deps.tokens.verify(session.token))!.sessionId;

/** The user signed in twice, a device subscribed by each session, and someone to give them a gift. */
const twoSessions = async (prefix: string) => {
  const [giver, who] = await buildUsers(server, 2, prefix);
  const a = await signIn(who);
  const b = await signIn(who);
  return { giver, a, b, deviceA: await subscribe(a), deviceB: await subscribe(b) };
};

describe('a push device ends with its session', () => {
  it('revoked from another session: no push to its device, the other device still gets one', async () => {
    const { giver, a, b, deviceA, deviceB } = await twoSessions('psr');
    expect((await server.request('DELETE', `/api/sessions/${await sessionIdOf(a)}`, { token: b.token })).status).toBe(204);
    await giveGift(server, giver, b);
    await runJob();
    expect(pushesTo(deviceA)).toEqual([]);
    expect(pushesTo(deviceB)).toHaveLength(1);
    expect((await server.request('GET', '/api/push/subscriptions', { token: b.token })).body.devices).toHaveLength(1);
  });

  it('signed out: no push to its device, the other device still gets one', async () => {
    const { giver, a, b, deviceA, deviceB } = await twoSessions('psl');
    expect((await server.request('POST', '/api/auth/logout', { token: a.token })).status).toBe(204);
    await giveGift(server, giver, b);
    await runJob();
    expect(pushesTo(deviceA)).toEqual([]);
    expect(pushesTo(deviceB)).toHaveLength(1);
  });

  it("'Sign out other sessions': only the asking session's device is left", async () => {
    const { giver, b, deviceA, deviceB } = await twoSessions('pso');
    expect((await server.request('POST', '/api/sessions/sign-out-others', { token: b.token })).body).toEqual({ signedOut: 2 });
    await giveGift(server, giver, b);
    await runJob();
    expect(pushesTo(deviceA)).toEqual([]);
    expect(pushesTo(deviceB)).toHaveLength(1);
  });

  it("a password change: the other sessions' devices end, the asking browser's goes on with its new session", async () => {
    const { giver, a, b, deviceA, deviceB } = await twoSessions('psp');
    const res = await server.request('PATCH', `/api/users/${b.user._id}`, {
      token: b.token,
      body: { password: 'another-secret', currentPassword: b.password },
    });
    expect(res.status).toBe(200);
    const renewed = { ...b, token: res.headers.get('x-auth-token')!, password: 'another-secret' };
    await giveGift(server, giver, renewed);
    await runJob();
    expect(pushesTo(deviceA)).toEqual([]);
    expect(pushesTo(deviceB)).toHaveLength(1);
    const [row] = await server.deps.db.manager.findBy(PushSubscriptionEntity, { endpoint: deviceB.endpoint });
    expect(row.sessionId).toBe(await sessionIdOf(renewed));
    expect(await server.deps.db.manager.countBy(PushSubscriptionEntity, { endpoint: deviceA.endpoint })).toBe(0);
    expect((await server.request('GET', '/api/push/subscriptions', { token: a.token })).status).toBe(401);
  });

  it("a suspension drops every session's devices; a device from before sessions were recorded stays", async () => {
    const { a, deviceA, deviceB } = await twoSessions('pss');
    const legacy = push.browser();
    await server.deps.db.transaction((em) =>
      em.insert(PushSubscriptionEntity, {
        id: crypto.randomUUID(),
        userId: a.user._id,
        sessionId: null,
        endpoint: legacy.endpoint,
        ...legacy.subscription.keys,
        device: 'Chrome on macOS',
        createdAt: new Date(),
      }),
    );
    await suspendAccount({ db: server.deps.db, realtime: server.deps.realtime }, a.user._id, 'spam');
    const left = await server.deps.db.manager.findBy(PushSubscriptionEntity, { userId: a.user._id });
    expect(left.map((r) => [r.endpoint, r.sessionId])).toEqual([[legacy.endpoint, null]]);
    expect(await server.deps.db.manager.countBy(PushSubscriptionEntity, { endpoint: deviceA.endpoint })).toBe(0);
    expect(await server.deps.db.manager.countBy(PushSubscriptionEntity, { endpoint: deviceB.endpoint })).toBe(0);
  });

  it('a device subscribed as its session ended is neither listed nor pushed to', async () => {
    const { giver, a, b, deviceA, deviceB } = await twoSessions('psx');
    // As if the subscribe had committed just after the revoke: the row is there, its session is not live.
    const idA = await sessionIdOf(a);
    await server.deps.db.transaction((em) => em.update(SessionEntity, { id: idA }, { revokedAt: new Date() }));
    await giveGift(server, giver, b);
    await runJob();
    expect(pushesTo(deviceA)).toEqual([]);
    expect(pushesTo(deviceB)).toHaveLength(1);
    const listed = (await server.request('GET', '/api/push/subscriptions', { token: b.token })).body as { devices: unknown[] };
    expect(listed.devices).toHaveLength(1);
  });
});
