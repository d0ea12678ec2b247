import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogProductEntity } from '../catalog/entity.js';
import { disputeSandboxCharges } from '../commands/sandbox-disputes.js';
import { SANDBOX_DISPUTE_AFTER_MS } from '../payments/sandbox.js';
import { buildUsers, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { expectLedgerSound } from '../testing/ledger.js';

/**
 * The hold, as a property: over random deposits, gives, purchases, group gifts, give links,
 * refunds, disputed card payments taken back, withdrawals and clock moves, what a person withdraws never exceeds what reached them
 * (by card or as a gift) at least a hold ago, plus what came back to them; the ledger holds after
 * each step.
 */
const HOLD_HOURS = 1;
const HOLD_MS = HOLD_HOURS * 3_600_000;
const RUNS = Number(process.env.HOLDS_RUNS ?? 30);
// Runs that would start past this are skipped: Prism's proxy and a busy machine make each much slower.
const TIME_LIMIT_MS = Number(process.env.PROPERTY_TIME_LIMIT_MS ?? 120_000);
const STEPS = Number(process.env.HOLDS_STEPS ?? 40);

let server: TestServer;
let offset = 0;
const now = () => new Date(Date.now() + offset);
let items: { itemId: string; dollars: number }[] = [];
/** What the runs did, for the log line: a property that never withdraws proves nothing. */
const tally: Record<string, number> = {};
const count = (what: string) => (tally[what] = (tally[what] ?? 0) + 1);

beforeAll(async () => {
  server = await startTestServer({ FUNDS_HOLD_HOURS: String(HOLD_HOURS) });
  server.deps.clock = now;
  const products = await server.deps.db.manager.find(CatalogProductEntity, { order: { position: 'ASC' }, take: 200 });
  items = products
    .map((p) => ({ itemId: p.itemId, cents: p.priceCents + p.shippingCents }))
    .filter((p) => p.cents >= 100 && p.cents <= 3000)
    .slice(0, 5)
    .map((p) => ({ itemId: p.itemId, dollars: p.cents / 100 }));
});
afterAll(() => server?.close());

const who = fc.integer({ min: 0, max: 3 });
type Step =
  | { op: 'deposit'; user: number; amount: number }
  | { op: 'withdraw'; user: number; amount: number }
  | { op: 'give'; user: number; to: number; amount: number }
  | { op: 'group'; user: number; to: number; other: number; amount: number }
  | { op: 'giveLink'; user: number; to: number; amount: number }
  | { op: 'cancelLink'; user: number }
  | { op: 'purchase'; user: number; to: number; item: number }
  | { op: 'clock'; minutes: number }
  | { op: 'disputedDeposit'; user: number; amount: number }
  | { op: 'disputes' };

const small = fc.integer({ min: 1, max: 8 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('deposit' as const), user: who, amount: fc.integer({ min: 10, max: 60 }) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('withdraw' as const), user: who, amount: small }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('give' as const), user: who, to: who, amount: small }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('group' as const), user: who, to: who, other: who, amount: small }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('giveLink' as const), user: who, to: who, amount: small }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cancelLink' as const), user: who }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('purchase' as const), user: who, to: who, item: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('clock' as const), minutes: fc.integer({ min: 10, max: 90 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('disputedDeposit' as const), user: who, amount: fc.integer({ min: 5, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('disputes' as const) }) },
);

/** What the oracle knows of one person: money in with the time it arrived, refunds back, withdrawn. */
interface Person {
  inflows: { cents: number; at: number }[];
  returnedCents: number;
  withdrawnCents: number;
}

class World {
  readonly people: Person[];
  /** Each person's give links, which a cancel refunds. */
  readonly giveLinks: string[][];
  constructor(readonly users: TestUser[]) {
    this.people = users.map(() => ({ inflows: [], returnedCents: 0, withdrawnCents: 0 }));
    this.giveLinks = users.map(() => []);
  }
  call(u: number, method: string, path: string, body?: unknown) {
    return server.request(method, path, { token: this.users[u].token, body });
  }
  received(u: number, cents: number) {
    this.people[u].inflows.push({ cents, at: now().getTime() });
  }
  /** What the person may have withdrawn by now: what arrived at least a hold ago, and what came back. */
  bound(u: number): number {
    const p = this.people[u];
    const t = now().getTime();
    return p.returnedCents + p.inflows.filter((i) => i.at + HOLD_MS <= t).reduce((s, i) => s + i.cents, 0);
  }
}

async function receiveLink(w: World, owner: number, amount: number, quantity: number): Promise<string | null> {
  const link = await w.call(owner, 'POST', '/links/create', { details: { giveorreceive: 'receive', type: 'currency', amount, quantity } });
  return link.status === 201 ? (link.body as { id: string }).id : null;
}

