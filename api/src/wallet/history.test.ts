import fc from 'fast-check';
import { In } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToDecimal, dollarsToCents } from '../../contract/money.js';
import { CatalogProductEntity } from '../catalog/entity.js';
import { LinkEntity } from '../links/entity.js';
import { sweepExpiredLinks } from '../links/expiry.js';
import { LedgerEntryEntity } from '../money/entity.js';
import { SYSTEM_PAYMENTS, ledgerInvariants, transfer, userAccount } from '../money/ledger.js';
import {
  balanceOfUser,
  buildUsers,
  depositFor,
  readyPayoutsFor,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../testing/server.js';
import type { WishlistResponse } from '../../contract/wishlists.js';
import { csvRow, CSV_HEADER } from './history.js';
import type { MoneyHistoryEntry, MoneyHistoryKind, MoneyHistoryPage } from '../../contract/wallet.js';

let server: TestServer;
let products: { itemId: string; cents: number }[];
beforeAll(async () => {
  server = await startTestServer();
  const rows = await server.deps.db.manager.find(CatalogProductEntity, {
    where: { shippingType: 'FIXED' },
    order: { position: 'ASC' },
    take: 7,
  });
  products = rows.map((p) => ({ itemId: p.itemId, cents: p.priceCents + p.shippingCents }));
});
afterAll(() => server?.close());

const HISTORY = '/api/wallet/history';
const dollars = (cents: number) => centsToDecimal(cents);
const cents = (amount: number) => dollarsToCents(Math.abs(amount))! * Math.sign(amount);

async function historyOf(who: TestUser, query: Record<string, string> = {}): Promise<MoneyHistoryEntry[]> {
  const entries: MoneyHistoryEntry[] = [];
  let before: string | null = null;
  do {
    const params = new URLSearchParams({ ...query, ...(before ? { before } : {}) });
    const res = await server.request<MoneyHistoryPage>('GET', `${HISTORY}?${params}`, { token: who.token });
    expect(res.status).toBe(200);
    entries.push(...res.body.entries);
    before = res.body.nextCursor;
  } while (before);
  return entries;
}

const csvOf = async (who: TestUser, query = '') => {
  const res = await server.request<string>('GET', `${HISTORY}.csv${query}`, { token: who.token });
  expect(res.status).toBe(200);
  return { res, text: typeof res.body === 'string' ? res.body : JSON.stringify(res.body) };
};

const createLink = (who: TestUser, details: Record<string, unknown>) =>
  server.request<{ id: string }>('POST', '/links/create', {
    token: who.token,
    body: { creatorUserId: who.user._id, creatorUsername: who.user.username, details },
  });
const giveTo = (giver: TestUser, linkId: string, amountCents: number) =>
  server.request('POST', '/statuses/api/gives', {
    token: giver.token,
    body: { postId: linkId, type: 'currency', amount: dollars(amountCents) },
  });
const accept = (responder: TestUser, creator: TestUser) =>
  server.request('PUT', '/api/accept-link', { token: responder.token, body: { linkCreatorUsername: creator.user.username } });

async function saveWishlist(owner: TestUser): Promise<string[]> {
  const res = await server.request<WishlistResponse>('PUT', '/wishlists/update', {
    token: owner.token,
    body: { username: owner.user.username, items: products.map((p) => ({ itemId: p.itemId })) },
  });
  expect(res.status).toBe(200);
  return res.body.userWishlist.items.map((i) => i._id);
}
const buy = (buyer: TestUser, owner: TestUser, itemId: string) =>
  server.request('POST', '/wishlists/purchase', {
    token: buyer.token,
    body: { wishlistUsername: owner.user.username, purchaserUserId: buyer.user._id, itemId },
  });

/** Checks one user's history against their balance: sums, running balances, and the ledger's entry count. */
async function expectAddsUp(who: TestUser, entries: MoneyHistoryEntry[]) {
  const balance = cents(await balanceOfUser(server, who));
  expect(entries.reduce((sum, e) => sum + cents(e.amount), 0)).toBe(balance);
  let after = balance;
  for (const e of entries) {
    expect(cents(e.balance)).toBe(after);
    after -= cents(e.amount);
  }
  expect(after).toBe(0);
  const count = await server.deps.db.manager.countBy(LedgerEntryEntity, { account: userAccount(who.user._id) });
  expect(entries).toHaveLength(count);
  for (let i = 1; i < entries.length; i++) expect(entries[i - 1].createdAt >= entries[i].createdAt).toBe(true);
}

type Op =
  | { t: 'deposit' | 'withdraw'; u: number; cents: number }
  | { t: 'receiveLink'; u: number }
  | { t: 'giveLink'; u: number; cents: number; quantity: number }
  | { t: 'give'; u: number; to: number; cents: number }
  | { t: 'accept'; u: number; from: number }
  | { t: 'expire'; u: number }
  | { t: 'buy'; u: number; from: number; item: number };

const PEOPLE = 3;
const who = fc.integer({ min: 0, max: PEOPLE - 1 });
const someCents = fc.integer({ min: 100, max: 4_000 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('deposit' as const), u: who, cents: fc.integer({ min: 100, max: 20_000 }) }),
  fc.record({ t: fc.constant('withdraw' as const), u: who, cents: someCents }),
  fc.record({ t: fc.constant('receiveLink' as const), u: who }),
  fc.record({ t: fc.constant('giveLink' as const), u: who, cents: someCents, quantity: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ t: fc.constant('give' as const), u: who, to: who, cents: someCents }),
  fc.record({ t: fc.constant('accept' as const), u: who, from: who }),
  fc.record({ t: fc.constant('expire' as const), u: who }),
  fc.record({ t: fc.constant('buy' as const), u: who, from: who, item: fc.integer({ min: 0, max: 6 }) }),
);

