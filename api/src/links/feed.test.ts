import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserEntity } from '../users/entity.js';
import { LinkEntity } from './entity.js';
import { buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';

let server: TestServer;
let ann: TestUser;
let bo: TestUser;
let cy: TestUser;
beforeAll(async () => {
  server = await startTestServer();
  [ann, bo, cy] = await buildUsers(server, 3, 'feed');
  await depositFor(server, ann, 50);
  const made = await server.request('POST', '/links/create', {
    token: ann.token,
    body: {
      creatorUserId: ann.user._id,
      creatorUsername: ann.user.username,
      details: { giveorreceive: 'give', type: 'currency', amount: 5, initialQuantity: 2 },
    },
  });
  expect(made.status).toBe(201);
});
afterAll(() => server?.close());

const feed = (headers: Record<string, string> = {}, token?: string) =>
  fetch(`${server.url}/links/all?page=1`, { headers: { ...headers, ...(token ? { 'x-auth-token': token } : {}) } });

/** Status and ETag of a conditional GET over node:http (fetch turns a request carrying its own If-None-Match into a no-cache one). */
const conditional = (etag: string, token?: string) =>
  new Promise<{ status: number; etag: string | undefined; body: string }>((resolve, reject) => {
    const headers: Record<string, string> = { 'if-none-match': etag, ...(token ? { 'x-auth-token': token } : {}) };
    http
      .get(`${server.url}/links/all?page=1`, { headers }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body }));
      })
      .on('error', reject);
  });

describe('the feed', () => {
  it('is the same answer, with the same ETag, for anyone who asks', async () => {
    const anonymous = await feed();
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('cache-control')).toBe('no-cache');
    const etag = anonymous.headers.get('etag');
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const body = await anonymous.text();
    expect(JSON.parse(body)).toHaveLength(1);
    for (const who of [ann, bo]) {
      const signedIn = await feed({}, who.token);
      expect(signedIn.headers.get('etag'), who.user.username).toBe(etag);
      expect(await signedIn.text(), who.user.username).toBe(body);
    }
  });

  it('answers 304 with no body to a matching If-None-Match, anonymous or signed in', async () => {
    const etag = (await feed()).headers.get('etag')!;
    for (const token of [undefined, bo.token]) {
      const res = await conditional(etag, token);
      expect(res.status).toBe(304);
      expect(res.etag).toBe(etag);
      expect(res.body).toBe('');
    }
    const other = await conditional('W/"something-else"');
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body)).toHaveLength(1);
  });

  it('changes its ETag whenever a link on the page changes (remaining quantity, used up)', async () => {
    const first = (await feed()).headers.get('etag');
    const accepted = await server.request('PUT', '/api/accept-link', { token: bo.token, body: { linkCreatorUsername: ann.user.username } });
    expect(accepted.status).toBe(200);
    expect((await conditional(first!)).status).toBe(200);
    const second = await feed();
    expect(second.headers.get('etag')).not.toBe(first);
    expect((await second.json())[0].details.remainingQuantity).toBe(1);
    // The last use: the link is used up and leaves the feed.
    const last = await server.request('PUT', '/api/accept-link', { token: cy.token, body: { linkCreatorUsername: ann.user.username } });
    expect(last.status).toBe(200);
    const third = await feed();
    expect(third.headers.get('etag')).not.toBe(second.headers.get('etag'));
    expect(await third.json()).toEqual([]);
  });

  it("shows each card as its creator's own list does: dates, amounts and the verified badge", async () => {
    const made = await server.request('POST', '/links/create', {
      token: cy.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 12.5 } },
    });
    expect(made.status).toBe(201);
    await server.deps.db.transaction((em) =>
      em.update(UserEntity, { id: cy.user._id }, { subscribedUntil: new Date(Date.now() + 3600_000) }),
    );
    const [card] = (await server.request<unknown[]>('GET', '/links/all?page=1')).body;
    const own = await server.request<unknown[]>('GET', `/links/profile/${cy.user.username}`, { token: cy.token });
    expect(own.status).toBe(200);
    expect(card).toMatchObject({ creatorUsername: cy.user.username, creatorIsSubscribed: true, details: { amount: 12.5 } });
    expect(card).toEqual(own.body[0]);
  });
});

describe('the kept first page', () => {
  const firstPage = async () => (await server.request<{ id: string; creatorIsSubscribed: boolean }[]>('GET', '/links/all?page=1')).body;
  let cyLinkId = '';
  const cysLink = async () => (await firstPage()).find((c) => c.id === cyLinkId);

  beforeAll(async () => {
    const [card] = await firstPage();
    cyLinkId = card.id;
  });

  it('shows a write committed after it was kept at once', async () => {
    expect(await cysLink()).toMatchObject({ creatorIsSubscribed: true });
    await server.deps.db.transaction((em) => em.update(UserEntity, { id: cy.user._id }, { subscribedUntil: null }));
    expect(await cysLink()).toMatchObject({ creatorIsSubscribed: false });
  });

  it('drops a badge that ends, and then a link that expires, with nothing written in between', async () => {
    const soon = (ms: number) => new Date(Date.now() + ms);
    await server.deps.db.transaction(async (em) => {
      await em.update(UserEntity, { id: cy.user._id }, { subscribedUntil: soon(700) });
      await em.update(LinkEntity, { id: cyLinkId }, { expiresAt: soon(1400) });
    });
    expect(await cysLink()).toMatchObject({ creatorIsSubscribed: true });
    await new Promise((r) => setTimeout(r, 800));
    expect(await cysLink()).toMatchObject({ creatorIsSubscribed: false });
    await new Promise((r) => setTimeout(r, 700));
    expect(await cysLink()).toBeUndefined();
  });
});
