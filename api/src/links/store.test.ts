import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterUse, isGroupGift, type LinkCounts } from '../../contract/link-use.js';
import { appendedRowId } from '../db/ids.js';
import { buildUsers, startTestServer, type TestServer } from '../testing/server.js';
import { LinkEntity, type Link } from './entity.js';
import { recordUse } from './store.js';

let server: TestServer;
// A creator per link: each user has one active link at a time.
const creators: string[] = [];
beforeAll(async () => {
  server = await startTestServer();
  for (const { user } of await buildUsers(server, 20, 'usesql')) creators.push(user._id);
});
afterAll(() => server?.close());

const group = { type: 'currency', giveOrReceive: 'receive' } as const;
const giveCurrency = { type: 'currency', giveOrReceive: 'give' } as const;
const receiveItem = { type: 'item', giveOrReceive: 'receive' } as const;
const giveItem = { type: 'item', giveOrReceive: 'give' } as const;
const fresh = { status: 'active', raisedCents: 0, totalCostCents: 2000, gifts: 0 } as const;

// Each case: a link's counts before one use of `amount` cents; the SQL and afterUse must agree on what follows.
const cases: [string, LinkCounts, number][] = [
  ['a first gift to a group gift', { ...group, ...fresh, remainingQuantity: 1 }, 500],
  ['a gift that reaches the goal', { ...group, ...fresh, raisedCents: 1500, gifts: 3, remainingQuantity: 1 }, 500],
  ['a gift of the whole goal', { ...group, ...fresh, remainingQuantity: 1 }, 2000],
  ['a gift under $1 of exactly what is left', { ...group, ...fresh, raisedCents: 1950, gifts: 2, remainingQuantity: 1 }, 50],
  ['a gift over what is left', { ...group, ...fresh, raisedCents: 1500, gifts: 3, remainingQuantity: 1 }, 600],
  ['a gift to a filled group gift', { ...group, ...fresh, status: 'used', raisedCents: 2000, gifts: 4, remainingQuantity: 0 }, 100],
  ['a gift to an expired group gift', { ...group, ...fresh, status: 'expired', remainingQuantity: 1 }, 100],
  ['a gift to an open group gift with no quantity', { ...group, ...fresh, raisedCents: 100, gifts: 1, remainingQuantity: 0 }, 100],
  ['an accept of a give link with uses left', { ...giveCurrency, ...fresh, remainingQuantity: 3 }, 500],
  ['the last accept of a give link', { ...giveCurrency, ...fresh, gifts: 2, remainingQuantity: 1 }, 500],
  ['an accept of an open give link with no uses left', { ...giveCurrency, ...fresh, remainingQuantity: 0 }, 500],
  ['an accept of a used give link', { ...giveCurrency, ...fresh, status: 'used', remainingQuantity: 2 }, 500],
  ['a give of an item', { ...receiveItem, ...fresh, remainingQuantity: 1 }, 2000],
  ['an accept of a give item link with two left', { ...giveItem, ...fresh, remainingQuantity: 2 }, 2000],
];

async function linkWith(counts: LinkCounts): Promise<Link> {
  const now = Date.now();
  const link: Link = {
    ...counts,
    id: appendedRowId(),
    creatorId: creators.pop() ?? '',
    amountCents: counts.totalCostCents,
    initialQuantity: Math.max(1, counts.remainingQuantity),
    title: null,
    photo: null,
    itemId: counts.type === 'item' ? 'v1|1|0' : null,
    views: 0,
    createdAt: new Date(now),
    expiresAt: new Date(now + 3_600_000),
    closedAt: null,
  };
  await server.deps.db.transaction((em) => em.insert(LinkEntity, link));
  return link;
}

describe("a use's conditional UPDATE (TAKE_USE, ADD_TO_GROUP_GIFT) and the contract's afterUse", () => {
  it.each(cases)('agree on %s', async (_name, counts, amountCents) => {
    const link = await linkWith(counts);
    const use = {
      id: appendedRowId(),
      link,
      responderId: appendedRowId(),
      kind: 'give' as const,
      amountCents,
      transferId: appendedRowId(),
    };
    const taken = await server.deps.db.transaction((em) => recordUse(em, { ...use, at: new Date() }, isGroupGift(link)));
    const row = await server.deps.db.manager.findOneByOrFail(LinkEntity, { id: link.id });
    const stored = { status: row.status, remainingQuantity: row.remainingQuantity, raisedCents: row.raisedCents, gifts: row.gifts };
    const expected = afterUse(counts, amountCents);
    expect(taken === 1, 'whether the row was taken').toBe(expected !== undefined);
    expect(stored).toEqual(
      expected ?? {
        status: counts.status,
        remainingQuantity: counts.remainingQuantity,
        raisedCents: counts.raisedCents,
        gifts: counts.gifts,
      },
    );
    // The use that closes the link stamps when it closed.
    expect(row.closedAt !== null).toBe(expected?.status === 'used');
  });
});