interface Expected {
  kind: MoneyHistoryKind;
  cents: number;
  /** The username the row may name, or null. */
  party: string | null;
}

/**
 * The expected rows with each run of movements that share one instant (the clock's millisecond)
 * in the order the history gives such a run: money in before money out (then by entry id).
 */
function sameInstantsAsSeen(expected: Expected[], seen: MoneyHistoryEntry[]): Expected[] {
  if (expected.length !== seen.length) return expected;
  const out = [...expected];
  for (let start = 0; start < seen.length;) {
    let end = start + 1;
    while (end < seen.length && seen[end].createdAt === seen[start].createdAt) end++;
    if (end - start > 1) {
      const key = (row: Expected) => JSON.stringify(row);
      const shown = seen.slice(start, end).map((e) => key({ kind: e.kind, cents: cents(e.amount), party: e.party?.username ?? null }));
      const run = out.slice(start, end);
      // Same rows in the run, whatever their order: then take the history's order.
      if ([...run.map(key)].sort().join() === [...shown].sort().join())
        out.splice(start, end - start, ...shown.map((k) => JSON.parse(k) as Expected));
    }
    start = end;
  }
  return out;
}

/** A run that moves money every way the history knows, each movement meeting what it needs. */
const EVERY_WAY: Op[] = [
  { t: 'receiveLink', u: 1 },
  { t: 'give', u: 0, to: 1, cents: 500 },
  { t: 'giveLink', u: 2, cents: 300, quantity: 2 },
  { t: 'accept', u: 0, from: 2 },
  { t: 'expire', u: 2 },
  { t: 'withdraw', u: 1, cents: 200 },
  { t: 'buy', u: 0, from: 1, item: 0 },
  { t: 'deposit', u: 2, cents: 1_000 },
];

