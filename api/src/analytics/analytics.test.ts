import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { ANALYTICS_DETAILS_MAX_BYTES, ENVELOPE_RULES, EVENT_RULES, type AnalyticsEventType } from '../../contract/analytics.js';
import { AnalyticsEventEntity, type AnalyticsEvent } from './entity.js';
import { ANALYTICS_PER_SESSION_PER_MINUTE } from './routes.js';

let server: TestServer;
let member: TestUser;
let other: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  [member, other] = await buildUsers(server, 2, 'an');
});
afterAll(() => server?.close());

const PAGE = 'http://localhost:3000/link/someone?utm_source=instagram';

interface Send {
  session?: string;
  token?: string;
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
}

const logEvent = (type: string, details: unknown, send: Send = {}) =>
  server.request('POST', '/analytics/log-event', {
    token: send.token,
    headers: send.headers,
    body: {
      session_id: send.session ?? crypto.randomUUID(),
      user_id: null,
      event_type: type,
      event_details: details,
      page_url: PAGE,
      ...send.body,
    },
  });

/** The rows stored for a session, once `count` of them are written (ingestion writes in batches, shortly after the 204). */
async function rowsOf(sessionId: string, count: number): Promise<AnalyticsEvent[]> {
  for (let i = 0; i < 100; i++) {
    const rows = await server.deps.db.manager.find(AnalyticsEventEntity, { where: { sessionId }, order: { createdAt: 'ASC' } });
    if (rows.length >= count) return rows;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`expected ${count} analytics rows for ${sessionId}`);
}

/** Sends a control event after `work` and waits for it: whatever `work` stored is written by then. */
async function afterControl(sessionId: string): Promise<AnalyticsEvent[]> {
  const control = crypto.randomUUID();
  expect((await logEvent('bankTransaction', { type: 'deposit', amount: 1 }, { session: control })).status).toBe(204);
  await rowsOf(control, 1);
  return server.deps.db.manager.find(AnalyticsEventEntity, { where: { sessionId } });
}

const valid: Record<AnalyticsEventType, Record<string, unknown>> = {
  linkTransaction: { _id: 'link-1', details: { type: 'currency', amount: 5 } },
  wishlistTransaction: { name: 'Mug', price: 12.5, shippingPrice: 0, itemId: 'v1|123|0' },
  linkShare: { giveorreceive: 'give', type: 'item' },
  bankTransaction: { type: 'deposit', amount: 20 },
};

