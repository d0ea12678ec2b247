import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_PRODUCT_ID } from '../../contract/subscriptions.js';
import { buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ COMMUNITY_INVITE_URL: 'https://discord.example.com/invite/giftlink' });
});
afterAll(() => server?.close());
// Each test that moves the clock puts it back.
afterEach(() => {
  server.deps.clock = () => new Date();
});

const DAY = 24 * 60 * 60 * 1000;
const post = (who: TestUser | undefined, path: string, body: unknown) => server.request('POST', path, { token: who?.token, body });
const info = async (who: TestUser) => {
  const res = await server.request('GET', `/subscriptions/get-subscription-info/${who.user._id}`, { token: who.token });
  expect(res.status).toBe(200);
  return res.body.subscriptionInfo;
};
const profile = async (viewer: TestUser, of: TestUser) => {
  const res = await server.request('GET', `/api/users?username=${of.user.username}`, { token: viewer.token });
  expect(res.status).toBe(200);
  return res.body;
};

/** The owner's own link metrics (opening one's own link page). */
const metricsOf = async (owner: TestUser) => {
  const res = await post(owner, `/links/${owner.user.username}`, {});
  expect(res.status).toBe(200);
  return res.body.updatedLink.metrics;
};

/** Starts a card subscription and confirms it with `card` in the sandbox; answers the confirm reply. */
async function payWithCard(who: TestUser, card: string) {
  const intent = await post(who, '/subscriptions/create-payment-intent', { userId: who.user._id, productId: SUBSCRIPTION_PRODUCT_ID });
  expect(intent.status).toBe(200);
  expect(intent.body.clientSecret).toEqual(expect.any(String));
  const confirm = await post(who, '/subscriptions/sandbox/confirm', {
    clientSecret: intent.body.clientSecret,
    cardNumber: card,
    expiry: '12/40',
    cvc: '123',
  });
  return { clientSecret: intent.body.clientSecret as string, confirm };
}

async function subscribeWithCard(who: TestUser) {
  const { confirm } = await payWithCard(who, '4242 4242 4242 4242');
  expect(confirm.status).toBe(200);
  expect(confirm.body.status).toBe('succeeded');
  const created = await post(who, '/subscriptions/create-subscription', {
    userId: who.user._id,
    productId: SUBSCRIPTION_PRODUCT_ID,
    paymentIntentId: confirm.body.paymentIntentId,
  });
  expect(created.status).toBe(200);
  return created.body.subscriptionId as string;
}

