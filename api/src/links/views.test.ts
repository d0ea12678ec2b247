import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateParam } from '../db/dates.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { LinkVisitorEntity } from './entity.js';
import { ANONYMOUS_VISITORS_PER_ADDRESS } from './views.js';

// Behind one proxy hop, so each test can be a client address of its own (X-Forwarded-For).
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '1' });
});
afterAll(() => server?.close());

let addresses = 0;
const newAddress = () => `198.51.100.${(addresses += 1)}`;

interface Opener {
  address: string;
  sessionId?: string;
  token?: string;
}

const open = (creator: TestUser, who: Opener) =>
  server.request<{ updatedLink: { id: string; views: number } }>('POST', `/links/${creator.user.username}`, {
    token: who.token,
    headers: { 'x-forwarded-for': who.address },
    body: who.sessionId === undefined ? {} : { sessionId: who.sessionId },
  });

/** `times` opens, `batch` at a time in parallel; every one must answer 200. */
async function openMany(creator: TestUser, who: Opener, times: number, batch = 50): Promise<void> {
  for (let done = 0; done < times; done += batch) {
    const answers = await Promise.all(Array.from({ length: Math.min(batch, times - done) }, () => open(creator, who)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
  }
}

/** The owner's metrics, as the owner's own open answers them. */
async function metrics(creator: TestUser): Promise<{ views: number; visitorCount: number }> {
  const res = await server.request<{ updatedLink: { metrics: { views: number; visitorCount: number } } }>(
    'POST',
    `/links/${creator.user.username}`,
    { token: creator.token, body: {} },
  );
  expect(res.status).toBe(200);
  return res.body.updatedLink.metrics;
}

async function newLink(prefix: string): Promise<{ creator: TestUser; linkId: string }> {
  const [creator] = await buildUsers(server, 1, prefix);
  const res = await server.request<{ id: string }>('POST', '/links/create', {
    token: creator.token,
    body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5 } },
  });
  expect(res.status).toBe(201);
  return { creator, linkId: res.body.id };
}

const visitorRows = (linkId: string) => server.deps.db.manager.countBy(LinkVisitorEntity, { linkId });

