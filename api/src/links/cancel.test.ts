import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkEntity } from './entity.js';
import { LedgerEntryEntity } from '../money/entity.js';
import { balanceOf, escrowAccount } from '../money/ledger.js';
import { LINK_GONE } from '../../contract/texts.js';
import type { CancelLinkResponse, LinkView } from '../../contract/links.js';
import { balanceOfUser, buildUsers, depositFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { expectLedgerSound } from '../testing/ledger.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** A funded owner with an open give link of `quantity` uses of $`amount`. */
async function giveLink(owner: TestUser, amount: number, quantity: number): Promise<LinkView> {
  await depositFor(server, owner, amount * quantity);
  const res = await server.request<LinkView>('POST', '/links/create', {
    token: owner.token,
    body: { details: { giveorreceive: 'give', type: 'currency', amount, initialQuantity: quantity } },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const cancel = (who: TestUser, linkId: string) =>
  server.request<CancelLinkResponse>('DELETE', `/api/links/${linkId}`, { token: who.token });
const accept = (who: TestUser, owner: TestUser) =>
  server.request('PUT', '/api/accept-link', { token: who.token, body: { linkCreatorUsername: owner.user.username } });
const escrowOf = (linkId: string) => balanceOf(server.deps.db.manager, escrowAccount(linkId));
/** How many refunds left the link's escrow. */
const refundsOf = (linkId: string) =>
  server.deps.db.manager
    .createQueryBuilder(LedgerEntryEntity, 'e')
    .innerJoin('ledger_transfers', 't', 't.id = e.transfer_id')
    .where('e.account = :account AND t.kind = :kind', { account: escrowAccount(linkId), kind: 'refund' })
    .getCount();

describe('DELETE /api/links/{linkId}', () => {
  it('closes the owner’s give link and refunds its unused escrow exactly once', async () => {
    const [owner, friend] = await buildUsers(server, 2, 'cnl');
    const link = await giveLink(owner, 5, 3);
    expect(await accept(friend, owner)).toMatchObject({ status: 200 });
    expect(await balanceOfUser(server, owner)).toBe(0);

    const res = await cancel(owner, link.id);
    expect(res.status).toBe(200);
    expect(res.body.refunded).toBe(10);
    expect(res.body.link.status).toBe('expired');
    expect(await balanceOfUser(server, owner)).toBe(10);
    expect(await escrowOf(link.id)).toBe(0);
    expect(await refundsOf(link.id)).toBe(1);

    // Visitors see the link as gone; a second cancel is refused and moves nothing.
    const visit = await server.request('POST', `/links/${owner.user.username}`, { token: friend.token, body: {} });
    expect(visit.status).toBe(410);
    expect(visit.body).toMatchObject({ message: LINK_GONE });
    expect((await cancel(owner, link.id)).status).toBe(410);
    expect(await balanceOfUser(server, owner)).toBe(10);
    expect(await refundsOf(link.id)).toBe(1);
    await expectLedgerSound(server.deps.db);
  });

  it('refuses anyone but the owner, a receive link and a bad id', async () => {
    const [owner, other] = await buildUsers(server, 2, 'cnl');
    const link = await giveLink(owner, 4, 2);
    expect((await cancel(other, link.id)).status).toBe(403);
    expect(await escrowOf(link.id)).toBe(800);
    expect((await server.request('DELETE', `/api/links/${link.id}`)).status).toBe(401);
    expect((await cancel(owner, 'not-an-id')).status).toBe(400);
    expect((await cancel(owner, '0190a0b0-0000-7000-8000-000000000000')).status).toBe(404);

    const [asker] = await buildUsers(server, 1, 'cnl');
    const receive = await server.request<LinkView>('POST', '/links/create', {
      token: asker.token,
      body: { details: { giveorreceive: 'receive', type: 'currency', amount: 5, quantity: 2 } },
    });
    const refused = await cancel(asker, receive.body.id);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'not_a_give_link' });
  });

  it('replays the same answer for the same Idempotency-Key', async () => {
    const [owner] = await buildUsers(server, 1, 'cnl');
    const link = await giveLink(owner, 3, 2);
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await server.request('DELETE', `/api/links/${link.id}`, { token: owner.token, headers });
    const again = await server.request('DELETE', `/api/links/${link.id}`, { token: owner.token, headers });
    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(await balanceOfUser(server, owner)).toBe(6);
    expect(await refundsOf(link.id)).toBe(1);
  });

  it('never moves more than the escrow when accepts race the cancel', async () => {
    for (let round = 0; round < 7; round += 1) {
      const [owner, ...friends] = await buildUsers(server, 7, 'cnr');
      const link = await giveLink(owner, 2, 5);
      // The cancel is sent after `round` of the accepts, so each round races it at another point.
      const racing = friends.map((f) => () => accept(f, owner));
      racing.splice(round, 0, () => cancel(owner, link.id));
      const answers = await Promise.all(racing.map((go) => go()));
      const [cancelled] = answers.splice(round, 1) as [Awaited<ReturnType<typeof cancel>>];
      const accepts = answers;
      const accepted = accepts.filter((a) => a.status === 200).length;
      for (const a of accepts) expect([200, 410]).toContain(a.status);
      expect(cancelled.status === 200 || accepted === 5).toBe(true);
      const refunded = await balanceOfUser(server, owner);
      const received = (await Promise.all(friends.map((f) => balanceOfUser(server, f)))).reduce((a, b) => a + b, 0);
      // The gifts and the refund add up to the escrow, never more.
      expect(received).toBe(accepted * 2);
      expect(refunded + received).toBe(10);
      if (cancelled.status === 200) expect(cancelled.body.refunded).toBe(refunded);
      expect(await escrowOf(link.id)).toBe(0);
      const row = await server.deps.db.manager.findOneByOrFail(LinkEntity, { id: link.id });
      expect(row.status).not.toBe('active');
      expect(row.initialQuantity - row.remainingQuantity).toBe(accepted);
      await expectLedgerSound(server.deps.db);
    }
  });
});