describe('money history', () => {
  it('adds up to the balance after any sequence of movements, with the right kinds and running balances', async () => {
    const kindsSeen = new Map<MoneyHistoryKind, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 8, maxLength: 30 }), fc.integer({ min: 1, max: 6 }), async (ops, pageSize) => {
        const people = await buildUsers(server, PEOPLE, 'hist');
        for (const person of people) await readyPayoutsFor(server, person);
        const items = await Promise.all(people.map(saveWishlist));
        const expected: Expected[][] = people.map(() => []);
        const link: ({ id: string; give: boolean; cents: number; held: number } | null)[] = people.map(() => null);
        const add = (u: number, row: Expected) => expected[u].push(row);
        for (const [u, person] of people.entries()) {
          await depositFor(server, person, 150);
          add(u, { kind: 'deposit', cents: 15_000, party: null });
        }
        for (const o of ops) {
          const me = people[o.u];
          if (o.t === 'deposit') {
            await depositFor(server, me, Number(dollars(o.cents)));
            add(o.u, { kind: 'deposit', cents: o.cents, party: null });
          } else if (o.t === 'withdraw') {
            const res = await server.request('POST', '/api/billing-settings-withdrawal', {
              token: me.token,
              body: { balance: dollars(o.cents) },
            });
            if (res.status === 200) add(o.u, { kind: 'withdrawal', cents: -o.cents, party: null });
          } else if (o.t === 'receiveLink' || o.t === 'giveLink') {
            const give = o.t === 'giveLink';
            const amount = give ? o.cents : 10_000;
            const quantity = give ? o.quantity : 3;
            const res = await createLink(me, {
              giveorreceive: give ? 'give' : 'receive',
              type: 'currency',
              amount: dollars(amount),
              initialQuantity: quantity,
            });
            if (res.status !== 201) continue;
            link[o.u] = { id: res.body.id, give, cents: amount, held: give ? amount * quantity : 0 };
            if (give) add(o.u, { kind: 'link_escrow', cents: -amount * quantity, party: null });
          } else if (o.t === 'give') {
            const target = link[o.to];
            if (!target || target.give || o.to === o.u) continue;
            const res = await giveTo(me, target.id, o.cents);
            if (res.status !== 201) continue;
            add(o.u, { kind: 'gift_given', cents: -o.cents, party: people[o.to].user.username });
            add(o.to, { kind: 'gift_received', cents: o.cents, party: null });
          } else if (o.t === 'accept') {
            const target = link[o.from];
            if (!target?.give || o.from === o.u) continue;
            const res = await accept(me, people[o.from]);
            if (res.status !== 200) continue;
            target.held -= target.cents;
            add(o.u, { kind: 'gift_received', cents: target.cents, party: people[o.from].user.username });
          } else if (o.t === 'expire') {
            const mine = link[o.u];
            if (!mine) continue;
            await server.deps.db.transaction((em) =>
              em.update(LinkEntity, { id: mine.id, status: 'active' }, { expiresAt: new Date(Date.now() - 1000) }),
            );
            await sweepExpiredLinks(server.deps.db);
            if (mine.give && mine.held > 0) add(o.u, { kind: 'escrow_returned', cents: mine.held, party: null });
            link[o.u] = null;
          } else if (o.t === 'buy') {
            if (o.from === o.u) continue;
            const res = await buy(me, people[o.from], items[o.from][o.item]);
            if (res.status !== 200) continue;
            add(o.u, { kind: 'purchase', cents: -products[o.item].cents, party: people[o.from].user.username });
          }
        }

        for (const [i, person] of people.entries()) {
          const entries = await historyOf(person, { limit: String(pageSize) });
          for (const e of entries) kindsSeen.set(e.kind, (kindsSeen.get(e.kind) ?? 0) + 1);
          await expectAddsUp(person, entries);
          const oldestFirst = [...entries].reverse();
          const seen = oldestFirst.map((e) => ({ kind: e.kind, cents: cents(e.amount), party: e.party?.username ?? null }));
          expect(seen).toEqual(sameInstantsAsSeen(expected[i], oldestFirst));
          for (const e of entries) expect(e.anonymous).toBe(e.kind === 'gift_received' && e.party === null);
          // No row carries anyone's id, the user's own included.
          const text = JSON.stringify(entries);
          for (const p of people) expect(text).not.toContain(p.user._id);
          // A filtered history is the same rows, kept in order.
          for (const kind of new Set(entries.map((e) => e.kind)))
            expect(await historyOf(person, { kind, limit: String(pageSize) })).toEqual(entries.filter((e) => e.kind === kind));
        }
        const inv = await ledgerInvariants(server.deps.db);
        expect(inv.mismatchedBalances).toEqual([]);
      }),
      // Beside the random runs, one that moves money every way, so the check below never rests on
      // luck: a give succeeds only to someone else's open request, and 20 random runs make about 6
      // (CI once saw none).
      { numRuns: 20, examples: [[EVERY_WAY, 2]] },
    );
    // The runs between them moved money every way the generator knows.
    for (const kind of ['deposit', 'withdrawal', 'gift_given', 'gift_received', 'link_escrow', 'escrow_returned', 'purchase'] as const)
      expect(kindsSeen.get(kind) ?? 0, `${kind} in ${JSON.stringify(Object.fromEntries(kindsSeen))}`).toBeGreaterThan(0);
  }, 240_000);

  it('orders movements of one instant money in first, and pages through them each once', async () => {
    const [ann] = await buildUsers(server, 1, 'htie');
    await depositFor(server, ann, 5);
    // Three movements stamped with one instant: +$10, -$12, +$1 (the withdrawal needed the $10 first).
    const instant = new Date(Date.now() + 1000);
    await server.deps.db.transaction(async (em) => {
      const account = userAccount(ann.user._id);
      const moved = [
        await transfer(em, { from: SYSTEM_PAYMENTS, to: account, amountCents: 1_000, kind: 'deposit' }),
        await transfer(em, { from: account, to: SYSTEM_PAYMENTS, amountCents: 1_200, kind: 'withdrawal' }),
        await transfer(em, { from: SYSTEM_PAYMENTS, to: account, amountCents: 100, kind: 'deposit' }),
      ].map((m) => m.transferId);
      await em.update(LedgerEntryEntity, { transferId: In(moved) }, { createdAt: instant });
    });
    const entries = await historyOf(ann, { limit: '1' });
    await expectAddsUp(ann, entries);
    expect(new Set(entries.map((e) => e.id)).size).toBe(4);
    // Newest first: the withdrawal last of its instant, after both deposits; never below zero.
    expect(entries[0]).toMatchObject({ kind: 'withdrawal', amount: -12, balance: 4 });
    expect(entries[1].balance).toBe(16);
    expect(
      entries
        .slice(1, 3)
        .map((e) => e.amount)
        .sort(),
    ).toEqual([1, 10]);
    expect(entries[3]).toMatchObject({ kind: 'deposit', amount: 5, balance: 5 });
    for (const e of entries) expect(e.balance).toBeGreaterThanOrEqual(0);
  });

  it('never names the giver of an anonymous gift, in JSON or CSV', async () => {
    const [giver, recipient] = await buildUsers(server, 2, 'hanon');
    await depositFor(server, giver, 500);
    const receive = await createLink(recipient, { giveorreceive: 'receive', type: 'currency', amount: '5', initialQuantity: 2 });
    expect(receive.status).toBe(201);
    expect((await giveTo(giver, receive.body.id, 500)).status).toBe(201);
    const [itemId] = await saveWishlist(recipient);
    expect((await buy(giver, recipient, itemId)).status).toBe(200);

    const entries = await historyOf(recipient);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'gift_received', amount: 5, balance: 5, party: null, anonymous: true });
    const { text } = await csvOf(recipient);
    expect(text).toContain('"Anonymous"');
    const secrets = [giver.user._id, giver.user.username, giver.user.email, giver.user.displayName].map((s) => s.toLowerCase());
    for (const seen of [JSON.stringify(entries), text]) for (const secret of secrets) expect(seen.toLowerCase()).not.toContain(secret);

    // The giver sees whom they gave to, both ways.
    const given = await historyOf(giver);
    expect(given.map((e) => [e.kind, e.party?.username])).toEqual([
      ['purchase', recipient.user.username],
      ['gift_given', recipient.user.username],
      ['deposit', undefined],
    ]);
  });

  it('names the maker of a give link the user accepted', async () => {
    const [maker, taker] = await buildUsers(server, 2, 'hname');
    await depositFor(server, maker, 20);
    expect((await createLink(maker, { giveorreceive: 'give', type: 'currency', amount: '7.25', initialQuantity: 1 })).status).toBe(201);
    expect((await accept(taker, maker)).status).toBe(200);
    const [entry] = await historyOf(taker);
    expect(entry).toMatchObject({
      kind: 'gift_received',
      amount: 7.25,
      balance: 7.25,
      anonymous: false,
      party: { username: maker.user.username, displayName: maker.user.displayName },
    });
  });

  it('downloads the same rows as CSV, as an attachment, with the same filter', async () => {
    const [ann, bob] = await buildUsers(server, 2, 'hcsv');
    await readyPayoutsFor(server, ann);
    await depositFor(server, ann, 100);
    await server.request('POST', '/api/billing-settings-withdrawal', { token: ann.token, body: { balance: 12.5 } });
    const receive = await createLink(bob, { giveorreceive: 'receive', type: 'currency', amount: '5', initialQuantity: 1 });
    expect((await giveTo(ann, receive.body.id, 300)).status).toBe(201);

    const entries = await historyOf(ann);
    const { res, text } = await csvOf(ann);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[^"]+\.csv"$/);
    expect(text).toBe([CSV_HEADER.join(','), ...entries.map(csvRow), ''].join('\r\n'));
    expect(text.split('\r\n')[1]).toMatch(/^"[^"]+","Gift given",-3\.00,84\.50,"/);

    const filtered = await csvOf(ann, '?kind=withdrawal');
    expect(filtered.text.trim().split('\r\n')).toEqual([CSV_HEADER.join(','), csvRow(entries.find((e) => e.kind === 'withdrawal')!)]);
  });

  it("is the signed-in user's own: a session is needed and nobody else's can be asked for", async () => {
    const [ann, bob] = await buildUsers(server, 2, 'hown');
    await depositFor(server, bob, 40);
    expect((await server.request('GET', HISTORY)).status).toBe(401);
    expect((await server.request('GET', `${HISTORY}.csv`)).status).toBe(401);
    expect((await server.request('GET', `${HISTORY}?userId=${bob.user._id}`, { token: ann.token })).status).toBe(403);
    expect((await server.request('GET', `${HISTORY}.csv?userId=${bob.user._id}`, { token: ann.token })).status).toBe(403);
    // Bob's entry ids as a cursor find nothing of his.
    const [bobEntry] = await historyOf(bob);
    const res = await server.request<MoneyHistoryPage>('GET', `${HISTORY}?before=${bobEntry.id}`, { token: ann.token });
    expect(res.body).toEqual({ entries: [], nextCursor: null });
    expect(await historyOf(ann)).toEqual([]);
    for (const bad of ['?kind=bogus', '?limit=0', '?limit=101', '?limit=x'])
      expect((await server.request('GET', `${HISTORY}${bad}`, { token: ann.token })).status).toBe(400);
  });
});