async function run(w: World, s: Step): Promise<void> {
  switch (s.op) {
    case 'deposit': {
      const res = await w.call(s.user, 'POST', '/api/billing-settings-deposit', { balance: s.amount });
      if (res.status === 200) w.received(s.user, s.amount * 100);
      return;
    }
    case 'disputedDeposit': {
      // The sandbox's disputed test card: it pays now, and the bank disputes it at the next 'disputes'.
      const card = { number: '4000 0000 0000 0259', expiry: '12/40', cvc: '123' };
      const res = await server.request('POST', '/api/wallet/card-deposit', {
        token: w.users[s.user].token,
        body: { amount: s.amount, card },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      });
      if (res.status === 200) w.received(s.user, s.amount * 100);
      return;
    }
    case 'disputes':
      count(`disputes ${await disputeSandboxCharges(server.deps, new Date(now().getTime() + SANDBOX_DISPUTE_AFTER_MS + 1000))}`);
      return;
    case 'withdraw': {
      const res = await w.call(s.user, 'POST', '/api/billing-settings-withdrawal', { balance: s.amount });
      if (res.status === 200) w.people[s.user].withdrawnCents += s.amount * 100;
      // Refused: not enough, not available yet, or owed after a dispute.
      else expect([400, 402]).toContain(res.status);
      count(`withdraw ${res.status === 400 ? (res.body as { error: string }).error : res.status}`);
      return;
    }
    case 'give': {
      if (s.user === s.to) return;
      const link = await receiveLink(w, s.to, s.amount, 1);
      if (!link) return;
      const res = await w.call(s.user, 'POST', '/statuses/api/gives', { postId: link, amount: s.amount });
      if (res.status === 201) w.received(s.to, s.amount * 100);
      count(`give ${res.status === 400 ? (res.body as { error: string }).error : res.status}`);
      return;
    }
    case 'group': {
      if (s.user === s.to || s.other === s.to || s.user === s.other) return;
      const link = await receiveLink(w, s.to, s.amount * 2, 2);
      if (!link) return;
      for (const giver of [s.user, s.other]) {
        const res = await w.call(giver, 'POST', '/statuses/api/gives', { postId: link, amount: s.amount });
        if (res.status === 201) w.received(s.to, s.amount * 100);
      }
      return;
    }
    case 'giveLink': {
      if (s.user === s.to) return;
      const link = await w.call(s.user, 'POST', '/links/create', {
        details: { giveorreceive: 'give', type: 'currency', amount: s.amount, initialQuantity: 2 },
      });
      if (link.status !== 201) return;
      w.giveLinks[s.user].push((link.body as { id: string }).id);
      const res = await w.call(s.to, 'PUT', '/api/accept-link', {
        linkCreatorUsername: w.users[s.user].user.username,
        linkResponderUsername: w.users[s.to].user.username,
      });
      if (res.status === 200) w.received(s.to, s.amount * 100);
      count(`accept ${res.status}`);
      return;
    }
    case 'cancelLink': {
      const open = w.giveLinks[s.user].pop();
      if (!open) return;
      const res = await w.call(s.user, 'DELETE', `/api/links/${open}`);
      if (res.status === 200) w.people[s.user].returnedCents += Math.round(((res.body as { refunded?: number }).refunded ?? 0) * 100);
      return;
    }
    case 'purchase': {
      const item = items[s.item % items.length];
      if (!item || s.user === s.to) return;
      const saved = await w.call(s.to, 'PUT', '/wishlists/update', {
        username: w.users[s.to].user.username,
        items: [{ itemId: item.itemId }],
      });
      if (saved.status !== 200) return;
      const bought = await w.call(s.user, 'POST', '/wishlists/purchase', {
        wishlistUsername: w.users[s.to].user.username,
        purchaserUserId: w.users[s.user].user._id,
        itemId: item.itemId,
        lastMessage: '',
      });
      count(`purchase ${bought.status === 400 ? (bought.body as { error: string }).error : bought.status}`);
      return;
    }
    case 'clock':
      offset += s.minutes * 60_000;
      return;
  }
}

describe('funds on hold under random sequences of money moves', () => {
  it(
    'lets no money out through a withdrawal before the hold of the payment or gift that brought it in has ended',
    async () => {
      const started = Date.now();
      let steps = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: STEPS / 2, maxLength: STEPS }), async (sequence) => {
          if (Date.now() - started > TIME_LIMIT_MS) return;
          const w = new World(await buildUsers(server, 4, 'hold'));
          for (const s of sequence) {
            await run(w, s);
            steps += 1;
            for (let u = 0; u < w.users.length; u++) expect(w.people[u].withdrawnCents).toBeLessThanOrEqual(w.bound(u));
            await expectLedgerSound(server.deps.db);
          }
        }),
        // HOLDS_SEED and HOLDS_PATH replay a failure as fast-check printed it.
        { numRuns: RUNS, seed: process.env.HOLDS_SEED ? Number(process.env.HOLDS_SEED) : undefined, path: process.env.HOLDS_PATH },
      );
      console.log(`holds property: ${RUNS} runs, ${steps} steps, ${((Date.now() - started) / 1000).toFixed(1)} s`, JSON.stringify(tally));
    },
    TIME_LIMIT_MS + 90_000,
  );
});
