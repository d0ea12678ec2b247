/**
 * The two-world property's actions about money on hold: a gift returned by R, A's card payment
 * disputed (the sandbox's disputed test card, through the webhook's path), and the hold ending (the
 * servers' clocks moved past FUNDS_HOLD_HOURS). R's observations must not differ by who A is.
 */
import { disputeSandboxCharges } from '../commands/sandbox-disputes.js';
import { SANDBOX_DISPUTE_AFTER_MS } from '../payments/sandbox.js';
import { HOUR, action } from './two-worlds-actions.js';
import { callAs, type World } from './two-worlds.js';
import { giveInOneStep } from './two-worlds-cards.js';
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
