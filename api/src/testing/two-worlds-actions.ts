/**
 * The two-world property's actions around gifts and threads (gifts, messages, blocks, reports) and
 * the pieces every action is made of; the rest of the alphabet is in two-worlds-alphabet.ts.
 * Named actions are done by G, S or R by name, identically in both worlds; anonymous ones by A (G
 * in world 1, S in world 2).
 */
import sharp from 'sharp';
import { CatalogProductEntity } from '../catalog/entity.js';
import { connectClient, settle } from '../realtime/testing.js';
import { pollPresence } from './two-worlds-observe.js';
import { callAs, inactive, personOf, type Actor, type BlockKey, type Thread, type World } from './two-worlds.js';

export interface Action {
  readonly name: string;
  /** Done by A. */
  readonly anonymous: boolean;
  /** Whether the action can be taken in this world (it is skipped in both unless it can in both). */
  possible(world: World): boolean;
  /** Takes the action; answers what the actor saw, in short (for the failure's history only). */
  run(world: World, step: number): Promise<string>;
  toString(): string;
}

export const GIVERS = ['G', 'S'] as const;
export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

export function action(name: string, anonymous: boolean, possible: Action['possible'], run: Action['run']): Action {
  return { name, anonymous, possible, run, toString: () => name };
}

const threadId = (world: World, thread: Thread): string | null => (thread === 'anonymous' ? world.thread.anonymous : world.thread[thread]);

/** Sandbox money in the actor's balance (a fixed small amount, so no gift is refused for money). */
async function deposit(world: World, actor: Actor, dollars: number): Promise<void> {
  const reply = await callAs(world, actor, 'POST', '/api/billing-settings-deposit', { balance: dollars });
  if (reply.status !== 200) throw new Error(`${world.name}: deposit for ${actor}: ${reply.status} ${JSON.stringify(reply.body)}`);
}

/** Catalogue items cheap enough to buy, cheapest first (the same catalogue in both servers). */
async function affordableItems(world: World): Promise<{ itemId: string; dollars: number }[]> {
  const all = await world.server.deps.db.manager.find(CatalogProductEntity, { order: { position: 'ASC' } });
  return all
    .map((p) => ({ itemId: p.itemId, cents: p.priceCents + p.shippingCents }))
    .filter((p) => p.cents >= 100)
    .sort((a, b) => a.cents - b.cents || a.itemId.localeCompare(b.itemId))
    .slice(0, 20)
    .map((p) => ({ itemId: p.itemId, dollars: p.cents / 100 }));
}

let picture: Promise<Buffer> | undefined;
export const tinyPicture = () =>
  (picture ??= sharp({ create: { width: 8, height: 8, channels: 3, background: '#a37' } })
    .png()
    .toBuffer());

export const ADDRESS = { name: 'Two Worlds', line1: '1 Equal Street', city: 'Sameton', postalCode: '97403', country: 'US' };

/** A's socket is open for the action (their app is in use), and R polls both suspects' presence meanwhile. */
export async function whileAppOpen(world: World, run: () => Promise<string>): Promise<string> {
  const socket = await connectClient(world.server, { token: personOf(world, 'A').token }).catch(() => null);
  try {
    const outcome = await run();
    // Long enough to settle when someone shows presence, so that choice is really exercised.
    if (world.showsPresence.size > 0) await settle(250);
    await pollPresence(world);
    return socket ? outcome : `${outcome} (A's app could not connect)`;
  } finally {
    socket?.close();
  }
}

/** A gift's note, the same words in both worlds; written by the identity the gift comes from. */
const noteAt = (step: number) => ({ note: `A note with the gift at step ${step}` });

export const gives = [1, 5].flatMap((dollars) =>
  [false, true].map((withNote) =>
    action(
      `A gives $${dollars} to R's receive link${withNote ? ' with a note' : ''}`,
      true,
      (w) => w.recipientLink === null,
      async (w, step) => {
        const link = await callAs(w, 'R', 'POST', '/links/create', {
          details: { giveorreceive: 'receive', type: 'currency', amount: dollars, quantity: 1 },
        });
        if (link.status !== 201) return `link ${link.status}`;
        const linkId = (link.body as { id: string }).id;
        await deposit(w, 'A', dollars);
        const give = await callAs(w, 'A', 'POST', '/statuses/api/gives', {
          postId: linkId,
          amount: dollars,
          ...(withNote ? noteAt(step) : {}),
        });
        if (give.status === 201) w.thread.anonymous = (give.body as { conversationId: string }).conversationId;
        else w.recipientLink = linkId;
        return `give ${give.status}`;
      },
    ),
  ),
);

export const buyFromWishlist = [false, true].map((withNote) =>
  action(
    `A buys from R's wishlist${withNote ? ' with a note' : ''}`,
    true,
    () => true,
    async (w, step) => {
      const items = await affordableItems(w);
      const item = items[w.wishlistGifts % items.length];
      w.wishlistGifts += 1;
      const saved = await callAs(w, 'R', 'PUT', '/wishlists/update', { username: w.people.R.username, items: [{ itemId: item.itemId }] });
      if (saved.status !== 200) return `wishlist ${saved.status}`;
      await deposit(w, 'A', item.dollars);
      const bought = await callAs(w, 'A', 'POST', '/wishlists/purchase', {
        wishlistUsername: w.people.R.username,
        purchaserUserId: personOf(w, 'A').id,
        itemId: item.itemId,
        lastMessage: '',
        ...(withNote ? noteAt(step) : {}),
      });
      if (bought.status === 200) w.thread.anonymous = (bought.body as { conversationId: string }).conversationId;
      return `purchase ${bought.status}`;
    },
  ),
);