describe('the sandbox subscription flow', () => {
  it('config says the sandbox, in test mode, at $1.99', async () => {
    const res = await server.request('GET', '/subscriptions/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ provider: 'sandbox', testMode: true, publishableKey: null, price: 1.99 });
  });

  it('4242 → active: the badge for everyone and the benefits unlocked, until the clock passes the end after a cancel', async () => {
    const [sub, other] = await buildUsers(server, 2, 'flow');
    // Before: no badge, no one else's links, no community.
    expect((await profile(other, sub)).isSubscribed).toBe(false);
    expect((await server.request('GET', `/links/profile/${other.user.username}`, { token: sub.token })).status).toBe(403);
    expect(await info(sub)).toMatchObject({ status: null, isSubscribed: false, communityInviteUrl: null, id: null });
    const link = await post(sub, '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } });
    expect(link.status).toBe(201);
    expect(await metricsOf(sub)).not.toHaveProperty('breakdown');

    const subscriptionId = await subscribeWithCard(sub);
    const now = await info(sub);
    expect(now).toMatchObject({
      status: 'active',
      id: subscriptionId,
      cancelAtPeriodEnd: false,
      paymentMethod: 'card',
      isSubscribed: true,
    });
    expect(now.communityInviteUrl).toBe('https://discord.example.com/invite/giftlink');
    const end = new Date(now.subscriptionEndDate).getTime();
    expect(end - Date.now()).toBeGreaterThan(7 * DAY - 60_000);
    expect(end - Date.now()).toBeLessThanOrEqual(7 * DAY);

    // The badge, seen by another user; and the private shape agrees.
    expect((await profile(other, sub)).isSubscribed).toBe(true);
    expect((await profile(sub, sub)).isSubscribed).toBe(true);
    expect(typeof (await profile(sub, sub)).stripeCustomerId).toBe('string');
    // Benefit: other users' links on their profiles.
    expect((await server.request('GET', `/links/profile/${other.user.username}`, { token: sub.token })).status).toBe(200);
    // Benefit: the visitor breakdown on the owner's link metrics.
    expect(await metricsOf(sub)).toHaveProperty('breakdown');

    // Subscribing again while running charges nothing and answers the same subscription.
    const again = await post(sub, '/subscriptions/create-payment-intent', { productId: SUBSCRIPTION_PRODUCT_ID });
    expect(again.status).toBe(409);

    // Cancel: still subscribed until the end date.
    const cancel = await post(sub, '/subscriptions/cancel', {
      userId: sub.user._id,
      stripeCustomerId: null,
      stripeSubscriptionId: subscriptionId,
    });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toEqual({ isCanceled: true });
    expect(await info(sub)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
      isSubscribed: true,
      subscriptionEndDate: now.subscriptionEndDate,
    });
    expect((await profile(other, sub)).isSubscribed).toBe(true);

    // A minute before the end: still on. Past the end: off, with no one acting.
    server.deps.clock = () => new Date(end - 60_000);
    expect((await profile(other, sub)).isSubscribed).toBe(true);
    server.deps.clock = () => new Date(end + 1);
    expect((await profile(other, sub)).isSubscribed).toBe(false);
    expect(await info(sub)).toMatchObject({ status: 'canceled', isSubscribed: false, communityInviteUrl: null });
  });

  it('subscribing again while canceled but not ended resumes it without a second charge', async () => {
    const [who] = await buildUsers(server, 1, 'resume');
    const id = await subscribeWithCard(who);
    const before = await info(who);
    expect((await post(who, '/subscriptions/cancel', {})).body).toEqual({ isCanceled: true });
    const intent = await post(who, '/subscriptions/create-payment-intent', { productId: SUBSCRIPTION_PRODUCT_ID });
    expect(intent.status).toBe(409);
    expect(intent.body.error).toBe('subscription_resumable');
    const resumed = await post(who, '/subscriptions/create-subscription', { productId: SUBSCRIPTION_PRODUCT_ID });
    expect(resumed.status).toBe(200);
    expect(resumed.body.subscriptionId).toBe(id);
    expect(await info(who)).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
      isSubscribed: true,
      subscriptionEndDate: before.subscriptionEndDate,
    });
  });

  it('4000…0002 is declined with its message and nothing changes; 9995 and unknown cards too', async () => {
    const [who, other] = await buildUsers(server, 2, 'decl');
    const declined = await payWithCard(who, '4000000000000002');
    expect(declined.confirm.status).toBe(402);
    expect(declined.confirm.body).toMatchObject({ error: 'card_declined', message: 'Your card was declined.' });
    const poor = await post(who, '/subscriptions/sandbox/confirm', {
      clientSecret: declined.clientSecret,
      cardNumber: '4000 0000 0000 9995',
      expiry: '12/40',
      cvc: '123',
    });
    expect(poor.status).toBe(402);
    expect(poor.body.message).toBe('Your card has insufficient funds.');
    const unknown = await post(who, '/subscriptions/sandbox/confirm', {
      clientSecret: declined.clientSecret,
      cardNumber: '5555555555554444',
      expiry: '12/40',
      cvc: '123',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/4242 4242 4242 4242/);
    // Nothing is paid: create-subscription with the unconfirmed intent is refused with the product's text.
    const paymentIntentId = declined.clientSecret.split('_secret_')[0];
    const created = await post(who, '/subscriptions/create-subscription', { productId: SUBSCRIPTION_PRODUCT_ID, paymentIntentId });
    expect(created.status).toBe(402);
    expect(created.body.message).toBe('Payment setup is incomplete. Please try again.');
    expect(await info(who)).toMatchObject({ status: 'incomplete', isSubscribed: false, subscriptionEndDate: null });
    expect((await profile(other, who)).isSubscribed).toBe(false);
    // Another user cannot confirm this user's payment with its client secret.
    const stolen = await post(other, '/subscriptions/sandbox/confirm', {
      clientSecret: declined.clientSecret,
      cardNumber: '4242424242424242',
      expiry: '12/40',
      cvc: '123',
    });
    expect(stolen.status).toBe(400);
    // The same intent then pays with a good card (the page lets the user try another card).
    const retry = await post(who, '/subscriptions/sandbox/confirm', {
      clientSecret: declined.clientSecret,
      cardNumber: '4242424242424242',
      expiry: '12/40',
      cvc: '123',
    });
    expect(retry.status).toBe(200);
    expect((await post(who, '/subscriptions/create-subscription', { productId: SUBSCRIPTION_PRODUCT_ID, paymentIntentId })).status).toBe(
      200,
    );
    expect((await info(who)).isSubscribed).toBe(true);
  });

  it('a forged isSubscribed in a profile PATCH is ignored', async () => {
    const [who, other] = await buildUsers(server, 2, 'forge');
    const res = await server.request('PATCH', `/api/users/${who.user._id}`, {
      token: who.token,
      body: { bio: 'hi', isSubscribed: true, subscribedUntil: '2099-01-01T00:00:00Z' },
    });
    expect(res.status).toBe(200);
    expect(res.body.isSubscribed).toBe(false);
    expect((await profile(other, who)).isSubscribed).toBe(false);
    expect((await info(who)).isSubscribed).toBe(false);
  });
});

