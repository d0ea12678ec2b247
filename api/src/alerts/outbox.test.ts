import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveGift } from '../realtime/testing.js';
import { buildUser, buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { SubscriptionEntity } from '../subscriptions/entity.js';
import { remindRenewals } from '../subscriptions/renewals.js';
import { AlertEntity, type Alert } from './entity.js';

/** The outbox is written where the events happen, in their transactions: each event's alert row, and nothing more. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const alertsOf = (who: TestUser): Promise<Alert[]> =>
  server.deps.db.manager.find(AlertEntity, { where: { userId: who.user._id }, order: { createdAt: 'ASC' } });

describe('the alerts outbox', () => {
  it("a gift writes one 'gift' alert for its recipient, carrying the message's id and nothing about the giver", async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'alg');
    const { conversationId } = await giveGift(server, giver, recipient);
    const alerts = await alertsOf(recipient);
    const gifts = alerts.filter((a) => a.kind === 'gift');
    expect(gifts).toHaveLength(1);
    expect(gifts[0]).toMatchObject({ conversationId, emailState: 'pending' });
    expect(Object.keys(JSON.parse(gifts[0].payload))).toEqual(['messageId']);
    expect(JSON.stringify(gifts[0])).not.toContain(giver.user._id);
    expect((await alertsOf(giver)).filter((a) => a.kind === 'gift')).toHaveLength(0);
  });

  it('accepting a give link writes no gift alert for the one who accepted it', async () => {
    const [creator, accepter] = await buildUsers(server, 2, 'ala');
    await depositFor(server, creator, 10);
    const link = await server.request('POST', '/links/create', {
      token: creator.token,
      body: { details: { giveorreceive: 'give', type: 'currency', amount: 2, initialQuantity: 1 } },
    });
    expect(link.status).toBe(201);
    const accepted = await server.request('PUT', '/api/accept-link', {
      token: accepter.token,
      body: { linkCreatorUsername: creator.user.username },
    });
    expect(accepted.status).toBe(200);
    expect((await alertsOf(accepter)).filter((a) => a.kind === 'gift')).toEqual([]);
    expect((await alertsOf(creator)).filter((a) => a.kind === 'gift')).toEqual([]);
  });

  it("each message writes one 'message' alert for the other member, none for its sender", async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'alm');
    const { conversationId } = await giveGift(server, giver, recipient);
    for (const text of ['one', 'two', 'three']) {
      const res = await server.request('POST', '/messages/send', { token: giver.token, body: { conversationId, text } });
      expect(res.status).toBe(201);
    }
    const messages = (await alertsOf(recipient)).filter((a) => a.kind === 'message');
    expect(messages).toHaveLength(3);
    for (const m of messages) expect(m.conversationId).toBe(conversationId);
    expect((await alertsOf(giver)).filter((a) => a.kind === 'message')).toHaveLength(0);
  });

  it('a sign-in from a device the user has not used writes new_sign_in; the same device again does not', async () => {
    const who = await buildUser(server);
    expect(await alertsOf(who)).toEqual([]);
    const login = (userAgent: string) =>
      server.request('POST', '/api/auth/login', {
        body: { email: who.user.email, password: who.password },
        headers: { 'user-agent': userAgent },
      });
    expect((await login('Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0')).status).toBe(200);
    expect((await alertsOf(who)).map((a) => a.kind)).toEqual(['new_sign_in']);
    expect((await login('Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0')).status).toBe(200);
    expect((await alertsOf(who)).map((a) => a.kind)).toEqual(['new_sign_in']);
  });

  it('a password change and an email change write their security alerts', async () => {
    const who = await buildUser(server);
    let token = who.token;
    const patch = (body: Record<string, unknown>) => server.request('PATCH', `/api/users/${who.user._id}`, { token, body });
    const changed = await patch({ password: 'another-pass-1', currentPassword: who.password });
    expect(changed.status).toBe(200);
    token = changed.headers.get('x-auth-token')!;
    expect((await patch({ email: `moved${who.user._id.slice(0, 6)}@example.com`, currentPassword: 'another-pass-1' })).status).toBe(200);
    const kinds = (await alertsOf(who)).map((a) => a.kind);
    expect(kinds).toEqual(['password_changed', 'email_changed']);
    const moved = (await alertsOf(who)).find((a) => a.kind === 'email_changed');
    expect(JSON.parse(moved!.payload)).toEqual({ previousEmail: who.user.email });
  });

  it("'renews tomorrow' is written once per period, only within a day of the renewal and not when canceled", async () => {
    const [renews, cancels] = await buildUsers(server, 2, 'alr');
    const now = new Date();
    const end = new Date(now.getTime() + 20 * 3600_000);
    for (const [who, cancelAtPeriodEnd] of [
      [renews, false],
      [cancels, true],
    ] as const)
      await server.deps.db.transaction((em) =>
        em.insert(SubscriptionEntity, {
          id: crypto.randomUUID(),
          userId: who.user._id,
          provider: 'balance',
          status: 'active',
          paymentMethod: 'balance',
          providerSubscriptionId: null,
          providerCustomerId: null,
          paymentIntentId: null,
          currentPeriodEnd: end,
          cancelAtPeriodEnd,
          createdAt: now,
          updatedAt: now,
        }),
      );
    const soon = (who: TestUser) => alertsOf(who).then((all) => all.filter((a) => a.kind === 'subscription_renews_soon'));
    await remindRenewals(server.deps, new Date(end.getTime() - 25 * 3600_000));
    expect(await soon(renews)).toHaveLength(0);
    await remindRenewals(server.deps, now);
    await remindRenewals(server.deps, new Date(now.getTime() + 600_000));
    expect(await soon(renews)).toHaveLength(1);
    expect(await soon(cancels)).toHaveLength(0);
  });
});