describe('POST /analytics/log-event', () => {
  it.each(Object.entries(valid))('accepts %s with its required fields and stores its emitted record', async (type, details) => {
    const session = crypto.randomUUID();
    const res = await logEvent(type, details, { session, token: member.token, body: { user_id: member.user._id } });
    expect(res.status).toBe(204);
    const [row] = await rowsOf(session, 1);
    expect(row).toMatchObject({ eventType: type, userId: member.user._id, pageUrl: PAGE });
    const record = JSON.parse(row.eventDetails!);
    expect(record.page_url).toBe(PAGE);
    expect(new Date(record.timestamp).toISOString()).toBe(record.timestamp);
    expect(record.user_agent).toMatch(/Mozilla|node/);
  });

  it('emits the records of PRODUCT.md §3: defaults for missing fields, extra data kept, identities dropped', async () => {
    const session = crypto.randomUUID();
    const sent: [AnalyticsEventType, Record<string, unknown>][] = [
      ['linkTransaction', { _id: 'l1', details: { type: 'item' }, action: 'give', creatorUserId: other.user._id }],
      ['linkShare', { type: 'currency', platform: 'instagram', user_id: other.user._id }],
      ['bankTransaction', { type: 'withdrawal', amount: -3, new_balance: 97 }],
      ['wishlistTransaction', { price: 3, shippingPrice: 0, itemId: 'i', note: 'extra' }],
    ];
    for (const [type, details] of sent) expect((await logEvent(type, details, { session })).status).toBe(204);
    const rows = await rowsOf(session, 4);
    const records = Object.fromEntries(rows.map((r) => [r.eventType, JSON.parse(r.eventDetails!)]));
    expect(records.linkTransaction).toMatchObject({ link_id: 'l1', link_type: 'item', link_amount: 0, action: 'give' });
    expect(records.linkShare).toMatchObject({
      initial_quantity: null,
      give_receive: null,
      link_type: 'currency',
      total_cost: null,
      title: null,
      item_id: null,
      platform: 'instagram',
    });
    expect(records.bankTransaction).toMatchObject({ type: 'withdrawal', amount: -3 });
    expect(records.bankTransaction).not.toHaveProperty('new_balance');
    expect(records.wishlistTransaction).toEqual(
      expect.objectContaining({ item_name: null, item_price: 3, item_shipping: 0, item_id: 'i' }),
    );
    expect(records.wishlistTransaction).not.toHaveProperty('note');
    expect(JSON.stringify(records)).not.toContain(other.user._id);
    for (const r of rows) expect(r.userId).toBeNull();
  });

  const broken: [AnalyticsEventType, unknown, string][] = [
    ['linkTransaction', { details: { type: 'currency' } }, EVENT_RULES.linkId],
    ['linkTransaction', { _id: '', details: { type: 'currency' } }, EVENT_RULES.linkId],
    ['linkTransaction', { _id: 'l' }, EVENT_RULES.linkDetails],
    ['linkTransaction', { _id: 'l', details: {} }, EVENT_RULES.linkDetails],
    ['linkTransaction', { _id: 'l', details: { amount: 3 } }, EVENT_RULES.linkType],
    ['linkTransaction', { _id: 'l', details: { type: 'currency', amount: '3' } }, EVENT_RULES.linkAmount],
    ['wishlistTransaction', { name: 4, price: 1, shippingPrice: 0, itemId: 'i' }, EVENT_RULES.itemName],
    ['wishlistTransaction', { price: 0, shippingPrice: 0, itemId: 'i' }, EVENT_RULES.itemPrice],
    ['wishlistTransaction', { price: '12', shippingPrice: 0, itemId: 'i' }, EVENT_RULES.itemPrice],
    ['wishlistTransaction', { price: 1, shippingPrice: 'Calculated', itemId: 'i' }, EVENT_RULES.itemShipping],
    ['wishlistTransaction', { price: 1, shippingPrice: 0, itemId: '' }, EVENT_RULES.itemId],
    ['wishlistTransaction', { price: 1, shippingPrice: 0 }, EVENT_RULES.itemId],
    ['linkShare', {}, EVENT_RULES.nonEmpty],
    ['linkShare', null, EVENT_RULES.nonEmpty],
    ['linkShare', { giveorreceive: 1, type: 'item' }, EVENT_RULES.giveOrReceive],
    ['linkShare', { giveorreceive: 'give' }, EVENT_RULES.linkType],
    ['linkShare', { giveorreceive: 'give', type: '' }, EVENT_RULES.linkType],
    ['bankTransaction', {}, EVENT_RULES.nonEmpty],
    ['bankTransaction', [], EVENT_RULES.nonEmpty],
    ['bankTransaction', { type: 7, amount: 5 }, EVENT_RULES.bankType],
    ['bankTransaction', { type: 'deposit', amount: 0 }, EVENT_RULES.bankAmount],
    ['bankTransaction', { type: 'deposit' }, EVENT_RULES.bankAmount],
  ];
  it.each(broken)('refuses %s %j with PRODUCT.md §5’s message', async (type, details, message) => {
    const session = crypto.randomUUID();
    const res = await logEvent(type, details, { session });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'validation_failed', message });
    expect(await afterControl(session)).toEqual([]);
  });

  it('refuses a bad envelope: a session id that is not a UUID, an unknown event type, an oversize payload', async () => {
    expect((await logEvent('linkShare', valid.linkShare, { session: 'not-a-uuid' })).body.message).toBe(ENVELOPE_RULES.sessionId);
    expect((await logEvent('purchase', valid.linkShare)).body).toEqual({ error: 'validation_failed', message: ENVELOPE_RULES.eventType });
    const big = await logEvent('linkShare', { ...valid.linkShare, pad: 'x'.repeat(ANALYTICS_DETAILS_MAX_BYTES) });
    expect(big.status).toBe(413);
    expect(big.body.message).toBe(ENVELOPE_RULES.detailsTooLarge);
  });

  it('stores nothing under Sec-GPC: 1, and still answers 204', async () => {
    const session = crypto.randomUUID();
    const headers = { 'sec-gpc': '1' };
    expect((await logEvent('bankTransaction', valid.bankTransaction, { session, headers, token: member.token })).status).toBe(204);
    const start = await server.request('POST', '/analytics/start-session', { headers, body: { session_id: session, user_id: null } });
    const view = await server.request('POST', '/analytics/pageview', {
      headers,
      body: { session_id: session, user_id: null, page_url: PAGE },
    });
    expect([start.status, view.status]).toEqual([204, 204]);
    expect(await afterControl(session)).toEqual([]);
  });

  it('takes the user from the session: a body naming someone else is refused and stored under no one', async () => {
    const session = crypto.randomUUID();
    const asMember = await logEvent('linkShare', valid.linkShare, { session, token: member.token, body: { user_id: other.user._id } });
    expect(asMember.status).toBe(403);
    const anonymous = await logEvent('linkShare', valid.linkShare, { session, body: { user_id: other.user._id } });
    expect(anonymous.status).toBe(403);
    expect(await afterControl(session)).toEqual([]);
    expect(await server.deps.db.manager.countBy(AnalyticsEventEntity, { userId: other.user._id })).toBe(0);

    // Naming no one, or yourself: stored under the session's user (or none, counted by session).
    expect((await logEvent('linkShare', valid.linkShare, { session, token: member.token })).status).toBe(204);
    expect((await logEvent('linkShare', valid.linkShare, { session })).status).toBe(204);
    const rows = await rowsOf(session, 2);
    expect(rows.map((r) => r.userId).sort()).toEqual([member.user._id, null].sort());
  });
});