describe('a view counts once per visitor per link per hour', () => {
  it(
    '1,000 opens by one browser session add one view and one visitor row; a different visitor still counts',
    { timeout: 90_000 },
    async () => {
      const { creator, linkId } = await newLink('vs');
      const browser = { address: newAddress(), sessionId: crypto.randomUUID() };
      await openMany(creator, browser, 1000);
      expect(await metrics(creator)).toEqual({ views: 1, visitorCount: 1 });
      expect(await visitorRows(linkId)).toBe(1);

      // Another browser at the same address, and a signed-in user there too, are other visitors.
      const [reader] = await buildUsers(server, 1, 'vr');
      await openMany(creator, { address: browser.address, sessionId: crypto.randomUUID() }, 20);
      await openMany(creator, { address: browser.address, sessionId: browser.sessionId, token: reader.token }, 20);
      expect(await metrics(creator)).toEqual({ views: 3, visitorCount: 3 });
      expect(await visitorRows(linkId)).toBe(3);
    },
  );

  it(
    '1,000 opens by one client without a session, or with ids that are not UUIDs, add one view (its address)',
    { timeout: 90_000 },
    async () => {
      const { creator, linkId } = await newLink('va');
      const address = newAddress();
      await openMany(creator, { address }, 500);
      await openMany(creator, { address, sessionId: 'not-a-uuid' }, 250);
      for (let i = 0; i < 250; i += 50)
        await Promise.all(Array.from({ length: 50 }, (_, k) => open(creator, { address, sessionId: `fake-${i + k}` })));
      expect(await metrics(creator)).toEqual({ views: 1, visitorCount: 1 });
      const [row] = await server.deps.db.manager.findBy(LinkVisitorEntity, { linkId });
      expect(row.visitorKey.startsWith('a:')).toBe(true);
      expect(row.visitorKey).not.toContain(address); // the address itself is never stored

      await openMany(creator, { address: newAddress() }, 10);
      expect(await metrics(creator)).toEqual({ views: 2, visitorCount: 2 });
    },
  );

  it('a signed-in visitor counts once however many opens, from any address', async () => {
    const { creator } = await newLink('vu');
    const [reader] = await buildUsers(server, 1, 'vu');
    await openMany(creator, { address: newAddress(), token: reader.token }, 300);
    await openMany(creator, { address: newAddress(), token: reader.token, sessionId: crypto.randomUUID() }, 100);
    expect(await metrics(creator)).toEqual({ views: 1, visitorCount: 1 });
  });

  it('counts the same visitor again once the hour has passed, without a new visitor row', async () => {
    const { creator, linkId } = await newLink('vh');
    const browser = { address: newAddress(), sessionId: crypto.randomUUID() };
    await openMany(creator, browser, 5);
    const before = await server.deps.db.manager.findOneByOrFail(LinkVisitorEntity, { linkId });
    // 59 minutes later: still the same hour.
    const backdate = (minutes: number) =>
      server.deps.db.transaction((em) =>
        em
          .createQueryBuilder()
          .update(LinkVisitorEntity)
          .set({ countedAt: () => ':at' })
          .setParameter('at', dateParam(em, new Date(Date.now() - minutes * 60_000)))
          .where('id = :id', { id: before.id })
          .execute(),
      );
    await backdate(59);
    await openMany(creator, browser, 5);
    expect(await metrics(creator)).toEqual({ views: 1, visitorCount: 1 });
    await backdate(61);
    await openMany(creator, browser, 20);
    expect(await metrics(creator)).toEqual({ views: 2, visitorCount: 1 });
    const after = await server.deps.db.manager.findOneByOrFail(LinkVisitorEntity, { linkId });
    expect(after.countedAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it(`one address adds at most ${ANONYMOUS_VISITORS_PER_ADDRESS} anonymous visitors to a link per hour, however many session ids it makes up`, async () => {
    const { creator, linkId } = await newLink('vb');
    const address = newAddress();
    const answers = await Promise.all(Array.from({ length: 60 }, () => open(creator, { address, sessionId: crypto.randomUUID() })));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(await metrics(creator)).toEqual({ views: ANONYMOUS_VISITORS_PER_ADDRESS, visitorCount: ANONYMOUS_VISITORS_PER_ADDRESS });
    expect(await visitorRows(linkId)).toBe(ANONYMOUS_VISITORS_PER_ADDRESS);

    // Signed-in visitors and other addresses are not held back by it.
    const [reader] = await buildUsers(server, 1, 'vb');
    await openMany(creator, { address, token: reader.token }, 3);
    await openMany(creator, { address: newAddress(), sessionId: crypto.randomUUID() }, 3);
    expect((await metrics(creator)).views).toBe(ANONYMOUS_VISITORS_PER_ADDRESS + 2);
  });

  it("one browser's racing repeats spend its address's budget for new visitors once", async () => {
    const { creator } = await newLink('vr');
    const address = newAddress();
    // A hundred opens at once by one browser: each may find the view not yet counted, and one counts.
    await openMany(creator, { address, sessionId: crypto.randomUUID() }, 100);
    // The rest of the budget is still there for the other people behind the address.
    for (let i = 1; i < ANONYMOUS_VISITORS_PER_ADDRESS; i += 1) await openMany(creator, { address, sessionId: crypto.randomUUID() }, 1);
    expect(await metrics(creator)).toEqual({ views: ANONYMOUS_VISITORS_PER_ADDRESS, visitorCount: ANONYMOUS_VISITORS_PER_ADDRESS });
    await openMany(creator, { address, sessionId: crypto.randomUUID() }, 1);
    expect((await metrics(creator)).views).toBe(ANONYMOUS_VISITORS_PER_ADDRESS);
  });

  it("the owner's own opens count nothing", async () => {
    const { creator, linkId } = await newLink('vo');
    for (let i = 0; i < 5; i += 1) await metrics(creator);
    expect(await metrics(creator)).toEqual({ views: 0, visitorCount: 0 });
    expect(await visitorRows(linkId)).toBe(0);
  });
});
