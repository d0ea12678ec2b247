import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADULT_BIRTH_DATE, buildUser, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { UserEntity } from '../users/entity.js';
import { InviteEntity } from './entity.js';
import { refillPlan } from './refill.js';

const DAY = 24 * 60 * 60 * 1000;
const config = { invitesPerUser: 3, inviteRefillDays: 7 };

describe('refillPlan', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  it.each([
    // anchor days ago, free, invites added, next invite in days (null: full)
    [0, 0, 0, 7],
    [6.9, 0, 0, 0.1],
    [7, 0, 1, 7],
    [10, 1, 1, 4],
    [15, 0, 2, 6],
    [100, 0, 3, null],
    [100, 2, 1, null],
    [100, 3, 0, null],
    [100, 5, 0, null],
  ])('anchor %s days ago with %s free adds %s, next in %s days', (days, free, add, nextIn) => {
    const plan = refillPlan({ invitesRefilledAt: ago(days), createdAt: ago(1000) }, free, config, now);
    expect(plan.add).toBe(add);
    expect(plan.freeAfter).toBe(free + add);
    if (nextIn === null) expect(plan.nextInviteAt).toBeNull();
    else expect(Math.abs(plan.nextInviteAt!.getTime() - (now.getTime() + nextIn * DAY))).toBeLessThan(1000);
  });

  it('runs from the account’s creation when it has no anchor (accounts from before refill)', () => {
    expect(refillPlan({ invitesRefilledAt: null, createdAt: ago(15) }, 0, config, now).add).toBe(2);
  });
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ INVITES_PER_USER: '3', INVITE_REFILL_DAYS: '7' });
});
afterAll(() => server?.close());

const invitesOf = async (who: TestUser) =>
  (await server.request<{ code: string; status: string }[]>('GET', `/invites/${who.user._id}`, { token: who.token })).body;
const free = async (who: TestUser) => (await invitesOf(who)).filter((i) => i.status === 'available');
const summary = async (who: TestUser) => (await server.request('GET', '/api/invites/summary', { token: who.token })).body;

/** Drives the refill clock: the anchor as if set `days` ago. */
const setAnchorDaysAgo = (who: TestUser, days: number) =>
  server.deps.db.transaction((em) => em.update(UserEntity, { id: who.user._id }, { invitesRefilledAt: new Date(Date.now() - days * DAY) }));
const anchorOf = async (who: TestUser) =>
  (await server.deps.db.manager.findOneByOrFail(UserEntity, { id: who.user._id })).invitesRefilledAt!;

async function useInvites(who: TestUser, count: number): Promise<void> {
  const codes = (await free(who)).slice(0, count).map((i) => i.code);
  await server.deps.db.transaction(async (em) => {
    for (const code of codes) await em.update(InviteEntity, { code }, { status: 'used', usedAt: new Date() });
  });
}

describe('invite refill', () => {
  it('brings back one invite per period since the anchor, never above the cap', async () => {
    const owner = await buildUser(server);
    expect(await summary(owner)).toEqual({ available: 3, max: 3, nextInviteAt: null, refillDays: 7, letVisitorsJoin: true });
    // Full: however long ago, nothing is added.
    await setAnchorDaysAgo(owner, 60);
    expect(await invitesOf(owner)).toHaveLength(3);

    await useInvites(owner, 3);
    await setAnchorDaysAgo(owner, 7.5);
    expect(await free(owner)).toHaveLength(1);
    expect(await invitesOf(owner)).toHaveLength(4);
    const s = await summary(owner);
    expect(s.available).toBe(1);
    // Half a day of the next period has already run.
    expect(Math.abs(new Date(s.nextInviteAt).getTime() - (Date.now() + 6.5 * DAY))).toBeLessThan(60_000);
    // Listing again adds nothing more.
    expect(await invitesOf(owner)).toHaveLength(4);

    await setAnchorDaysAgo(owner, 365);
    expect(await free(owner)).toHaveLength(3);
    expect(await invitesOf(owner)).toHaveLength(6);
    expect((await summary(owner)).nextInviteAt).toBeNull();
  });

  it('refills exactly once when many requests race for it', async () => {
    const owner = await buildUser(server);
    await useInvites(owner, 3);
    await setAnchorDaysAgo(owner, 14.2);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? invitesOf(owner) : server.request('GET', `/api/invites/join/${owner.user.username}`))),
    );
    await Promise.all(Array.from({ length: 10 }, () => invitesOf(owner)));
    expect(await free(owner)).toHaveLength(2);
    expect(await invitesOf(owner)).toHaveLength(5);
  });

  it('starts the clock when a full account uses an invite (a full account’s clock stands still)', async () => {
    const owner = await buildUser(server);
    await setAnchorDaysAgo(owner, 30);
    const [first] = await free(owner);
    const res = await server.request('POST', '/api/auth/register', {
      body: {
        username: 'clockstart',
        email: 'clockstart@example.com',
        password: 'joining',
        dateOfBirth: ADULT_BIRTH_DATE,
        inviteCode: first.code,
      },
    });
    expect(res.status).toBe(201);
    expect(Math.abs((await anchorOf(owner)).getTime() - Date.now())).toBeLessThan(60_000);
    expect(await free(owner)).toHaveLength(2);
    const s = await summary(owner);
    expect(s.available).toBe(2);
    expect(Math.abs(new Date(s.nextInviteAt).getTime() - (Date.now() + 7 * DAY))).toBeLessThan(60_000);
  });
});
