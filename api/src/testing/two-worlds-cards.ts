/**
 * The two-world property's actions about cards and money out: payouts set up by name (a good or a
 * failing bank account), withdrawals by name, a named card declined until card payments lock, and
 * A's one-step gift paid by card (authorised, then given with the authorisation). R's observations
 * must not differ by who A is.
 */
import crypto from 'node:crypto';
import { GIVERS, action } from './two-worlds-actions.js';
import { callAs, inactive, personOf, type Actor, type World } from './two-worlds.js';
import { TEST_BANK } from './server.js';

const FAILING_BANK = { routingNumber: '110000000', accountNumber: '000111111116' };
export const card = (number: string) => ({ number, expiry: '12/40', cvc: '123' });
const DECLINED = card('4000 0000 0000 0002');
const PAYS = card('4242 4242 4242 4242');

/** A card payment by `actor`, with a fresh Idempotency-Key (the sandbox's form, as the page sends it). */
export function cardDeposit(w: World, actor: Actor, body: Record<string, unknown>) {
  return w.server.request<{ error?: string; authorisation?: string }>('POST', '/api/wallet/card-deposit', {
    token: personOf(w, actor).token,
    body,
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });
}

/** R's new $`dollars` receive link, or the refusal's status. */
export async function receiveLink(w: World, dollars: number): Promise<string | number> {
  const link = await callAs(w, 'R', 'POST', '/links/create', {
    details: { giveorreceive: 'receive', type: 'currency', amount: dollars, quantity: 1 },
  });
  return link.status === 201 ? (link.body as { id: string }).id : link.status;
}

/** A gives `dollars` to a new receive link of R's in one step: the card authorised for the gift, then the give lands it. */
export async function giveInOneStep(w: World, dollars: number, number: string): Promise<string> {
  const linkId = await receiveLink(w, dollars);
  if (typeof linkId === 'number') return `link ${linkId}`;
  const held = await cardDeposit(w, 'A', { amount: dollars, card: card(number), for: { kind: 'give', postId: linkId, amount: dollars } });
  const give =
    held.status === 200
      ? await callAs(w, 'A', 'POST', '/statuses/api/gives', { postId: linkId, amount: dollars, authorisation: held.body.authorisation })
      : null;
  if (give?.status === 201) w.thread.anonymous = (give.body as { conversationId: string }).conversationId;
  else w.recipientLink = linkId;
  return `card ${held.status}${held.body.error ? ` ${held.body.error}` : ''}, give ${give?.status ?? 'not tried'}`;
}

export const cards = [
  ...GIVERS.flatMap((g) => [
    ...[
      ['good', TEST_BANK],
      ['failing', FAILING_BANK],
    ].map(([label, bank]) =>
      action(
        `${g} sets up payouts (the ${String(label)} bank account)`,
        false,
        (w) => !inactive(w, g),
        async (w) => `payouts ${(await callAs(w, g, 'POST', '/api/payouts/sandbox/complete', bank)).status}`,
      ),
    ),
    action(
      `${g} withdraws what is available`,
      false,
      (w) => !inactive(w, g),
      async (w) => {
        const balance = (await callAs(w, g, 'GET', '/api/billing-settings-balance')).body as { available: number };
        // With nothing available a dollar is asked for anyway, so the refusals are exercised too.
        const amount = balance.available > 0 ? balance.available : 1;
        const reply = await callAs(w, g, 'POST', '/api/billing-settings-withdrawal', { balance: amount });
        return `withdraw $${amount}: ${reply.status}${reply.status === 200 ? '' : ` ${(reply.body as { error?: string }).error}`}`;
      },
    ),
    action(
      `${g}'s card is declined until the lock`,
      false,
      (w) => !inactive(w, g),
      async (w) => {
        const seen: string[] = [];
        for (let i = 0; i < w.server.deps.config.cardSafety.declinesBeforeLock; i++)
          seen.push((await cardDeposit(w, g, { amount: 1, card: DECLINED })).body.error ?? 'paid');
        seen.push((await cardDeposit(w, g, { amount: 1, card: PAYS })).body.error ?? 'paid');
        return seen.join(', ');
      },
    ),
  ]),
  action(
    "A gives $3 to R's receive link with a card in one step",
    true,
    (w) => w.recipientLink === null,
    (w) => giveInOneStep(w, 3, PAYS.number),
  ),
];
