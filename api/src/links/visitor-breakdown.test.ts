import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectThreadsUnlinked, recipientView } from '../testing/anonymity.js';
import { buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';
import { LinkVisitorEntity } from './entity.js';
import type { LinkMetricsView } from '../../contract/links.js';

// Behind one proxy hop, so each visitor is a client address of its own (X-Forwarded-For).
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '1' });
});
afterAll(() => server?.close());

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
let addresses = 0;

async function receiveLink(owner: TestUser): Promise<string> {
  const res = await server.request<{ id: string }>('POST', '/links/create', {
    token: owner.token,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

// Benefits for a week, as a paid subscription gives (subscriptions/policy.ts derives isSubscribed from it).
const subscribe = (who: TestUser) =>
  server.deps.db.transaction((em) =>
    em.update(UserEntity, { id: who.user._id }, { subscribedUntil: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000) }),
  );

interface Visitor {
  token?: string;
  source?: string;
  userAgent?: string;
  headers?: Record<string, string>;
}

const visit = (owner: TestUser, v: Visitor) =>
  server.request('POST', `/links/${owner.user.username}`, {
    token: v.token,
    headers: { 'x-forwarded-for': `203.0.113.${(addresses += 1)}`, ...(v.userAgent ? { 'user-agent': v.userAgent } : {}), ...v.headers },
    body: { sessionId: crypto.randomUUID(), ...(v.source === undefined ? {} : { source: v.source }) },
  });

const metricsOf = async (owner: TestUser): Promise<LinkMetricsView> => {
  const res = await server.request('POST', `/links/${owner.user.username}`, { token: owner.token, body: {} });
  expect(res.status).toBe(200);
  return res.body.updatedLink.metrics;
};

/** Moves the link's visitors' first visits back two hours: the breakdown groups only visitors of past hours. */
const age = (linkId: string) =>
  server.deps.db.transaction((em) => em.update(LinkVisitorEntity, { linkId }, { createdAt: new Date(Date.now() - 2 * 3600_000) }));

describe('the visitor breakdown', () => {
  it('is for a subscribed owner only; everyone else gets the counts', async () => {
    const [owner] = await buildUsers(server, 1, 'bd');
    await receiveLink(owner);
    await visit(owner, {});
    expect(await metricsOf(owner)).toEqual({ views: 1, visitorCount: 1 });
    await subscribe(owner);
    const metrics = await metricsOf(owner);
    expect(metrics).toMatchObject({ views: 1, visitorCount: 1, breakdown: { minimum: 5 } });
  });

  it('keeps where each visitor came from and on what, as one of a few words, at its first visit', async () => {
    const [owner] = await buildUsers(server, 1, 'bs');
    const linkId = await receiveLink(owner);
    const sent: [string | undefined, string][] = [
      ['instagram', 'instagram'],
      ['IG', 'instagram'],
      ['https://t.co/abc', 'x'],
      ['twitter', 'x'],
      ['sms', 'messages'],
      [undefined, 'direct'],
      ['facebook.com', 'other'],
      ['<script>', 'other'],
    ];
    for (const [source] of sent) expect((await visit(owner, { source, userAgent: PHONE })).status).toBe(200);
    const rows = await server.deps.db.manager.find(LinkVisitorEntity, { where: { linkId }, order: { createdAt: 'ASC' } });
    expect(rows.map((r) => r.source).sort()).toEqual(sent.map(([, s]) => s).sort());
    expect(new Set(rows.map((r) => r.device))).toEqual(new Set(['phone']));

    // Global Privacy Control: the view counts, nothing about where from or on what is kept.
    await visit(owner, { source: 'instagram', headers: { 'sec-gpc': '1' } });
    const gpc = await server.deps.db.manager.find(LinkVisitorEntity, { where: { linkId } });
    expect(gpc).toHaveLength(sent.length + 1);
    expect(gpc.filter((r) => r.source === null && r.device === null)).toHaveLength(1);
  });

  it('never singles out a visitor who then gives: nothing the owner can fetch names them, and their cells are hidden', async () => {
    const [owner, giver] = await buildUsers(server, 2, 'bg');
    await subscribe(owner);
    await depositFor(server, giver, 20);
    const linkId = await receiveLink(owner);

    // Six anonymous visitors from Instagram on desktops; one signed-in visitor from X on a phone, who gives.
    for (let i = 0; i < 6; i++) expect((await visit(owner, { source: 'instagram' })).status).toBe(200);
    expect((await visit(owner, { token: giver.token, source: 'x', userAgent: PHONE })).status).toBe(200);
    const give = await server.request('POST', '/statuses/api/gives', { token: giver.token, body: { postId: linkId, amount: 5 } });
    expect(give.status).toBe(201);

    // Within the hour of the visit the breakdown groups no one: a visit just before a gift moves no cell.
    const fresh = await metricsOf(owner);
    expect(fresh).toMatchObject({ views: 7, visitorCount: 7 });
    expect(fresh.breakdown!.sources.map((c) => c.visitors)).toEqual([0, 0, 0, 0, 0]);
    expect(fresh.breakdown!.signedIn).toEqual([
      { group: 'loggedIn', visitors: 0 },
      { group: 'anonymous', visitors: 0 },
    ]);

    await age(linkId);
    const metrics = await metricsOf(owner);
    const breakdown = metrics.breakdown!;
    // The giver alone would be a row (X, signed in, phone): merged with the six instead, never
    // shown as 6 beside a total of 7.
    expect(breakdown.sources).toEqual([
      { group: 'social', visitors: 7 },
      { group: 'direct', visitors: 0 },
      { group: 'other', visitors: 0 },
    ]);
    expect(breakdown.signedIn).toEqual([{ group: 'all', visitors: 7 }]);
    expect(breakdown.devices).toEqual([{ group: 'all', visitors: 7 }]);
    expect(breakdown.grouping).toEqual({ days: 'day', sources: 'kind', signedIn: 'all', devices: 'all' });
    // Per day: counts, no times.
    const today = new Date().toISOString().slice(0, 10);
    expect(breakdown.days).toEqual([{ day: today, lastDay: today, views: 7, visitors: 7 }]);

    // Nothing the owner can fetch names the giver: the metrics, the link, the conversations,
    // notifications and everything else the recipient sees.
    const view = await recipientView(server, owner, { answers: [metrics] });
    expect(view.anonymous).toHaveLength(1);
    expectThreadsUnlinked(view, giver);
    const everything = JSON.stringify([
      metrics,
      view,
      (await server.request('GET', `/links/profile/${owner.user.username}?page=1`, { token: owner.token })).body,
    ]);
    for (const secret of [giver.user._id, giver.user.username, giver.user.email])
      expect(everything.toLowerCase()).not.toContain(secret.toLowerCase());
  });

  it('shows a group once it holds 5 visitors', async () => {
    const [owner, ...members] = await buildUsers(server, 6, 'bf');
    await subscribe(owner);
    const linkId = await receiveLink(owner);
    for (const m of members.slice(0, 5)) await visit(owner, { token: m.token, source: 'messages', userAgent: PHONE });
    for (let i = 0; i < 5; i++) await visit(owner, { source: 'x' });
    await age(linkId);
    const { breakdown } = await metricsOf(owner);
    expect(breakdown!.signedIn).toEqual([
      { group: 'loggedIn', visitors: 5 },
      { group: 'anonymous', visitors: 5 },
    ]);
    expect(breakdown!.devices).toEqual([
      { group: 'phone', visitors: 5 },
      { group: 'desktop', visitors: 5 },
    ]);
    expect(Object.fromEntries(breakdown!.sources.map((c) => [c.group, c.visitors]))).toEqual({
      instagram: 0,
      x: 5,
      messages: 5,
      direct: 0,
      other: 0,
    });
    expect(breakdown!.grouping).toEqual({ days: 'day', sources: 'source', signedIn: 'each', devices: 'each' });
  });

  it('shows a small creator grouped rows, not a blank card', async () => {
    const [owner, ...members] = await buildUsers(server, 4, 'bm');
    await subscribe(owner);
    const linkId = await receiveLink(owner);
    // Twelve visitors: 4 from Instagram and 3 from X (3 of them signed in), 5 direct on desktops.
    for (let i = 0; i < 4; i++) await visit(owner, { source: 'instagram', userAgent: PHONE, token: members[i]?.token });
    for (let i = 0; i < 3; i++) await visit(owner, { source: 'x', userAgent: PHONE });
    for (let i = 0; i < 5; i++) await visit(owner, {});
    await age(linkId);
    const { breakdown, visitorCount } = await metricsOf(owner);
    expect(visitorCount).toBe(12);
    expect(breakdown!.sources).toEqual([
      { group: 'social', visitors: 7 },
      { group: 'direct', visitors: 5 },
      { group: 'other', visitors: 0 },
    ]);
    expect(breakdown!.signedIn).toEqual([{ group: 'all', visitors: 12 }]);
    expect(breakdown!.devices).toEqual([
      { group: 'phone', visitors: 7 },
      { group: 'desktop', visitors: 5 },
    ]);
    expect(breakdown!.grouping).toEqual({ days: 'day', sources: 'kind', signedIn: 'all', devices: 'each' });
    expect(breakdown!.days.map((d) => d.visitors)).toEqual([12]);
  });
});
