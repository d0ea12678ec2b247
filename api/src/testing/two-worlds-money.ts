/**
 * The two-world property's actions about money on hold: a gift returned by R, A's card payment
 * disputed (the sandbox's disputed test card, through the webhook's path), a card payment of G's by
 * name disputed, and the hold ending (the servers' clocks moved past FUNDS_HOLD_HOURS). R's
 * observations must not differ by who A is.
 */
import { disputeSandboxCharges } from '../commands/sandbox-disputes.js';
import { SANDBOX_DISPUTE_AFTER_MS } from '../payments/sandbox.js';
import { HOUR, action } from './two-worlds-actions.js';
import { callAs, inactive, type World } from './two-worlds.js';
import { card, cardDeposit, giveInOneStep, receiveLink } from './two-worlds-cards.js';
import type { TestServer } from './server.js';

/** How far each server's clock has been moved (the servers live for the whole file). */
const moved = new WeakMap<TestServer, number>();
const clockOf = (server: TestServer) => new Date(Date.now() + (moved.get(server) ?? 0));

function moveClock(server: TestServer, ms: number): void {
  moved.set(server, (moved.get(server) ?? 0) + ms);
  server.deps.clock = () => clockOf(server);
}

/** The gift messages in R's anonymous thread, newest last. */
async function anonymousGifts(w: World): Promise<string[]> {
  if (!w.thread.anonymous) return [];
  const page = await callAs(w, 'R', 'GET', `/messages/${w.thread.anonymous}?page=1`);
  const messages = (page.body as { messages?: { _id: string; messageType: string; mine: boolean }[] }).messages ?? [];
  return messages.filter((m) => m.messageType === 'gift' && !m.mine).map((m) => m._id);
}

export const holds = [
  action(
    "R returns A's latest gift",
    false,
    (w) => w.thread.anonymous !== null,
    async (w) => {
      const gift = (await anonymousGifts(w)).at(-1);
      if (!gift) return 'no gift';
      const reply = await callAs(w, 'R', 'POST', `/conversations/${w.thread.anonymous}/gifts/${gift}/return`);
      return `return ${reply.status}`;
    },
  ),
  action(
    "A gives $2 to R's receive link with the card that is disputed, and the bank disputes it",
    true,
    (w) => w.recipientLink === null,
    async (w) => {
      // In one step, as the page pays an anonymous gift: a card deposit by name would be a named act.
      const gave = await giveInOneStep(w, 2, '4000 0000 0000 0259');
      const disputed = await disputeSandboxCharges(w.server.deps, new Date(clockOf(w.server).getTime() + SANDBOX_DISPUTE_AFTER_MS + 1000));
      return `${gave}, disputed ${disputed}`;
    },
  ),
  // G pays by name with the card that is disputed, S with one that pays: both then have money A could spend.
  ...(
    [
      ['G', 'the card that is disputed', '4000 0000 0000 0259'],
      ['S', 'a card', '4242 4242 4242 4242'],
    ] as const
  ).map(([who, what, number]) =>
    action(
      `${who} adds $3 by name with ${what}`,
      false,
      (w) => !inactive(w, who),
      async (w) => `deposit ${(await cardDeposit(w, who, { amount: 3, card: card(number) })).status}`,
    ),
  ),
  action(
    'the bank disputes the card payments that are due',
    false,
    () => true,
    async (w) =>
      `disputed ${await disputeSandboxCharges(w.server.deps, new Date(clockOf(w.server).getTime() + SANDBOX_DISPUTE_AFTER_MS + 1000))}`,
  ),
  action(
    'the hold ends (the clock moves past FUNDS_HOLD_HOURS)',
    false,
    () => true,
    async (w) => {
      moveClock(w.server, w.server.deps.config.fundsHoldHours * HOUR + 1000);
      return 'clock moved';
    },
  ),
];

/**
 * Only in fixed sequences: A gives from what the balance holds already, which is the same person's
 * by name too (one balance), so in a random sequence named spending alone could refuse it.
 */
export const giveFromBalance = action(
  "A gives $2 to R's receive link from the balance",
  true,
  (w) => w.recipientLink === null,
  async (w) => {
    const linkId = await receiveLink(w, 2);
    if (typeof linkId === 'number') return `link ${linkId}`;
    const give = await callAs(w, 'A', 'POST', '/statuses/api/gives', { postId: linkId, amount: 2 });
    if (give.status === 201) w.thread.anonymous = (give.body as { conversationId: string }).conversationId;
    else w.recipientLink = linkId;
    return `give ${give.status}`;
  },
);