describe('paying with the balance', () => {
  it('moves $1.99 through the ledger, and a short balance is refused with the ledger’s 400', async () => {
    const [poor] = await buildUsers(server, 1, 'poor');
    const refused = await post(poor, '/subscriptions/create-subscription', {
      productId: SUBSCRIPTION_PRODUCT_ID,
      paymentMethod: 'balance',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'insufficient_funds', message: 'Add money to your account balance.' });
    expect(await info(poor)).toMatchObject({ status: null, isSubscribed: false });
  });

  it('is cancelled with the id the info call answers, and never with another id', async () => {
    const [payer, other] = await buildUsers(server, 2, 'payer');
    await depositFor(server, payer, 10);
    await depositFor(server, other, 10);
    for (const who of [payer, other])
      expect(
        (await post(who, '/subscriptions/create-subscription', { productId: SUBSCRIPTION_PRODUCT_ID, paymentMethod: 'balance' })).status,
      ).toBe(200);
    const mine = await info(payer);
    const theirs = await info(other);
    expect(mine).toMatchObject({ status: 'active', paymentMethod: 'balance', isSubscribed: true });
    expect((await post(payer, '/subscriptions/cancel', { stripeSubscriptionId: theirs.id })).status).toBe(403);
    const cancel = await post(payer, '/subscriptions/cancel', { userId: payer.user._id, stripeSubscriptionId: mine.id });
    expect(cancel.body).toEqual({ isCanceled: true });
    expect(await info(payer)).toMatchObject({ cancelAtPeriodEnd: true, isSubscribed: true });
  });
});

describe('authorization of the four calls', () => {
  const calls: [string, string, (target: TestUser) => string, (target: TestUser) => unknown][] = [
    [
      'POST',
      'create-payment-intent',
      () => '/subscriptions/create-payment-intent',
      (t) => ({ userId: t.user._id, productId: SUBSCRIPTION_PRODUCT_ID }),
    ],
    [
      'POST',
      'create-subscription',
      () => '/subscriptions/create-subscription',
      (t) => ({ userId: t.user._id, productId: SUBSCRIPTION_PRODUCT_ID, paymentMethod: 'balance' }),
    ],
    ['GET', 'get-subscription-info', (t) => `/subscriptions/get-subscription-info/${t.user._id}`, () => undefined],
    ['POST', 'cancel', () => '/subscriptions/cancel', (t) => ({ userId: t.user._id })],
  ];
  it.each(calls)('%s %s: no token 401, another user 403', async (method, _name, path, body) => {
    const [me, them] = await buildUsers(server, 2, 'authz');
    expect((await server.request(method, path(me), { body: body(me) })).status).toBe(401);
    expect((await server.request(method, path(them), { token: me.token, body: body(them) })).status).toBe(403);
  });

  it('an unknown productId is a 400', async () => {
    const [me] = await buildUsers(server, 1, 'prod');
    const intent = await post(me, '/subscriptions/create-payment-intent', { productId: 'giftlink-monthly' });
    expect(intent.status).toBe(400);
    expect(intent.body.error).toBe('unknown_product');
    const create = await post(me, '/subscriptions/create-subscription', { productId: 'nope', paymentMethod: 'balance' });
    expect(create.status).toBe(400);
    expect(create.body.error).toBe('unknown_product');
  });

  it('cancel with someone else’s provider ids is a 403, and with nothing to cancel a 400', async () => {
    const [me] = await buildUsers(server, 1, 'cnl');
    expect((await post(me, '/subscriptions/cancel', {})).status).toBe(400);
    expect((await post(me, '/subscriptions/cancel', { stripeSubscriptionId: 'sub_someone_else' })).status).toBe(403);
    expect((await post(me, '/subscriptions/cancel', { stripeCustomerId: 'cus_someone_else' })).status).toBe(403);
  });
});
