import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkEntity } from './entity.js';
import { sweepExpiredLinks } from './expiry.js';
import { balanceOf, escrowAccount } from '../money/ledger.js';
import { buildUsers, readyPayoutsFor, startTestServer, type TestServer, type TestUser } from '../testing/server.js';
import { expectLedgerSound } from '../testing/ledger.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const who = fc.integer({ min: 0, max: 3 });
const dollars = fc.integer({ min: 50, max: 5000 }).map((c) => c / 100);

type Step =
  | { op: 'deposit'; user: number; amount: number }
  | { op: 'withdraw'; user: number; amount: number }
  | { op: 'giveLink'; user: number; amount: number; quantity: number }
  | { op: 'receiveLink'; user: number; amount: number }
  | { op: 'accept'; user: number; creator: number }
  | { op: 'give'; user: number; creator: number; amount: number }
  | { op: 'expire'; user: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('deposit' as const), user: who, amount: dollars }),
  fc.record({ op: fc.constant('withdraw' as const), user: who, amount: dollars }),
  fc.record({ op: fc.constant('giveLink' as const), user: who, amount: dollars, quantity: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ op: fc.constant('receiveLink' as const), user: who, amount: dollars }),
  fc.record({ op: fc.constant('accept' as const), user: who, creator: who }),
  fc.record({ op: fc.constant('give' as const), user: who, creator: who, amount: dollars }),
  fc.record({ op: fc.constant('expire' as const), user: who }),
);

async function run(users: TestUser[], s: Step): Promise<void> {
  const u = users[s.user];
  switch (s.op) {
    case 'deposit':
      await server.request('POST', '/api/billing-settings-deposit', { token: u.token, body: { balance: s.amount } });
      return;
    case 'withdraw':
      await server.request('POST', '/api/billing-settings-withdrawal', { token: u.token, body: { balance: s.amount } });
      return;
    case 'giveLink':
      await server.request('POST', '/links/create', {
        token: u.token,
        body: { details: { giveorreceive: 'give', type: 'currency', amount: s.amount, initialQuantity: s.quantity } },
      });
      return;
    case 'receiveLink':
      await server.request('POST', '/links/create', {
        token: u.token,
        body: { details: { giveorreceive: 'receive', type: 'currency', amount: s.amount, quantity: 2 } },
      });
      return;
    case 'accept':
      await server.request('PUT', '/api/accept-link', { token: u.token, body: { linkCreatorUsername: users[s.creator].user.username } });
      return;
    case 'give': {
      const link = await server.deps.db.manager.findOne(LinkEntity, {
        where: { creatorId: users[s.creator].user._id, status: 'active' },
      });
      if (link) await server.request('POST', '/statuses/api/gives', { token: u.token, body: { postId: link.id, amount: s.amount } });
      return;
    }
    case 'expire':
      await server.deps.db.transaction((em) =>
        em.update(LinkEntity, { creatorId: u.user._id, status: 'active' }, { expiresAt: new Date(Date.now() - 1) }),
      );
      await sweepExpiredLinks(server.deps.db);
      return;
  }
}

async function checkInvariants(): Promise<void> {
  await expectLedgerSound(server.deps.db);
  const open = await server.deps.db.manager.findBy(LinkEntity, { status: 'active', giveOrReceive: 'give' });
  for (const link of open) {
    expect(await balanceOf(server.deps.db.manager, escrowAccount(link.id))).toBe(link.amountCents * link.remainingQuantity);
  }
}

// Runs that would start past this are skipped: Prism's proxy and a busy machine make each much slower.
const TIME_LIMIT_MS = Number(process.env.PROPERTY_TIME_LIMIT_MS ?? 120_000);

describe('the ledger under random sequences of money moves', () => {
  it(
    'keeps its invariants after every step',
    async () => {
      const started = Date.now();
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
          if (Date.now() - started > TIME_LIMIT_MS) return;
          const users = await buildUsers(server, 4, 'prop');
          for (const person of users) await readyPayoutsFor(server, person);
          for (const s of steps) {
            await run(users, s);
            await checkInvariants();
          }
        }),
        { numRuns: 25 },
      );
    },
    TIME_LIMIT_MS + 60_000,
  );
});