export const acceptByName = GIVERS.flatMap((g) =>
  [false, true].map((withNote) =>
    action(
      `${g} accepts R's $1 give link by name${withNote ? ' with a note' : ''}`,
      false,
      (w) => !inactive(w, g) && w.recipientLink === null,
      async (w, step) => {
        await deposit(w, 'R', 1);
        const link = await callAs(w, 'R', 'POST', '/links/create', {
          details: { giveorreceive: 'give', type: 'currency', amount: 1, initialQuantity: 1 },
        });
        if (link.status !== 201) return `link ${link.status}`;
        const accepted = await callAs(w, g, 'PUT', '/api/accept-link', {
          linkCreatorUsername: w.people.R.username,
          linkResponderUsername: w.people[g].username,
          ...(withNote ? noteAt(step) : {}),
        });
        if (accepted.status !== 200) w.recipientLink = (link.body as { id: string }).id;
        return `accept ${accepted.status}`;
      },
    ),
  ),
);

const send = async (w: World, actor: Actor, thread: Thread, step: number) => {
  const reply = await callAs(w, actor, 'POST', '/messages/send', {
    conversationId: threadId(w, thread),
    text: `${actor} writes at step ${step}`,
  });
  return `send ${reply.status}`;
};

export const messages = [
  action(
    'A messages R in the anonymous thread',
    true,
    (w) => w.thread.anonymous !== null,
    (w, step) => send(w, 'A', 'anonymous', step),
  ),
  action(
    'R replies in the anonymous thread',
    false,
    (w) => w.thread.anonymous !== null,
    (w, step) => send(w, 'R', 'anonymous', step),
  ),
  ...GIVERS.flatMap((g) => [
    action(
      `${g} messages R by name`,
      false,
      (w) => !inactive(w, g),
      (w, step) => send(w, g, g, step),
    ),
    action(
      `R messages ${g} by name`,
      false,
      () => true,
      (w, step) => send(w, 'R', g, step),
    ),
  ]),
];

const BLOCK_KEYS: BlockKey[] = ['A@anonymous', 'R@anonymous', 'R@G', 'R@S', 'G@G', 'S@S'];
const blockerOf = (key: BlockKey) => key.split('@')[0] as Actor;
const threadOf = (key: BlockKey) => key.split('@')[1] as Thread;
const canAct = (w: World, actor: Actor) => actor === 'A' || actor === 'R' || !inactive(w, actor);
const describeBlock = (key: BlockKey) => {
  const thread = threadOf(key) === 'anonymous' ? 'the anonymous thread' : `the named thread with ${threadOf(key)}`;
  return `${blockerOf(key)} blocks the other side of ${thread}`;
};

export const blocks = BLOCK_KEYS.flatMap((key) => {
  const actor = blockerOf(key);
  const thread = threadOf(key);
  return [
    action(
      describeBlock(key),
      actor === 'A',
      (w) => w.blocks[key] === undefined && threadId(w, thread) !== null && canAct(w, actor),
      async (w) => {
        const reply = await callAs(w, actor, 'POST', '/api/blocks', { conversationId: threadId(w, thread) });
        const made = reply.body as { block?: { _id: string } };
        if ((reply.status === 200 || reply.status === 201) && made.block) w.blocks[key] = made.block._id;
        return `block ${reply.status}`;
      },
    ),
    action(
      describeBlock(key).replace(' blocks ', ' unblocks '),
      actor === 'A',
      (w) => w.blocks[key] !== undefined && canAct(w, actor),
      async (w) => {
        const reply = await callAs(w, actor, 'DELETE', `/api/blocks/${w.blocks[key]}`);
        delete w.blocks[key];
        return `unblock ${reply.status}`;
      },
    ),
  ];
});

export const reports = [
  ...(['anonymous', 'G', 'S'] as const).map((thread) =>
    action(
      `R reports the last message it got in ${thread === 'anonymous' ? 'the anonymous thread' : `the named thread with ${thread}`}`,
      false,
      (w) => threadId(w, thread) !== null,
      async (w) => {
        const id = threadId(w, thread);
        const page = await callAs(w, 'R', 'GET', `/messages/${id}?page=1`);
        const got = ((page.body as { messages?: { _id: string; mine: boolean }[] }).messages ?? []).filter((m) => !m.mine);
        const messageId = got.at(-1)?._id;
        const reply = await callAs(w, 'R', 'POST', '/api/reports', {
          conversationId: id,
          reason: 'harassment',
          ...(messageId ? { messageId } : {}),
        });
        return `report ${reply.status}`;
      },
    ),
  ),
  action(
    'A reports R in the anonymous thread',
    true,
    (w) => w.thread.anonymous !== null,
    async (w) => `report ${(await callAs(w, 'A', 'POST', '/api/reports', { conversationId: w.thread.anonymous, reason: 'spam' })).status}`,
  ),
];