describe('POST /analytics/start-session and /analytics/pageview', () => {
  it('records a session start and page views by session, with the signed-in user', async () => {
    const session = crypto.randomUUID();
    expect((await server.request('POST', '/analytics/start-session', { body: { session_id: session, user_id: null } })).status).toBe(204);
    for (const page of ['/', '/link/someone'])
      expect(
        (
          await server.request('POST', '/analytics/pageview', {
            token: member.token,
            body: { session_id: session, user_id: member.user._id, page_url: page },
          })
        ).status,
      ).toBe(204);
    const rows = await rowsOf(session, 3);
    expect(rows.map((r) => [r.eventType, r.userId, r.pageUrl])).toEqual([
      ['sessionStart', null, null],
      ['pageview', member.user._id, '/'],
      ['pageview', member.user._id, '/link/someone'],
    ]);
    const bad = await server.request('POST', '/analytics/pageview', { body: { session_id: session, page_url: 'x'.repeat(3000) } });
    expect(bad.body.message).toBe(ENVELOPE_RULES.pageUrl);
  });
});

describe('rate limits', () => {
  it(`lets one browser session make ${ANALYTICS_PER_SESSION_PER_MINUTE} calls a minute`, async () => {
    const session = crypto.randomUUID();
    const body = { session_id: session, user_id: null, page_url: '/' };
    const answers = await Promise.all(
      Array.from({ length: ANALYTICS_PER_SESSION_PER_MINUTE }, () => server.request('POST', '/analytics/pageview', { body })),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([204]));
    const over = await server.request('POST', '/analytics/pageview', { body });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits one client however many sessions it makes up', async () => {
    const small = await startTestServer({ API_RATE_LIMIT: '40' });
    try {
      const send = () => small.request('POST', '/analytics/pageview', { body: { session_id: crypto.randomUUID(), page_url: '/' } });
      const answers = [];
      for (let i = 0; i < 21; i++) answers.push((await send()).status);
      expect(answers.slice(0, 20)).toEqual(Array(20).fill(204));
      expect(answers[20]).toBe(429);
    } finally {
      await small.close();
    }
  });
});
